"""Forget: after `forget(namespace=...)` (or `forget(fact=...)`) a raw scan of the engine, every
node and relationship and property, finds no trace of the forgotten texts, embeddings, messages,
sessions, speakers or concept contexts (summaries); other namespaces are intact."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitemporal_core import MemoryStore, NotFound
from bitemporal_core.language.extract import ConceptExtractor
from bitemporal_core.services.llm_tasks import SUMMARY_PROMPT

from ._helpers import T0, observe, raw_scan, strings_in

# Distinctive words that only the forgotten namespace uses (checked case-insensitively, by
# a prefix that survives stemming).
MARKERS = ("Zorbleq", "Quixfot", "Mrrvak", "Glimtrap")
QUERIES = ("Where did Alice go?", "green tea")


class EchoLLM:
    """A stand-in LLM: summaries quote the statements (so they carry the markers)."""

    name = "echo"

    def complete(self, system: str, user: str) -> str:
        if system == SUMMARY_PROMPT:
            return "Summary: " + " ".join(user.split()[:60])
        return '{"replaced": []}'


def embed(texts: Sequence[str]) -> list[list[float]]:
    """32 deterministic dimensions per text."""
    out = []
    for text in texts:
        digest = hashlib.sha256(text.encode()).digest()
        out.append([b / 255 + 0.01 for b in digest])
    return out


@pytest.fixture
def rich(store: MemoryStore, extractor: ConceptExtractor) -> Iterator[MemoryStore]:
    """The engine of `store`, with an LLM for concept summaries and an embedder."""
    s = MemoryStore(
        store.backend, extractor=extractor, llm=EchoLLM(), embedder=embed, owns_backend=False
    )
    yield s
    s.close()


def populate_forgotten(store: MemoryStore, ns: str) -> list[str]:
    """Every kind of write, all carrying markers: facts, versions, messages, summaries."""
    day = timedelta(days=1)
    ids = []
    for i in range(4):  # enough mentions for a concept summary
        facts = store.remember(
            f"Zorbleq visited Quixfot on trip {i}.",
            namespace=ns,
            at=T0 + i * day,
            speaker="spk-Mrrvak",
            session="sess-Glimtrap",
            source=f"mid-Zorbleq-{i}",
        )
        ids.append(facts[0].id)
    new = store.supersede(ids[0], "Zorbleq now lives in Mrrvak.", at=T0 + 5 * day)
    store.correct(new.id, text="Zorbleq now lives in Glimtrap.", at=T0 + 6 * day)
    store.retract(ids[1], at=T0 + 7 * day)
    store.add_message(
        "Quixfot says hello.", namespace=ns, session="sess-Glimtrap", id="raw-Quixfot"
    )
    store.remember_many(
        [{"text": "Mrrvak likes Glimtrap tea.", "id": "bulk-Mrrvak", "session": "sess-Glimtrap"}],
        namespace=ns,
    )
    return [*ids, new.id]


def populate_kept(store: MemoryStore, ns: str) -> list[str]:
    """A namespace sharing words, message ids and sessions with the forgotten one."""
    day = timedelta(days=1)
    ids = []
    for i in range(4):
        facts = store.remember(
            f"Alice visited Paris and drank green tea on trip {i}.",
            namespace=ns,
            at=T0 + i * day,
            session="s1",
            source=f"m{i}",
        )
        ids.append(facts[0].id)
    store.supersede(ids[0], "Alice now lives in Rome.", at=T0 + 5 * day)
    store.add_message("hello", namespace=ns, session="s1", id="raw-1")
    return ids


def nodes_of(store: MemoryStore, ns: str) -> list[str]:
    return sorted(
        repr(sorted(props.items()))
        for _, props in raw_scan(store)
        if props.get("namespace") == ns or props.get("name") == ns
    )


def traces(store: MemoryStore, ns: str, vectors: list[list[float]]) -> list[str]:
    """Whatever in the raw engine still points at the forgotten namespace."""
    found = []
    wanted = [m.lower()[:6] for m in MARKERS]
    for label, props in raw_scan(store):
        if props.get("namespace") == ns or props.get("name") == ns:
            found.append(f"{label} of the namespace: {props}")
        for text in strings_in(props):
            if any(w in text.lower() for w in wanted):
                found.append(f"{label} text: {text!r}")
        for value in props.values():
            if isinstance(value, list) and value and value in vectors:
                found.append(f"{label} embedding")
    return found


def x_vectors(store: MemoryStore, ns: str) -> list[list[float]]:
    return [
        props["embedding"]
        for label, props in raw_scan(store)
        if "Version" in label.split(":") and props.get("namespace") == ns and props.get("embedding")
    ]


def test_forget_namespace_leaves_no_trace_in_a_raw_scan(rich: MemoryStore) -> None:
    gone = populate_forgotten(rich, "x")
    populate_kept(rich, "y")
    vectors = x_vectors(rich, "x")
    assert len(vectors) >= 6
    before = traces(rich, "x", vectors)
    assert any("Summary" in t for t in before), "the set-up made no concept summary"
    assert any("embedding" in t for t in before) and any("Message" in t for t in before)
    kept_nodes, kept_view = nodes_of(rich, "y"), observe(rich, "y", QUERIES)
    kept_graph = rich.concept_graph(["alic", "pari", "tea", "rome"], namespace="y", hops=2)

    assert rich.forget(namespace="x") > 20
    assert traces(rich, "x", vectors) == []
    assert rich.namespaces() == ["y"]
    assert rich.snapshot("x") == [] and rich.messages("x") == [] and rich.sessions("x") == []
    assert rich.timeline("x").versions == ()
    for fact_id in gone:
        with pytest.raises(NotFound):
            rich.history(fact_id)
    assert rich.recall("Where is Zorbleq?", namespace="x") == []
    # The other namespace is exactly as it was.
    assert nodes_of(rich, "y") == kept_nodes
    assert observe(rich, "y", QUERIES) == kept_view
    assert rich.concept_graph(["alic", "pari", "tea", "rome"], namespace="y", hops=2) == kept_graph


def test_forget_fact_leaves_no_trace_of_its_lineage(rich: MemoryStore) -> None:
    populate_kept(rich, "y")
    keep = rich.remember("Alice drinks green tea.", namespace="y", source="shared")[0]
    secret = rich.remember("Zorbleq hid the Quixfot key.", namespace="y", source="mid-Zorbleq")[0]
    rich.correct(secret.id, text="Zorbleq hid the Mrrvak key.")
    vectors = [
        p["embedding"]
        for label, p in raw_scan(rich)
        if "Version" in label.split(":") and any(m in str(p.get("text")) for m in MARKERS)
    ]
    assert len(vectors) == 2
    rich.forget(fact=secret.id)
    found = [t for t in traces(rich, "nobody", vectors) if "of the namespace" not in t]
    assert found == []
    assert rich.history(keep.id).versions[0].text == "Alice drinks green tea."
    assert [m.id for m in rich.messages("y")][-1] == "shared"


def test_forget_then_reuse_the_namespace_starts_clean(store: MemoryStore) -> None:
    store.remember("Zorbleq visited Paris.", namespace="x", source="m1", session="s")
    store.forget(namespace="x")
    fact = store.remember("Alice visited Paris.", namespace="x", source="m1", session="s")[0]
    assert fact.t_index == 1
    assert [m.text for m in store.messages("x")] == ["Alice visited Paris."]
    concepts, edges = store.concept_graph(["alic", "pari", "zorbleq"], namespace="x")
    assert sorted(c.key for c in concepts) == ["alic", "pari"]
    assert [(e.strength, e.t_index) for e in edges] == [(1, 1)]


WORD = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=5, max_size=8)


def test_forget_any_namespace_contents_hypothesis(store: MemoryStore) -> None:
    """Random texts in two namespaces (some shared): forgetting one leaves no trace of its
    own words and the other unchanged."""

    @settings(
        max_examples=10,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        secret=st.lists(WORD, min_size=1, max_size=4, unique=True),
        shared=st.lists(WORD, min_size=1, max_size=3),
        n=st.integers(1, 4),
    )
    def run(secret: list[str], shared: list[str], n: int) -> None:
        marker = "Qz" + "".join(secret)[:10]
        for ns in store.namespaces():
            store.forget(namespace=ns)
        for i in range(n):
            words = " ".join([*secret, *shared])
            store.remember(f"{marker} met {words} at place {i}.", namespace="x", source=f"m{i}")
            store.remember(f"Alice met {' '.join(shared)}.", namespace="y", source=f"m{i}")
        kept = nodes_of(store, "y")
        store.forget(namespace="x")
        scan = raw_scan(store)
        assert not [p for _, p in scan if p.get("namespace") == "x" or p.get("name") == "x"]
        assert not [s for _, p in scan for s in strings_in(p) if marker.lower() in s.lower()]
        assert nodes_of(store, "y") == kept

    run()


def test_forget_leaves_no_forgotten_text_readable_in_a_reopened_embedded_file(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """Logical deletion on the embedded engine, checked after a checkpointed close and a
    reopen: no node or relationship of any table holds a forgotten text.

    Found by this suite: LadybugDB does not compact its file, so the deleted strings' bytes
    may stay in free pages until reused (the old xfail counted them). LadybugDB has no
    compaction statement; README ("Forgetting") says what each engine removes physically."""
    path = tmp_path / "memory.lbdb"
    with MemoryStore.embedded(path, extractor=extractor) as s:
        for i in range(5):
            s.remember(f"Zorbleq number {i} visited Quixfot.", namespace="x", source=f"z{i}")
        s.remember("Alice likes tea.", namespace="y")
        s.forget(namespace="x")
    with MemoryStore.embedded(path, extractor=extractor) as s:
        scan = raw_scan(s)
        assert [p for _, p in scan if p.get("namespace") == "y"]  # the scan does see data
        assert not [v for _, p in scan for v in strings_in(p) if "orbleq" in v.lower()]
        assert s.namespaces() == ["y"]


def _index_hits(driver: Any) -> tuple[int, set[str]]:
    """Fulltext hits for the markers; namespaces of the vector index's nearest nodes."""
    vector = embed(["Zorbleq visited Quixfot on trip 2."])[0]
    with driver.session() as session:
        show = "SHOW INDEXES YIELD name, type, options RETURN name, type, options"
        indexes = session.run(show).values()
        fulltext = [name for name, kind, _ in indexes if kind == "FULLTEXT"]
        vectors = [  # this vector's dimension only: an earlier run may have left others
            name
            for name, kind, options in indexes
            if kind == "VECTOR" and options["indexConfig"]["vector.dimensions"] == len(vector)
        ]
        assert fulltext and vectors
        text_hits = sum(
            len(
                session.run(
                    "CALL db.index.fulltext.queryNodes($i, $q) YIELD node RETURN node",
                    i=name,
                    q=marker,
                ).values()
            )
            for name in fulltext
            for marker in MARKERS
        )
        near = {
            ns
            for name in vectors
            for (ns,) in session.run(
                "CALL db.index.vector.queryNodes($i, 50, $v) YIELD node RETURN node.namespace",
                i=name,
                v=vector,
            ).values()
        }
    return text_hits, near


@pytest.mark.neo4j
def test_forget_leaves_nothing_in_neo4j_indexes(neo4j_driver: Any, rich_neo4j: Any) -> None:
    """The fulltext and vector indexes answer nothing about a forgotten namespace."""
    store: MemoryStore = rich_neo4j
    populate_forgotten(store, "x")
    populate_kept(store, "y")
    text_hits, near = _index_hits(neo4j_driver)
    assert text_hits > 0 and "x" in near  # the indexes did hold the namespace
    store.forget(namespace="x")
    text_hits, near = _index_hits(neo4j_driver)
    assert text_hits == 0 and near == {"y"}


@pytest.fixture
def rich_neo4j(neo4j_driver: Any, extractor: ConceptExtractor) -> Iterator[MemoryStore]:
    with neo4j_driver.session() as session:
        session.run("MATCH (n) DETACH DELETE n").consume()
    s = MemoryStore.neo4j(driver=neo4j_driver, extractor=extractor, llm=EchoLLM(), embedder=embed)
    yield s
    s.close()
