"""Chinese statements: sentences, words with parts of speech, concepts and keyword terms.

Words and tags come from jieba's dictionary and tag set through `rjieba` (a Rust port: the
same words as `jieba.cut`, dictionary tags, about a thousand times the speed of
`jieba.posseg`; docs/chinese.md has the measurements). The text is normalised first, keeping
its length so that every word maps back to the characters the user wrote: full-width letters,
digits and punctuation are folded to ASCII, traditional characters become simplified (OpenCC
``t2s``, when `opencc-pyo3` is installed). Concepts are the nouns, proper nouns, English words
and information-carrying numbers (ages, prices, counts, codes), keyed by their normalised
simplified form (English words by their Porter stem); time words, dates and durations are left
to the time resolver. Without `rjieba` (``pip install 'bitemporal-memory[zh]'``) Han text still
gets keyword terms (character bigrams) but no concepts.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from bitemporal_core.errors import ExtractorUnavailable
from bitemporal_core.language.detect import has_han
from bitemporal_core.language.extract import _zh_lexicon as lex
from bitemporal_core.language.extract._lexicon import FUNCTION_WORDS
from bitemporal_core.language.extract.base import (
    CONCEPT_POS,
    Concept,
    ConceptExtractor,
    Sentence,
    Token,
    select_concepts,
)
from bitemporal_core.language.extract.terms import english_terms, stem
from bitemporal_core.language.normalise import converter_name, normalise

__all__ = [
    "ChineseExtractor",
    "Word",
    "chinese_terms",
    "concept_spans",
    "segmenter",
    "split_sentences",
    "tag_words",
    "zh_concepts",
    "zh_key",
]

_END = re.compile(r"[。！？；!?;…]+[”’」』）)\"'】]*|\n+")
_LATIN = re.compile(r"[A-Za-z]")
_PUNCT = re.compile(r"[^\w\s]+")
_PLATE = re.compile(r"[A-Za-z][A-Za-z0-9]*[0-9][A-Za-z0-9]*")
_LATIN_RUN_WORDS = 3  # a Latin run of this many words inside Chinese is tagged as English
_HONORIFIC_PREFIXES = frozenset("小老阿")

_lock = threading.Lock()
_segmenters: dict[str, _Segmenter | _Runs] = {}


def zh_key(norm: str) -> str:
    """The concept or term key of a normalised word: English words by Porter stem, the rest
    lowercased as written (simplified)."""
    if norm.isascii() and norm.isalpha():
        return stem(norm)
    return norm.lower()


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of a Chinese text: it ends at 。！？；(and ASCII !?;), … and line
    breaks; closing quotes and brackets stay with their sentence. Blank pieces are dropped."""
    spans, start = [], 0
    for m in _END.finditer(text):
        end = m.start() if m.group().startswith("\n") else m.end()
        spans.append((start, end))
        start = m.end()
    spans.append((start, len(text)))
    out = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if any(ch.isalnum() for ch in text[a:b]):
            out.append((a, b))
    return out


@attrs.frozen(slots=True)
class Word:
    """A word of a Chinese sentence: its span in the sentence, normalised form, jieba tag and
    Universal POS."""

    start: int
    end: int
    norm: str
    tag: str
    upos: str


class _Segmenter:
    """rjieba with this library's user dictionary: one instance per process (~0.3 s to load)."""

    def __init__(self, rjieba: Any) -> None:
        self._jieba = rjieba.Jieba()
        for word, tag in lex.USER_WORDS.items():
            self._jieba.add_word(word, None, tag)
        self.name = f"rjieba {importlib.metadata.version('rjieba')}"

    def tag(self, text: str) -> list[tuple[str, str]]:
        return list(self._jieba.tag(text, True))

    def known(self, word: str) -> bool:
        """True if `word` is in the dictionary (else the HMM made it)."""
        return bool(self._jieba.has_word(word))

    def parts(self, word: str) -> list[str]:
        """The dictionary words of two or more characters inside a longer word (火锅店 ->
        火锅): jieba's search-engine mode."""
        return [p for p in self._jieba.cut_for_search(word, True) if 1 < len(p) < len(word)]


