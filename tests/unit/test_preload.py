"""`MemoryStore(preload=True)`: the extractor's models load in a background thread."""

from __future__ import annotations

import threading

import pytest

from bitemporal_core import InvalidInput, MemoryStore
from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.extract import MultilingualExtractor


def test_preload_chooses_the_extractor_in_a_thread() -> None:
    analyser = Analyser(extractor="simple")
    thread = analyser.preload()
    assert thread.daemon and thread.name == "bitemporal-preload"
    thread.join(timeout=60)
    assert not thread.is_alive()
    chosen = analyser.extractor
    assert isinstance(chosen, MultilingualExtractor)
    assert analyser.extractor is chosen, "the first use takes what the thread loaded"


def test_a_preloaded_store_remembers_and_recalls() -> None:
    store = MemoryStore.embedded(None, extractor="simple", preload=True)
    try:
        for thread in threading.enumerate():
            if thread.name == "bitemporal-preload":
                thread.join(timeout=60)
        store.remember("I keep bees on the roof.", namespace="p")
        assert [h.fact.text for h in store.recall("bees", namespace="p")] == [
            "I keep bees on the roof."
        ]
    finally:
        store.close()


def test_preload_must_be_a_bool() -> None:
    with pytest.raises(InvalidInput, match="preload"):
        MemoryStore.embedded(None, preload="yes")  # type: ignore[arg-type]


def test_questions_are_read_without_the_model_unless_one_is_chosen() -> None:
    """With the default choice a question is read by the built-in tagger, so a recall never
    waits for spaCy; an extractor chosen by name or object reads questions too."""
    default = Analyser()
    reader = default.query_extractor
    assert reader.extractors["en"].name == "simple"
    assert default._extractor is None, "reading a question loaded no model"
    chosen = Analyser(extractor="spacy")
    assert chosen.query_extractor is chosen.extractor
