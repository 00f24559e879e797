"""Neo4j keyword search: the hand-built term postings recall uses, against Neo4j's own fulltext
index (issue 17: "its fulltext index for BM25-style keyword search, measured against the
hand-built postings").

    .venv/bin/python benchmarks/bench_neo4j_keyword.py --uri bolt://127.0.0.1:7699 --msgs 100000

Builds (once; re-runs skip what the store holds, by message id) one namespace `kw` from the
first `--msgs` messages of the timestamp-sorted chitchat stream (message ids as adapters send
them), then over 200 held-out messages (half questions), k=10, alternating in one process:

- `postings`: the engine's keyword rank (`keyword_search`: BM25 statistics as known at the
  basis, the rarest terms' `HAS_TERM` postings, scored in Python);
- `fulltext`: `db.index.fulltext.queryNodes` on the `bt_version_text` index with the question's
  words, filtered to the namespace and basis, Lucene's score.

Reports p50 / p95 ms of each and how many of the postings' top 10 the fulltext top 10 shares.
Prints one JSON line; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data, pick_queries, stats_ms, stream_items

NS, CHUNK = "kw", 5_000
_LUCENE_SPECIAL = re.compile(r'[+\-!(){}\[\]^"~*?:\\/&|]')
FULLTEXT = (
    "CALL db.index.fulltext.queryNodes('bt_version_text', $q, {limit: $fetch})"
    " YIELD node AS v, score WHERE v.namespace = $ns AND v.recorded_at <= $known_at"
    " AND v.superseded_at > $known_at AND v.valid_from <= $valid_at AND v.valid_to > $valid_at"
    " RETURN v.id, score ORDER BY score DESC LIMIT $k"
)


def open_store(uri: str) -> Any:
    from bitemporal_core import MemoryStore

    password = os.environ.get("NEO4J_PASSWORD", "bitemporal-test")
    return MemoryStore.neo4j(uri, auth=("neo4j", password))


def build(store: Any, msgs: int) -> None:
    stream, _ = load_data()
    items = stream_items(stream, msgs)
    started = time.monotonic()
    for i in range(0, len(items), CHUNK):
        store.remember_many(items[i : i + CHUNK], namespace=NS, chunk=500)
        print(f"{i + CHUNK:,} msgs, {time.monotonic() - started:.0f} s", file=sys.stderr)


def lucene(text: str) -> str:
    """The question's words as a Lucene query (any of them), special characters removed."""
    return " ".join(_LUCENE_SPECIAL.sub(" ", text).split()) or "*"


def main() -> None:
    from bitemporal_core.backends.port import RecallScope
    from bitemporal_core.common.times import utcnow
    from bitemporal_core.language.extract import content_terms

    ap = argparse.ArgumentParser()
    ap.add_argument("--uri", default="bolt://127.0.0.1:7687")
    ap.add_argument("--msgs", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--fetch", type=int, default=200, help="fulltext hits read before filters")
    args = ap.parse_args()
    store = open_store(args.uri)
    build(store, args.msgs)
    backend = store.backend
    _, heldout = load_data()
    queries = pick_queries(heldout, args.queries)
    now = utcnow()
    scope = RecallScope(namespace=NS, valid_at=now, known_at=now)
    times: dict[str, list[float]] = {"postings": [], "fulltext": []}
    shared = []
    for round_ in range(2):
        for query in queries:
            t0 = time.perf_counter()
            mine = backend.keyword_search(scope, list(dict.fromkeys(content_terms(query))), 10)
            t1 = time.perf_counter()
            params = {**scope.params(), "q": lucene(query), "fetch": args.fetch, "k": 10}
            theirs = backend._read(FULLTEXT, params)
            t2 = time.perf_counter()
            if round_:  # the first round warms both
                times["postings"].append((t1 - t0) * 1000)
                times["fulltext"].append((t2 - t1) * 1000)
                top = {f.version_id for f, _ in mine}
                shared.append(len(top & {r[0] for r in theirs}) / len(top) if top else None)
    overlap = [s for s in shared if s is not None]
    row = {
        "versions": len(store.timeline(NS).versions),
        "postings": stats_ms(times["postings"]),
        "fulltext": stats_ms(times["fulltext"]),
        "fulltext_shares_of_postings_top10": sum(overlap) / len(overlap) if overlap else None,
        "load": os.getloadavg()[0],
    }
    store.close()
    print(json.dumps(row))


if __name__ == "__main__":
    main()