_FALLBACK_WORD = re.compile(
    r"(?P<han>[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3007]+)|(?P<eng>[A-Za-z][A-Za-z0-9]*)"
    r"|(?P<m>[0-9]+(?:\.[0-9]+)?)|(?P<x>\s+|.)",
    re.DOTALL,
)


class _Runs:
    """The fallback without rjieba: each Han run is one word tagged ``han`` (no concept; its
    keyword terms are character bigrams), Latin words ``eng``, numbers ``m``."""

    name = "han-runs (no segmenter: pip install 'bitemporal-memory[zh]')"

    def tag(self, text: str) -> list[tuple[str, str]]:
        return [(m.group(), m.lastgroup or "x") for m in _FALLBACK_WORD.finditer(text)]

    def known(self, word: str) -> bool:
        return True

    def parts(self, word: str) -> list[str]:
        return []


def segmenter() -> _Segmenter | _Runs:
    """The process's segmenter: rjieba when installed, else the `_Runs` fallback."""
    with _lock:
        found = _segmenters.get("zh")
        if found is None:
            try:
                found = _Segmenter(importlib.import_module("rjieba"))
            except ImportError:
                found = _Runs()
            _segmenters["zh"] = found
        return found


def _upos(word: str, tag: str) -> str:
    if tag == "x":
        return "PUNCT" if _PUNCT.fullmatch(word) else ("SPACE" if word.isspace() else "X")
    if tag == "eng":
        return "PROPN" if word[:1].isupper() else "NOUN"
    return lex.TAG_UPOS.get(tag, "X")


def _split(seg: _Segmenter | _Runs, text: str, tag: str) -> list[tuple[str, str]]:
    """A word split again where the dictionary glued a verb to its object (吃火锅) or the HMM
    glued a pronoun to a verb (我想学) or a name to the word after it (筱筱在)."""
    if len(text) == 3 and text[0] in lex.VERB_HEADS:
        rest = seg.tag(text[1:])
        if len(rest) == 1 and rest[0][1] in lex.CONCEPT_TAGS:
            return [(text[0], "v"), *rest]
    if len(text) > 1 and text[0] in lex.PRONOUN_HEADS and not seg.known(text):
        return [(text[0], "r"), *seg.tag(text[1:])]
    if len(text) == 3 and text[2] in lex.NAME_GLUE and not seg.known(text):
        if tag.startswith("nr"):
            return [(text[:2], "nr"), *seg.tag(text[2])]  # a name joined to 在, 说...
        if text[0] == text[1]:
            return [*seg.tag(text[:2]), *seg.tag(text[2])]  # 筱筱在厦门: 筱筱 | 在
    return [(text, tag)]


def tag_words(norm: str) -> list[Word]:
    """The words of a normalised sentence with their tags, dictionary fixes and merges applied
    (小 + surname, surname + title, a province letter + plate, a numeral + 号线)."""
    return list(_tag_words(norm, segmenter()))


@functools.lru_cache(maxsize=1024)  # a statement's words serve its concepts and its terms
def _tag_words(norm: str, seg: _Segmenter | _Runs) -> tuple[Word, ...]:
    words, at = [], 0
    for text, raw in seg.tag(norm):
        for part, part_tag in _split(seg, text, raw):
            tag = lex.TAG_OVERRIDES.get(part, part_tag)
            words.append(Word(at, at + len(part), part, tag, _upos(part, tag)))
            at += len(part)
    return tuple(_merge(words))


def _merge(words: list[Word]) -> list[Word]:
    out: list[Word] = []
    for w in words:
        prev = out[-1] if out else None
        if prev is not None and prev.end == w.start:
            joined = prev.norm + w.norm
            name = prev.norm in _HONORIFIC_PREFIXES and w.tag.startswith("nr") and len(w.norm) == 1
            name = name or (prev.norm in lex.SURNAMES and w.norm in lex.TITLES)
            plate = len(prev.norm) == 1 and prev.tag in ("ns", "j") and _PLATE.fullmatch(w.norm)
            line = prev.upos == "NUM" and prev.norm.isdigit() and w.norm == "号线"
            if name or plate or line:
                tag = "nr" if name else "nz"
                out[-1] = Word(prev.start, w.end, joined, tag, "PROPN")
                continue
        out.append(w)
    return out


