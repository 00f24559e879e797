"""Bulk import with the analysis process (`remember_many(parallel=...)`) equals without it."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import Basis, ExtractorUnavailable, InvalidInput, MemoryStore
from bitemporal_core.language.extract import SpacyExtractor
from bitemporal_core.language.extract.spacy import DEFAULT_SPACY_MODEL

T0 = datetime(2024, 6, 1, 8, 0, tzinfo=UTC)
TEXTS = [
    "My sister Anna moved to Berlin last year.",
    "I am allergic to peanuts. Yesterday I visited the dentist.",
    "We plan to buy a new car next month!",
    "Tom thinks the project budget is too small.",
    "I prefer green tea to coffee in the morning.",
]
ITEMS = [{"text": f"{TEXTS[i % 5]} Note {i}.", "at": T0 + timedelta(minutes=i)} for i in range(120)]


def _content(store: MemoryStore) -> list[tuple[object, ...]]:
    later = T0 + timedelta(days=30)
    facts = store.snapshot("n", basis=Basis(valid_at=later, known_at=later))
    return sorted((f.text, f.kind, f.valid_from, f.valid_to, f.t_index) for f in facts)


@pytest.fixture
def pair(extractor: object) -> Iterator[tuple[MemoryStore, MemoryStore]]:
    if not isinstance(extractor, SpacyExtractor):
        pytest.skip("the default extractor here is not spaCy")
    stores = (MemoryStore.embedded(None, extractor=extractor), MemoryStore.embedded(None))
    yield stores
    for s in stores:
        s.close()


def test_parallel_import_writes_what_an_in_process_import_writes(
    pair: tuple[MemoryStore, MemoryStore],
) -> None:
    serial, parallel = pair
    one = serial.remember_many(ITEMS, namespace="n", chunk=25, parallel=False)
    two = parallel.remember_many(ITEMS, namespace="n", chunk=25, parallel=True)
    assert parallel.services.pool.worker_pid is not None, "the analysis process ran"
    assert [[f.text for f in g] for g in one] == [[f.text for f in g] for g in two]
    assert _content(serial) == _content(parallel)
    keys = sorted({c.key for c in serial.concepts(namespace="n", limit=500)})
    graph = [serial.concept_graph(keys, namespace="n"), parallel.concept_graph(keys, namespace="n")]
    assert graph[0] == graph[1]
    parallel.close()
    assert parallel.services.pool.worker_pid is None, "close stops the analysis process"


def test_a_dead_analysis_process_is_an_error_and_the_next_import_starts_another(
    pair: tuple[MemoryStore, MemoryStore],
) -> None:
    _, store = pair
    store.remember_many(ITEMS[:50], namespace="n", chunk=25, parallel=True)
    pid = store.services.pool.worker_pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)  # reaped here: the pool's own wait then finds it gone
    before = _content(store)
    with pytest.raises(ExtractorUnavailable):
        store.remember_many(ITEMS[50:100], namespace="n", chunk=25, parallel=True)
    assert _content(store) == before, "nothing of the failed chunk was written"
    store.remember_many(ITEMS[50:100], namespace="n", chunk=25, parallel=True)
    assert len(_content(store)) > len(before)


def test_an_extractor_that_cannot_travel_is_run_in_process(extractor: object) -> None:
    if not isinstance(extractor, SpacyExtractor):
        pytest.skip("the default extractor here is not spaCy")
    spacy = pytest.importorskip("spacy")
    nlp = spacy.load(DEFAULT_SPACY_MODEL, exclude=["ner", "lemmatizer"])
    own = SpacyExtractor(nlp=nlp)  # a caller's own pipeline object is not sent
    with MemoryStore.embedded(None, extractor=own) as store:
        store.remember_many(ITEMS[:50], namespace="n", chunk=25, parallel=True)
        assert store.services.pool.worker_pid is None
        assert len(_content(store)) == 110  # "Note i." is a statement too; ten items hold three


def test_parallel_must_be_a_bool_or_none() -> None:
    with MemoryStore.embedded(None) as store:
        with pytest.raises(InvalidInput):
            store.remember_many(ITEMS[:2], namespace="n", parallel="yes")  # type: ignore[arg-type]
        assert store.namespaces() == []
