"""What sealing namespaces (`keys=`) costs, on each engine, in one run (issue 20 item 8).

One engine, two stores over it: a plain one and a sealed one (`SealedBackend` over the same
engine, keys in a temporary folder). Each bulk-imports the same `--msgs` chitchat messages
(timestamp-sorted stream, a message id each) into its own namespace; then, alternating
between the two so that both see the same store size and load: single `remember` of
held-out turns cut to 12 words with a message id, and `recall` of held-out turns (k=10);
then `forget(namespace=...)` of each. Prints one JSON line per engine: plain and sealed
p50/p95, their ratios, bulk msg/s, forget seconds, the load. Asserts nothing.

    .venv/bin/python benchmarks/bench_sealed.py --msgs 2000 [--neo4j-uri bolt://127.0.0.1:7687]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data, pick_queries, stats_ms, timed
from bench_store import cut, items, load, msg_id

Json = dict[str, Any]


def stores(engine: str, args: argparse.Namespace, workdir: Path) -> tuple[Any, Any]:
    """A plain store on the engine and a sealed one over the same engine object."""
    from bitemporal_core import FileKeyStore, MemoryStore
    from bitemporal_core.backends.sealed.backend import SealedBackend

    if engine == "ladybug":
        plain = MemoryStore.embedded(workdir / "bench.lbdb")
    else:
        auth = ("neo4j", os.environ.get("NEO4J_PASSWORD", "bitemporal-test"))
        plain = MemoryStore.neo4j(args.neo4j_uri, auth=auth)
    backend = SealedBackend(plain.backend, FileKeyStore(workdir / "keys"))
    sealed = MemoryStore(backend, extractor=plain.services.analyser.extractor, owns_backend=False)
    return plain, sealed


def bench(engine: str, args: argparse.Namespace) -> Json:
    stream, heldout = load_data()
    rng = random.Random(3)
    texts = cut([m["text"] for m in heldout], 12, args.calls)
    queries = pick_queries(heldout, args.calls)
    with tempfile.TemporaryDirectory() as tmp:
        plain, sealed = stores(engine, args, Path(tmp))
        pair = {"plain": plain, "sealed": sealed}
        ns = {name: f"bench-{name}-{os.getpid()}" for name in pair}
        out: Json = {"engine": engine, "msgs": args.msgs, "calls": args.calls}
        batch = items(stream[: args.msgs], rng, __import__("datetime").timedelta(0))
        for name, store in pair.items():
            _, ms = timed(store.remember_many, batch, namespace=ns[name], chunk=500)
            out[f"{name}_bulk_msg_s"] = round(args.msgs / (ms / 1000), 1)
        lat: dict[str, list[float]] = {f"{n}_{w}": [] for n in pair for w in ("remember", "recall")}
        for text, query in zip(texts, queries, strict=False):
            for name, store in pair.items():
                src = msg_id(rng)
                lat[f"{name}_remember"].append(
                    timed(store.remember, text, namespace=ns[name], source=src, speaker="user")[1]
                )
                lat[f"{name}_recall"].append(timed(store.recall, query, namespace=ns[name])[1])
        for key, values in lat.items():
            out[key] = stats_ms(values[5:])
        for what in ("remember", "recall"):
            for q in ("p50", "p95"):
                p, s = out[f"plain_{what}"][q], out[f"sealed_{what}"][q]
                out[f"ratio_{what}_{q}"] = round(s / p, 2) if p else None
        for name, store in pair.items():
            _, ms = timed(store.forget, namespace=ns[name])
            out[f"{name}_forget_s"] = round(ms / 1000, 2)
        sealed.close()
        plain.close()
    out["load"] = load()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--msgs", type=int, default=2000, help="messages bulk-imported per store")
    p.add_argument("--calls", type=int, default=60, help="single remember and recall calls")
    p.add_argument("--neo4j-uri", help="also measure Neo4j at this URI")
    args = p.parse_args()
    for engine in ["ladybug"] + (["neo4j"] if args.neo4j_uri else []):
        t0 = time.monotonic()
        result = bench(engine, args)
        result["seconds"] = round(time.monotonic() - t0, 1)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
