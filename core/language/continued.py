"""What a message says goes on as it was ("got a work iphone, the pixel stays my personal
one", "the ma carries on as normal", 旧手机还留着): the words it names right before a
`continues` cue of the slot table, so that a new value said with it retires nothing those
words name (docs/design.md, "Memory formation")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from bitemporal_core.language.claims_en import keys_of
from bitemporal_core.language.detect import has_han
from bitemporal_core.language.extract.chinese import tag_words
from bitemporal_core.language.families import family_heads
from bitemporal_core.language.normalise import normalise
from bitemporal_core.language.slots import slot_table
from bitemporal_core.language.topics import topic_terms

__all__ = ["continued", "names_any"]

_WORD = re.compile(r"[a-z0-9][a-z0-9'._@-]*")
_BREAKS = frozenset(",.;:!?()")
_REACH = 2  # words before the cue: "the old number stays", "gmail stays"


def continued(text: str, language: str) -> frozenset[str]:
    """The words a statement says go on unchanged (lowercase): the last words before each
    of its `continues` cues, back to the clause's start, less the `continues_skip` words."""
    cues = slot_table()["cues"]
    if language == "zh":
        return _continued_zh(text, cues["zh"]["continues"])
    low = text.lower().replace("’", "'")
    skip = set(cues["en"]["continues_skip"])
    found: set[str] = set()
    for m in _cue_en().finditer(low):
        head = low[: m.start()]
        cut = max((head.rfind(c) for c in _BREAKS), default=-1)
        words = [w for w in _WORD.findall(head[cut + 1 :]) if w not in skip]
        found.update(words[-_REACH:])
    return frozenset(found)


@cache
def _cue_en() -> re.Pattern[str]:
    """The English `continues` cues as whole words, not before a `continues_not_before` word
    ("my sister stays with us now": a stay, not something going on as it was)."""
    en = slot_table()["cues"]["en"]
    cues = "|".join(map(re.escape, sorted(en["continues"], key=len, reverse=True)))
    stay = "|".join(map(re.escape, en["continues_not_before"]))
    return re.compile(rf"(?<![a-z])(?:{cues})(?![a-z])(?!\s+(?:{stay})\b)")


def _continued_zh(text: str, cues: Iterable[str]) -> frozenset[str]:
    """The noun right before each Chinese `continues` cue (旧手机还留着: 手机)."""
    said = normalise(text)
    cues = [cue for cue in cues if cue in said]
    words = tag_words(said) if cues else []
    found: set[str] = set()
    for cue in cues:
        start = said.find(cue)
        while start >= 0:
            before = [w for w in words if w.end <= start and w.tag.startswith(("n", "eng"))]
            if before and before[-1].end >= start - 2:  # 旧号也还在: one word between
                found.add(before[-1].norm)
            start = said.find(cue, start + 1)
    return frozenset(found)


def names_any(text: str, words: frozenset[str]) -> bool:
    """Whether a text names one of the words, whole ("gmail" in "x@gmail.com", not "ma" in
    "management"; Chinese words by substring), or a thing of a family one of them is of
    ("the iphone stays" keeps "my old phone has a cracked screen": both are phones)."""
    if not words:
        return False
    low = text.lower()
    kept = {head for w in words for head in _families(w)}
    if kept and kept & _families(text):
        return True
    return any(
        (w in low)
        if re.search(r"[\u4e00-\u9fff]", w)
        else re.search(r"(?<![a-z0-9])" + re.escape(w) + r"(?![a-z0-9])", low) is not None
        for w in words
    )


def _families(text: str) -> set[str]:
    """The first words of the families a text's words are of (iphone, 华为 -> phone)."""
    words = [text] if has_han(text) else list(keys_of(text))
    return topic_terms(words) & family_heads()
