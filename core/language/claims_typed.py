"""English claims found without a phrasing: values known by their shape (an email address, a
phone number), by a role ("my manager, Linda", "my boyfriend Sam"), by the words that end
their names ("Oakfield Primary"); and, for a statement that fills no slot, one claim about
what it names, so that a later "I've given up running" can end it.

What marks each is data: a slot's `shape`, `roles` and `name_words` (`data/slots.json`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import chain, islice

import attrs

from bitemporal_core.language.claims_en import keys_of
from bitemporal_core.language.clauses_en import clauses
from bitemporal_core.language.cues_en import has_cue, hypothetical, negated, norm, passing
from bitemporal_core.language.extract import Token
from bitemporal_core.language.families import brand_slot, is_brand
from bitemporal_core.language.people import (
    is_name,
    mentioned,
    name_at,
    relation_words,
    subject_of,
)
from bitemporal_core.language.slots import (
    ABOUT,
    ClaimDraft,
    role_keyed,
    role_slots,
    shaped,
    slot_spec,
    slot_table,
    topic_table,
)
from bitemporal_core.language.topics import change_cue_en
from bitemporal_core.language.values_en import value_at

__all__ = ["about_claim", "typed_claims"]

_ABOUT_POS = frozenset({"NOUN", "PROPN"})
_BEFORE_NAMED = frozenset({"at", "to", "in", "into", "attends", "attend", "attending", "joined"})
_PERFECT = frozenset({"'s", "'ve", "has", "have", "ve", "s"})  # "Carol's got", "I've joined"
# Drafts read per statement: each costs a pass over the statement, so an unbounded number
# made one long sentence of dates quadratic (issue 20); no chat statement holds more.
MAX_TYPED = 12


def typed_claims(tokens: Sequence[Token], found: Sequence[ClaimDraft]) -> tuple[ClaimDraft, ...]:
    """The shaped, role and named-kind claims of a statement, for the slots its phrasings
    (`found`) did not fill."""
    slots = {c.slot for c in found}
    out: list[ClaimDraft] = []
    drafts = chain(
        _shaped(tokens),
        _roles(tokens),
        _named(tokens),
        _acquired(tokens),
        _titled(tokens),
        _occupied(tokens),
    )
    for draft in islice(drafts, MAX_TYPED):
        key = (draft.subject_kind, draft.subject, draft.slot)
        if draft.slot not in slots and all((c.subject_kind, c.subject, c.slot) != key for c in out):
            out.append(draft)
    return tuple(out)


def _told_past(tokens: Sequence[Token], verb: int, ceased: bool) -> bool:
    """An event told in the past tense ("I went to my first rehearsal on Thursday", "a shelf
    cracked"), not a perfect ("Carol's got diabetes", "I've joined"), a state begun ("signed
    up to puregym": `state_starts`), nor a statement that says something changed ("I left
    the choir")."""
    if verb >= len(tokens) or ceased or tokens[verb].tag not in ("VBD", "VBN"):
        return False
    if tokens[verb].text.lower() in slot_table()["cues"]["en"]["state_starts"]:
        return False  # "signed up to puregym": a membership begun, not an event
    before = [t.text.lower().replace("’", "'") for t in tokens[:verb] if t.pos != "ADV"]
    perfect = bool(before) and before[-1] in _PERFECT
    passive = tokens[verb].tag == "VBN" and any(t.pos == "AUX" for t in tokens[:verb])
    return not (perfect or passive or change_cue_en(tokens))


def about_claim(tokens: Sequence[Token]) -> tuple[ClaimDraft, ...]:
    """One claim of the `about` slot for a statement no slot reads: its subject, the stems of
    what it names (its nouns and names, and gerunds), never retiring anything itself unless
    it says something stopped ("I don't play bass anymore")."""
    generic = set(slot_table()["cues"]["en"]["unspecific"])
    main = _before_concession(tokens)
    ceased = has_cue("cessation", main) and negated(main, 0, len(main))
    words = [
        t.text
        for t in tokens
        if t.pos in _ABOUT_POS
        or (t.pos == "VERB" and t.text.lower().endswith("ing"))
        or (not ceased and _habit_verb(t))
    ]
    keys = tuple(k for k in keys_of(" ".join(words)) if k not in generic)
    if not keys:
        return ()
    verb = next((i for i, t in enumerate(tokens) if t.pos in ("VERB", "AUX")), len(tokens))
    kind, subject = subject_of(tokens, verb)
    if is_brand((kind, subject)):  # "dentist check up is tuesday": the speaker's dentist
        kind, subject = "speaker", ""
    return (
        ClaimDraft(
            subject_kind=kind,
            subject=subject,
            slot=ABOUT,
            value="",
            keys=keys,
            positive=not ceased,
            single=False,
            replacing=ceased,
            tentative=_hypothetical(tokens),
            past=has_cue("past_state", tokens),
            event=_told_past(tokens, verb, ceased),
            rule="about: what the statement names",
        ),
    )


def _before_concession(tokens: Sequence[Token]) -> Sequence[Token]:
    """The statement up to a concession after its start ("still paying for the gym even
    tho i barely go anymore": what stops is conceded, the payment goes on)."""
    words = [norm(t.text) for t in tokens]
    for opener in slot_table()["cues"]["en"]["concessive"]:
        size = len(opener.split())
        at = next((i for i in range(1, len(words)) if words[i : i + size] == opener.split()), None)
        if at is not None:
            return tokens[:at]
    return tokens


def _hypothetical(tokens: Sequence[Token]) -> bool:
    """Every clause with a verb is a wish or a hypothetical: "I pay for Spotify, it's the one
    subscription I'd never cancel" states a subscription."""
    said = [c for c in clauses(tokens) if any(t.pos in ("VERB", "AUX") for t in c)]
    return (
        all(has_cue("hypothetical", c) for c in said) if said else has_cue("hypothetical", tokens)
    )


def _habit_verb(tok: Token) -> bool:
    """A verb that names what a statement is about ("I vape a lot", "I cycle to work"):
    not a light verb (`light_verbs` of `data/topics.json`). Only a statement that holds on
    carries it: a stopped one names what it ends by its nouns."""
    return tok.pos == "VERB" and norm(tok.text) not in topic_table()["en"]["light_verbs"]


def _draft(
    tokens: Sequence[Token],
    at: int,
    slot: str,
    value: str,
    subject: tuple[str, str],
    rule: str,
    *,
    conditional: bool = True,
) -> ClaimDraft:
    """A claim at token `at`; `conditional=False` for a value a condition does not make
    hypothetical ("if the buzzer's dead text 07700 900412": the number is still theirs)."""
    spec = slot_spec(slot)
    before = tokens[:at]
    is_negated = negated(tokens, at, min(at + 1, len(tokens)))
    # a role is no passing state for a time frame said of what the person does ("my
    # girlfriend maya is dragging me to a wedding this weekend")
    framed = tokens[: at + 1] if rule.startswith("role:") else tokens
    return ClaimDraft(
        subject_kind=subject[0],
        subject=subject[1],
        slot=slot,
        value=value,
        keys=keys_of(value),
        positive=not is_negated,
        single=spec["cardinality"] == "one",
        replacing=has_cue("replacing", tokens) or is_negated,
        additive=has_cue("additive", tokens),
        tentative=hypothetical(" ".join(norm(t.text) for t in before), conditional=conditional)
        or passing(framed, " ".join(norm(t.text) for t in framed)),
        past=has_cue("past_state", before),
        rule=rule,
    )


def _offsets(tokens: Sequence[Token]) -> tuple[str, list[int]]:
    """The tokens joined by spaces, and where each starts in that text."""
    starts, at = [], 0
    for tok in tokens:
        starts.append(at)
        at += len(tok.text) + 1
    return " ".join(t.text for t in tokens), starts


def _shaped(tokens: Sequence[Token]) -> Iterator[ClaimDraft]:
    """Values recognised by their shape anywhere in the statement (a slot's `shape`)."""
    text, starts = _offsets(tokens)
    for slot, spec in slot_table()["slots"].items():
        shape = spec.get("shape")
        if not shape:
            continue
        for m in re.finditer(shape, text):
            value = re.sub(r"\s*-\s*", "-", m.group(0)).strip()
            if not shaped(slot, value):
                continue  # "14-18 may", "2024-05-01" are no phone numbers
            at = max(i for i, s in enumerate(starts) if s <= m.start())
            owner = _owner(tokens, at)
            if is_brand(owner):  # "ee couldn't port the old number, the new one is ...": mine
                owner = ("speaker", "")
            yield _draft(tokens, at, slot, value, owner, f"shape:{slot}", conditional=False)


def _owner(tokens: Sequence[Token], at: int) -> tuple[str, str]:
    """Whose value stands at `at`: "Jake's number: ..." is Jake's; else the clause's subject."""
    for i in range(at - 1, 0, -1):
        if tokens[i].text == "'s" and is_name(tokens, i - 1):
            j = i - 1
            while j > 0 and is_name(tokens, j - 1):
                j -= 1
            found = name_at(tokens, j)
            if found is not None:
                return "person", found[0]
    return subject_of(tokens, at)


def _roles(tokens: Sequence[Token]) -> Iterator[ClaimDraft]:
    """ "my manager, Linda" / "Tom's boss Linda": the role's slot holds the name, for the
    speaker (or the named owner); "my ex Sam", "my old boss" are past."""
    roles = role_slots()
    possessive = set(slot_table()["subjects"]["en"]["speaker_possessive"])
    third = slot_table()["subjects"]["en"]["third_possessive"]
    for i, tok in enumerate(tokens):
        low = norm(tok.text)
        if low not in possessive and low not in third and tok.text != "'s":
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].pos == "ADJ" and norm(tokens[j].text) not in roles:
            j += 1
        if j >= len(tokens) or norm(tokens[j].text) not in roles:
            continue
        slot = role_keyed(roles[norm(tokens[j].text)], [norm(tokens[j].text)])
        k = _name_after(tokens, j + 1)
        found = name_at(tokens, k) if k < len(tokens) else None
        if found is None:
            found = _name_before(tokens, i) if low in possessive else None
            k = found[1] if found is not None else k
            found = (found[0], i - 1) if found is not None else None
        if found is None:
            continue
        if low in third:  # "my brother brought his girlfriend sophie": the brother's
            owner = subject_of(tokens, i)
            owner = ("pronoun", str(third[low])) if owner[0] == "speaker" else owner
        else:
            owner = ("speaker", "") if low in possessive else _owner(tokens, i + 1)
        value = " ".join(t.text for t in tokens[k : found[1]] if t.text[:1].isupper())
        draft = _draft(tokens, j, slot, value, owner, f"role:{slot} '{tokens[j].text}'")
        if has_cue("past_state", tokens[i:j]) or has_cue("role_past", tokens[i:j]):
            draft = attrs.evolve(draft, past=True)
        yield draft


