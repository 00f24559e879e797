"""Porter stemming for concept keys and stemmed English content terms for the BM25 keyword
index (`multilingual.content_terms` adds Chinese)."""

from __future__ import annotations

import importlib
import re
import threading
from functools import lru_cache
from typing import Any

__all__ = ["STOPWORDS", "english_terms", "stem"]

_STOPWORD_TEXT = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just let me more most my myself no nor not now of off on once only
    or other our ours ourselves out over own same shall she should so some such than that
    the their theirs them themselves then there these they this those through to too under
    until up very was we were what when where which while who whom whose why will with
    would you your yours yourself yourselves also may might must ca wo sha yes ok okay
"""
STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())
"""Compact English stopword list (function words only; no NLTK data needed)."""

# Punctuation inside a word is dropped, except separators between two digits ("3.5", "1,000").
_PUNCT = re.compile(r"(?:[^\w]|_)(?!(?<=\d[.,:/])\d)")
_TERM = re.compile(r"\d+(?:[.,]\d+)*|[^\W_]+(?:['’][^\W_]+)*")
_CLITICS = frozenset({"s", "m", "re", "ve", "ll", "d"})

_stemmer_lock = threading.Lock()


@lru_cache(maxsize=1)
def _porter() -> Any:
    """Load snowballstemmer's original Porter algorithm (cheap: ~30 ms, pure Python)."""
    snowball = importlib.import_module("snowballstemmer")
    return snowball.stemmer("porter")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Lowercase `word`, strip punctuation and Porter-stem it ("Coffee" -> "coffe").

    Tokens containing digits are returned cleaned but unstemmed ("3.5" -> "3.5").
    """
    cleaned = _PUNCT.sub("", word.lower())
    if not cleaned or any(ch.isdigit() for ch in cleaned):
        return cleaned
    stemmer = _porter()
    with _stemmer_lock:  # snowball stemmer objects keep per-call state
        return str(stemmer.stemWord(cleaned))


def _strip_clitic(word: str) -> str:
    """Drop an English clitic: "brandon's" -> "brandon", "don't" -> "do", "o'brien" kept."""
    head, _, tail = word.replace("’", "'").rpartition("'")
    if not head:
        return word
    if tail == "t" and head.endswith("n"):
        return head[:-1]
    if tail in _CLITICS:
        return head
    return head + tail


def english_terms(text: str) -> list[str]:
    """Return the stems of the English content words of `text`, in order, for keyword search.

    Lowercases, removes English stopwords and single letters, keeps numbers.
    """
    terms: list[str] = []
    for match in _TERM.finditer(text.lower()):
        word = _strip_clitic(match.group())
        if word in STOPWORDS or (len(word) < 2 and not word.isdigit()):
            continue
        key = stem(word)
        if key:
            terms.append(key)
    return terms
