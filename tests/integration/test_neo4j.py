"""The Neo4j engine against a real server: schema, ownership, secrets, concurrency, plans."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from bitemporal_core import (
    BackendError,
    Basis,
    ConfigurationError,
    MemoryStore,
    NotCurrent,
    TimeRegression,
)
from bitemporal_core.backends import Backend, NewFact, NewMessage, NewVersion, WriteBatch
from bitemporal_core.backends.port import ALL
from bitemporal_core.language.extract import ConceptExtractor
from bitemporal_core.providers.embeddings import CallableEmbedder

from ..conftest import _wipe, neo4j_settings

pytestmark = pytest.mark.neo4j

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)

CONSTRAINED = {
    ("Namespace", "name"),
    ("Fact", "id"),
    ("Version", "id"),
    ("Concept", "id"),
    ("Term", "id"),
    ("Message", "id"),
}


def _query(driver: Any, cypher: str, **params: Any) -> list[list[Any]]:
    with driver.session() as session:
        return [list(r.values()) for r in session.run(cypher, params)]


@pytest.fixture
def neo(neo4j_driver: Any, extractor: ConceptExtractor) -> Iterator[MemoryStore]:
    """An empty Neo4j store on the caller-owned test driver."""
    _wipe(neo4j_driver)
    store = MemoryStore.neo4j(driver=neo4j_driver, extractor=extractor)
    try:
        yield store
    finally:
        store.close()


def _schema(driver: Any) -> tuple[list[list[Any]], list[list[Any]]]:
    indexes = _query(
        driver, "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, state, owningConstraint"
    )
    constraints = _query(driver, "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties")
    return sorted(indexes, key=str), sorted(constraints, key=str)


def test_schema_bootstrap_is_idempotent_and_complete(neo4j_driver: Any) -> None:
    from bitemporal_core.backends.neo4j import Neo4jBackend

    first = Neo4jBackend(driver=neo4j_driver)
    assert isinstance(first, Backend)
    first.ensure_schema()
    before = _schema(neo4j_driver)
    second = Neo4jBackend(driver=neo4j_driver)
    second.ensure_schema()
    second.ensure_schema()
    assert _schema(neo4j_driver) == before
    indexes, constraints = before
    unique = {
        (labels[0], props[0])
        for _, kind, labels, props in constraints
        if kind in ("UNIQUENESS", "NODE_PROPERTY_UNIQUENESS") and len(props) == 1
    }
    assert unique >= CONSTRAINED
    online = {
        (kind, labels[0], tuple(props))
        for _, kind, labels, props, state, _owner in indexes
        if state == "ONLINE" and labels
    }
    assert ("RANGE", "Version", ("namespace", "valid_from")) in online
    assert ("RANGE", "Version", ("namespace", "recorded_at")) in online
    assert ("FULLTEXT", "Version", ("text",)) in online
    for label, prop in CONSTRAINED:
        assert ("RANGE", label, (prop,)) in online
    first.close()
    second.close()


def test_configuration_errors(neo4j_driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from bitemporal_core.backends.neo4j import Neo4jBackend

    uri, user, password = neo4j_settings()
    with pytest.raises(ConfigurationError):
        Neo4jBackend()
    with pytest.raises(ConfigurationError):
        Neo4jBackend(uri, driver=neo4j_driver)
    with pytest.raises(ConfigurationError):
        Neo4jBackend(driver=neo4j_driver, auth=(user, password))
    monkeypatch.setitem(sys.modules, "neo4j", None)  # the optional extra is not installed
    with pytest.raises(ConfigurationError, match=r"pip install"):
        Neo4jBackend(uri, auth=(user, password))


def test_caller_owned_driver_is_not_closed(neo4j_driver: Any, extractor: ConceptExtractor) -> None:
    _wipe(neo4j_driver)
    store = MemoryStore.neo4j(driver=neo4j_driver, extractor=extractor)
    store.remember("I like tea.", namespace="a", at=T0)
    store.close()
    store.close()  # idempotent
    neo4j_driver.verify_connectivity()
    assert _query(neo4j_driver, "MATCH (v:Version) RETURN v.text") == [["I like tea."]]
    with pytest.raises(BackendError):
        store.snapshot("a")


def test_owned_driver_is_closed_and_repr_has_no_secret(
    neo4j_driver: Any, extractor: ConceptExtractor
) -> None:
    uri, user, password = neo4j_settings()
    host = uri.split("://", 1)[1]
    with_userinfo = f"{uri.split('://', 1)[0]}://{user}:{password}@{host}"
    with pytest.raises(ConfigurationError) as twice:
        MemoryStore.neo4j(with_userinfo, auth=(user, password), extractor=extractor)
    assert password not in str(twice.value)
    store = MemoryStore.neo4j(with_userinfo, extractor=extractor)
    try:
        shown = [repr(store), repr(store.backend), store.describe()]
        assert store.namespaces() is not None
        driver = store.backend._driver  # type: ignore[attr-defined]
    finally:
        store.close()
    for text in shown:
        assert password not in text and f"{user}:" not in text
        assert host in text
    with pytest.raises(BackendError):
        store.namespaces()
    with pytest.raises(Exception):  # noqa: B017 - the owned driver itself is closed
        driver.verify_connectivity()


def test_wrong_credentials_give_a_backend_error_without_them(
    neo4j_driver: Any, extractor: ConceptExtractor
) -> None:
    uri, _, _ = neo4j_settings()
    secret = "not-the-password-7Q"
    store = MemoryStore.neo4j(uri, auth=("no-such-user", secret), extractor=extractor)
    with store, pytest.raises(BackendError) as info:
        store.remember("I like tea.", namespace="a")
    assert secret not in str(info.value) and secret not in repr(info.value)
    assert info.value.__cause__ is not None


def test_engine_clock_is_the_servers_and_times_round_trip(neo: MemoryStore) -> None:
    clock = neo.backend.clock("a")
    assert clock.last_tx is None and clock.t_index == 0
    assert clock.now.tzinfo is not None
    assert abs(clock.now - datetime.now(UTC)) < timedelta(minutes=5)
    at = T0 + timedelta(microseconds=123457)
    vf = datetime(1965, 5, 4, 3, 2, 1, 999_999, tzinfo=UTC)  # before the epoch, to the µs
    fact = neo.remember("I like tea.", namespace="a", at=at, valid_from=vf)[0]
    stored = neo.history(fact.id).versions[0]
    assert (stored.recorded_at, stored.valid_from, stored.valid_to) == (at, vf, None)
    assert neo.snapshot("a", basis=Basis(valid_at=vf, known_at=at)) == [stored]
    assert (
        neo.snapshot("a", basis=Basis(valid_at=vf - timedelta(microseconds=1), known_at=at)) == []
    )
    assert neo.backend.clock("a").last_tx == at
    implicit = neo.remember("I like coffee.", namespace="a")[0]
    assert implicit.recorded_at > at


def test_concurrent_writers_lose_no_increments(neo: MemoryStore, neo4j_driver: Any) -> None:
    errors: list[BaseException] = []

    def writer() -> None:
        # The store rebuilds a call whose implicit transaction time another writer overtook.
        try:
            for _ in range(25):
                neo.remember("Alice visited Paris.", namespace="c")
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert neo.backend.clock("c").t_index == 100
    edges = _query(
        neo4j_driver,
        "MATCH (a:Concept {namespace: 'c'})-[e:RELATED]->(b:Concept)"
        " RETURN a.key, b.key, sum(e.strength), max(e.t_index)",
    )  # one RELATED increment per write (as-of reads), no increment lost
    assert edges == [["alic", "pari", 100, 100]]
    concepts = _query(
        neo4j_driver, "MATCH (c:Concept {namespace: 'c'}) RETURN c.key, count(*), max(c.t_index)"
    )
    assert sorted(concepts) == [["alic", 1, 100], ["pari", 1, 100]]
    assert len(neo.snapshot("c")) == 100
    assert _query(neo4j_driver, "MATCH (n:Namespace) WHERE n._lock IS NOT NULL RETURN n") == []


def _batch(at: datetime, *, close: tuple[str, ...] = ()) -> WriteBatch:
    version = NewVersion(
        fact_id="f-new",
        version_id="v-new",
        text="My code word is xylophone.",
        valid_from=at,
        valid_to=None,
        version=1,
        source="m-new",
        concepts=(("xylophon", "xylophone"), ("code", "code")),
        terms=(("xylophon", 1), ("code", 1)),
        length=2,
    )
    return WriteBatch(
        namespace="a",
        at=at,
        close=close,
        facts=(NewFact(id="f-new"),),
        versions=(version,),
        messages=(NewMessage(id="m-new", session=None, role=None, text="xylophone"),),
        concepts=(("xylophon", "xylophone"), ("code", "code")),
        relate=(("code", "xylophon"),),
        advance_t_index=True,
    )


def test_failed_apply_writes_nothing(neo: MemoryStore) -> None:
    backend: Any = neo.backend
    fact = neo.remember("I like tea.", namespace="a", at=T0 + timedelta(days=1))[0]
    neo.retract(fact.id, at=T0 + timedelta(days=2))
    before = sorted(map(str, backend.raw_dump()))
    with pytest.raises(TimeRegression):
        backend.apply_many([_batch(T0)])
    with pytest.raises(TimeRegression):
        neo.remember("My code word is xylophone.", namespace="a", at=T0)
    with pytest.raises(NotCurrent):
        backend.apply_many([_batch(T0 + timedelta(days=3), close=(fact.version_id,))])
    after = sorted(map(str, backend.raw_dump()))
    assert after == before
    assert "xylophone" not in str(after)
    assert backend.clock("a").t_index == 1


def test_forget_leaves_no_trace(
    neo: MemoryStore, neo4j_driver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bitemporal_core.backends.neo4j import engine

    monkeypatch.setattr(engine, "_FORGET_BATCH", 3)  # exercise the batched deletion loop
    for i in range(7):
        neo.remember(f"My secret word number {i} is zanzibar.", namespace="x", source=f"m{i}")
    neo.add_message("zanzibar again", namespace="x", session="s")
    neo.remember("I like zanzibar too.", namespace="y")
    gone = neo.remember("My bank PIN is 4921.", namespace="y")[0]
    assert neo.forget(namespace="x") > 7 * 3
    assert neo.forget(fact=gone.id) >= 2
    dump: list[dict[str, Any]] = neo.backend.raw_dump()  # type: ignore[attr-defined]
    assert not [n for n in dump if n.get("namespace") == "x" or n.get("name") == "x"]
    assert "4921" not in str(dump) and "PIN" not in str(dump)
    assert {n["namespace"] for n in dump if "zanzibar" in str(n)} == {"y"}
    left = _query(neo4j_driver, "MATCH (n) WHERE n.namespace = 'x' OR n.name = 'x' RETURN count(n)")
    assert left == [[0]]
    assert not [n for n in dump if "_lock" in n]
    assert neo.namespaces() == ["y"]


def _operators(plan: Any) -> list[tuple[str, str]]:
    out = [(plan["operatorType"].split("@")[0], str(plan.get("args", {}).get("Details", "")))]
    for child in plan.get("children", []):
        out.extend(_operators(child))
    return out


def _profile(driver: Any, cypher: str, params: dict[str, Any]) -> list[tuple[str, str]]:
    with driver.session() as session:
        summary = session.run("PROFILE " + cypher, params).consume()
    assert summary.profile is not None
    return _operators(summary.profile)


def test_reads_use_the_indexes(neo: MemoryStore, neo4j_driver: Any) -> None:
    from bitemporal_core.backends.neo4j import cypher as q
    from bitemporal_core.backends.rows import scoped

    for i in range(40):
        ns = "p" if i % 2 else "other"
        neo.remember(f"Alice visited Paris in spring {i}.", namespace=ns, at=T0 + timedelta(i))
    valid_at = known_at = T0 + timedelta(days=50)
    assert len(neo.snapshot("p", basis=Basis(valid_at=valid_at, known_at=known_at))) == 20
    with neo4j_driver.session() as session:  # plan with the current statistics, not the empty DB's
        session.run("CALL db.resampleOutdatedIndexes()").consume()
        session.run("CALL db.clearQueryCaches()").consume()
    params = {"ns": "p", "valid_at": valid_at, "known_at": known_at}
    for query in (q.SHARED.SNAPSHOT, q.SHARED.VERSIONS_ALL, q.SHARED.VERSIONS_KNOWN):
        ops = _profile(neo4j_driver, query, params)
        assert any(
            op == "NodeIndexSeek" and "RANGE INDEX v:Version(namespace, " in details
            for op, details in ops
        ), ops
        assert not any(op in ("AllNodesScan", "NodeByLabelScan", "NodeIndexScan") for op, _ in ops)
    ids = [scoped("p", "alic"), scoped("p", "pari")]
    params = {"ids": ids, "valid_at": valid_at, "known_at": known_at, "limit": 5, **ALL.params()}
    ops = _profile(neo4j_driver, q.MENTIONS_OF, params)
    assert any(op == "NodeUniqueIndexSeek" and "Concept(id)" in details for op, details in ops), ops
    assert not any(op in ("AllNodesScan", "NodeByLabelScan") for op, _ in ops), ops
    hits = neo.recall("Where did Alice go?", namespace="p", basis=Basis(valid_at, known_at))
    assert hits and all(h.fact.namespace == "p" for h in hits)


def test_vector_recall_uses_the_native_index(neo: MemoryStore, neo4j_driver: Any) -> None:
    from bitemporal_core.backends.neo4j import cypher as q
    from bitemporal_core.providers.embeddings import MiniLMEmbedder

    pytest.importorskip("onnxruntime")
    backend: Any = neo.backend
    store = MemoryStore(backend, embedder=MiniLMEmbedder(), resolver=None, owns_backend=False)
    texts = [
        "I am allergic to apples.",
        "My brother plays chess.",
        "The train leaves at noon.",
        "We adopted a cat.",
        "I work as a nurse.",
    ]
    for i, text in enumerate(texts * 4):
        store.remember(text, namespace="v" if i % 2 else "w", at=T0 + timedelta(minutes=i))
    exact = store.recall("Which fruit can't she eat?", namespace="v", k=3)
    backend.exact_scan_max = 0  # force the index path on this small namespace
    indexed = store.recall("Which fruit can't she eat?", namespace="v", k=3)
    assert [h.fact.version_id for h in indexed] == [h.fact.version_id for h in exact]
    assert indexed[0].fact.text == "I am allergic to apples." and "vector" in indexed[0].sources
    assert all(h.fact.namespace == "v" for h in indexed)
    vector = MiniLMEmbedder().embed_query("Which fruit can't she eat?")
    now = datetime.now(UTC)
    params = {
        "ns": "v",
        "vector": vector,
        "k": 3,
        "fetch": 30,
        "index": q.vector_index(len(vector)),
        "valid_at": now,
        "known_at": now,
        **ALL.params(),
    }
    ops = _profile(neo4j_driver, q.VECTOR_QUERY, params)
    assert any("db.index.vector.queryNodes" in details for _, details in ops), ops


def test_embeddings_are_stored_as_float32_and_indexed_quantized(
    neo: MemoryStore, neo4j_driver: Any
) -> None:
    from bitemporal_core.backends.neo4j import cypher as q

    vector = [0.1, 0.2, 0.3, 0.7] * 8  # 32 dimensions; 0.1 is not a float32 number
    store = MemoryStore(
        neo.backend,
        embedder=CallableEmbedder(lambda texts: [vector for _ in texts], name="const-32"),
        resolver=None,
        owns_backend=False,
    )
    fact = store.remember("We adopted a cat.", namespace="f32", at=T0)[0]
    with neo4j_driver.session() as session:
        stored = session.run(
            "MATCH (v:Version {id: $id}) RETURN v.embedding AS e", id=fact.version_id
        ).single()["e"]
        options = session.run(
            "SHOW VECTOR INDEXES YIELD name, options WHERE name = $name RETURN options",
            name=q.vector_index(32),
        ).single()["options"]
    sent = (np.asarray(vector) / np.linalg.norm(vector)).tolist()  # the embedder's unit vector
    assert stored == pytest.approx(sent, abs=1e-7)

    def float32(values: list[float]) -> bool:
        return all(float(np.float32(x)) == x for x in values)

    assert float32(stored) and not float32(sent)  # kept as float32, not the float64 sent
    assert options["indexConfig"]["vector.quantization.enabled"] is True