def _name_after(tokens: Sequence[Token], k: int) -> int:
    """Where the name after a role starts: "my boss, Linda", "my boyfriend is called Jake"."""
    skip = set(topic_table()["en"]["role_links"])
    while k < len(tokens) and (tokens[k].text == "," or norm(tokens[k].text) in skip):
        k += 1
    return k


def _name_before(tokens: Sequence[Token], i: int) -> tuple[str, int] | None:
    """The name and its start in "Dev is my boss" or "priya (my manager)" (`i` at "my"),
    else None."""
    if i < 2 or norm(tokens[i - 1].text) not in ("is", "'s", "("):
        return None
    j = i - 1
    while j > 0 and is_name(tokens, j - 1):
        j -= 1
    found = name_at(tokens, j) if j < i - 1 else None
    return (found[0], j) if found is not None and found[1] == i - 1 else None


def _named(tokens: Sequence[Token]) -> Iterator[ClaimDraft]:
    """A name ending in one of a slot's `name_words` after "at", "to", "in" ("at Oakfield
    Primary", "to the University of Leeds"): a value of that slot."""
    for slot, spec in slot_table()["slots"].items():
        marks = set(spec.get("name_words", ()))
        if not marks:
            continue
        i = 0
        while i < len(tokens):
            j = i
            while j < len(tokens) and (
                is_name(tokens, j) or (j > i and tokens[j].text == "of") or tokens[j].pos == "PROPN"
            ):
                j += 1
            if not {t.text.lower() for t in tokens[i:j]} & marks:
                j = max(j, _lower_name(tokens, i, marks))  # "at maple primary"
            run = [t.text for t in tokens[i:j]]
            if j > i and {w.lower() for w in run} & marks and _placed(tokens, i):
                value = " ".join(run).strip()
                yield _draft(tokens, i, slot, value, subject_of(tokens, i), f"name:{slot}")
            i = max(j, i + 1)


