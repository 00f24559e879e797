"""English claims: the slot table's phrasings matched on the word stems of each clause."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

import attrs

from bitemporal_core.language.clauses import hyphen_compounds
from bitemporal_core.language.clauses_en import clauses
from bitemporal_core.language.cues_en import (
    cue_in,
    denied,
    hypothetical,
    lasting,
    modal_had,
    negated,
    norm,
    passing,
    simile,
    was_before,
    without,
)
from bitemporal_core.language.extract import Token
from bitemporal_core.language.extract.terms import stem
from bitemporal_core.language.people import (
    is_first_name,
    named_by,
    owner_in,
    relation_words,
    role_holder,
    speaker_owns,
    subject_of,
)
from bitemporal_core.language.places import is_place
from bitemporal_core.language.slots import (
    ANY,
    ClaimDraft,
    headed_slot,
    overlaps,
    role_keyed,
    shaped,
    shaped_en,
    slot_table,
)
from bitemporal_core.language.values_en import (
    clock_time,
    is_time,
    names_time,
    value_at,
    value_before,
)

__all__ = ["claims_en", "keys_of"]

_STATE_PAST = frozenset({"lived", "worked", "was", "were", "had", "drove", "studied", "played"})
_NOMINAL_TAGS = frozenset({"NNS", "JJ"})  # "the books", "separate"; not "divorce"
_NAMED = ("NOUN", "PROPN")
_KEY_STOP = frozenset({"new", "old", "littl", "big", "small", "own", "secondhand", "place"})


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    low = norm(word)  # "as" is no "a" ("start a club" is no "started as")
    return low if low in slot_table()["cues"]["en"]["unstemmed"] else stem(low) or low


@attrs.frozen
class _Item:
    """One element of a phrasing: a word (its stem, and a required tag if any), a gap
    ("*": one word, "**": up to three), the value ("{v}") or a named subject ("{s}")."""

    kind: str  # "word", "*", "**", "{v}", "{s}"
    stem: str = ""
    pos: str | None = None
    past: bool = False  # written as a past form: "booked" is not "the books", "separate"


@attrs.frozen
class _Pattern:
    slot: str
    items: tuple[_Item, ...]
    value: str | None  # a fixed value
    positive: bool
    speaker: bool  # "@speaker": the claim is about the speaker whoever is named
    source: str
    before: bool = False  # "{v} is off": the value is the noun phrase before the words
    adds: bool = False  # "bought a car": one more value unless the clause says it replaces

    @property
    def weight(self) -> int:
        """How specific the phrasing is: its words (and the value it needs before them)."""
        return sum(i.kind == "word" for i in self.items) + self.before

    @property
    def needs(self) -> frozenset[str]:
        """The stems a clause must hold for the phrasing to match it."""
        return frozenset(i.stem for i in self.items if i.kind == "word")


# A written 's in a phrasing takes a possessive or an "is"; a written "is", only an "is".
_APOSTROPHE_S = "'s"


def _item(word: str) -> _Item:
    if word in ("*", "**", "{v}", "{s}"):
        return _Item(word)
    text, _, pos = word.partition("/")
    if text == _APOSTROPHE_S:
        return _Item("word", text, pos or None)
    return _Item("word", _stem(text), pos or None, past=text.endswith("ed"))


def _keys(clause: Sequence[Token], i: int) -> frozenset[str]:
    """The phrasing words a clause's word answers to: its stem; an "is" (or an 's read as
    one) also the written 's; a possessive 's before a noun only that (`_possessive`)."""
    if _possessive(clause, i):
        return frozenset({_APOSTROPHE_S})
    stemmed = _stem(clause[i].text)
    return frozenset({stemmed, _APOSTROPHE_S}) if stemmed == _stem("is") else frozenset({stemmed})


@cache
def _patterns() -> tuple[_Pattern, ...]:
    out: list[_Pattern] = []
    for slot, spec in slot_table()["slots"].items():
        for group, positive in (("claim", True), ("end", False), ("adds", True)):
            for phrase in spec["en"].get(group, ()):
                words, _, fixed = phrase.partition("=>")
                speaker = "@speaker" in phrase
                words, fixed = words.replace("@speaker", ""), fixed.replace("@speaker", "")
                split = _split(words.strip())
                before = split[0] == "{v}" and len(split) > 1
                items = tuple(_item(w) for w in split[before:])
                value = fixed.strip() or None
                out.append(
                    _Pattern(
                        slot,
                        items,
                        value,
                        positive,
                        speaker,
                        phrase.strip(),
                        before,
                        group == "adds",
                    )
                )
    # of two as specific, the one that ends ("outgrown ** allergy" over "{v} allergy")
    return tuple(sorted(out, key=lambda p: (-p.weight, p.positive)))


@cache
def _indexed() -> tuple[tuple[_Pattern, frozenset[str]], ...]:
    return tuple((p, p.needs) for p in _patterns())


@cache
def _by_stem() -> dict[str, tuple[int, ...]]:
    """Each phrasing (by its place in `_indexed`) under the longest word it needs (longer
    words are rarer), so that a clause is matched only against phrasings that word admits."""
    index: dict[str, list[int]] = {}
    for i, (_, needs) in enumerate(_indexed()):
        index.setdefault(max(sorted(needs), key=len) if needs else "", []).append(i)
    return {stem: tuple(found) for stem, found in index.items()}


def _candidates(present: set[str]) -> list[tuple[_Pattern, frozenset[str]]]:
    """The phrasings whose words are all in a clause, in `_indexed` order."""
    index, patterns = _by_stem(), _indexed()
    found = sorted({i for stem in (*present, "") for i in index.get(stem, ())})
    return [patterns[i] for i in found if patterns[i][1] <= present]


def _split(phrase: str) -> list[str]:
    """A phrasing's words, split as the taggers split them ("i'm" -> i 'm, "part-time" ->
    part time; a `hyphen_compounds` word stays whole, as `clauses` keeps it)."""
    out: list[str] = []
    compounds = hyphen_compounds()
    words = [
        w for part in phrase.split() for w in ([part] if part in compounds else part.split("-"))
    ]
    for word in words:
        m = re.fullmatch(r"(.+?)('m|'re|'s|'ve|n't|'d|'ll)(/\w+)?", word)
        out.extend([m.group(1) + (m.group(3) or ""), m.group(2)] if m else [word])
    return out


@attrs.frozen
class _Found:
    pattern: _Pattern
    start: int
    end: int
    value_at: int  # -1: right after the match
    subject_at: int  # -1: none named
    value_end: int = -1  # where the phrasing's word after a `{v}` inside it matched; -1: none
    value: str = ""  # the value it names (`_value_of`), once its value was read


def _past(clause: Sequence[Token], found: _Found, value: str, upto: str) -> bool:
    """Whether a claim is of a past state: a past cue, or a past state verb opening its
    phrasing ("lived in", "was fired") with no cue of the present in its own words."""
    start = found.start
    return cue_in("past_state", without("returned", upto)) or (
        not found.pattern.before  # "{v} was a false alarm": the verb is the phrasing's
        and (clause[start].text.lower() in _STATE_PAST or was_before(clause, start))
        and not (modal_had(clause, start) or lasting(clause, start))
        and not cue_in("present", _said_by(clause, found, value))
    )


def _someone(words: Sequence[tuple[str, frozenset[str], str]], j: int) -> bool:
    """Whether word `j` names someone: a pronoun, a name (a first name in lowercase too) or a
    relative ("moved him to", "helped Grandad move to"; not "moved across to", "moved my
    savings out of")."""
    if j >= len(words):
        return False
    text = words[j][0]
    named = {"PRON", "PROPN"} & set(words[j][2].split())
    return bool(named) or text in relation_words() or is_first_name(text)  # "helped jamie"


def _match(
    pattern: _Pattern, words: Sequence[tuple[str, frozenset[str], str]], start: int
) -> _Found | None:
    """Match a phrasing at `start` over (normed text, keys: `_keys`, tag) words."""
    items = pattern.items
    marks = {"{v}": -1, "{s}": -1, "end": -1}
    exceptions = set(slot_table()["cues"]["en"]["stem_exceptions"])
    intensifiers = set(slot_table()["cues"]["en"]["intensifiers"])

    def word_ok(item: _Item, j: int) -> bool:
        text, keys, pos = words[j]
        tags = pos.split()
        if item.pos is not None and item.pos not in tags:
            return False  # a coarse tag ("VERB") or a fine one ("VBG": "seeing", not "see")
        if item.past and not text.endswith("ed") and _NOMINAL_TAGS & set(tags):
            return False
        return item.stem in keys and (text not in exceptions or text == item.stem)

    def walk(i: int, j: int) -> int | None:
        if i == len(items):
            return j
        item = items[i]
        if item.kind == "{s}":
            if _someone(words, j + 1) and "PRP$" in words[j][2].split():
                j += 1  # "helped my sister move to": the sister
            marks["{s}"] = j
            return walk(i + 1, j + 1) if _someone(words, j) else None
        if item.kind == "{v}" and i == len(items) - 1:
            marks["{v}"] = j
            return j
        if item.kind in ("*", "**", "{v}"):
            if item.kind == "{v}":
                marks["{v}"] = j
            gaps = (
                (1,) if item.kind == "*" else (1, 2, 3, 4) if item.kind == "{v}" else (1, 2, 3, 0)
            )
            for gap in gaps:
                if j + gap <= len(words):
                    found = walk(i + 1, j + gap)
                    if found is not None:
                        if item.kind == "{v}" and items[i + 1].kind != "{s}":
                            marks["end"] = j + gap  # "sold all his {v} gear"
                        return found
            return None
        if j < len(words) and word_ok(item, j):
            return walk(i + 1, j + 1)
        if i > 0 and j < len(words) and words[j][0] in intensifiers:
            return walk(i, j + 1)  # "is so single"
        return None

    end = walk(0, start)
    if end is None:
        return None
    return _Found(pattern, start, end, marks["{v}"], marks["{s}"], marks["end"])


def claims_en(
    tokens: Sequence[Token], *, brand_slot: Callable[[str], str] | None = None
) -> tuple[ClaimDraft, ...]:
    """The claims the slot table's phrasings find in an English statement, in clause order
    (within a clause, by position). `brand_slot` names the slot a value's brand belongs to
    (`families.brand_slot`): a phrasing several slots share takes a brand only for its own
    slot ("switched to Starling" is the bank, not a school)."""
    out = []
    for clause in clauses(tokens, lead=True):
        out.extend(_clause_claims(clause, brand_slot))
    return tuple(out)


def _found(clause: Sequence[Token], brand_slot: Callable[[str], str] | None) -> list[_Found]:
    """The phrasings a clause matches whose value is there (and, for a brand, is of their
    slot: `claims_en`): the longest first (of one phrasing, its shortest match), none
    overlapping, in clause order."""
    words = [(norm(t.text), _keys(clause, i), f"{t.pos} {t.tag}") for i, t in enumerate(clause)]
    present = set().union(*(w[1] for w in words))
    taken: list[_Found] = []
    for pattern, _ in _candidates(present):
        matches = [
            attrs.evolve(m, value=_value_of(clause, m)) if not pattern.value else m
            for s in range(len(words))
            if (m := _match(pattern, words, s)) is not None
        ]
        matches = [m for m in matches if pattern.value or _fits(pattern, m.value)]
        if brand_slot is not None and not pattern.value:
            matches = [m for m in matches if _brand_fits(pattern, brand_slot(m.value))]
        for found in sorted(matches, key=lambda m: (m.end - m.start, m.start)):
            rivals = [
                f
                for f in taken
                if (f.pattern.slot == ANY) == (pattern.slot == ANY)
                and f.pattern.slot not in overlaps(pattern.slot)
            ]
            if all(found.end <= f.start or found.start >= f.end for f in rivals):
                taken.append(found)
    return sorted(taken, key=lambda f: f.start)


def _possessive(clause: Sequence[Token], i: int) -> bool:
    """An 's the tagger reads as a possessive before a noun ("the dentist's office"), which
    is no "is"; before anything else it is ("my alarm's at 5", "my car's a Civic")."""
    after = clause[i + 1] if i + 1 < len(clause) else None
    return clause[i].tag == "POS" and after is not None and after.pos == "NOUN"


def _value_end(found: _Found, clause: Sequence[Token]) -> int:
    """Where a value inside a phrasing ends: where the phrasing's next word matched ("sold all
    his {v} gear": "fishing", not "fishing gear") unless a name goes on there ("goes to {v}
    academy" keeps "Greenfield Academy"), else at the clause's end."""
    end = found.value_end
    if end < 0 or end >= len(clause):
        return len(clause)
    named = clause[end].text[:1].isupper() or clause[end].pos == "PROPN"
    return len(clause) if named else end


def _brand_fits(pattern: _Pattern, slot: str) -> bool:
    """Whether a phrasing may take a value whose brand is of `slot` ("" : no brand): yes
    unless that slot reads the same words; words a slot known by its brands shares with
    another ("switched to {v}": a phone, a bank, a gym, a school; "joined {v}": a gym, an
    employer) take for that slot only a brand of it."""
    words = _words_of(pattern)
    if slot and pattern.slot in slot_table()["cues"]["en"]["brandless_slots"]:
        return False  # "picked up a secondhand mg4": a car, no hobby
    if pattern.slot in _brand_slots() and len(_readers().get(words, frozenset()) - {ANY}) > 1:
        return slot == pattern.slot
    return not slot or slot == pattern.slot or slot not in _readers().get(words, ())


def _words_of(pattern: _Pattern) -> tuple[object, ...]:
    """What a phrasing matches: its items by stem ("joined {v}" and "join {v}" are one)."""
    return (pattern.before, *((i.kind, i.stem, i.pos) for i in pattern.items))


@cache
def _brand_slots() -> frozenset[str]:
    return frozenset(slot_table()["cues"]["en"]["brand_slots"])


@cache
def _readers() -> dict[tuple[object, ...], frozenset[str]]:
    """The slots each phrasing's words are read for."""
    out: dict[tuple[object, ...], set[str]] = {}
    for pattern in _patterns():
        out.setdefault(_words_of(pattern), set()).add(pattern.slot)
    return {words: frozenset(found) for words, found in out.items()}


def _value_of(clause: Sequence[Token], found: _Found) -> str:
    """The value a match names: the noun phrase before it ("{v} is off"), where its `{v}` is,
    else right after it (dropped when it is no value of the slot: "I quit smoking last month"
    names none)."""
    if found.pattern.before:
        return value_before(clause, found.start)
    at = found.value_at if found.value_at >= 0 else found.end
    value = value_at(clause[: _value_end(found, clause)], at)
    explicit = any(i.kind == "{v}" for i in found.pattern.items) or found.pattern.before
    if not explicit and found.end < len(clause) and clause[found.end].pos == "PUNCT":
        return ""  # "the trip's off, work won't sign off": no value after the comma
    return value if explicit or _fits(found.pattern, value) else ""


def _clause_claims(
    clause: list[Token], brand_slot: Callable[[str], str] | None = None
) -> list[ClaimDraft]:
    out = []
    words = " ".join(norm(t.text) for t in clause)
    for found in _found(clause, brand_slot):
        pattern, start, end = found.pattern, found.start, found.end
        if simile(clause, start) or _attributive(clause, found):
            continue  # "feels like driving a roller skate", "mostly retired men"
        if not pattern.positive and denied(clause, start):
            continue
        if _thing_subject(clause, start) and pattern.slot not in slot_table()["dated_slots"]:
            continue  # "and it's moved again" (a trip): no one moved house
        spec = slot_table()["slots"][pattern.slot]
        value = pattern.value or found.value
        if pattern.source in spec["en"].get("drop_offs", ()) and _left_at(words, value):
            continue  # "dropped ollie at nursery": dropped off, nothing ended
        upto = " ".join(norm(t.text) for t in clause[:end])
        is_negated = pattern.positive and negated(clause, start, end)
        # A phrasing whose words say "me" or "my" is the speaker's ("they bumped me up to",
        # "Physio moved my appointment to"), as is a value before it that opens the clause
        # ("keto lasted about three weeks").
        mine = any(speaker_owns(clause, i) for i in range(start, end))
        named = 0 <= found.subject_at < len(clause)  # "pulled our son out of": the son
        if named and speaker_owns(clause, found.subject_at):
            named = False
        if pattern.speaker or (mine and not named):
            kind, subject = "speaker", ""
        elif named:
            kind, subject = named_by(clause, found.subject_at)
        elif _own_value(clause, found):
            kind, subject = "speaker", ""
        else:
            at = _start_of(clause, found)
            kind, subject = (at == 0 and _for_whom(clause, end)) or subject_of(clause, at)
        if (kind, subject) == ("pronoun", "they"):
            kind, subject = owner_in(clause[start:end]) or (kind, subject)
        if kind == "speaker" and pattern.slot in slot_table()["cues"]["en"]["role_holder_slots"]:
            kind, subject = role_holder(clause, _start_of(clause, found)) or (kind, subject)
        slot = headed_slot(pattern.slot, value)
        if slot != pattern.slot:
            spec = slot_table()["slots"][slot]
        if spec.get("key_by") == "object":
            slot += ":" + _object(clause, pattern, start, end)
        said = [norm(t.text) for t in clause[start:end]] + [norm(w) for w in value.split()]
        slot = role_keyed(slot, said)  # "registered with a new dentist": the dentist
        past = _past(clause, found, value, upto)
        out.append(
            ClaimDraft(
                subject_kind=kind,
                subject=subject,
                slot=slot,
                value=value,
                keys=keys_of(value),
                positive=pattern.positive and not is_negated,
                single=spec["cardinality"] == "one" and not slot.endswith(":"),  # no object
                replacing=cue_in("replacing", words)
                or not pattern.positive
                or is_negated
                or bool(spec.get("replacing")),
                additive=cue_in("additive", words)
                or (pattern.adds and not cue_in("replacing", words)),
                tentative=hypothetical(upto, conditional="shape" not in spec),  # a contact
                passing=passing(clause, words),
                past=past,
                rule="slot:" + pattern.slot + " '" + pattern.source + "'",
            )
        )
    return out


def _thing_subject(clause: Sequence[Token], start: int) -> bool:
    """The subject of a phrasing that opens with a verb is "it" ("it's moved again"): a
    thing ("it's coeliac" names what someone has)."""
    if clause[start].pos != "VERB":
        return False
    i = start - 1
    while i >= 0 and clause[i].pos in ("AUX", "ADV", "PART"):
        i -= 1
    return i >= 0 and clause[i].text.lower() == "it"


def _left_at(words: str, value: str) -> bool:
    """Whether the clause's normed words go on from the value to where it was left ("dropped
    callum at heathrow", "dropped the car off"): the `drop_off_after` words."""
    after = slot_table()["cues"]["en"]["drop_off_after"]
    said = " ".join(norm(w) for w in value.split())
    return any(f" {said} {word} " in f" {words} " for word in after)


def _for_whom(clause: Sequence[Token], end: int) -> tuple[str, str] | None:
    """Whom a clause that opens with its phrasing is about, named after "for" ("first day at
    hollins high for mia", "new glasses for mum"): a first name or a relative."""
    relations = slot_table()["subjects"]["en"]["relations"]
    for i in range(end, len(clause) - 1):
        if clause[i].text.lower() != "for":
            continue
        j = i + 1 + (clause[i + 1].text.lower() in ("my", "our") and i + 2 < len(clause))
        low = clause[j].text.lower()
        owned = j + 1 < len(clause) and clause[j + 1].tag == "POS"  # "for my wife's family"
        if not owned and (low in relations or (is_first_name(low) and clause[j].pos in _NAMED)):
            return named_by(clause, j)
    return None


def _attributive(clause: Sequence[Token], found: _Found) -> bool:
    """A one-word ending used as an adjective between a modifier and a noun ("mostly
    retired men", "my divorced parents"): it describes someone, it ends nothing; not
    "Cancelled netflix", a verb that opens its clause."""
    start = found.start
    if found.pattern.positive or found.end - start != 1 or not 0 < start < len(clause) - 1:
        return False
    return (
        clause[start].tag in ("JJ", "VBN")
        and clause[start + 1].tag in ("NN", "NNS")
        and not is_time(clause[start + 1].text)  # "I've just resigned today" ends
        and clause[start - 1].tag in ("DT", "PRP$", "RB", "JJ", "CD", "POS")
    )


def _said_by(clause: Sequence[Token], found: _Found, value: str) -> str:
    """The clause's words up to a phrasing's value and the word after it: what tells its
    tense ("I was allergic to eggs until I was 7 and then just grew out of it": not "just")."""
    end = max(found.end, found.value_at) + len(value.split()) + 1
    # "a photo from 2016 when I lived in Berlin": the when-clause's own words tell its tense
    framing = slot_table()["cues"]["en"]["tense_openers"]
    opens = [i for i in range(found.start) if clause[i].text.lower() in framing]
    return " ".join(norm(t.text) for t in clause[opens[-1] if opens else 0 : end])


def _own_value(clause: Sequence[Token], found: _Found) -> bool:
    """Whether a value named before its phrasing opens the clause and names nobody's
    ("keto lasted about a week", "lisbon's off"; not "Tom's trip is off")."""
    return (
        found.pattern.before
        and _start_of(clause, found) == 0
        and not any(t.text in ("'s", "’s") for t in clause[1 : found.start])
    )


def _start_of(clause: Sequence[Token], found: _Found) -> int:
    """Where the subject search stops: before the value of "{v} is off", or past an owner in
    it ("my sister's wedding is off": the sister's); else the match."""
    if not found.pattern.before:
        return found.start
    i = found.start
    while i > 0 and clause[i - 1].pos not in ("PUNCT", "CCONJ", "SCONJ", "VERB", "AUX"):
        if _is_copula(clause, i - 1):  # "my husband's a Rangers fan": 's is "is"
            break
        i -= 1
    return found.start if any(t.tag == "POS" for t in clause[i : found.start]) else i


def _is_copula(clause: Sequence[Token], i: int) -> bool:
    """A "'s" before a determiner is "is", whatever its tag: no one owns "a" or "the"."""
    nxt = clause[i + 1] if i + 1 < len(clause) else None
    return clause[i].text in ("'s", "’s") and nxt is not None and nxt.pos == "DET"


def _fits(pattern: _Pattern, value: str) -> bool:
    """A value the phrasing asks for must be there, be none of the slot's `not_values` nor end
    in one of its `not_heads`, have the slot's `value_pattern` and a shaped phrasing's
    `shape`, and (outside dated slots) be more than a time ("got moved to Tuesday" is no
    move)."""
    explicit = any(i.kind == "{v}" for i in pattern.items) or pattern.before
    if not value:
        return not explicit
    spec = slot_table()["slots"][pattern.slot]["en"]
    if value.lower() in spec.get("not_values", ()):
        return False  # "been made redundant" is no job title
    tail = re.findall(r"[\w']+", value.lower())[-1:]
    if tail and tail[0] in spec.get("not_heads", ()):
        return False  # "put me on the weekend rota" is no medicine
    shape = slot_table()["slots"][pattern.slot].get("value_pattern")
    if shape and not re.match(shape, value):
        return False
    for phrased in shaped_en(pattern.slot):
        if pattern.source in phrased["phrasings"] and not (
            re.search(phrased["shape"], value) and (not phrased.get("places") or is_place(value))
        ):
            return False  # "i'm on sertraline 50mg", not "i'm on nights"; "this york flat"
    cues = slot_table()["cues"]["en"]
    for amount in (cues["money"], cues["dose"]):
        if pattern.slot in amount["not_of"] and re.match(amount["shape"], value):
            return False  # "bumped me to £42.5k": a salary, no date nor job title
    if pattern.slot in slot_table()["dated_slots"] and not names_time(value):
        return False  # "moved lily to the Montessori place": a nursery, no date
    if pattern.slot in slot_table()["timed_slots"]:
        return True
    words = [w.lower() for w in re.findall(r"\d+(?:st|nd|rd|th)?|[a-zA-Z']+", value)]
    # numbers alone ("07700 900123") are no time, a clock time is ("at 5:45 now": no school)
    bare = all(w.isdigit() for w in words) and not clock_time(value)
    return not (is_time(value) and not bare)


def keys_of(value: str) -> tuple[str, ...]:
    """A value's word stems, to compare values ("the new Berlin office" -> berlin, offic); a
    number written with spaces or dashes is one key of its digits ("07700 900246")."""
    phone = slot_table()["slots"]["phone_number"]["shape"]
    if re.fullmatch(phone, value.strip()) and shaped("phone_number", value):
        return (re.sub(r"\D", "", value),)
    keys = {_stem(w) for w in re.findall(r"[\w@.£$€-]+", value)}
    return tuple(sorted(k for k in keys if k and k not in _KEY_STOP))


def _object(clause: Sequence[Token], pattern: _Pattern, start: int, end: int) -> str:
    """The thing a slot keyed by object is about: the first noun of the phrasing's span
    after its first word ("favourite band is" -> "band"), or, for a value said first, the
    noun right after it ("the secret history is my favourite book" -> "book")."""
    for tok in clause[start + 1 : end]:
        if tok.pos in ("NOUN", "PROPN"):
            return _stem(tok.text)
    after = clause[end] if pattern.before and end < len(clause) else None
    return _stem(after.text) if after is not None and after.pos == "NOUN" else ""
