"""Baselines side by side (issue 8): same chitchat data, same queries, same run, embedded engine.

- ours: `store.recall(query, k=10)` (hybrid: concept graph + BM25 + MiniLM vectors, basis
  filtered inside the engine); query vectors pre-computed, as for every system here;
- (a) the RecallM reference's retrieval shape, reimplemented on the same graph: a spanning tree of
  the question's concepts (RELATED up to 2 hops, unbounded), then every RELATED relationship of
  the database (the reference's `MATCH ()-[relation]->()`), filtered and scored in Python
  (t_index window, `t_index * 3 + strength`), then every mention of the 10 best concepts (the
  reference keeps each concept's whole context); no basis;
- (b) the original write-up's vector query: cosine over every fact, ORDER BY score LIMIT k, then
  the basis filter (so fewer than k survive);
- (c) LangChain's `InMemoryVectorStore` over the same fact texts and MiniLM vectors, top k.

Reports p50/p95 latency per system and size, the ratio to ours, and how many of k hits (b)
keeps at a past basis. Asserts nothing; writes benchmarks/BASELINES.md.
Usage: benchmarks/bench_baselines.py [--sizes 10000,100000] [--queries 100] [--cap 60] [--vectors F]
(a MiniLM vector cache reused across runs; default /tmp/bench-baselines-vectors.pkl).
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench_scale import ROOT, cached_embedder, f, grow, load_data, pick_queries, stats_ms

NS, K = "bench", 10
Json = dict[str, Any]
START = "MATCH (c:Concept {id: $id}) RETURN c.id, c.t_index"
TREE_LEVEL = (
    "MATCH (s:Concept)-[:RELATED]-(c:Concept) WHERE s.id IN $ids RETURN DISTINCT c.id, c.t_index"
)
ALL_RELATED = (  # every RELATED relationship, filtered to the tree (the reference's last MATCH)
    "MATCH (a:Concept)-[r:RELATED]->(b:Concept) WHERE a.id IN $tree AND b.id IN $tree"
    " RETURN a.id, b.id, r.strength, r.t_index"
)
ALL_MENTIONS_OF = "MATCH (c:Concept {id: $id})<-[:MENTIONS]-(v:Version) RETURN v.id, v.text"
COSINE_LIMIT = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.embedding IS NOT NULL"
    " WITH v, array_cosine_similarity(CAST(v.embedding AS FLOAT[384]), $vector) AS score"
    " RETURN v.id, v.recorded_at, v.superseded_at, v.valid_from, v.valid_to, score"
    " ORDER BY score DESC LIMIT $k"
)


def recallm_reference(backend: Any, store: Any, query: str) -> int:
    """The reference's retrieval shape on our graph; the number of context rows it reads."""
    from bitemporal_core.backends.rows import scoped

    keys = [c.key for s in store.services.analyser.extractor.sentences(query) for c in s.concepts]
    tree: dict[str, int] = {}
    for key in dict.fromkeys(keys):  # a spanning tree per concept: BFS, 2 levels, no window
        level = {cid: int(t) for cid, t in backend._run(START, {"id": scoped(NS, key)})}
        tree.update(level)
        for _ in range(2):
            rows = backend._run(TREE_LEVEL, {"ids": list(level)}) if level else []
            level = {cid: int(t) for cid, t in rows if cid not in tree}
            tree.update(level)
    top = max(tree.values(), default=0)
    scores: dict[str, float] = {}
    for a, b, strength, t_index in backend._run(ALL_RELATED, {"tree": list(tree)}):
        if tree[a] >= top - 15 and tree[b] >= top - 15:
            for cid in (a, b):
                scores[cid] = scores.get(cid, 0.0) + int(t_index) * 3 + int(strength)
    best = sorted(scores, key=lambda c: -scores[c])[:10]
    return sum(len(backend._run(ALL_MENTIONS_OF, {"id": cid})) for cid in best)


def write_up_vector(backend: Any, vector: list[float], basis: Any) -> int:
    """Cosine over every fact, LIMIT k, then the basis filter: how many of k survive."""
    rows = backend._run(COSINE_LIMIT, {"ns": NS, "vector": vector, "k": K})
    kn, va = basis.known_at.replace(tzinfo=None), basis.valid_at.replace(tzinfo=None)
    return sum(1 for _, rec, sup, vf, vt, _ in rows if rec <= kn < sup and vf <= va < vt)


