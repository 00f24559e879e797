"""Compact embeddings in the recall read model: int8 rows against float32, on real vectors.

    .venv/bin/python benchmarks/bench_vector_compact.py --store S [--rows 1000000]

`S` is a store built by `bench_vector_recall.py` (namespace `big`, MiniLM vectors). Reads every
embedding of `big` from the database (float32, as stored) and 200 held-out queries' vectors,
then reports, in one process:

- agreement: for each query, how many of the exact float32 top 10 the int8 rows also rank in
  their top 10, whether the top 1 is the same, and the largest score difference;
- at `--rows` (the store's vectors repeated, each copy moved by a little noise so no two rows
  are equal): the memory each form takes (array bytes, and the process's RSS growth while it
  is built) and the time to score every row against a query (p50 / p95 over 50 queries).

Prints one JSON line; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data, pick_queries, stats_ms
from bench_store import make_embedder
from bench_vector_recall import rss_mb

NS = "big"


def mb(nbytes: int) -> float:
    return round(nbytes / 2**20, 1)


def stored_vectors(path: str) -> np.ndarray:
    """`big`'s embeddings as the database holds them, as unit rows."""
    from bitemporal_core import MemoryStore
    from bitemporal_core.backends.ladybug import cypher as q

    with MemoryStore.embedded(path, read_only=True) as store:
        rows = store.backend._run(q.INDEX_VECTORS, {"ns": NS})  # the engine's own statement
    matrix = np.asarray([r[1] for r in rows], np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def agreement(exact: np.ndarray, queries: np.ndarray) -> dict[str, float]:
    from bitemporal_core.backends.ladybug.vectors import UnitRows

    rows = UnitRows.from_floats(exact)
    overlap, same_top, worst = [], 0, 0.0
    for query in queries:
        want = exact @ query
        got = rows.scores(query, len(exact))
        top_want, top_got = np.argsort(-want)[:10], np.argsort(-got)[:10]
        overlap.append(len(set(top_want.tolist()) & set(top_got.tolist())))
        same_top += int(top_want[0] == top_got[0])
        worst = max(worst, float(np.abs(got - want).max()))
    return {
        "queries": len(queries),
        "top10_overlap_mean": round(float(np.mean(overlap)), 3),
        "top10_all_same": sum(o == 10 for o in overlap),
        "top1_same": same_top,
        "max_score_diff": round(worst, 5),
    }


def at_scale(exact: np.ndarray, queries: np.ndarray, n: int) -> dict[str, Any]:
    from bitemporal_core.backends.ladybug.vectors import UnitRows

    rng = np.random.default_rng(0)
    out: dict[str, Any] = {"rows": n}
    before = rss_mb()
    floats = np.empty((n, exact.shape[1]), np.float32)
    for start in range(0, n, len(exact)):
        block = exact[: n - start] + rng.normal(0, 0.01, exact[: n - start].shape)
        floats[start : start + len(block)] = block / np.linalg.norm(block, axis=1, keepdims=True)
    out["float32"] = {
        "mb": round(floats.nbytes / 2**20, 1),
        "rss_growth_mb": round(rss_mb() - before, 1),
    }
    before = rss_mb()
    rows = UnitRows.from_floats(floats)
    out["int8"] = {
        "mb": round(rows.nbytes / 2**20, 1),
        "rss_growth_mb": round(rss_mb() - before, 1),
    }
    for name, score in (("float32", lambda q: floats @ q), ("int8", lambda q: rows.scores(q, n))):
        times = []
        for query in queries[:50]:
            t0 = time.perf_counter()
            score(query)
            times.append((time.perf_counter() - t0) * 1000)
        out[name]["score_all_ms"] = stats_ms(times)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="a store built by bench_vector_recall.py")
    ap.add_argument("--rows", type=int, default=1_000_000)
    args = ap.parse_args()
    load = os.getloadavg()
    exact = stored_vectors(args.store)
    _, held = load_data()
    embedder = make_embedder("minilm")
    queries = np.asarray(embedder.embed(pick_queries(held, 200)), np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    row: dict[str, Any] = {"stored_vectors": len(exact)}
    row["agreement"] = agreement(exact, queries)
    row["scale"] = at_scale(exact, queries, args.rows)
    row["load"] = [round(x, 2) for x in (*load, *os.getloadavg())]
    print(json.dumps(row))


if __name__ == "__main__":
    main()