def _lower_name(tokens: Sequence[Token], i: int, marks: set[str]) -> int:
    """The end of a name written in lower case right after "at", "to", "in": one or two
    nouns or adjectives, none of them a mark, then a mark ("at maple primary"; not "at
    primary school", "at the local primary"), else `i`."""
    if i == 0 or norm(tokens[i - 1].text) not in _BEFORE_NAMED:
        return i
    for k in (i + 1, i + 2):
        if k >= len(tokens) or tokens[k].text.lower() not in marks:
            continue
        words = tokens[i:k]
        if all(t.pos in ("NOUN", "ADJ", "PROPN") and t.text.lower() not in marks for t in words):
            return k + 1
    return i


_OWNED_BY = frozenset({"'s", "’s"})


def _acquired(tokens: Sequence[Token]) -> Iterator[ClaimDraft]:
    """A brand of a slot's kind got by the subject ("Picked up a used Kia Niro", "got the
    Pixel 9") or the speaker's own ("my new Honda Jazz"; not "my old Civic"): a value of
    that slot (a car, a phone model, a bank: `families.category_slot`), after one of the slot
    table's `acquired` verbs or `owned` words and at most four words ("bought my cousin a
    cheap Fiesta")."""
    table = slot_table()
    cues = table["cues"]["en"]
    verbs, owned, former = cues["acquired"], set(cues["owned"]), set(cues["role_past"])
    words = [norm(t.text) for t in tokens]
    claimed: set[int] = set()
    for i in range(len(tokens)):
        verb = next((v for v in verbs if words[i : i + len(v.split())] == v.split()), None)
        if verb is None and words[i] not in owned:
            continue
        after = i + len(verb.split()) if verb is not None else i + 1
        for j in range(after, min(after + 5, len(tokens))):
            if tokens[j].pos == "ADP":
                break  # "my PT at PureGym": the gym is not what "my" names
            word = tokens[j].text  # a brand ("Kia", "iPhone"), not the kind ("a new car")
            named = (
                word[:1].isupper()
                or word[1:] != word[1:].lower()
                or tokens[j].pos == "PROPN"
                or (j + 1 < len(tokens) and tokens[j + 1].text[:1].isdigit())  # my pixel 6
                or _model_code(word)  # a secondhand mg4
            )
            slot = brand_slot(word) if named else ""
            if slot in table["slots"]:
                value = value_at(tokens, j)
                who = _got_for(tokens, after, j) or (
                    subject_of(tokens, i) if verb else _brand_owner(tokens[after:j], former)
                )
                if value and who and j not in claimed and not _not_the_brand(value):
                    claimed.add(j)
                    yield _draft(tokens, j, slot, value, who, f"brand:{slot}")
                break


