"""English values: the noun phrase a phrasing names, after it or right before it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from bitemporal_core.language.detect import has_han
from bitemporal_core.language.extract import Token
from bitemporal_core.language.extract.terms import stem
from bitemporal_core.language.people import is_first_name
from bitemporal_core.language.slots import slot_table

__all__ = ["clock_time", "is_time", "names_time", "value_at", "value_before"]

_VALUE_POS = frozenset({"PROPN", "NOUN", "NUM", "ADJ", "X", "SYM"})
_SKIP_POS = frozenset({"DET", "PRON", "PUNCT"})
_MAX_VALUE = 6


def value_at(clause: Sequence[Token], at: int) -> str:
    """The noun phrase starting at `at`: determiners, possessives and adverbs such as "now"
    skipped, then names, nouns, numbers and adjectives (with "of" between two of them, and
    "'s" inside a name: "King's College"), at most six words. A first word the tagger took
    for a verb counts when no object follows it ("allergic to shellfish,")."""
    if at < len(clause) and _object_pronoun(clause[at]):
        return ""  # "it drives me mad": the verb's object is a person, no value
    i = at
    cues = slot_table()["cues"]["en"]
    skip, ends = set(cues["value_skip"]), set(cues["value_end"])
    nominal = set(cues["nominal_words"])  # "head chef", "team lead": no verbs in a value
    while i < len(clause) and (
        (clause[i].pos in _SKIP_POS and clause[i].text not in "£$€")
        or clause[i].text.lower() in skip
    ):
        i += 1
    i = _after_called(clause, i)
    words: list[str] = []
    while i < len(clause) and len(words) < _MAX_VALUE:
        tok = clause[i]
        nxt = clause[i + 1] if i + 1 < len(clause) else None
        shouted = tok.text.isupper() and tok.pos not in ("PROPN", "NOUN")  # "cancelled AGAIN"
        named = tok.text[:1].isupper() and tok.text.isalpha() and i > 0 and not shouted
        joint = tok.text in "£$€@-'" or tok.text.lower() == "of"
        later = nxt is not None and nxt.pos in _VALUE_POS
        inside = tok.text == "'s" and bool(words) and nxt is not None and nxt.text[:1].isupper()
        mislabelled = (
            not words and tok.pos == "VERB" and (_bare(tok, nxt) or _after_verb(clause, i))
        )
        linked = (joint and bool(words) and later) or inside
        kept = tok.pos in _VALUE_POS or (tok.text.lower() in nominal and _in_title(words, nxt))
        if tok.text == "." or not (kept or named or mislabelled or linked):
            break
        if words and tok.text.lower() in ends:
            break
        if words and _time_frame(tok, nxt) and not is_time(" ".join(words)):
            break  # "running last month": the time is no part of it ("17 april next year" is)
        words.append(tok.text)
        i += 1
    return " ".join(words).replace(" 's ", "'s ").strip(" .-'")


def _in_title(words: Sequence[str], nxt: Token | None) -> bool:
    """Whether a word of `nominal_words` stands in a title: before a noun ("head chef") or
    after one, ending the phrase ("team lead at Monzo"; not "moved to Leeds head back")."""
    if nxt is not None and nxt.pos == "NOUN":
        return True
    return bool(words) and (nxt is None or nxt.pos in ("PUNCT", "ADP")) and words[-1].islower()


def _after_verb(clause: Sequence[Token], i: int) -> bool:
    """A present-tense verb right after another verb, which English does not say: a word the
    tagger mistook ("started citalopram 10mg": a medicine)."""
    return clause[i].tag == "VBP" and i > 0 and clause[i - 1].pos == "VERB"


def _time_frame(tok: Token, nxt: Token | None) -> bool:
    """A time frame opening at `tok`: "last month", "this morning", "next week"."""
    frames = slot_table()["cues"]["en"]["time_frames"]
    times = slot_table()["cues"]["en"]["time_words"]
    return tok.text.lower() in frames and nxt is not None and nxt.text.lower() in times


def _after_called(clause: Sequence[Token], i: int) -> int:
    """Where a value named after what it is starts ("a guy called Mr Patel", "some company
    called Harbour Lettings": the slot table's `called_kinds` and `calling_words`), else `i`."""
    cues = slot_table()["cues"]["en"]
    for k in range(i, min(i + 5, len(clause) - 2)):  # "a small design studio called X"
        kind = clause[k].text.lower() in cues["called_kinds"]
        if kind and clause[k + 1].text.lower() in cues["calling_words"]:
            return k + 2
        if clause[k].pos not in ("DET", "ADJ", "NOUN"):
            break
    j = i + (i < len(clause) and clause[i].pos in ("DET", "ADJ"))
    person = j + 1 < len(clause) and clause[j].text.lower() in cues["called_people"]
    return j + 1 if person and is_first_name(clause[j + 1].text) else i  # "this guy ben"


def _object_pronoun(tok: Token) -> bool:
    """A personal pronoun as an object ("me", "them"; "her" and "it" when tagged so, not
    "her car")."""
    cues = slot_table()["cues"]["en"]
    low = tok.text.lower()
    if low in cues["object_pronouns_if_tagged"]:  # "her car", "moved to the US"
        return tok.tag == "PRP" and tok.text != "US"
    return low in cues["object_pronouns"]


def _bare(tok: Token, nxt: Token | None) -> bool:
    """A word tagged as a verb that stands alone as a value: a gerund ("given up running")
    or a noun the tagger mislabelled, with no object after it; not a verb in the past tense
    ("the team I follow lost again") or one said of a third person ("runs out")."""
    word = tok.text
    if tok.tag in ("VBD", "VBN", "VBZ"):
        return False  # "the contract runs out": a verb of its own
    timed = nxt is not None and nxt.text.lower() in slot_table()["cues"]["en"]["time_words"]
    if nxt is not None and nxt.pos in ("DET", "PRON", "PROPN", "NOUN", "NUM") and not timed:
        return word.lower().endswith("ing")  # "goodbye to biscuit this morning": no object
    return word.isalpha() and not word.lower().endswith("ed")


def value_before(clause: Sequence[Token], end: int) -> str:
    """The noun phrase that ends right before `end` ("The Lisbon trip" is off)."""
    i = end
    while i > 0 and (clause[i - 1].pos in _VALUE_POS or clause[i - 1].text[:1].isupper()):
        if clause[i - 1].pos in ("PRON", "DET", "PUNCT"):
            break
        i -= 1
    return " ".join(t.text for t in clause[i:end][-_MAX_VALUE:])


_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}\s*(?:[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?", re.IGNORECASE)


def is_time(text: str) -> bool:
    """Whether a value or a key says only a time: time words (or their stems), ordinals and
    numbers ("Thursday the 14th", "2 pm", "june"); in Chinese, only the characters of dates
    and times (下周一上午十点, 月底; the slot table's `time_chars`)."""
    if has_han(text):
        chars = slot_table()["cues"]["zh"]["time_chars"]
        return all(ch in chars for ch in text if not ch.isspace())
    words = _words(text)
    return bool(words) and all(w[0].isdigit() or w in _time_words() for w in words)


def names_time(text: str) -> bool:
    """Whether a value names a time at all: a number or ordinal, a time word or a word of the
    slot table's `date_words` ("the 3rd", "Easter", "half term"; not "the Montessori place",
    what a child is moved to)."""
    named = set(slot_table()["cues"]["en"]["date_words"]) | _time_words()
    return any(w[0].isdigit() or w in named or w.removesuffix("s") in named for w in _words(text))


def _words(text: str) -> list[str]:
    """A value's words and numbers (ordinals whole: "3rd"), in lower case."""
    return [w.lower() for w in re.findall(r"\d+(?:st|nd|rd|th)?|[a-zA-Z']+", text)]


@cache
def _time_words() -> frozenset[str]:
    """The English time words and fillers, as written and as stems (a key is a stem)."""
    cues = slot_table()["cues"]["en"]
    words = {*cues["time_words"], *cues["time_fillers"]}
    return frozenset(words | {stem(w) for w in words})


def clock_time(value: str) -> bool:
    """Whether a value is a clock time ("5:45", "7am"), which digits alone are not."""
    return _CLOCK.fullmatch(value.strip()) is not None
