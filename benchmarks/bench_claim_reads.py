"""What a `remember` that changes something costs as one user's namespace grows (issue 17).

One on-disk LadybugDB store; `--msgs` chitchat messages bulk-imported into one namespace as
one speaker ("user", as a single-user assistant holds them, with message ids); then, in a
fresh process's store (reopened), single `remember` calls alternating between statements
that change something ("I moved to Berlin now.": formation reads the claims they may
retire) and statements that change nothing, each with a message id. Prints the number of
claims held about the speaker and p50/p95 ms per kind, twice. Asserts nothing.

    .venv/bin/python benchmarks/bench_claim_reads.py --msgs 10000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data
from bench_store import items, load, msg_id

CHANGE = (
    "I moved to Berlin now.",
    "I've switched to oat milk now.",
    "I quit my job at the bank.",
    "I don't drink coffee anymore.",
)
PLAIN = (
    "I made pasta tonight.",
    "The weather was lovely today.",
    "We watched a film last night.",
    "My cat knocked over a plant.",
)


def timed(
    store: object, texts: tuple[str, ...], rounds: int, rng: random.Random
) -> dict[str, float]:
    out = []
    for _ in range(rounds):
        for text in texts:
            t0 = time.perf_counter()
            store.remember(text, namespace="me", source=msg_id(rng), speaker="user")  # type: ignore[attr-defined]
            out.append((time.perf_counter() - t0) * 1000)
    out.sort()
    return {"p50": round(statistics.median(out), 1), "p95": round(out[int(len(out) * 0.95)], 1)}


def main() -> None:
    from bitemporal_core import MemoryStore

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--msgs", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    stream, _ = load_data()
    rng = random.Random(3)
    path = os.path.join(tempfile.mkdtemp(), "claims.lbdb")
    batch = items(stream[: args.msgs], rng, timedelta(0))
    for item in batch:
        item["speaker"] = "user"
    with MemoryStore.embedded(path) as store:
        store.remember_many(batch, namespace="me", chunk=500)
    store = MemoryStore.embedded(path)
    held = store.backend._run(  # type: ignore[attr-defined]
        "MATCH (e:Entity)<-[:ABOUT]-(c:Claim) WHERE e.key = 'speaker:user' RETURN count(*)"
    )[0][0]
    result = {"msgs": args.msgs, "speaker_claims": held}
    for round_ in (1, 2):
        result[f"plain_{round_}"] = timed(store, PLAIN, args.rounds, rng)
        result[f"change_{round_}"] = timed(store, CHANGE, args.rounds, rng)
    store.close()
    result["load"] = load()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