def _model_code(word: str) -> bool:
    """A word of letters and digits, as models are named (mg4, i30, ev6)."""
    return word.isalnum() and any(c.isdigit() for c in word) and any(c.isalpha() for c in word)


_TITLE_BREAKS = frozenset({":", "-", "–", "—"})


def _titled(tokens: Sequence[Token]) -> Iterator[ClaimDraft]:
    """A new title said without a verb ("senior analyst as of today", "made it official:
    senior designer"): a rank and a title word (the slot table's `ranks`, `titles`) that open
    the statement or follow a colon, at most two words apart, or a title after an opener that
    may stand alone ("officially Data Engineer"); the speaker's."""
    spec = slot_table()["slots"]["job_title"]["en"]
    ranks, titles, openers = set(spec["ranks"]), set(spec["titles"]), set(spec["title_openers"])
    words = [t.text.lower() for t in tokens]
    starts = [0] + [i + 1 for i, w in enumerate(words) if w in _TITLE_BREAKS]
    for start in starts:
        i = start
        while i < len(words) and words[i] in openers:
            i += 1
        if i >= len(words):
            continue
        alone = i > start and words[i - 1] in spec["title_openers_alone"]
        if not (words[i] in ranks or (alone and tokens[i].pos in ("NOUN", "ADJ", "PROPN"))):
            continue
        first = i + (words[i] in ranks)
        end = next((j for j in range(first, min(i + 4, len(words))) if words[j] in titles), None)
        if end is not None and all(t.pos in ("NOUN", "ADJ", "PROPN") for t in tokens[i + 1 : end]):
            value = " ".join(t.text for t in tokens[i : end + 1])
            yield _draft(tokens, i, "job_title", value, ("speaker", ""), "title:job_title")
    yield from _titled_now(tokens, words, ranks | titles)
    yield from _titled_capitals(tokens, words, titles)


