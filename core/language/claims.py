"""Claims: what a memory-worthy statement says about someone, structured (docs/design.md,
"Memory formation").

A claim names its subject (the speaker, a named person, a relative, or a pronoun to resolve),
a slot from the slot table (`data/slots.json`: where one lives, works, their diet, car, ...),
the value, its polarity (negated or stopped: it ends the current value), and whether the slot
holds one value or many. English phrasings are matched on word stems over the sentence's
tokens, Chinese ones on the text. Everything here is offline and deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

import attrs

from bitemporal_core.language.claims_en import claims_en
from bitemporal_core.language.claims_en import keys_of as claim_keys
from bitemporal_core.language.claims_typed import about_claim, typed_claims
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.clauses import ZH_CLAUSES
from bitemporal_core.language.extract import Sentence, Token, content_terms
from bitemporal_core.language.extract._lexicon import ADJECTIVES
from bitemporal_core.language.families import brand_slot, category_slot, category_words, in_family
from bitemporal_core.language.fields import MAX_KEY
from bitemporal_core.language.people import (
    is_first_name,
    mentioned,
    names_after_relation,
    relation_words,
)
from bitemporal_core.language.slots import (
    ANY,
    ClaimDraft,
    phrasing_of,
    role_keyed,
    role_slots,
    role_words,
    shaped_en,
    slot_table,
)
from bitemporal_core.language.topics import change_cue_en, change_cue_zh, topic_claims_en

__all__ = [
    "ClaimDraft",
    "asked_words",
    "change_cue",
    "claim_context",
    "claim_words",
    "claims_of",
    "mentioned",
    "slot_table",
    "slot_words",
    "truecased",
]

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def claims_of(text: str, tokens: Sequence[Token]) -> tuple[ClaimDraft, ...]:
    """The claims one statement makes, in clause order (the later clause wins where two
    fill the same slot): the slot table's phrasings, then values known by their shape or
    role, else one claim about what the statement names; then the topic rule's claims
    (a change said about the things it names, `topics.py`)."""
    if _CJK.search(text):
        return _ends_what_was_said(claims_zh(text))
    tokens = truecased(tokens)
    found = _slot_ended(_brand_ended(claims_en(tokens, brand_slot=brand_slot)))
    found += typed_claims(tokens, found)
    found += _role_vacated(found)
    return _ends_what_was_said((found or about_claim(tokens)) + topic_claims_en(tokens))


def _role_vacated(drafts: tuple[ClaimDraft, ...]) -> tuple[ClaimDraft, ...]:
    """One who holds a role for the speaker and leaves their work ("my GP retired": a
    `vacating` slot ended of a role word) leaves that role empty when the role is their work
    (`emptied_by_leaving`: a GP, a manager; a landlord who retires still owns the flat): the
    speaker's claim on the role's slot ends too."""
    cues = slot_table()["cues"]["en"]
    vacating, emptied = set(cues["vacating"]), set(cues["emptied_by_leaving"])
    roles = role_slots()
    out: list[ClaimDraft] = []
    for d in drafts:
        role = d.subject if d.subject_kind == "relation" else ""
        if d.positive or d.slot not in vacating or roles.get(role) not in emptied:
            continue
        slot = role_keyed(roles[role], [role])
        if all(o.slot != slot for o in out):
            out.append(
                attrs.evolve(d, subject_kind="speaker", subject="", slot=slot, value="", keys=())
            )
    return tuple(out)


def _slot_ended(drafts: tuple[ClaimDraft, ...]) -> tuple[ClaimDraft, ...]:
    """An ending of what names only one slot itself ("cancelled the membership": the gym's
    `generic` words) ends that slot's value, not only the facts that say the same words."""
    return tuple(_ended_slot(d) if d.slot == ANY and not d.positive else d for d in drafts)


def _ended_slot(draft: ClaimDraft) -> ClaimDraft:
    slots = [s for s, words in _generic_keys().items() if draft.keys and set(draft.keys) <= words]
    if len(slots) != 1:
        return draft
    single = slot_table()["slots"][slots[0]]["cardinality"] == "one"
    return attrs.evolve(draft, slot=slots[0], single=single)


@cache
def _generic_keys() -> dict[str, frozenset[str]]:
    """Each slot's `generic` words as stems."""
    return {
        slot: frozenset(claim_keys(" ".join(spec["generic"])))
        for slot, spec in slot_table()["slots"].items()
        if spec.get("generic")
    }


def _brand_ended(drafts: tuple[ClaimDraft, ...]) -> tuple[ClaimDraft, ...]:
    """An ending that names no value is not another slot's when its words are those by
    which the statement ends a thing a brand names: "the pixel died" ends the phone, no
    pet; "handed in my notice and sold the golf" still ends a job."""
    brands = [d for d in drafts if not d.positive and d.value and brand_slot(d.value)]
    said = {phrasing_of(d.rule).replace("{v}", "").strip() for d in brands}
    return tuple(d for d in drafts if d.positive or d.value or phrasing_of(d.rule) not in said)


