"""Neo4j PROFILE of the recall statements, with the parameters a real recall uses (bench_scale)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

NS = "bench"
SCANS = {"NodeByLabelScan", "AllNodesScan", "DirectedAllRelationshipsScan"}
Json = dict[str, Any]


def profile_statements(store: Any, query: str, embedder: Any) -> dict[str, tuple[str, Json]]:
    """The recall statements with the parameters a real recall of `query` would use."""
    from bitemporal_core.backends.neo4j import cypher as q
    from bitemporal_core.backends.port import ALL
    from bitemporal_core.backends.rows import scoped
    from bitemporal_core.language.extract import content_terms
    from bitemporal_core.ranking.recallm import RecallParams

    p, now = RecallParams(), datetime.now(UTC)
    base = {"ns": NS, "valid_at": now, "known_at": now, **ALL.params()}
    view = store.concepts_for(query, namespace=NS)
    ids = [scoped(NS, c.key) for c in view.concepts]
    essential = [scoped(NS, k) for k in view.essential] or ids[:1]
    nodes, _ = store.concept_graph(list(view.essential), namespace=NS)
    top = max((c.t_index for c in nodes), default=0)
    terms = [scoped(NS, t) for t in content_terms(query)]
    vec = embedder.embed_query(query) if embedder is not None else None
    params = {
        "CONCEPTS_BY_ID": {"ids": essential},
        "NEIGHBOURS": {"ids": essential, "low": top - p.window, "high": top, "limit": 800},
        "EDGES_AMONG": {"ids": ids},
        "MENTIONS_OF": {**base, "ids": ids, "limit": p.per_concept},
        "SUMMARIES_KNOWN": {"ids": ids, "known_at": now},
        "TERM_DF": {"ids": terms},
        "POSTINGS": {**base, "ids": terms},
        "VERSIONS_BY_ID": {"ids": [f.version_id for f in store.snapshot(NS)[:30]]},
        "SNAPSHOT": base,
        "VECTOR_QUERY": {**base, "vector": vec, "fetch": 100, "k": 30},
        "VECTOR_EXACT": {**base, "vector": vec, "k": 30},
    }
    return {  # the constants this version of the engine has (vector ones with embeddings)
        name: (getattr(q, name), args)
        for name, args in params.items()
        if hasattr(q, name) and (vec is not None or "VECTOR" not in name)
    }


def profile_cypher(
    cfg: Json, auth: Any, store: Any, queries: list[str], embedder: Any, facts: int
) -> Json:
    import neo4j

    two = (x for x in queries if len(store.concepts_for(x, namespace=NS).essential) > 1)
    query = next(two, queries[0])
    out: Json = {"query": query, "facts": facts, "statements": {}}
    with (
        neo4j.GraphDatabase.driver(cfg["neo4j_uri"], auth=auth) as driver,
        driver.session(notifications_min_severity="OFF") as session,
    ):
        for name, (text, params) in profile_statements(store, query, embedder).items():
            result = session.run("PROFILE " + text, params)
            rows = len(list(result))
            ops, hits, scans, stack = [], 0, [], [result.consume().profile]
            while stack:
                node = stack.pop()
                stack.extend(node.get("children", []))
                op, hits = node["operatorType"].split("@")[0], hits + int(node.get("dbHits", 0))
                details = str(node.get("args", {}).get("Details", ""))[:90]
                if "Index" in op or (op == "ProcedureCall" and "vector" in details):
                    ops.append(f"{op}: {details}")
                if op in SCANS or op.endswith("TypeScan"):
                    scans.append(op)
            out["statements"][name] = {"index_ops": ops, "db_hits": hits, "scans": scans}
            out["statements"][name]["rows"] = rows
    return out
