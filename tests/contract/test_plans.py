"""Every statement an engine runs starts from an index or a primary-key lookup (issue 17).

A workload of every public operation runs beside another tenant's 2,000 messages; each
distinct statement it sent is then EXPLAINed with the parameters it was sent with. LadybugDB:
no scan of a node table, except a scan masked by the rows a lookup found (a semi-join) and the
namespace-wide reads its lack of secondary indexes leaves (`NAMESPACE_SCANS`). Neo4j: no label,
type or whole-index scan, except listing the namespaces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bitemporal_core import Lifecycle, MemoryStore, Turn
from bitemporal_core.backends import cypher as c
from bitemporal_core.backends.ladybug import cypher as lq
from bitemporal_core.language.extract import ConceptExtractor
from bitemporal_core.providers.embeddings import CallableEmbedder

T0 = datetime(2024, 5, 1, 9, tzinfo=UTC)
Seen = dict[str, dict[str, Any]]


def _embed(texts: list[str]) -> list[list[float]]:
    return [[float((len(t) + i) % 7) + 0.5 for i in range(32)] for t in texts]


def _options() -> dict[str, Any]:
    embedder = CallableEmbedder(_embed, name="lengths", dim=32)
    return {"embedder": embedder, "lifecycle": Lifecycle(inferred_weight=0.5)}


def _workload(store: MemoryStore) -> None:
    """Every public operation, in a namespace beside another tenant's messages."""
    other = [
        {
            "text": f"My dog {i} likes the park near Lyon.",
            "id": f"o{i}",
            "at": T0 + timedelta(seconds=s),
        }
        for i, s in enumerate(range(0, 2_000 * 60, 60))
    ]
    store.remember_many(other, namespace="other", chunk=500)
    at = T0
    for i in range(6):
        at += timedelta(minutes=5)
        text = f"I enjoy apples and pears number {i}. My brother plays chess in Paris."
        store.remember(text, namespace="n", at=at, source=f"m{i}", session="s1", speaker="user")
    store.remember(
        "I enjoy apples and pears number 0. My brother plays chess in Paris.",
        namespace="n",
        source="m0",
    )
    store.add_turn(Turn(text="Hello, I moved to Berlin.", role="user", session="s1"), namespace="n")
    first = store.remember("I like tea.", namespace="n")[0]
    second = store.supersede(first.id, "I like coffee.")
    store.correct(second.id, text="I like strong coffee.")
    store.retract(store.remember("A fact about trains.", namespace="n")[0].id)
    for question in ("What does my brother play?", "apples", "Paris chess"):
        store.recall(question, namespace="n")
    store.recall("apples", namespace="n", kinds=["preference"], include_archived=True)
    store.context("Paris chess", namespace="n")
    store.abstract("n", min_facts=2)
    store.infer_relationships("n", min_strength=1, min_shared=1)
    store.relationships("n")
    store.prune("n", min_weight=0.9, half_life=timedelta(hours=3))
    store.recall("What does my brother play?", namespace="n")
    store.messages("n")
    store.messages("n", session="s1")
    store.sessions("n")
    store.snapshot("n")
    store.timeline("n")
    store.history(second.id)
    store.concepts("n")
    store.namespaces()
    # A namespace written before claims had keys files them on its first change statement.
    store.backend._write("MATCH (x:Namespace {name: 'n'}) SET x.claim_keys = NULL", {})
    store.remember("I moved to Rome.", namespace="n")
    store.delete_messages("n", ids=["m5"])
    store.forget(fact=second.id)
    store.delete_messages("n", session="s1")
    store.forget(namespace="n")


_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "CREATE NODE TABLE", "CREATE REL TABLE", "ALTER")
_LB_SCAN = re.compile(r"(?<![A-Z_])SCAN_NODE_TABLE\[(\d+)\]")
_LB_MASKED = re.compile(r"Operators: SCAN_NODE_TABLE\[(\d+)\]")


def _ladybug_scans(run: Callable[..., Any], query: str, params: dict[str, Any]) -> list[str]:
    plan = str(run("EXPLAIN " + query, params))
    masked = set(_LB_MASKED.findall(plan))
    return [op for op in _LB_SCAN.findall(plan) if op not in masked]