def _is_number(w: str) -> bool:
    return bool(w) and all(c.isdigit() or c in lex.NUMERAL_CHARS or c in ".%" for c in w)


def _followed_by_time(rest: Sequence[Word]) -> bool:
    """The next words (a bare classifier skipped) start a time unit: 两 个 小时."""
    following = [w.norm for w in rest[:3] if not w.norm.isspace()][:2]
    if len(following) > 1 and len(following[0]) == 1 and following[0] in lex.CLASSIFIERS:
        following = following[1:]
    return bool(following) and following[0].startswith(lex.TIME_FOLLOWERS)


def _numeral_span(w: Word, rest: Sequence[Word]) -> tuple[int, int] | None:
    """The part of a numeral word that is a concept (4500块 -> 4500), or None: a date, clock
    time or duration (三月, 十二号, 两 个 小时), or 一/几/半 used as an article."""
    text, end = w.norm, w.end
    if text[-1] in lex.TIME_UNITS:
        return None
    if len(text) > 1 and text[-1] in lex.CLASSIFIERS and _is_number(text[:-1]):
        text, end = text[:-1], end - 1
    if not (_is_number(text) or (text.startswith("第") and _is_number(text[1:]))):
        return None
    if text in lex.WEAK_NUMERALS or _followed_by_time(rest):
        return None
    return w.start, end


def _concept_span(w: Word, rest: Sequence[Word]) -> tuple[int, int] | None:
    """The span of `w` that is a concept, or None (the concept rule of docs/chinese.md)."""
    if w.upos == "NUM":
        return _numeral_span(w, rest)
    if _LATIN.search(w.norm):
        if w.tag == "eng" and w.norm.lower() in FUNCTION_WORDS:
            return None
        return (w.start, w.end) if w.upos in CONCEPT_POS else None
    if w.tag not in lex.CONCEPT_TAGS and not (w.tag == "" and w.upos in ("NOUN", "PROPN")):
        return None
    if w.norm in lex.LIGHT_NOUNS or lex.TIME_WORD.fullmatch(w.norm):
        return None
    return w.start, w.end


def concept_spans(words: Sequence[Word]) -> list[tuple[int, int, int]]:
    """Every concept mention among a sentence's words: (word index, start, end), in order."""
    out = []
    for position, w in enumerate(words):
        span = _concept_span(w, words[position + 1 :])
        if span is not None:
            out.append((position, *span))
    return out


def zh_concepts(sentence: str, words: Sequence[Word]) -> tuple[Concept, ...]:
    """The concepts of a sentence's words, first mention of each key, in order; `display` is
    the text as written (traditional stays traditional), the key its simplified form."""
    seen: set[str] = set()
    found: list[Concept] = []
    for position, start, end in concept_spans(words):
        w = words[position]
        key = zh_key(w.norm[: end - w.start])
        if not key or key in seen:
            continue
        seen.add(key)
        found.append(Concept(key, sentence[start:end], w.upos, position))
    return tuple(found)


def _english_runs(sentence: str, words: list[Word], english: ConceptExtractor) -> list[Word]:
    """Latin runs of at least three words inside a Chinese sentence ("他说 I will be late")
    re-tagged by the English extractor, so English verbs and function words are not nouns."""
    out: list[Word] = []
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and (words[j].tag == "eng" or words[j].norm.isspace()):
            j += 1
        run = [w for w in words[i:j] if w.tag == "eng"]
        if len(run) < _LATIN_RUN_WORDS:
            out.extend(words[i : max(j, i + 1)])
            i = max(j, i + 1)
            continue
        start, end = run[0].start, run[-1].end
        at = start
        for sent in english.sentences(sentence[start:end]):
            for token in sent.tokens:
                found = sentence.find(token.text, at, end)
                if found < 0:
                    continue
                at = found + len(token.text)
                out.append(Word(found, at, token.text, "eng", token.pos))
        i = j
    return out


