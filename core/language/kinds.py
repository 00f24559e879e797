"""Statement kinds (the write-up's :SAID, :BELIEVES, :PREFERS, :HAS_INTENT), classified offline.

The rules read the parsed sentence (words and their UPOS tags), so they work with every
extractor; an LLM, when configured, may classify instead (`llm.classify_kinds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from bitemporal_core.language import _zh_cues as zh
from bitemporal_core.language.extract import Token

__all__ = ["ABSTRACTION", "KINDS", "classify"]

KINDS: tuple[str, ...] = ("said", "belief", "preference", "intent", "plan", "event")
"""The statement kinds the classifier chooses from; "said" when nothing more specific fits."""

ABSTRACTION = "abstraction"
"""The kind of a memory written by `MemoryStore.abstract` (a digest of related facts)."""

_PREFERENCE = frozenset(
    [
        "like",
        "likes",
        "liked",
        "love",
        "loves",
        "loved",
        "enjoy",
        "enjoys",
        "enjoyed",
        "prefer",
        "prefers",
        "preferred",
        "hate",
        "hates",
        "hated",
        "dislike",
        "dislikes",
        "disliked",
        "adore",
        "adores",
        "favorite",
        "favourite",
        "fond",
    ]
)
_BELIEF = frozenset(
    [
        "think",
        "thinks",
        "thought",
        "believe",
        "believes",
        "believed",
        "guess",
        "suppose",
        "reckon",
        "doubt",
        "doubts",
        "assume",
        "probably",
        "maybe",
        "perhaps",
        "opinion",
        "convinced",
        "seems",
        "seem",
        "bet",
        "suspect",
    ]
)
_INTENT = frozenset(
    [
        "want",
        "wants",
        "wanna",
        "wish",
        "wishes",
        "hope",
        "hopes",
        "hoping",
        "intend",
        "intends",
        "aim",
    ]
)
_PLAN_WORDS = frozenset(
    [
        "plan",
        "plans",
        "planning",
        "planned",
        "schedule",
        "scheduled",
        "booked",
        "appointment",
        "tomorrow",
        "tonight",
        "upcoming",
    ]
)
_FUTURE_AUX = frozenset({"will", "'ll", "shall", "gonna"})
_PAST_WORDS = frozenset({"yesterday", "ago", "last"})
_PAST_VERBS = frozenset(
    [
        "went",
        "met",
        "saw",
        "bought",
        "visited",
        "got",
        "had",
        "did",
        "made",
        "took",
        "gave",
        "came",
        "left",
        "moved",
        "started",
        "finished",
        "won",
        "lost",
        "found",
        "ate",
        "drove",
        "flew",
        "ran",
        "told",
        "called",
        "married",
        "graduated",
        "joined",
        "quit",
        "broke",
        "celebrated",
        "attended",
        "travelled",
        "traveled",
        "returned",
    ]
)


def classify(tokens: Sequence[Token], language: str = "en") -> str:
    """The kind of one sentence: plan > intent > preference > belief > event > said, from the
    cues of its language ("en", "zh")."""
    if language == "zh":
        return _classify_chinese(tokens)
    words = [t.text.lower() for t in tokens]
    verbs = {w for w, t in zip(words, tokens, strict=True) if t.pos in ("VERB", "AUX")}
    text = " ".join(words)
    if _is_plan(words, text):
        return "plan"
    if verbs & _INTENT or "would like" in text or "'d like" in text or " need to " in f" {text} ":
        return "intent"
    if (verbs | {w for w in words if w in ("favorite", "favourite", "fond")}) & _PREFERENCE:
        return "preference"
    if set(words) & _BELIEF:
        return "belief"
    if verbs & _PAST_VERBS or set(words) & _PAST_WORDS or _has_past_participle(tokens):
        return "event"
    return "said"


def _is_plan(words: list[str], text: str) -> bool:
    if set(words) & _PLAN_WORDS or "going to" in text:
        return True
    return bool(set(words) & _FUTURE_AUX) and ("next" in words or "later" in words)


def _has_past_participle(tokens: Sequence[Token]) -> bool:
    """A regular past-tense verb ("I visited", "we celebrated") after a subject pronoun."""
    for before, token in pairwise(tokens):
        word = token.text.lower()
        if (
            token.pos == "VERB"
            and word.endswith("ed")
            and before.text.lower() in ("i", "we", "he", "she", "they")
        ):
            return True
    return False


def _before(tokens: Sequence[Token], words: frozenset[str], pos: tuple[str, ...]) -> bool:
    """One of `words`, as a word of its own, followed by a word tagged one of `pos`."""
    return any(a.text in words and b.pos in pos for a, b in pairwise(tokens))


def _classify_chinese(tokens: Sequence[Token]) -> str:
    """The kind of a Chinese sentence from the cue tables of `_zh_cues`."""
    text = "".join(t.text for t in tokens)
    if zh.PLAN.search(text):
        return "plan"
    wants = any(
        t.pos == "VERB" and len(t.text) > 1 and t.text[0] == "想" and t.text not in zh.NOT_WANTING
        for t in tokens
    )
    # 想学 / 想 去 / 要 一杯: a want; 想 你 (miss you) is not.
    object_of_want = ("VERB", "AUX", "NOUN", "NUM")
    if zh.INTENT.search(text) or wants or _before(tokens, zh.INTENT_WORDS, object_of_want):
        return "intent"
    if zh.PREFERENCE.search(text) or _before(tokens, zh.PREFERENCE_WORDS, ("VERB", "AUX")):
        return "preference"
    if zh.BELIEF.search(text):
        return "belief"
    past_verb = any(
        a.pos == "VERB" and (b.text in zh.PAST_MARKERS) for a, b in pairwise(tokens)
    ) or any(t.pos == "VERB" and len(t.text) > 1 and t.text[-1] == "过" for t in tokens)
    if zh.EVENT.search(text) or past_verb:
        return "event"
    return "said"
