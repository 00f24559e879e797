"""Recall latency with and without an embedder on one kept store (issue 21's latency row).

    .venv/bin/python benchmarks/bench_vector_recall.py --store S --msgs 78000 [--embedder minilm]

Builds (once; re-runs skip what the store holds, by message id) one namespace `big` from the
first `--msgs` messages of the timestamp-sorted chitchat stream, every version with a vector
of the embedder, then measures `recall(k=10)` over 200 held-out messages (half questions):
with the embedder, without it, and with it again, two passes each, in one process, so the
ratios compare like with like. The query's embedding is computed before the timed calls
(reported apart): the target excludes it. Prints one JSON line; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data, pick_queries, stats_ms, stream_items
from bench_store import QueryCache, make_embedder

NS, CHUNK = "big", 5_000


def build(path: str, embedder: Any, msgs: int) -> None:
    from bitemporal_core import MemoryStore

    stream, _ = load_data()
    items = stream_items(stream, msgs)
    started = time.monotonic()
    with MemoryStore.embedded(path, embedder=embedder) as store:
        for i in range(0, len(items), CHUNK):
            store.remember_many(items[i : i + CHUNK], namespace=NS, chunk=500)
            print(f"{i + CHUNK:,} msgs, {time.monotonic() - started:.0f} s", file=sys.stderr)


def passes(path: str, embedder: Any, queries: list[str]) -> list[dict[str, float]]:
    """Two timed passes over the queries on a freshly opened store (index loaded first); with
    an embedder, the recall index's embedding memory is reported after them."""
    from bitemporal_core import MemoryStore

    with MemoryStore.embedded(path, embedder=embedder) as store:
        store.recall(queries[0], namespace=NS)
        out: list[dict[str, float]] = []
        for _ in range(2):
            times = []
            for query in queries:
                t0 = time.perf_counter()
                store.recall(query, namespace=NS, k=10)
                times.append((time.perf_counter() - t0) * 1000)
            out.append(stats_ms(times))
        if embedder is not None:
            out.append(
                {"vectors_mb": vector_mb(store), "rss_mb": rss_mb(), "peak_rss_mb": peak_rss_mb()}
            )
        return out


def vector_mb(store: Any) -> float:
    """Memory of `big`'s embeddings in the recall read model (the engine's own object)."""
    vectors = store.backend._index._spaces[NS].vectors
    return round((vectors.nbytes if vectors is not None else 0) / 2**20, 1)


def rss_mb() -> float:
    """Resident memory now (the peak also counts reading the vectors as Python lists)."""
    with open(f"/proc/{os.getpid()}/statm") as f:
        return round(int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="LadybugDB path (kept for later runs)")
    ap.add_argument("--msgs", type=int, default=78_000, help="stream messages in `big`")
    ap.add_argument("--embedder", default="minilm", choices=("minilm", "e5"))
    args = ap.parse_args()
    embedder = make_embedder(args.embedder)
    build(args.store, embedder, args.msgs)
    _, held = load_data()
    queries = pick_queries(held, 200)
    cached = QueryCache(embedder, queries)
    load = os.getloadavg()
    row: dict[str, Any] = {"embedder": cached.name, "query_embed_ms": round(cached.query_ms, 1)}
    with_vectors = passes(args.store, cached, queries)
    row["no_embedder"] = passes(args.store, None, queries)
    row["with_embedder"] = with_vectors + passes(args.store, cached, queries)
    from bitemporal_core import MemoryStore

    with MemoryStore.embedded(args.store, read_only=True) as store:
        row["current_facts"] = len(store.snapshot(NS))
    row["load"] = [round(x, 2) for x in (*load, *os.getloadavg())]
    print(json.dumps(row))


if __name__ == "__main__":
    main()