def _ends_what_was_said(drafts: tuple[ClaimDraft, ...]) -> tuple[ClaimDraft, ...]:
    """An ending that names no value ends the one the statement named before it for the
    same subject ("he's allergic to eggs, or was: he has grown out of it": eggs, not every
    allergy), and ends it in the past where that was past ("I was allergic to eggs until I
    was 7 and then grew out of it" ends no allergy held now)."""
    out: list[ClaimDraft] = []
    for d in drafts:
        named = next(
            (
                o
                for o in reversed(out)
                if o.keys
                and (o.slot, o.subject_kind, o.subject) == (d.slot, d.subject_kind, d.subject)
            ),
            None,
        )
        if not d.positive and not d.keys and named is not None:  # a past one's end is past
            d = attrs.evolve(d, value=named.value, keys=named.keys, past=d.past or named.past)
        out.append(d)
    return tuple(out)


def _phrased(text: str, tokens: Sequence[Token]) -> tuple[ClaimDraft, ...]:
    """The slot table's phrasings alone: what a question's words read as (`asked_words`)."""
    if _CJK.search(text):
        return claims_zh(text)
    return claims_en(truecased(tokens), brand_slot=brand_slot)


def names_a_date(drafts: Sequence[ClaimDraft]) -> bool:
    """Whether a statement's claims say when something is booked for (an appointment, an
    event's date: the slot table's `dated_slots`), so that the date is their value, not the
    time from which the statement is true ("my appointment is on Thursday" is true now; a
    trip, being somewhere then, is not of them); so does a statement that only wishes or
    weighs something: the wish is held now, whatever time it names."""
    dated = slot_table()["dated_slots"]
    if drafts and all(d.tentative for d in drafts):
        return True  # a wish is held now: "might switch dentist next year" is no switch then
    return any(d.slot.split(":", 1)[0] in dated and not (d.tentative or d.passing) for d in drafts)


def change_cue(text: str, tokens: Sequence[Token]) -> str:
    """The cue by which a statement says something changed ("now", "switched", 换了, ...)
    unless it is an addition, a wish, a past or passing state, or "" (`topics.py`)."""
    if _CJK.search(text):
        return change_cue_zh(text, [c.strip() for c in ZH_CLAUSES.split(text) if c.strip()])
    return change_cue_en(truecased(tokens))


def _paired_name(tokens: Sequence[Token], i: int) -> bool:
    """A known first name paired with the speaker ("me and tom", "tom and i") or said to be
    what someone is called ("seeing someone called nadia")."""
    words = [t.text.lower() for t in tokens[max(i - 2, 0) : i + 3]]
    at = min(i, 2)  # where token `i` stands in `words`
    calling = slot_table()["cues"]["en"]["calling_words"]
    if at and words[at - 1] in calling and words[at] not in relation_words():
        return tokens[i].pos in ("NOUN", "PROPN", "X")  # not "called it off"
    if not is_first_name(tokens[i].text):
        return False
    return words[at - 2 : at] in (["me", "and"], ["i", "and"]) or words[at + 1 : at + 3] in (
        ["and", "i"],
        ["and", "me"],
    )


def _drug(tok: Token) -> bool:
    """A word of a medicine's shape (the medication slot's first `shaped` shape:
    "citalopram")."""
    shape = shaped_en("medication")[0]["shape"]
    return re.search(shape, tok.text) is not None


def truecased(tokens: Sequence[Token]) -> tuple[Token, ...]:
    """Informal lowercase text as it would be written: a lowercase word the tagger reads as a
    proper noun gets its capital ("amy's moved to leeds" -> "Amy", "Leeds"), and so does a
    lowercase "i", so that names count as names wherever the rules look for a capital; not
    a run that opens with an ordinary adjective ("new sim arrived", and "New SIM" opening a
    sentence: a thing, no one named); a known first name after the speaker's relative ("my
    gf emma"), and a word tagged a verb's -s form after a preposition ("to leeds uni"), are
    names.
    A statement in capitals ("GOT PROMOTED TO SENIOR DEV") is read in lowercase: the tagger
    takes its words for names."""
    out: list[Token] = []
    shouted = _shouted(tokens)
    named_after = slot_table()["cues"]["en"]["verb_named_after"]
    plain = False  # inside a lowercase run the tagger took for a name that is none
    for i, tok in enumerate(tokens):
        if shouted and tok.text.isupper():
            pos = "NOUN" if tok.pos == "PROPN" else tok.pos
            tok = attrs.evolve(tok, text=tok.text.lower(), pos=pos)
        low = tok.text.islower() and tok.text.isalpha()
        opening = i == 0 and tok.text.lower() in ADJECTIVES  # "New SIM, new number: ..."
        run = (low or plain or opening) and tok.pos == "PROPN"
        plain = run and (plain or tok.text.lower() in ADJECTIVES)
        if plain:
            tok = attrs.evolve(tok, pos="ADJ" if tok.text.lower() in ADJECTIVES else "NOUN")
        if low and tok.pos == "PROPN" and tok.text in role_slots():
            tok = attrs.evolve(tok, pos="NOUN")  # "landlord's a guy called ...": no one named
        if low and (names_after_relation(tokens, i) or _paired_name(tokens, i)):  # "my gf emma"
            tok = attrs.evolve(tok, pos="PROPN")
        if low and tok.tag == "VBZ" and i and tokens[i - 1].text.lower() in named_after:
            tok = attrs.evolve(tok, pos="PROPN")  # "transferred to leeds uni": no "to" + -s verb
        if low and tok.tag == "VB" and i and tokens[i - 1].text.lower() == "to" and _drug(tok):
            tok = attrs.evolve(tok, pos="NOUN")  # "switched to citalopram": no "to" + verb
        if low and (tok.pos == "PROPN" or tok.text == "i"):
            tok = attrs.evolve(tok, text=tok.text[:1].upper() + tok.text[1:])
        out.append(tok)
    return tuple(out)