_COPULAS = frozenset({"'s", "’s", "is", "'m", "’m", "am"})
_CLAUSE_BREAKS = frozenset({"PUNCT", "CCONJ", "SCONJ", "VERB"})


def _occupied(tokens: Sequence[Token]) -> Iterator[ClaimDraft]:
    """A job said as what someone is ("my wife's a barrister", "I'm not a nurse anymore",
    "he was made a judge"): "is", "am" or a passive "made", then "a"/"an", at most two
    describing words and a word of the slot table's `occupations` that ends the noun; the
    subject is the one its own clause names ("I think my sister's a nurse": the sister)."""
    spec = slot_table()["slots"]["job_title"]["en"]
    jobs = frozenset(spec["occupations"]) | frozenset(spec["titles"])
    said = spec["said_as"]
    words = [t.text.lower() for t in tokens]
    for k, word in enumerate(words):
        made = word == "made" and k > 0 and words[k - 1] in said["made_after"]
        if (word not in _COPULAS and not made) or (k and words[k - 1] in said["no_subject"]):
            continue  # "there's a plumber coming", "it's a doctor's appointment"
        i = k + 1
        while i < len(words) and words[i] in said["before_article"]:
            i += 1
        if i >= len(words) or words[i] not in ("a", "an"):
            continue
        j = _job_end(tokens, words, i, jobs, set(said["not_describing"]))
        if j is not None:
            value = " ".join(t.text for t in tokens[i + 1 : j + 1])
            yield _draft(tokens, i, "job_title", value, _clause_subject(tokens, k), "job:job_title")


def _job_end(
    tokens: Sequence[Token],
    words: Sequence[str],
    article: int,
    jobs: frozenset[str],
    unlike: set[str],
) -> int | None:
    """Where the job noun after an article ends: an occupation word that ends the noun (not
    "a doctor's appointment"), at most two describing words before it, none former or
    judging ("a retired teacher", "a good cook": no job held)."""
    for j in range(article + 1, min(article + 4, len(words))):
        if tokens[j].pos not in ("NOUN", "ADJ", "PROPN") or words[j] in unlike:
            return None
        nxt = tokens[j + 1] if j + 1 < len(tokens) else None
        last = nxt is None or (nxt.pos not in ("NOUN", "PROPN") and nxt.text not in ("'s", "’s"))
        if words[j] in jobs and last:
            return j
    return None


