"""Core benchmark: `remember` latency per short message and `recall` latency at N facts.

Prints numbers; asserts nothing (speed targets are read, never tested). Usage:
    .venv/bin/python benchmarks/bench_core.py [--facts 10000] [--queries 200] [--engine ladybug]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bitemporal_core import Basis, MemoryStore

PEOPLE = ["Anna", "Brandon", "Chen", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas"]
PLACES = ["Paris", "Lisbon", "Tokyo", "Berlin", "Oslo", "Rome", "Madrid", "Lyon", "Kyoto", "Porto"]
THINGS = [
    "coffee",
    "tea",
    "apples",
    "bicycles",
    "jazz",
    "novels",
    "pottery",
    "chess",
    "sushi",
    "gardening",
    "football",
    "museums",
    "trains",
    "cats",
    "dogs",
    "pasta",
    "yoga",
    "maps",
]
TEMPLATES = [
    "{p} loves {t}.",
    "{p} wants to travel to {l}.",
    "My friend {p} lives in {l} and enjoys {t}.",
    "I bought {t} for {p} in {l}.",
    "{p} stopped liking {t}.",
    "We talked about {t} with {p} yesterday.",
]


def messages(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [
        rng.choice(TEMPLATES).format(
            p=rng.choice(PEOPLE), l=rng.choice(PLACES), t=rng.choice(THINGS)
        )
        for _ in range(n)
    ]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def open_store(engine: str, path: Path) -> MemoryStore:
    if engine == "ladybug":
        return MemoryStore.embedded(path / "bench.lbdb")
    uri = os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687")
    auth = (
        os.environ.get("NEO4J_USER", "neo4j"),
        os.environ.get("NEO4J_PASSWORD", "bitemporal-test"),
    )
    store = MemoryStore.neo4j(uri, auth=auth)
    store.forget(namespace="bench")
    return store


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--facts", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--engine", default="ladybug", choices=["ladybug", "neo4j"])
    args = ap.parse_args()
    texts = messages(args.facts)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(args.engine, Path(tmp))
        print(
            f"# bench_core on {platform.node()} ({os.cpu_count()} cores), Python "
            f"{sys.version.split()[0]}\n# {store.describe()}"
        )
        latencies = []
        for i, text in enumerate(texts):
            at = start + timedelta(minutes=i)
            t0 = time.perf_counter()
            store.remember(text, namespace="bench", at=at, speaker="user")
            latencies.append((time.perf_counter() - t0) * 1000)
        print(
            f"remember: {len(texts)} short messages, per message p50 "
            f"{statistics.median(latencies):.2f} ms, p95 {pct(latencies, 0.95):.2f} ms, "
            f"mean {statistics.fmean(latencies):.2f} ms"
        )
        rng = random.Random(11)
        now = start + timedelta(minutes=len(texts))
        for label, mode in (("hybrid", "hybrid"), ("recallm", "recallm")):
            recall_ms = []
            for _ in range(args.queries):
                q = f"What does {rng.choice(PEOPLE)} think about {rng.choice(THINGS)}?"
                basis = Basis(valid_at=now, known_at=now)
                t0 = time.perf_counter()
                store.recall(q, namespace="bench", basis=basis, k=10, mode=mode)  # type: ignore[arg-type]
                recall_ms.append((time.perf_counter() - t0) * 1000)
            print(
                f"recall ({label}) at {len(texts)} facts: p50 {statistics.median(recall_ms):.2f}"
                f" ms, p95 {pct(recall_ms, 0.95):.2f} ms over {args.queries} queries"
            )
        store.close()


if __name__ == "__main__":
    main()
