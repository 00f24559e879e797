"""English clauses: where a sentence's phrasings stop reading one subject."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from bitemporal_core.language.clauses import is_emoji, unhyphened
from bitemporal_core.language.extract import Token
from bitemporal_core.language.people import relation_words
from bitemporal_core.language.slots import slot_table

__all__ = ["CLAUSE_BREAK", "clauses"]

CLAUSE_BREAK = frozenset({",", ";", ":", "—", "–", "-", "but", "so", "and", "because", "though"})
"""The words (and marks) a clause may break at."""


def clauses(tokens: Sequence[Token], *, lead: bool = False) -> Iterator[list[Token]]:
    """The clauses of a sentence (hyphens dropped): split where a break word (a comma,
    "so", "but", ...) is followed by a new subject (a pronoun or a name); with `lead`, also
    where a comma is followed by break words or adverbs and then a subject (", so now I"):
    who a slot's phrasing is about, not what a change of topic names."""
    current: list[Token] = []
    subjects = set(slot_table()["cues"]["en"]["clause_subjects"])
    kept = unhyphened(tokens)
    for i, tok in enumerate(kept):
        low = tok.text.lower()
        nxt = kept[i + 1] if i + 1 < len(kept) else None
        prev = current[-1] if current else None
        named = (
            nxt is not None
            and nxt.pos == "PROPN"
            and not (prev and prev.pos in ("PROPN", "NOUN"))
            and _verb_after_name(kept, i + 1)
        )
        starts = nxt is not None and (nxt.text.lower() in subjects or named)
        starts = starts or (low == "," and _noun_subject(kept[i + 1 : i + 6]))
        if lead and not starts and low == ",":
            starts = _subject_after_lead(kept[i + 1 : i + 4], subjects)
        pair = low == "and" and _named_pair(current)  # "me and Jake have been together"
        if (
            current
            and not pair
            and ((low in CLAUSE_BREAK and (starts or low in {";", "—"})) or is_emoji(tok.text))
        ):
            yield current
            current = []
            continue
        current.append(tok)
    if current:
        yield current


def _named_pair(current: Sequence[Token]) -> bool:
    """The words before an "and" are one or two names or pronouns and nothing else: a
    subject of two ("me and Jake", "Dan and Sophie"), not a clause of its own."""
    n = 0
    while n < len(current) and (current[n].text.lower() in CLAUSE_BREAK or current[n].pos == "ADV"):
        n += 1  # "so me and tom are done"
    rest = current[n:]
    return 0 < len(rest) <= 2 and all(
        t.pos in ("PRON", "PROPN") or t.text.lower() in relation_words() for t in rest
    )


def _subject_after_lead(ahead: Sequence[Token], subjects: set[str]) -> bool:
    """Break words or adverbs, then a subject: ", so now I report to ..."."""
    n = 0
    while n < len(ahead) and (ahead[n].text.lower() in CLAUSE_BREAK or ahead[n].pos == "ADV"):
        n += 1
    return 0 < n < len(ahead) and ahead[n].text.lower() in subjects


def _noun_subject(ahead: Sequence[Token]) -> bool:
    """A noun phrase and its finite verb: ", the kids only watch bluey" starts a clause of
    its own (what it names is not what the change before it named)."""
    if not ahead or ahead[0].tag not in ("DT", "PRP$"):
        return False
    n = 1
    while n < len(ahead) and ahead[n].tag in ("JJ", "NN", "NNS") and n < 3:
        n += 1
    if n == 1 or ahead[n - 1].tag not in ("NN", "NNS"):
        return False
    n += n < len(ahead) and ahead[n].pos == "ADV"
    return n < len(ahead) and ahead[n].tag in ("VBZ", "VBP", "VBD", "MD")


def _verb_after_name(tokens: Sequence[Token], i: int) -> bool:
    """The name starting at `i` is followed by a verb (it starts a clause of its own)."""
    while i < len(tokens) and tokens[i].pos == "PROPN":
        i += 1
    return i < len(tokens) and tokens[i].pos in ("VERB", "AUX", "PART", "ADV")