def _clause_subject(tokens: Sequence[Token], verb: int) -> tuple[str, str]:
    """Who the clause that holds the verb at `verb` is about: the words after the last break
    before it (a comma, "but", "because", a verb such as "think")."""
    start = max((i + 1 for i in range(verb) if tokens[i].pos in _CLAUSE_BREAKS), default=0)
    return subject_of(tokens[start:], verb - start)


def _titled_now(
    tokens: Sequence[Token], words: Sequence[str], named: set[str]
) -> Iterator[ClaimDraft]:
    """A title said as what someone is now ("she's analytics lead now", "he's head of ops
    now"): after "is", at most four words that end in or open with a rank or title word,
    then "now"; the subject before it."""
    for k, word in enumerate(words):
        end = next((j for j in range(k + 2, min(k + 6, len(words))) if words[j] == "now"), None)
        if word not in _COPULAS or end is None:
            continue
        span = tokens[k + 1 : end]
        if not ({words[k + 1], words[end - 1]} & named) or words[k + 1] in ("a", "an", "the"):
            continue
        # a rank or title the tagger read as a verb ("team lead") still names one
        if all(t.pos in ("NOUN", "ADJ", "PROPN") or t.text.lower() in named | {"of"} for t in span):
            value = " ".join(t.text for t in span)
            yield _draft(tokens, k, "job_title", value, subject_of(tokens, k), "title:job_title")


def _titled_capitals(
    tokens: Sequence[Token], words: Sequence[str], titles: set[str]
) -> Iterator[ClaimDraft]:
    """A title said with capitals after "I'm" ("as of today I'm Growth Marketing Lead"):
    words that each open with a capital, up to four, the last a title word; the speaker's."""
    for k in range(1, len(words) - 1):
        if words[k - 1] != "i" or words[k] not in ("'m", "’m", "am"):
            continue
        n = next((n for n, t in enumerate(tokens[k + 1 : k + 5]) if not t.text[:1].isupper()), 4)
        span = tokens[k + 1 : k + 1 + n]
        if span and span[-1].text.lower() in titles and len(span) >= 2:
            value = " ".join(t.text for t in span)
            yield _draft(tokens, k, "job_title", value, ("speaker", ""), "title:job_title")


def _brand_owner(between: Sequence[Token], former: set[str]) -> tuple[str, str] | None:
    """The owner of a brand said after "my": the speaker, unless the words between say it
    was theirs before ("my old Civic"), is someone's ("my mate's Boxster") or go on to a
    verb ("my brother got a BMW": the verb's subject's), or end with a relative, whose name
    the brand is ("my best mate Zoe")."""
    words = {t.text.lower() for t in between}
    if words & (former | _OWNED_BY) or any(t.pos in ("VERB", "AUX") for t in between):
        return None
    if between and between[-1].text.lower() in relation_words():
        return None  # "my best mate Zoe": a name, no Renault
    return "speaker", ""


def _not_the_brand(value: str) -> bool:
    """A thing of the brand that is no car, phone or bank ("iPhone charger", "Samsung TV",
    "Samsung Health": the slot table's `not_the_brand`)."""
    words = set(slot_table()["cues"]["en"]["not_the_brand"])
    return any(w.lower() in words for w in value.split())


def _got_for(tokens: Sequence[Token], after: int, brand: int) -> tuple[str, str] | None:
    """Whom a brand was got for: named between the verb and it ("bought my dad an iPhone")
    or after "for" ("got an iPhone for my mum"), else None (the subject's own)."""
    end = next((k for k in range(brand, len(tokens)) if norm(tokens[k].text) == "for"), None)
    spans = [tokens[after:brand]] + ([tokens[end + 1 : end + 4]] if end is not None else [])
    for span in spans:
        found = [k for k in mentioned(span) if "=" not in k]
        if found:
            kind, _, name = found[0].partition(":")
            return kind, name
    return None


def _placed(tokens: Sequence[Token], i: int) -> bool:
    """The name follows "at", "to", "in" (a determiner between allowed)."""
    j = i - 1
    while j >= 0 and tokens[j].pos == "DET":
        j -= 1
    return j >= 0 and norm(tokens[j].text) in _BEFORE_NAMED
