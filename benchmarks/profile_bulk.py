"""Profile `remember_many` of chitchat turns (with message ids, formation on) end to end.

    .venv/bin/python benchmarks/profile_bulk.py --msgs 3000 [--parallel] [--call 1000]
        [--prefill 0] [--store PATH] [--top 40] [--out PROFILE]

Imports `--msgs` stream messages into a fresh embedded store (after `--prefill` messages,
not profiled; a kept `--store` is taken as holding them) in calls of `--call` items, chunk 500,
and prints msg/s, the load and the cProfile table (cumulative and own time). In-process
analysis unless `--parallel`, so the profile shows every cost. Asserts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data
from bench_store import items, load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--msgs", type=int, default=3_000)
    ap.add_argument("--prefill", type=int, default=0)
    ap.add_argument("--parallel", action="store_true")
    ap.add_argument("--call", type=int, default=1_000, help="items per remember_many call")
    ap.add_argument("--store", default=None, help="LadybugDB path (default: a temporary one)")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--out", default=None, help="also save the pstats file here")
    args = ap.parse_args()
    from bitemporal_core import MemoryStore

    stream, _ = load_data()
    path = args.store or os.path.join(tempfile.mkdtemp(prefix="profile-bulk-"), "store")
    prefill = args.prefill if not Path(path).exists() else 0  # a kept store is prefilled
    store = MemoryStore.embedded(path)
    batch = items(stream[: args.prefill + args.msgs], random.Random(17), timedelta(0))
    if prefill:
        store.remember_many(batch[:prefill], namespace="p", chunk=500)
    work = batch[args.prefill :]
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    facts = 0
    for i in range(0, len(work), args.call):
        out = store.remember_many(
            work[i : i + args.call], namespace="p", chunk=500, parallel=args.parallel
        )
        facts += sum(len(f) for f in out)
    prof.disable()
    seconds = time.perf_counter() - t0
    store.close()
    print(f"{len(work)} msgs, {facts} facts, {seconds:.1f} s, {len(work) / seconds:.0f} msg/s")
    print(f"load {load()}")
    stats = pstats.Stats(prof)
    if args.out:
        stats.dump_stats(args.out)
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