def test_ladybug_statements_start_from_a_lookup(extractor: ConceptExtractor) -> None:
    store = MemoryStore.embedded(None, extractor=extractor, **_options())
    backend: Any = store.backend
    real, seen = backend._run, {}

    def record(query: str, params: dict[str, Any] | None = None) -> Any:
        seen.setdefault(query, dict(params or {}))
        return real(query, params)

    backend._run = record
    try:
        _workload(store)
    finally:
        backend._run = real
    statements = {q: p for q, p in seen.items() if not q.startswith(_CONTROL)}
    scanning = [q for q, p in statements.items() if _ladybug_scans(real, q, p)]
    # The workload has no LLM, so no summaries: the planner scans the empty Summary table.
    empty = {lq.SHARED.FORGET_SUMMARIES_OF}
    unexpected = [q for q in scanning if q not in lq.NAMESPACE_SCANS | empty]
    store.close()
    assert len(statements) > 50  # the workload reached the write, recall and lifecycle paths
    assert unexpected == []
    # The allowance is for namespace-wide statements only: each names the namespace, no id.
    allowed = [q for q in scanning if q in lq.NAMESPACE_SCANS and q != c.LIST_NAMESPACES]
    assert all("$ns" in q and "{id:" not in q for q in allowed)


_NEO4J_SCANS = ("AllNodesScan", "NodeByLabelScan", "NodeIndexScan", "RelationshipTypeScan")


def _operators(plan: dict[str, Any]) -> Iterator[str]:
    yield str(plan.get("operatorType", "")).split("@")[0]
    for child in plan.get("children", []):
        yield from _operators(child)


@pytest.mark.neo4j
def test_neo4j_statements_start_from_an_index(
    neo4j_driver: Any, extractor: ConceptExtractor, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bitemporal_core.backends.neo4j import engine, tx

    with neo4j_driver.session() as session:
        session.execute_write(lambda t: t.run("MATCH (n) DETACH DELETE n").consume())
    real, seen = tx._run, {}

    def record(t: Any, query: str, params: dict[str, Any] | None = None) -> Any:
        seen.setdefault(query, dict(params or {}))
        return real(t, query, params)

    monkeypatch.setattr(tx, "_run", record)
    monkeypatch.setattr(engine, "_run", record)
    store = MemoryStore.neo4j(driver=neo4j_driver, extractor=extractor, **_options())
    backend: Any = store.backend
    backend.exact_scan_max = 10  # the workload's namespace is small: use the vector index too
    try:
        _workload(store)
    finally:
        store.close()
    scanning = {}
    with neo4j_driver.session() as session:
        for query, params in seen.items():
            plan = session.run("EXPLAIN " + query, params).consume().plan
            found = [op for op in _operators(plan) if op.endswith(_NEO4J_SCANS)]
            if found and query != c.LIST_NAMESPACES:
                scanning[query] = found
    assert len(seen) > 50
    assert any(q.startswith("CYPHER replan=skip CALL () {") for q in seen)  # a write, held
    assert scanning == {}


def test_ladybug_prepares_its_statements_again_as_an_empty_store_grows() -> None:
    """The engine plans a lookup over a nearly empty table as a scan, and a prepared plan is
    kept for the connection's life: a process that began on an empty store would go on
    scanning. The backend prepares again each time it has doubled what it wrote."""
    grown = MemoryStore.embedded(None, extractor="simple")
    backend: Any = grown.backend
    keyed = lq.SHARED.KEYED_CLAIMS
    assert _ladybug_scans(backend._run, keyed, {"id": "x"})  # the empty store's plan
    said = [
        {"text": f"My friend Sam{i} likes the {w} in Lyon.", "id": f"m{i}", "speaker": "user"}
        for i, w in enumerate(["park", "river", "museum", "market"] * 150)
    ]
    grown.remember_many(said, namespace="n", chunk=200)
    assert backend._runner.renewed > 0  # a new connection prepared the statements again
    assert _ladybug_scans(backend._run, keyed, {"id": "x"}) == []
    grown.close()


def test_ladybug_checkpoints_a_small_log_between_single_writes(tmp_path: Any) -> None:
    """Lookups slow down as the write-ahead log grows, so single writes checkpoint it at
    4 MB; a bulk chunk raises that (fewer, larger checkpoints) until single writes resume."""
    store = MemoryStore.embedded(str(tmp_path / "s.lbdb"), extractor="simple")
    run: Any = store.backend._run
    setting = "CALL current_setting('checkpoint_threshold') RETURN *"

    def threshold() -> int:
        return int(run(setting)[0][0])

    assert threshold() == lq.WAL_SMALL_BYTES
    said = [{"text": f"I visited museum {i} in Lyon.", "id": f"m{i}"} for i in range(40)]
    store.remember_many(said, namespace="n", chunk=40)
    assert threshold() == lq.WAL_BULK_BYTES
    for i in range(15):
        store.remember(f"I read book {i}.", namespace="n")
    assert threshold() == lq.WAL_BULK_BYTES  # a bulk import's few messages between chunks
    store.remember("I read one more book.", namespace="n")
    assert threshold() == lq.WAL_SMALL_BYTES
    store.close()