def langchain_store(store: Any, embedder: Any) -> Any:
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.vectorstores import InMemoryVectorStore

    class CachedEmbeddings(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[float(x) for x in embedder.cache[t]] for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return list(embedder.embed_query(text))

    vs = InMemoryVectorStore(CachedEmbeddings())
    facts = store.snapshot(NS)
    vs.add_documents([Document(page_content=x.text, id=x.version_id) for x in facts])
    return vs


def measure(
    store: Any, embedder: Any, queries: list[str], basis: Any, vs: Any, cap_s: float
) -> Json:
    backend, out = store.backend, {}
    systems = {
        "ours": lambda q: store.recall(q, namespace=NS, basis=basis, k=K),
        "(a) RecallM reference shape": lambda q: recallm_reference(backend, store, q),
        "(b) write-up vector query": lambda q: write_up_vector(backend, embedder.queries[q], basis),
        "(c) LangChain InMemoryVectorStore": lambda q: vs.similarity_search_by_vector(
            embedder.queries[q], k=K
        ),
    }
    for name, fn in systems.items():
        for q in queries[:3]:
            fn(q)
        lat, kept, end = [], [], time.monotonic() + cap_s
        for q in queries:
            t0 = time.perf_counter()
            res = fn(q)
            lat.append((time.perf_counter() - t0) * 1000)
            kept.append(res if isinstance(res, int) else 0)
            if len(lat) >= 20 and time.monotonic() > end:
                break
        out[name] = {**stats_ms(lat), "kept": sum(kept) / len(kept)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--vectors", default="/tmp/bench-baselines-vectors.pkl")
    ap.add_argument("--cap", type=float, default=60, help="s per system and basis (>= 20 queries)")
    ap.add_argument("--results", default=str(ROOT / "benchmarks" / "BASELINES.md"))
    args = ap.parse_args()
    from bitemporal_core import Basis, MemoryStore

    load0, started = " / ".join(f(x, 2) for x in os.getloadavg()), time.monotonic()
    stream, heldout = load_data()
    queries = pick_queries(heldout, args.queries)
    embedder = cached_embedder(Path(args.vectors), queries)
    workdir = Path(tempfile.mkdtemp(prefix="bench-baselines-"))
    store = MemoryStore.embedded(workdir / "db.lbdb", embedder=embedder)
    run: Json = {"stream": stream, "pos": 0, "facts": 0, "ingest_s": 0.0, "disks": []}
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        grow(store, run, stream, size, time.monotonic() + 3600)
        Path(args.vectors).write_bytes(pickle.dumps(embedder.cache))
        vs = langchain_store(store, embedder)
        now, past = datetime.now(UTC), stream[run["pos"] // 2]["at"]
        bases = {
            "now": Basis(valid_at=now, known_at=now),
            "past": Basis(valid_at=past, known_at=past),
        }
        for label, basis in bases.items():
            res = measure(store, embedder, queries, basis, vs, args.cap)
            ours = res["ours"]["p50"]
            for name, r in res.items():
                extra = f"{r['kept']:.1f} of {K}" if name.startswith("(b)") else "-"
                rows.append(
                    f"| {run['facts']:,} | {label} | {name} | {f(r['p50'])} / {f(r['p95'])} "
                    f"({r['n']}) | {f(r['p50'] / ours, 1)}x | {extra} |"
                )
                print(rows[-1], flush=True)
    store.close()
    shutil.rmtree(workdir, ignore_errors=True)
    load1 = " / ".join(f(x, 2) for x in os.getloadavg())
    text = "\n".join(
        [
            "# Baselines side by side",
            "",
            f"`benchmarks/bench_baselines.py {' '.join(sys.argv[1:])}`: "
            f"{datetime.now(UTC):%F %H:%M} UTC, "
            f"{f((time.monotonic() - started) / 60)} min, LadybugDB, MiniLM (int8 ONNX) vectors, "
            f"{len(queries)} held-out chitchat messages as queries, k={K}; load average {load0} "
            f"at start, {load1} at end. What each system is: see the module docstring.",
            "",
            "| facts | basis | system | ms p50 / p95 (n) | p50 vs ours | (b): hits left of k |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    Path(args.results).write_text(text)


if __name__ == "__main__":
    main()