def _tokens(sentence: str, words: Iterable[Word]) -> tuple[Token, ...]:
    return tuple(
        Token(text=sentence[w.start : w.end], pos=w.upos, tag=w.tag)
        for w in words
        if not w.norm.isspace()
    )


@attrs.frozen(slots=True)
class ChineseExtractor:
    """Concept extractor for Chinese: rjieba words and tags, the Chinese concept rule.

    `english` tags longer English runs inside a Chinese sentence (default: the built-in tagger).
    """

    window: int | None = attrs.field(default=None, kw_only=True)
    english: ConceptExtractor | None = attrs.field(default=None, kw_only=True)
    languages: tuple[str, ...] = attrs.field(default=("zh",), init=False)

    @property
    def name(self) -> str:
        """The segmenter and the converter, e.g. ``"rjieba 0.2.2+opencc-t2s"`` (loads them)."""
        converter = converter_name()
        return segmenter().name + (f"+{converter}" if converter else "")

    def load(self) -> None:
        """Load the segmenter now; raises `ExtractorUnavailable` without rjieba (the extractor
        then runs on its fallback: no Chinese concepts, bigram keyword terms)."""
        if isinstance(segmenter(), _Runs):
            raise ExtractorUnavailable(
                "Chinese segmentation needs rjieba: pip install 'bitemporal-memory[zh]'"
            )

    def words(self, sentence: str) -> list[Word]:
        """The tagged words of one sentence (spans into `sentence`)."""
        norm = normalise(sentence)
        words = tag_words(norm)
        if self.english is not None and sum(w.tag == "eng" for w in words) >= _LATIN_RUN_WORDS:
            words = _english_runs(norm, words, self.english)
        return words

    def sentence(self, text: str) -> Sentence:
        """One sentence analysed as Chinese (no splitting)."""
        words = self.words(text)
        concepts = select_concepts(zh_concepts(text, words), self.window)
        return Sentence(text=text, tokens=_tokens(text, words), concepts=concepts, language="zh")

    def sentences(self, text: str) -> list[Sentence]:
        """Split `text` at Chinese sentence ends and analyse each sentence."""
        return [self.sentence(text[a:b]) for a, b in split_sentences(text)]


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def chinese_terms(text: str) -> list[str]:
    """The keyword terms of a text holding Han characters: its content words (not
    punctuation, particles, pronouns or the stop words of `_zh_lexicon`), keyed as concepts
    are, each word of three or more characters followed by the dictionary words inside it
    (火锅店 -> 火锅店, 火锅: a question about 火锅 finds it), each two-character word followed
    by the one-character noun it is built on (橘猫 -> 橘猫, 猫); English words as in English.
    Character bigrams of Han runs without rjieba."""
    seg = segmenter()
    terms: list[str] = []
    for w in tag_words(normalise(text)):
        if w.tag == "eng":
            terms += english_terms(w.norm)
        elif w.tag == "han":
            terms += _bigrams(w.norm)
        elif w.tag not in lex.NON_TERM_TAGS and w.norm not in lex.STOPWORDS and w.upos != "PUNCT":
            key = zh_key(w.norm)
            if key.strip():
                terms.append(key)
                if len(w.norm) > 2 and has_han(w.norm):
                    terms += [p for p in seg.parts(w.norm) if p not in lex.STOPWORDS]
                elif len(w.norm) == 2:
                    terms += _noun_inside(w.norm, w.tag)
    return terms


@functools.lru_cache(maxsize=4096)
def _noun_inside(word: str, tag: str) -> tuple[str, ...]:
    """The one-character noun a two-character word is built on, as a term of its own: the
    head of a compound noun (橘猫 -> 猫, 奶茶 -> 茶), or the subject glued to a verb (猫叫 ->
    猫), so that 我的猫叫什么名字 finds 我养了一只橘猫."""
    seg = segmenter()
    if not isinstance(seg, _Segmenter):
        return ()
    if tag.startswith("n") and seg.tag(word[1]) == [(word[1], "n")]:
        return (word[1],)
    if tag == "v" and seg.tag(word[0]) == [(word[0], "n")] and seg.tag(word[1])[0][1] == "v":
        return (word[0],)
    return ()
