"""Forget: after `forget(namespace=...)` (or `forget(fact=...)`) a raw scan of the engine, every
node and relationship and property, finds no trace of the forgotten texts, embeddings, messages,
sessions, speakers or concept contexts (summaries); other namespaces are intact."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitemporal_core import MemoryStore, NotFound
from bitemporal_core.backends.ladybug import erase
from bitemporal_core.language.extract import ConceptExtractor
from bitemporal_core.services.llm_tasks import SUMMARY_PROMPT

from ._helpers import (
    PASSWORD,
    T0,
    PrivateNeo4j,
    observe,
    raw_scan,
    require_java_and_maven,
    strings_in,
)

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
    secret_versions = {v.version_id for v in rich.history(secret.id).versions}
    vectors = [
        p["embedding"]
        for label, p in raw_scan(rich)
        if "Version" in label.split(":") and p.get("id") in secret_versions
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


# Chinese text, speaker and session of the forgotten namespace, searched as UTF-8 bytes.
ZH_MARKERS = ("梅花鹿先生", "乌鲁木齐", "饺子馆")


def populate_forgotten_zh(store: MemoryStore, ns: str) -> None:
    store.remember("梅花鹿先生住在乌鲁木齐。", namespace=ns, speaker="梅花鹿先生", session="饺子馆")
    store.remember("梅花鹿先生喜欢饺子馆的饺子。", namespace=ns, speaker="梅花鹿先生")


def bytes_on_disk(root: Path, needles: Sequence[str]) -> dict[str, int]:
    """How often each needle's bytes occur in the files under `root` (case-insensitively for
    ASCII, since concept and term keys are lower-cased stems): the file, WAL, saved indexes."""
    found: dict[str, int] = {}
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        data = f.read_bytes().lower()
        for needle in needles:
            if n := data.count(needle.lower().encode()):
                found[f"{needle} in {f.relative_to(root)}"] = n
    return found


# Prefixes of the markers that survive stemming and lower-casing (the concept and term keys).
NEEDLES = (*[m[:6] for m in MARKERS], *ZH_MARKERS, "sess-Glimtrap", "mid-Zorbleq", "raw-Quixfot")


def graph_of(store: MemoryStore, ns: str) -> list[str]:
    """Namespace `ns` as the embedded engine holds it: every node, and every relationship with
    the ids of its ends (use counts left out: recalls change them).

    Ends are joined here by the engine's internal ids: a `MATCH (a)-[r]->(b) RETURN a, b, r`
    over every table returned freed memory for a string about once in 150 reads of a file
    rewritten by an import (LadybugDB, several threads; never with one thread, never for the
    store's own statements, which return properties, measured 0 in 1,500 index loads)."""
    backend: Any = store.backend
    nodes = {_key(n["_ID"]): _props(n) for (n,) in backend._read("MATCH (n) RETURN n", {})}
    out = [
        repr(sorted(n.items())) for n in nodes.values() if ns in (n.get("namespace"), n.get("name"))
    ]
    for (r,) in backend._read("MATCH ()-[r]->() RETURN r", {}):
        a, b = nodes[_key(r["_SRC"])], nodes[_key(r["_DST"])]
        if a.get("namespace") == ns:
            ends = f"{a.get('id')}->{b.get('id')}"
            out.append(f"{r['_LABEL']} {ends} {sorted(_props(r).items())!r}")
    return sorted(out)


def _key(internal: dict[str, int]) -> tuple[int, int]:
    return internal["table"], internal["offset"]


def _props(item: Any) -> dict[str, Any]:
    skip = ("uses", "last_used")
    return {k: v for k, v in item.items() if k[0] != "_" and k not in skip and v is not None}


def test_forget_namespace_leaves_no_byte_in_the_closed_embedded_files(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """Every kind of write in namespace x (facts, versions, messages, speakers, sessions,
    summaries, abstractions, claims, concepts, BM25 terms, embeddings, Chinese text, a saved
    recall index), then `forget(namespace="x")` and close: no file under the store's folder
    holds any forgotten string's bytes, and namespace y is exactly as it was."""
    path = tmp_path / "memory.lbdb"
    with MemoryStore.embedded(path, extractor=extractor, llm=EchoLLM(), embedder=embed) as s:
        populate_forgotten(s, "x")
        populate_forgotten_zh(s, "x")
        assert s.abstract("x")  # an extractive digest quoting the markers
        populate_kept(s, "y")
        s.recall("Where did Zorbleq go?", namespace="x")  # both indexes saved on close
        s.recall("Where did Alice go?", namespace="y")
        kept, view = graph_of(s, "y"), observe(s, "y", QUERIES)
    before = bytes_on_disk(tmp_path, NEEDLES)
    assert {n for n in NEEDLES if any(k.startswith(n + " ") for k in before)} == set(NEEDLES)
    assert any(".recall" in k for k in before), "the set-up saved no recall index"

    with MemoryStore.embedded(path, extractor=extractor) as s:
        s.forget(namespace="x")
        for i in range(20):  # later writes elsewhere
            s.remember(f"Bob likes tea number {i}.", namespace="z")
    assert bytes_on_disk(tmp_path, NEEDLES) == {}
    with MemoryStore.embedded(path, extractor=extractor, embedder=embed) as s:
        assert s.namespaces() == ["y", "z"]
        assert graph_of(s, "y") == kept
        assert observe(s, "y", QUERIES) == view


def test_forget_fact_and_deleted_messages_leave_no_byte_in_the_closed_embedded_files(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """`forget(fact=...)` and `delete_messages` in a namespace that stays: after close the
    file holds none of the forgotten lineage's or message's bytes; the rest is intact."""
    path = tmp_path / "memory.lbdb"
    with MemoryStore.embedded(path, extractor=extractor, embedder=embed) as s:
        populate_kept(s, "y")
        secret = s.remember("Zorbleq hid the Quixfot key.", namespace="y", source="mid-Zorbleq")
        s.correct(secret[0].id, text="Zorbleq hid the Mrrvak key.")
        s.add_message("Glimtrap is my password.", namespace="y", id="raw-Quixfot")
        s.recall("Where is the key?", namespace="y")
        s.forget(fact=secret[0].id)
        s.delete_messages("y", ids=["raw-Quixfot"])
        kept, view = graph_of(s, "y"), observe(s, "y", QUERIES)
    assert bytes_on_disk(tmp_path, [m[:6] for m in MARKERS]) == {}
    with MemoryStore.embedded(path, extractor=extractor, embedder=embed) as s:
        assert graph_of(s, "y") == kept
        assert observe(s, "y", QUERIES) == view


def test_compact_erases_while_the_store_stays_open(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """`compact()` rewrites the marked file at once; the store goes on reading and writing."""
    path = tmp_path / "memory.lbdb"
    with MemoryStore.embedded(path, extractor=extractor) as s:
        assert s.compact() is False  # nothing deleted yet
        for i in range(5):
            s.remember(f"Zorbleq number {i} visited Quixfot.", namespace="x", source=f"z{i}")
        s.remember("Alice likes green tea.", namespace="y")
        s.backend._run("CHECKPOINT")  # the deleted bytes are in the file now
        s.forget(namespace="x")
        assert bytes_on_disk(tmp_path, ["orbleq"])
        assert s.compact() is True
        assert bytes_on_disk(tmp_path, ["orbleq"]) == {}
        assert s.compact() is False
        s.remember("Alice likes black tea too.", namespace="y")
        assert {h.fact.text for h in s.recall("tea", namespace="y")} == {
            "Alice likes green tea.",
            "Alice likes black tea too.",
        }
        assert s.namespaces() == ["y"]


@pytest.mark.neo4j
def test_compact_on_neo4j_rewrites_nothing(neo4j_driver: Any, rich_neo4j: MemoryStore) -> None:
    rich_neo4j.remember("Zorbleq visited Quixfot.", namespace="x")
    rich_neo4j.forget(namespace="x")
    assert rich_neo4j.compact() is False


_DIE_AFTER_FORGET = """
import os, sys
from bitemporal_core import MemoryStore
s = MemoryStore.embedded(sys.argv[1])
for i in range(5):
    s.remember(f"Zorbleq number {i} visited Quixfot.", namespace="x", source=f"z{i}")
s.remember("Alice likes tea.", namespace="y")
s.backend._run("CHECKPOINT")
s.forget(namespace="x")
os._exit(0)  # dies without closing: the file and its WAL hold the forgotten bytes
"""


def test_a_process_that_died_after_forget_leaves_the_rewrite_to_the_next_open(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    path = tmp_path / "memory.lbdb"
    subprocess.run([sys.executable, "-c", _DIE_AFTER_FORGET, str(path)], check=True)
    assert bytes_on_disk(tmp_path, ["orbleq"])  # the deletion reached no byte yet
    with MemoryStore.embedded(path, extractor=extractor) as s:
        assert bytes_on_disk(tmp_path, ["orbleq"]) == {}  # rewritten as it opened
        assert s.namespaces() == ["y"]
        assert [f.text for f in s.snapshot("y")] == ["Alice likes tea."]


def test_a_table_larger_than_the_page_cache_is_still_rewritten(tmp_path: Path) -> None:
    """The engine exports a whole table at a time: a store whose page cache is smaller than one
    of its tables still rewrites (a 745 MB store with the default 1 GB cache could neither close
    nor open again after a forget)."""
    import ladybug

    path = tmp_path / "memory.lbdb"
    db = ladybug.Database(str(path), buffer_pool_size=512 * 2**20)
    conn = ladybug.Connection(db)
    conn.execute("CREATE NODE TABLE T(id STRING PRIMARY KEY, text STRING)")
    make = (
        "UNWIND range($a, $b) AS i"
        " CREATE (:T {id: 'i' + cast(i AS STRING), text: $t + cast(i AS STRING)})"
    )
    for start in range(0, 300_000, 20_000):
        conn.execute(make, {"a": start + 1, "b": start + 20_000, "t": "said in a chat, number "})
    conn.execute(make, {"a": 0, "b": 0, "t": "Zorbleq visited Quixfot "})
    conn.execute("CHECKPOINT")
    erase.mark(path)
    conn.execute("MATCH (t:T {id: 'i0'}) DELETE t")
    conn.close()
    db.close()
    assert path.stat().st_size > 16 * 2**20 and bytes_on_disk(tmp_path, ["orbleq"])
    erase.rewrite(path, 16 * 2**20)  # the store's own cache: 16 MB
    assert bytes_on_disk(tmp_path, ["orbleq"]) == {} and not erase.is_marked(path)
    db = ladybug.Database(str(path), buffer_pool_size=512 * 2**20, read_only=True)
    conn = ladybug.Connection(db)
    assert conn.execute("MATCH (t:T) RETURN count(*)").get_all() == [[300_000]]
    conn.close()
    db.close()


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


# The Neo4j settings README ("Forgetting") documents: keep no transaction log but the current
# one, and rotate it at 128 KiB (Neo4j's smallest size), so the log a forget was written to
# is pruned at the first checkpoint after the next rotation.
ERASING_NEO4J = "db.tx_log.rotation.retention_policy=keep_none;db.tx_log.rotation.size=128k"


@pytest.mark.slow
@pytest.mark.neo4j
def test_neo4j_transaction_logs_keep_no_forgotten_byte_with_the_documented_settings(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """A private server with the documented log settings: after `forget`, writes elsewhere
    that rotate the log, and a checkpoint (a clean shutdown), no transaction log file holds a
    forgotten string. The store files are not covered (README): freed records and index
    pages keep their bytes until Neo4j reuses them."""
    pytest.importorskip("neo4j")
    require_java_and_maven()
    server = PrivateNeo4j(tmp_path / "run")
    server.env["NEO4J_EXTRA_CONF"] = ERASING_NEO4J
    logs = tmp_path / "run" / "home" / "data" / "transactions" / "neo4j"
    server.start()
    try:
        store = MemoryStore.neo4j(
            server.uri, auth=("neo4j", PASSWORD), extractor=extractor, llm=EchoLLM(), embedder=embed
        )
        with store:
            populate_forgotten(store, "x")
            populate_forgotten_zh(store, "x")
            populate_kept(store, "y")
            assert bytes_on_disk(logs, NEEDLES)  # the log did hold them
            store.forget(namespace="x")
            written_to = max(logs.glob("neostore.transaction.db.*"), key=_log_number)
            i = 0
            while _log_number(max(logs.glob("neostore.transaction.db.*"), key=_log_number)) < (
                _log_number(written_to) + 2
            ):
                store.remember(f"Bob drank coffee number {i} at the station.", namespace="z")
                i += 1
    finally:
        server.stop()  # a clean shutdown checkpoints, then prunes the logs
    assert bytes_on_disk(logs, NEEDLES) == {}


def _log_number(path: Path) -> int:
    return int(path.name.rsplit(".", 1)[1])