def _shouted(tokens: Sequence[Token]) -> bool:
    words = [t.text for t in tokens if t.text.isalpha() and len(t.text) > 1]
    return len(words) >= 3 and all(w.isupper() for w in words)


def slot_words(slots: Iterable[str], language: str = "en") -> list[str]:
    """The keyword terms that stand for these slots in questions ("live", "home" for where
    one lives; 住, 家 in Chinese), as stems: added to a fact's terms so that recall finds it
    in other words."""
    table = slot_table()["slots"]
    out: list[str] = []
    for slot in slots:
        spec = table.get(slot.partition(":")[0], {})
        words = (spec if language == "en" else spec.get(language, {})).get("query_words", ())
        # a role's own words too ("therapist" for doctor:therapist)
        for word in (*words, *role_words(slot, (language,))):
            for term in content_terms(word):
                if term not in out:
                    out.append(term)
    return out


def asked_words(sentences: Sequence[Sentence]) -> list[str]:
    """The keyword terms of the slots a question's own words name (我现在归谁管: a manager's,
    as 归*管 reads a statement), so that it finds a fact of that slot in other words; not
    of the table's `unasked_slots`, whose words (like, love) would only make it slower."""
    table = slot_table()
    slots = [
        d.slot
        for s in sentences
        for d in _phrased(s.text, s.tokens)
        if d.slot.split(":", 1)[0] in table["slots"]
        and d.slot.split(":", 1)[0] not in table["unasked_slots"]
    ]
    language = "zh" if any(_CJK.search(s.text) for s in sentences) else "en"
    return slot_words(dict.fromkeys(slots), language)


def claim_words(
    drafts: Sequence[ClaimDraft], language: str = "en", named: Iterable[str] = ()
) -> list[str]:
    """`slot_words` of the claims' slots, then the categories of what they name and of the
    `named` terms ("bank" for "I'm with Monzo now", "car" for 新车到了; `families.category_words`)
    with the words of the slot a category is, as stems."""
    out = slot_words((d.slot for d in drafts), language)
    categories = category_words([*(k for d in drafts for k in d.keys), *named])
    table = slot_table()["slots"]
    # A category that names a slot brings that slot's words: "Kia Niro" is a car, so
    # "What am I driving?" finds it as it finds "I drive a Golf".
    kinds = (category_slot(c) for c in categories if category_slot(c) in table)
    for word in (*categories, *slot_words(kinds, language)):
        for term in content_terms(word):
            if term not in out:
                out.append(term)
    return out


def claim_context(concepts: Sequence[str], text: str, language: str) -> list[str]:
    """The words a statement's claims are held under besides their values: its concepts,
    and in English every other content word's stem that no family holds and no slot is
    said in (a club the tagger reads as no noun, "serpentine running club", is named too;
    "my mobile number" does not become a fact about phones by it, nor "allergic" a word
    every allergy shares); no key longer than a concept's (`MAX_KEY`: an index refuses it)."""
    keys = list(concepts)
    if language == "en":
        plain = _phrasing_words()
        keys += [
            t
            for t in content_terms(text)
            if len(t) <= MAX_KEY and t not in keys and not in_family(t) and t not in plain
        ]
    return keys


@cache
def _phrasing_words() -> frozenset[str]:
    """The stems of the slot table's English phrasings and question words: the words a
    slot is said in ("allergic"), which name no thing of their own."""
    words: set[str] = set()
    for spec in slot_table()["slots"].values():
        said = [*spec.get("en", {}).get("claim", ()), *spec.get("en", {}).get("end", ())]
        for phrasing in (*said, *spec.get("query_words", ())):
            words.update(content_terms(phrasing.partition("=>")[0].replace("{v}", " ")))
    return frozenset(words)
