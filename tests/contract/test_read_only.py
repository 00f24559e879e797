"""A store opened read-only: every read answers as on the writer, every write raises
`ReadOnlyStore` before anything reaches the engine, and nothing on disk changes."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bitemporal_core import (
    ConfigurationError,
    MemoryStore,
    ReadOnlyStore,
    StoreInUse,
)
from bitemporal_core.language.extract import ConceptExtractor
from tests.conftest import ENGINES, _wipe

NS = "reader"
Opener = Callable[[bool], MemoryStore]


@pytest.fixture(params=ENGINES)
def opener(
    request: pytest.FixtureRequest, tmp_path: Path, extractor: ConceptExtractor
) -> Iterator[Opener]:
    """Opens the same stored data writable or read-only, on each engine."""
    if request.param == "ladybug":
        path = tmp_path / "store.lbdb"
        yield lambda read_only: MemoryStore.embedded(path, read_only=read_only, extractor=extractor)
        return
    request.applymarker(pytest.mark.neo4j)
    driver = request.getfixturevalue("neo4j_driver")
    _wipe(driver)
    yield lambda read_only: MemoryStore.neo4j(
        driver=driver, read_only=read_only, extractor=extractor
    )


def _fill(open_store: Opener) -> tuple[list[str], str]:
    with open_store(False) as writer:
        writer.remember("I live in Lyon with my partner.", namespace=NS, source="m1")
        writer.remember("Big news: I moved to Berlin for a new job.", namespace=NS)
        hits = [h.fact.text for h in writer.recall("where do I live", namespace=NS)]
        return hits, writer.context("where do I live", namespace=NS)


def _files(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_reads_answer_as_the_writer_did(opener: Opener) -> None:
    hits, context = _fill(opener)
    with opener(True) as reader:
        assert [h.fact.text for h in reader.recall("where do I live", namespace=NS)] == hits
        assert reader.context("where do I live", namespace=NS) == context
        assert "read_only=True" in reader.describe()
        facts = reader.snapshot(NS)
        assert reader.history(facts[0].id).versions


def test_every_write_is_refused_and_nothing_changes(opener: Opener) -> None:
    _fill(opener)
    with opener(True) as reader:
        before = reader.snapshot(NS)
        fact_id = before[0].id
        writes: list[Callable[[], object]] = [
            lambda: reader.remember("I moved to Rome.", namespace=NS),
            lambda: reader.remember_many(["I have a cat.", "I sold the car."], namespace=NS),
            lambda: reader.supersede(fact_id, "I live in Madrid."),
            lambda: reader.retract(fact_id),
            lambda: reader.correct(fact_id, valid_to=before[0].valid_from + timedelta(days=1)),
            lambda: reader.forget(fact=fact_id),
            lambda: reader.forget(namespace=NS),
        ]
        for write in writes:
            with pytest.raises(ReadOnlyStore):
                write()
        assert reader.snapshot(NS) == before
        for _ in range(3):  # uses are counted, never written
            reader.recall("Berlin job", namespace=NS)
    with opener(False) as writer:
        assert writer.snapshot(NS) == before


def test_embedded_files_stay_byte_identical(tmp_path: Path, extractor: ConceptExtractor) -> None:
    path = tmp_path / "store.lbdb"
    with MemoryStore.embedded(path, extractor=extractor) as writer:
        writer.remember("Alice moved to Paris last spring.", namespace=NS)
        writer.recall("Alice", namespace=NS)  # the recall index is saved on close
    snapshot = _files(tmp_path)
    with MemoryStore.embedded(path, read_only=True, extractor=extractor) as reader:
        reader.recall("where did Alice move", namespace=NS)
        with pytest.raises(ReadOnlyStore):
            reader.remember("Alice moved to Rome.", namespace=NS)
        assert reader.compact() is False
    assert _files(tmp_path) == snapshot


def test_read_only_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="no embedded database"):
        MemoryStore.embedded(tmp_path / "missing.lbdb", read_only=True)
    assert not (tmp_path / "missing.lbdb").exists()
    with pytest.raises(ConfigurationError, match="path"):
        MemoryStore.embedded(None, read_only=True)
    # The refused opens released the path: a writable store opens it.
    MemoryStore.embedded(tmp_path / "missing.lbdb").close()


def test_another_process_writing_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "store.lbdb"
    MemoryStore.embedded(path).close()
    script = (
        "import sys; from bitemporal_core import MemoryStore\n"
        f"s = MemoryStore.embedded({str(path)!r}); print('open', flush=True)\n"
        "sys.stdin.read(); s.close()"
    )
    # The holder keeps the file open for writing until its stdin closes.
    with subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as holder:
        assert holder.stdin is not None and holder.stdout is not None
        try:
            assert holder.stdout.readline().strip() == "open"
            with pytest.raises(StoreInUse, match="another process"):
                MemoryStore.embedded(path)
        finally:
            holder.stdin.close()
        assert holder.wait(timeout=60) == 0
    MemoryStore.embedded(path).close()  # released by the error: opens once the holder left
