"""What the readings tests read: a statement's claims on slots (not `about` or topic
claims), English through the default extractor's sentences, Chinese from the text."""

from __future__ import annotations

from bitemporal_core import default_extractor
from bitemporal_core.language.claims import claims_of
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.slots import ClaimDraft

_UNSLOTTED = ("about", "topic")


def all_drafts(text: str) -> list[ClaimDraft]:
    """Every claim of an English text, sentence by sentence."""
    out: list[ClaimDraft] = []
    for sentence in default_extractor().sentences(text):
        out.extend(claims_of(sentence.text, sentence.tokens))
    return out


def drafts(text: str) -> list[ClaimDraft]:
    """The slot claims of an English text."""
    return [d for d in all_drafts(text) if d.slot not in _UNSLOTTED]


def zh_drafts(text: str) -> list[ClaimDraft]:
    """The slot claims of a Chinese text."""
    return [d for d in claims_zh(text) if d.slot not in _UNSLOTTED]


def rows(drafts: list[ClaimDraft], *, lower: bool = False) -> list[tuple[str, str, str, str, bool]]:
    """Who, slot, value and polarity of each claim; `lower` for values the tagger may
    capitalise ("50 MG")."""
    return [
        (d.subject_kind, d.subject, d.slot, d.value.lower() if lower else d.value, d.positive)
        for d in drafts
    ]
