"""Neo4j: a write's statements sent one by one against held and sent as one (issue 17).

    .venv/bin/python benchmarks/bench_neo4j_writes.py --uri bolt://127.0.0.1:7688 [--bulk]

Single `remember` calls (held-out chitchat turns cut to 3 and 12 words, each with a message id
as adapters send one, into a fresh namespace of whatever store the server holds) alternate in
blocks of 20 between the two ways of sending, in one process, so both see the same server,
store size and load; the first block is warm-up. "one by one" is what the engine did before
`neo4j/tx.py` `_Writes`: each statement its own round trip, statements over empty lists
skipped. `--bulk` also alternates `remember_many` calls of 1,000 stream messages (chunk 500).
Prints p50/p95 per way and their ratio. Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data
from bench_store import cut, msg_id

from bitemporal_core import MemoryStore
from bitemporal_core.backends.neo4j import tx

HELD = tx._Writes


class OneByOne(HELD):
    """The engine's sending before `_Writes`: every statement at once, empty lists skipped."""

    def __call__(self, query: str, params: dict[str, Any]) -> Any:
        if query.startswith("UNWIND $") and not params.get(query.split()[1][1:]):
            return []
        return tx._run(self._tx, query, params)


WAYS = {"one by one": OneByOne, "held": HELD}


def q(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def singles(store: MemoryStore, texts: list[str], rng: random.Random) -> None:
    ns = f"writes-{time.time_ns()}"
    lat: dict[str, list[float]] = {way: [] for way in WAYS}
    for i, text in enumerate(texts):
        way = list(WAYS)[(i // 20) % 2]
        tx._Writes = WAYS[way]  # type: ignore[misc]
        t0 = time.perf_counter()
        store.remember(text, namespace=ns, source=msg_id(rng), speaker="user")
        if i >= 20:
            lat[way].append((time.perf_counter() - t0) * 1000)
    for way, v in lat.items():
        p50, p95, mean = q(v, 0.5), q(v, 0.95), statistics.mean(v)
        print(f"  {way}: n {len(v)} p50 {p50:.1f} p95 {p95:.1f} mean {mean:.1f} ms")
    print(f"  ratio p50 held / one by one: {q(lat['held'], 0.5) / q(lat['one by one'], 0.5):.2f}")


def bulk(store: MemoryStore, stream: list[dict[str, Any]], rng: random.Random) -> None:
    rates: dict[str, list[float]] = {way: [] for way in WAYS}
    for r in range(4):
        way = list(WAYS)[r % 2]
        tx._Writes = WAYS[way]  # type: ignore[misc]
        items = [
            {"text": m["text"], "id": msg_id(rng), "at": m["at"]}
            for m in stream[r * 1000 : (r + 1) * 1000]
        ]
        t0 = time.perf_counter()
        store.remember_many(items, namespace=f"writes-bulk-{time.time_ns()}", chunk=500)
        rates[way].append(len(items) / (time.perf_counter() - t0))
    print("  bulk msg/s:", {way: [round(x) for x in v] for way, v in rates.items()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uri", required=True)
    ap.add_argument("--calls", type=int, default=420, help="single remembers per length")
    ap.add_argument("--bulk", action="store_true")
    args = ap.parse_args()
    auth = ("neo4j", os.environ.get("NEO4J_PASSWORD", "bitemporal-test"))
    store = MemoryStore.neo4j(args.uri, auth=auth)
    stream, held = load_data()
    rng = random.Random(time.time_ns())
    print(f"load {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    try:
        for words in (12, 3):
            print(f"single remember, {words} words:")
            singles(store, cut([m["text"] for m in held[500:]], words, args.calls), rng)
        if args.bulk:
            bulk(store, stream, rng)
    finally:
        tx._Writes = HELD  # type: ignore[misc]
        store.close()


if __name__ == "__main__":
    main()
