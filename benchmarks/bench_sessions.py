"""A message in a new session on a large store (issue 17): what the first turn of every
conversation pays to find the message it follows.

    .venv/bin/python benchmarks/bench_sessions.py --store STORE   # a kept store, e.g. bench_store's

In a fresh namespace of the store, `remember` a 9-word message with a message id `--calls`
times each: in one session, each in a new session, and without a session, alternating
rounds; prints p50/p95 per kind and the load. Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import uuid

from bench_scale import stats_ms, timed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True, help="a LadybugDB store (a copy: it is written)")
    ap.add_argument("--calls", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    from bitemporal_core import MemoryStore

    store = MemoryStore.embedded(args.store)
    ns = "bench-sessions-" + uuid.uuid4().hex[:8]

    def call(i: int, session: str | None) -> float:
        text = f"I like tea number {i} with milk in the morning."
        source = "msg-" + uuid.uuid4().hex
        return timed(store.remember, text, namespace=ns, source=source, session=session)[1]

    for i in range(5):
        call(i, None)
    for r in range(args.rounds):
        fixed = "s-" + uuid.uuid4().hex
        kinds = {
            "one session": [call(i, fixed) for i in range(args.calls)],
            "a new session each": [call(i, "s-" + uuid.uuid4().hex) for i in range(args.calls)],
            "no session": [call(i, None) for i in range(args.calls)],
        }
        row = ", ".join(
            f"{k} {v['p50']:.1f}/{v['p95']:.1f}"
            for k, v in ((k, stats_ms(lat)) for k, lat in kinds.items())
        )
        print(f"round {r + 1}: remember p50/p95 ms: {row}; load {os.getloadavg()[0]:.2f}")
    store.forget(namespace=ns)
    store.close()


if __name__ == "__main__":
    main()
