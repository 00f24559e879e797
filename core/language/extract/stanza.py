"""Stanza-backed concept extractor: the RecallM reference's tagger (tokenize + pos), for English
and Chinese (docs/chinese.md, "Stanza"). Chinese words are keyed and filtered by the Chinese
concept rule, as rjieba's are."""

from __future__ import annotations

import importlib
import threading
from typing import Any

from bitemporal_core.errors import ExtractorUnavailable
from bitemporal_core.language.extract.base import Sentence, Token, build_sentence, select_concepts
from bitemporal_core.language.extract.chinese import Word, zh_concepts
from bitemporal_core.language.normalise import normalise

__all__ = ["StanzaExtractor"]

# Treebank tags (CTB; UD Chinese GSD) read as the jieba tag the Chinese concept rule excludes.
_TREEBANK_TAGS = {"NT": "t", "M": "q", "NNB": "q"}


class StanzaExtractor:
    """Concept extractor over a Stanza pipeline (needs `stanza`, torch and downloaded models).

    The pipeline is created lazily, never downloading; `from_document` converts an
    already-processed `stanza.Document` without needing a pipeline.
    """

    __slots__ = ("_lang", "_lock", "_pipeline", "_window")

    def __init__(
        self, *, pipeline: Any = None, lang: str = "en", window: int | None = None
    ) -> None:
        """Use `pipeline` (a ``stanza.Pipeline``) if given, else build one for `lang`."""
        self._pipeline = pipeline
        self._lang = lang
        self._window = window
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """Visible description, e.g. ``"stanza:en"``."""
        return f"stanza:{self._lang}"

    @property
    def languages(self) -> tuple[str, ...]:
        """The language its pipeline analyses ("en", "zh"; Stanza's "zh-hans" counts as zh)."""
        return ("zh",) if self._chinese else (self._lang,)

    @property
    def _chinese(self) -> bool:
        return self._lang.split("-")[0] == "zh"

    @property
    def window(self) -> int | None:
        """The `select_concepts` window applied to every sentence (None keeps all)."""
        return self._window

    def load(self) -> Any:
        """Return the pipeline, creating it now if needed; raises `ExtractorUnavailable`."""
        with self._lock:
            if self._pipeline is None:
                self._pipeline = self._create_pipeline()
            return self._pipeline

    def _create_pipeline(self) -> Any:
        """Build a tokenize+pos pipeline from locally installed models only."""
        try:
            stanza = importlib.import_module("stanza")
        except ImportError as e:
            raise ExtractorUnavailable(f"stanza cannot be imported: {e}") from e
        try:
            return stanza.Pipeline(
                lang=self._lang,
                processors="tokenize,pos",
                download_method=None,
                logging_level="WARN",
            )
        except Exception as e:  # stanza raises many types for missing models/resources
            raise ExtractorUnavailable(f"stanza pipeline for {self._lang!r}: {e}") from e

    def sentences(self, text: str) -> list[Sentence]:
        """Run the Stanza pipeline over `text` and convert the result."""
        return self.from_document(self.load()(text))

    def from_document(self, doc: Any) -> list[Sentence]:
        """Convert a ``stanza.Document`` (sentences of words with ``.text``/``.upos``)."""
        result: list[Sentence] = []
        for sent in doc.sentences:
            tokens = [
                Token(
                    text=str(w.text),
                    pos=str(w.upos or "X"),
                    tag=str(getattr(w, "xpos", None) or ""),
                )
                for w in sent.words
            ]
            if not tokens:
                continue
            joiner = "" if self._chinese else " "
            text = str(sent.text or joiner.join(t.text for t in tokens))
            if self._chinese:
                result.append(self._chinese_sentence(text, tokens))
            else:
                result.append(build_sentence(text, tokens, self._window))
        return result

    def _chinese_sentence(self, text: str, tokens: list[Token]) -> Sentence:
        """Stanza's words keyed and filtered by the Chinese concept rule (its own UPOS; time
        nouns and classifiers by their treebank tag are never concepts)."""
        words, at = [], 0
        for token in tokens:
            found = text.find(token.text, at)
            start = found if found >= 0 else at
            at = start + len(token.text)
            tag = _TREEBANK_TAGS.get(token.tag, "")
            words.append(Word(start, at, normalise(token.text), tag, token.pos))
        spans_text = text if at <= len(text) else "".join(t.text for t in tokens)
        concepts = select_concepts(zh_concepts(spans_text, words), self._window)
        return Sentence(text=text, tokens=tuple(tokens), concepts=concepts, language="zh")

    def __repr__(self) -> str:
        """Show the configuration without creating the pipeline."""
        return f"StanzaExtractor(lang={self._lang!r}, window={self._window!r})"
