"""What memory formation costs a `remember`: this checkout against a baseline checkout, one run.

The same store is built for each (LadybugDB on disk, `--prefill` chitchat messages in one
namespace through `remember_many`), then the same held-out chitchat turns are remembered one by
one with a message id and a speaker (as an adapter sends them); p50/p95/mean per message;
then as many other held-out turns are asked as questions (`recall`, k=10): recall p50/p95. The
baseline is another checkout's `core/` folder (for example a `git worktree` of the commit
before formation), imported in a child process through a `bitemporal_core` link on
`PYTHONPATH`; the two alternate, `--rounds` times each, so load shifts fall on both. Prints one
JSON line per round and the ratios of the medians; asserts nothing.

    .venv/bin/python benchmarks/bench_formation.py --baseline /path/to/old/checkout
        [--prefill 2000] [--calls 300] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def measure(prefill: int, calls: int) -> dict[str, Any]:
    """Build a store, then time single remembers (in this process's `bitemporal_core`)."""
    sys.path.insert(0, str(HERE))
    from bench_scale import load_data, stats_ms, timed

    from bitemporal_core import MemoryStore

    stream, heldout = load_data()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore.embedded(str(Path(tmp) / "f.lbdb"))
        items = [
            {**m, "id": "msg-" + uuid.UUID(int=rng.getrandbits(128)).hex} for m in stream[:prefill]
        ]
        store.remember_many(items, namespace="u", chunk=500, parallel=False)
        texts = [m for m in heldout if len(m["text"].split()) >= 3][: calls + 5]
        lat = [
            timed(
                store.remember,
                m["text"],
                namespace="u",
                source="msg-" + uuid.UUID(int=rng.getrandbits(128)).hex,
                speaker=m["speaker"],
                session=m["session"],
            )[1]
            for m in texts
        ]
        facts = len(store.snapshot("u"))
        asked = [m["text"] for m in heldout[-(calls + 5) :]]
        took = [timed(store.recall, q, namespace="u", k=10)[1] for q in asked]
        store.close()
    out = stats_ms(lat[5:])
    out["mean"] = round(statistics.fmean(lat[5:]), 2)
    recall = stats_ms(took[5:])
    out["recall_p50"], out["recall_p95"] = recall["p50"], recall["p95"]
    out["facts_in_store"] = facts
    return out


def child(checkout: Path | None, prefill: int, calls: int) -> dict[str, Any]:
    """`measure` in a fresh process, on `checkout`'s code (None: this checkout's)."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as shim:
        if checkout is not None:
            (Path(shim) / "bitemporal_core").symlink_to(checkout / "core")
            env["PYTHONPATH"] = shim + os.pathsep + env.get("PYTHONPATH", "")
        code = (
            f"import sys, json; sys.path.insert(0, {str(HERE)!r});"
            f"from bench_formation import measure; print(json.dumps(measure({prefill}, {calls})))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, required=True, help="another checkout's root")
    ap.add_argument("--prefill", type=int, default=2_000)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "this": []}
    for r in range(args.rounds):
        for name, checkout in (("baseline", args.baseline), ("this", None)):
            result = child(checkout, args.prefill, args.calls)
            result["load"] = " / ".join(f"{x:.2f}" for x in os.getloadavg())
            runs[name].append(result)
            print(json.dumps({"round": r, "code": name, **result}), flush=True)
    for key in ("p50", "p95", "mean", "recall_p50", "recall_p95"):
        base = statistics.median(x[key] for x in runs["baseline"])
        this = statistics.median(x[key] for x in runs["this"])
        print(f"{key}: baseline {base:.1f} ms, this {this:.1f} ms, ratio {this / base:.2f}x")


if __name__ == "__main__":
    main()
