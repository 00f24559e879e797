"""The recall read model's compact embeddings (int8 rows with a scale each)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from bitemporal_core.backends.ladybug.vectors import UnitRows

DIM = 384


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    floats = rng.standard_normal((n, DIM)).astype(np.float32)
    return floats / np.linalg.norm(floats, axis=1, keepdims=True)


def test_rows_take_a_quarter_of_float32_and_score_within_the_rounding_bound() -> None:
    rng = np.random.default_rng(1)
    exact = _unit(rng, 20_000)
    rows = UnitRows.from_floats(exact * rng.uniform(0.1, 10, (len(exact), 1)))  # any length
    assert rows.nbytes <= exact.nbytes / 4 + 4 * len(exact)
    for query in _unit(rng, 5):
        got = rows.scores(query * 3.0, len(exact))
        want = exact @ query
        # a component is off by at most half a step, the row's largest / 254
        bound = np.abs(query).sum() * np.abs(exact).max(axis=1) / 254
        assert np.all(np.abs(got - want) <= bound + 1e-6)


def test_the_nearest_rows_are_the_float32_ones_when_the_scores_are_apart() -> None:
    rng = np.random.default_rng(2)
    exact = _unit(rng, 5_000)
    rows = UnitRows.from_floats(exact)
    for i in range(20):
        query = exact[i * 7] + 0.3 * _unit(rng, 1)[0]  # near one row, as a paraphrase is
        want = exact @ (query / np.linalg.norm(query))
        got = rows.scores(query, len(exact))
        assert int(np.argmax(got)) == int(np.argmax(want)) == i * 7
        top = set(np.argsort(-want)[:10].tolist())
        assert len(top & set(np.argsort(-got)[:10].tolist())) >= 8


def test_zero_rows_score_zero_and_rows_set_one_at_a_time_match_a_whole_matrix() -> None:
    rng = np.random.default_rng(3)
    exact = _unit(rng, 40)
    rows = UnitRows.empty(64, DIM)
    for i in range(0, 40, 2):
        rows.set(i, exact[i].tolist())
    whole = UnitRows.from_floats(exact)
    got = rows.scores(exact[0], 64)
    assert np.array_equal(rows.codes[0:40:2], whole.codes[0:40:2])
    assert np.all(got[1:40:2] == 0) and np.all(got[40:] == 0)
    assert got[0] == pytest.approx(1.0, abs=DIM**0.5 / 254)
    grown = rows.grown(128, 40)
    assert len(grown) == 128 and grown.dim == DIM
    assert np.array_equal(grown.scores(exact[0], 40), rows.scores(exact[0], 40))
    assert UnitRows.from_floats(np.zeros((2, DIM))).scores(exact[0], 2).tolist() == [0.0, 0.0]


def test_a_saved_file_reads_back_and_an_older_float32_file_is_converted() -> None:
    rng = np.random.default_rng(4)
    exact = _unit(rng, 30)
    rows = UnitRows.from_floats(exact)
    buffer = io.BytesIO()
    np.savez(buffer, **rows.arrays(30))
    buffer.seek(0)
    with np.load(buffer) as saved:
        back = UnitRows.from_arrays(saved, 30)
        assert UnitRows.from_arrays(saved, 31) is None  # not the namespace's size
    assert back is not None and np.array_equal(back.codes, rows.codes)
    older = io.BytesIO()
    np.savez(older, vectors=exact)
    older.seek(0)
    with np.load(older) as saved:
        converted = UnitRows.from_arrays(saved, 30)
    assert converted is not None and np.array_equal(converted.codes, rows.codes)
    foreign = io.BytesIO()
    np.savez(foreign, vectors=exact.astype(np.float64))
    foreign.seek(0)
    with np.load(foreign) as saved:
        assert UnitRows.from_arrays(saved, 30) is None


def test_a_store_saves_int8_rows_and_rewrites_an_older_float32_file(tmp_path: Path) -> None:
    """The saved index's embeddings are int8 codes; a float32 file an older version saved is
    read (converted) and replaced by the codes at the next close."""
    from bitemporal_core import MemoryStore
    from bitemporal_core.providers.embeddings import CallableEmbedder

    def embed(texts: list[str]) -> list[list[float]]:
        return [[float(len(t) % 7 + 1), float(t.count("a") + 1)] + [0.5] * 30 for t in texts]

    embedder = CallableEmbedder(embed, name="toy-32")
    path = str(tmp_path / "store")
    with MemoryStore.embedded(path, embedder=embedder, resolver=None) as store:
        store.remember("Anna drinks tea.", namespace="v")
        store.remember("We adopted a cat.", namespace="v")
        first = [h.fact.text for h in store.recall("a cat", namespace="v", k=2)]
    (saved,) = list((tmp_path / "store.recall").glob("*.vec.npz"))
    with np.load(saved) as arrays:
        assert arrays["codes"].dtype == np.int8 and "vectors" not in arrays
        codes, embedded = arrays["codes"], arrays["embedded"]
    older = codes.astype(np.float32) * 0.01  # any float32 rows of the right shape
    with saved.open("wb") as f:
        np.savez(f, vectors=older, embedded=embedded)
    with MemoryStore.embedded(path, embedder=embedder, resolver=None) as store:
        assert [h.fact.text for h in store.recall("a cat", namespace="v", k=2)] == first
    with np.load(saved) as arrays:
        assert arrays["codes"].dtype == np.int8 and "vectors" not in arrays
