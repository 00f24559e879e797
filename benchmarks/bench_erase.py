"""What erasure on disk costs on the embedded engine (issue 20 item 8).

Builds a multi-tenant store from the chitchat stream (tenants of `--tenant` messages each, a
message id per message), closes it, then, on a copy each time, in one run:

- `close` of a store that deleted nothing (the baseline: no rewrite);
- `forget(namespace=<one tenant>)` then `close`, which rewrites the file (EXPORT/IMPORT);

and prints one JSON line: facts, file size before and after, both close times, the rewrite's
seconds per 10k facts, how many copies of one forgotten message's text the file held before
and after, and the load. Asserts nothing.

    .venv/bin/python benchmarks/bench_erase.py --facts 10000 --store /tmp/erase-bench.lbdb
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data

Json = dict[str, Any]


def build(path: Path, messages: int, tenant: int) -> None:
    from bitemporal_core import MemoryStore

    stream, _ = load_data()
    with MemoryStore.embedded(path) as store:
        for start in range(0, messages, tenant):
            chunk = stream[start : start + tenant]
            items = [{**m, "id": f"msg-{start + i:08d}"} for i, m in enumerate(chunk)]
            store.remember_many(items, namespace=f"t{start // tenant:04d}", parallel=False)


def copies(path: Path, text: str) -> int:
    needle = text.encode()
    return sum(f.read_bytes().count(needle) for f in path.parent.iterdir() if f.is_file())


def measure(kept: Path, work: Path) -> Json:
    from bitemporal_core import MemoryStore

    def fresh() -> Path:
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        shutil.copy(kept, work / kept.name)
        return work / kept.name

    path = fresh()
    store = MemoryStore.embedded(path)
    facts = sum(len(store.snapshot(ns)) for ns in store.namespaces())
    victim = store.namespaces()[0]
    said = max((m.text for m in store.messages(victim)), key=len)
    t0 = time.perf_counter()
    store.close()
    plain = time.perf_counter() - t0
    before = (path.stat().st_size, copies(path, said))

    store = MemoryStore.embedded(path)
    t0 = time.perf_counter()
    store.forget(namespace=victim)
    forget_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    store.close()
    rewrite = time.perf_counter() - t0
    after = (path.stat().st_size, copies(path, said))
    shutil.rmtree(work, ignore_errors=True)
    return {
        "facts_current": facts,
        "file_mb": [round(before[0] / 2**20, 1), round(after[0] / 2**20, 1)],
        "copies_of_a_forgotten_message": [before[1], after[1]],
        "forget_s": round(forget_s, 2),
        "close_s": round(plain, 2),
        "close_with_rewrite_s": round(rewrite, 2),
        "rewrite_s_per_10k_facts": round((rewrite - plain) / facts * 10_000, 2),
        "load": " / ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=10_000, help="messages to import")
    parser.add_argument("--tenant", type=int, default=1_000, help="messages per namespace")
    parser.add_argument("--store", type=Path, required=True, help="kept store (built if absent)")
    args = parser.parse_args()
    if not args.store.exists():
        build(args.store, args.facts, args.tenant)
    print(json.dumps(measure(args.store, args.store.parent / "erase-bench-work")))


if __name__ == "__main__":
    main()
