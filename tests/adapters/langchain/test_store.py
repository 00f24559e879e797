"""`BitemporalStore` as LangGraph tests its stores (batch order, get/put/search/list ops, basic
operations, filters, pagination, namespaces), against LangGraph's own `InMemoryStore` on the same
operations, and what only a bitemporal store does: updates supersede, deletes retract, `as_of`."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from typing import Any

import pytest
from langgraph.store.base import (
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

from bitemporal_core import Basis, BitemporalError, InvalidInput, MemoryStore
from langchain_bitemporal import BitemporalStore, ReadOnlyStoreError


@pytest.fixture
def kv(store: MemoryStore) -> BitemporalStore:
    """A LangGraph store over a fresh memory on each engine."""
    return BitemporalStore(store)


# --- as LangGraph tests its stores ---------------------------------------------------------
def test_batch_order(kv: BitemporalStore) -> None:
    kv.put(("test", "foo"), "key1", {"data": "value1"})
    kv.put(("test", "bar"), "key2", {"data": "value2"})
    results = kv.batch(
        [
            GetOp(("test", "foo"), "key1"),
            PutOp(("test", "bar"), "key2", {"data": "value2"}),
            SearchOp(("test",), filter={"data": "value1"}, limit=10, offset=0),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
            GetOp(("test",), "key3"),
        ]
    )
    assert len(results) == 5
    assert isinstance(results[0], Item) and results[0].value == {"data": "value1"}
    assert results[0].key == "key1"
    assert results[1] is None
    assert [i.key for i in results[2]] == ["key1"]  # type: ignore[union-attr]
    assert results[3] == [("test", "bar"), ("test", "foo")]
    assert results[4] is None

    reordered = kv.batch(
        [
            SearchOp(("test",), filter=None, limit=5, offset=0),
            GetOp(("test", "bar"), "key2"),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
            PutOp(("test",), "key3", {"data": "value3"}),
            GetOp(("test", "foo"), "key1"),
        ]
    )
    assert {i.key for i in reordered[0]} == {"key1", "key2"}  # type: ignore[union-attr]
    assert reordered[1].value == {"data": "value2"}  # type: ignore[union-attr]
    assert reordered[2] == [("test", "bar"), ("test", "foo")]
    assert reordered[3] is None
    assert reordered[4].value == {"data": "value1"}  # type: ignore[union-attr]
    assert kv.get(("test",), "key3").value == {"data": "value3"}  # type: ignore[union-attr]


def test_batch_reads_see_the_store_before_the_batch_and_the_last_put_wins(
    kv: BitemporalStore,
) -> None:
    kv.put(("a",), "k", {"v": 1})
    results = kv.batch(
        [
            PutOp(("a",), "k", {"v": 2}),
            GetOp(("a",), "k"),
            PutOp(("a",), "k", {"v": 3}),
            PutOp(("a",), "new", {"v": 4}),
            SearchOp(("a",)),
        ]
    )
    assert results[1].value == {"v": 1}  # type: ignore[union-attr]
    assert [i.key for i in results[4]] == ["k"]  # type: ignore[union-attr]
    assert kv.get(("a",), "k").value == {"v": 3}  # type: ignore[union-attr]
    assert [i.value for i in kv.history(("a",), "k")] == [{"v": 1}, {"v": 3}]


def test_batch_put_ops_and_get_ops(kv: BitemporalStore) -> None:
    results = kv.batch(
        [
            PutOp(("test",), "key1", {"data": "value1"}),
            PutOp(("test",), "key2", {"data": "value2"}),
            PutOp(("test",), "key3", None),  # deleting what is not there
        ]
    )
    assert results == [None, None, None]
    got = kv.batch([GetOp(("test",), "key1"), GetOp(("test",), "key2"), GetOp(("test",), "key3")])
    assert [None if i is None else i.value for i in got] == [  # type: ignore[union-attr]
        {"data": "value1"},
        {"data": "value2"},
        None,
    ]
    assert kv.history(("test",), "key3") == []


def test_batch_search_and_list_namespaces_ops(kv: BitemporalStore) -> None:
    for ns, key, value in [
        (("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
        (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
        (("test", "baz"), "key3", {"data": "value3", "tag": "b"}),
        (("prod", "documents", "public"), "doc", {"content": "prod doc"}),
    ]:
        kv.put(ns, key, value)
    found = kv.batch(
        [
            SearchOp(("test",), filter={"tag": "a"}),
            SearchOp(("test",), limit=2),
            SearchOp(("test", "foo")),
            ListNamespacesOp(max_depth=1),
            ListNamespacesOp(match_conditions=(MatchCondition("suffix", ("public",)),)),
        ]
    )
    assert {i.key for i in found[0]} == {"key1", "key2"}  # type: ignore[union-attr]
    assert [i.key for i in found[1]] == ["key3", "key2"]  # type: ignore[union-attr]  # recency
    assert [(i.namespace, i.key) for i in found[2]] == [(("test", "foo"), "key1")]  # type: ignore[union-attr]
    assert found[3] == [("prod",), ("test",)]
    assert found[4] == [("prod", "documents", "public")]


def test_basic_ops(kv: BitemporalStore) -> None:
    namespace = ("test", "documents")
    value = {"title": "Test Document", "content": "Hello, World!"}
    kv.put(namespace, "doc1", value)
    item = kv.get(namespace, "doc1")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (namespace, "doc1", value)
    assert item.created_at.tzinfo is not None and item.created_at == item.updated_at

    kv.put(namespace, "doc1", {"title": "Updated Document", "content": "Hello, Updated!"})
    updated = kv.get(namespace, "doc1")
    assert updated is not None and updated.value["title"] == "Updated Document"
    assert updated.updated_at > item.updated_at and updated.created_at == item.created_at
    assert kv.get(("test", "other_documents"), "doc1") is None

    kv.delete(namespace, "doc1")
    assert kv.get(namespace, "doc1") is None
    kv.put(namespace, "doc1", value)  # a new item after a delete
    again = kv.get(namespace, "doc1")
    assert again is not None and again.created_at > updated.updated_at


def test_search_filters_and_pagination(kv: BitemporalStore) -> None:
    for ns, key, value in [
        (("test", "docs"), "doc1", {"title": "First", "author": "Alice", "tags": ["important"]}),
        (("test", "docs"), "doc2", {"title": "Second", "author": "Bob", "score": 4.5}),
        (("test", "images"), "img1", {"title": "Image", "author": "Alice", "meta": {"w": 3}}),
    ]:
        kv.put(ns, key, value)
    assert len(kv.search(("test",))) == 3
    assert {i.key for i in kv.search(("test", "docs"))} == {"doc1", "doc2"}
    assert {i.key for i in kv.search(("test",), filter={"author": "Alice"})} == {"doc1", "img1"}
    assert [i.key for i in kv.search(("test",), filter={"tags": ["important"]})] == ["doc1"]
    assert [i.key for i in kv.search(("test",), filter={"meta": {"w": 3}})] == ["img1"]
    assert [i.key for i in kv.search(("test",), filter={"score": {"$gte": 4}})] == ["doc2"]
    assert [i.key for i in kv.search(("test",), filter={"score": {"$lt": 4}})] == []
    assert {i.key for i in kv.search(("test",), filter={"author": {"$ne": "Bob"}})} == {
        "doc1",
        "img1",
    }
    assert [i.key for i in kv.search(("test",), limit=2)] == ["img1", "doc2"]
    assert [i.key for i in kv.search(("test",), offset=2)] == ["doc1"]
    assert all(i.score is None for i in kv.search(("test",)))
    with pytest.raises(InvalidInput, match="operator"):
        kv.search(("test",), filter={"score": {"$near": 1}})


def test_search_with_a_query_ranks_then_lists_the_rest(kv: BitemporalStore) -> None:
    for key, value in [
        ("doc1", {"text": "I ate a red apple.", "color": "red", "score": 4.5}),
        ("doc2", {"text": "I drove a red car.", "color": "red", "score": 3.0}),
        ("doc3", {"text": "I ate a green apple.", "color": "green", "score": 4.0}),
        ("doc4", {"text": "I drove a blue car.", "color": "blue", "score": 3.5}),
    ]:
        kv.put(("test",), key, value)
    apple = kv.search(("test",), query="apple", filter={"color": "red"})
    assert [i.key for i in apple] == ["doc1", "doc2"]
    assert apple[0].score is not None and apple[0].score > 0 and apple[1].score is None
    car = kv.search(("test",), query="Which car?")
    assert {i.key for i in car[:2]} == {"doc2", "doc4"} and len(car) == 4
    assert car[0].score is not None and car[0].score >= car[1].score  # type: ignore[operator]
    nothing = kv.search(("test",), query="bbbbluuu", filter={"score": {"$gt": 3.2}})
    assert {i.key for i in nothing} == {"doc1", "doc3", "doc4"}
    pages = [kv.search(("test",), query="apple", limit=1, offset=n) for n in range(3)]
    assert {p[0].key for p in pages[:2]} == {"doc1", "doc3"}  # the apples first, page by page
    assert pages[0][0].score >= pages[1][0].score  # type: ignore[operator]
    assert len(kv.search(("test",), query="   ")) == 4


def test_list_namespaces_prefix_suffix_wildcards_depth_pagination(kv: BitemporalStore) -> None:
    spaces = [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
        ("users", "123"),
        ("users", "456", "settings"),
    ]
    kv.batch([PutOp(ns, f"id_{i}", {"data": i}) for i, ns in enumerate(spaces)])
    assert kv.list_namespaces(prefix=("a", "b")) == [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
    ]
    assert kv.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert kv.list_namespaces(prefix=("a",), suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert kv.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert kv.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert kv.list_namespaces(prefix=("users", "*")) == [
        ("users", "123"),
        ("users", "456", "settings"),
    ]
    assert kv.list_namespaces(prefix=("a", "b"), limit=2) == [("a", "b", "c"), ("a", "b", "d", "e")]
    assert kv.list_namespaces(prefix=("a", "b"), offset=3) == [("a", "b", "f")]
    assert kv.list_namespaces(max_depth=1) == [("a",), ("b",), ("users",)]
    assert kv.list_namespaces(prefix=("nonexistent",)) == []


def test_the_same_operations_give_what_in_memory_store_gives(kv: BitemporalStore) -> None:
    """A seeded random run of batches against LangGraph's InMemoryStore: same items, same
    namespaces (search order is recency here, insertion there, so searches compare as sets)."""
    rng = random.Random(7)
    reference = InMemoryStore()
    spaces = [("u", "1"), ("u", "2"), ("v",)]
    words = ["tea", "coffee", "Paris", "Rome", "apples"]
    for _ in range(12):
        ops: list[Op] = []
        for _ in range(rng.randint(1, 4)):
            ns, key = rng.choice(spaces), rng.choice(["k1", "k2", "k3"])
            roll = rng.random()
            if roll < 0.5:
                value = {"text": f"I like {rng.choice(words)}.", "n": rng.randint(0, 3)}
                ops.append(PutOp(ns, key, value))
            elif roll < 0.65:
                ops.append(PutOp(ns, key, None))
            elif roll < 0.8:
                ops.append(GetOp(ns, key))
            elif roll < 0.9:
                ops.append(SearchOp(ns[:1], filter={"n": {"$gte": 1}}, limit=100))
            else:
                ops.append(ListNamespacesOp(max_depth=rng.choice([None, 1])))
        ops.append(PutOp(rng.choice(spaces), "k0", {"text": "I like tea.", "n": 1}))
        assert _normal(kv.batch(ops)) == _normal(reference.batch(ops))


def _normal(results: list[Any]) -> list[Any]:
    out: list[Any] = []
    for r in results:
        if isinstance(r, Item):
            out.append((r.namespace, r.key, r.value))
        elif isinstance(r, list) and r and isinstance(r[0], Item):
            out.append(sorted((i.namespace, i.key, repr(i.value)) for i in r))
        else:
            out.append(r)
    return out


# --- what only a bitemporal store does -----------------------------------------------------
def test_put_on_an_existing_key_supersedes_the_old_fact(kv: BitemporalStore) -> None:
    memory, ns = kv.memory, ("alice", "memories")
    kv.put(ns, "home", {"content": "Alice lives in Lyon.", "confidence": 0.7})
    (lyon,) = kv.fact_ids(ns, "home")
    kv.put(ns, "home", {"content": "Alice lives in Paris.", "confidence": 0.9})
    (paris,) = kv.fact_ids(ns, "home")
    assert memory.history(paris).supersedes == lyon
    assert memory.history(lyon).superseded_by == (paris,)
    assert [v.text for v in memory.history(lyon)] == ["Alice lives in Lyon."] * 2  # closed, then
    assert [f.text for f in memory.snapshot(kv.memory_namespace(ns))] == ["Alice lives in Paris."]
    assert [i.value["confidence"] for i in kv.history(ns, "home")] == [0.7, 0.9]
    assert [i.key for i in kv.search(ns, query="Where does Alice live?")][:1] == ["home"]


def test_delete_retracts_and_keeps_the_history(kv: BitemporalStore) -> None:
    memory, ns = kv.memory, ("alice",)
    kv.put(ns, "pet", {"text": "I have a dog called Rex. He is five."})
    facts = kv.fact_ids(ns, "pet")
    assert len(facts) == 2  # two statements, two facts
    before = datetime.now(UTC)
    kv.delete(ns, "pet")
    assert kv.get(ns, "pet") is None and kv.search(ns) == [] and kv.fact_ids(ns, "pet") == []
    for fact in facts:
        lineage = memory.history(fact)
        assert lineage.current is None and len(lineage) == 1
        assert lineage.versions[0].superseded_at is not None
    assert [i.value for i in kv.history(ns, "pet")] == [
        {"text": "I have a dog called Rex. He is five."}
    ]
    then = kv.as_of(Basis(known_at=before))
    assert then.get(ns, "pet").value["text"].startswith("I have a dog")  # type: ignore[union-attr]
    assert kv.list_namespaces() == [ns]  # as InMemoryStore: the namespace stays listed
    kv.delete(ns, "pet")  # deleting again writes nothing
    assert len(kv.history(ns, "pet")) == 1


def test_as_of_reads_old_values_and_refuses_writes(kv: BitemporalStore) -> None:
    ns = ("bob",)
    kv.put(ns, "drink", {"content": "Bob drinks green tea.", "cups": 1})
    (tea,) = kv.fact_ids(ns, "drink")
    middle = kv.memory.history(tea).versions[0].recorded_at
    kv.put(ns, "drink", {"content": "Bob drinks black coffee.", "cups": 3})
    (coffee,) = kv.fact_ids(ns, "drink")
    changed = kv.memory.history(coffee).versions[0].valid_from

    believed = kv.as_of(Basis(known_at=middle))  # what we believed then (about now)
    assert believed.get(ns, "drink").value == {"content": "Bob drinks green tea.", "cups": 1}  # type: ignore[union-attr]
    assert [i.value["cups"] for i in believed.search(ns, query="tea")] == [1]
    assert believed.search(ns, query="tea")[0].score is not None
    true_then = kv.as_of(Basis(valid_at=middle))  # what was true then, as we know it now
    assert true_then.get(ns, "drink").value["cups"] == 1  # type: ignore[union-attr]
    assert kv.as_of(Basis(valid_at=changed)).get(ns, "drink").value["cups"] == 3  # type: ignore[union-attr]
    assert kv.as_of(Basis(known_at=middle)).list_namespaces() == [ns]
    first = kv.memory.history(tea).versions[0].valid_from
    early = datetime(first.year - 1, 1, 1, tzinfo=UTC)
    assert kv.as_of(Basis(valid_at=early)).get(ns, "drink") is None
    assert kv.as_of(Basis(known_at=early)).list_namespaces() == []
    assert believed.read_only and not kv.read_only and believed.basis == Basis(known_at=middle)

    for write in (
        lambda: believed.put(ns, "drink", {"content": "water"}),
        lambda: believed.delete(ns, "drink"),
        lambda: believed.batch([GetOp(ns, "drink"), PutOp(ns, "x", {"a": 1})]),
    ):
        with pytest.raises(ReadOnlyStoreError, match="reads as of") as caught:
            write()
        assert isinstance(caught.value, BitemporalError)
    assert kv.get(ns, "x") is None and kv.get(ns, "drink").value["cups"] == 3  # type: ignore[union-attr]


ODD = [
    ("a/b", "c%2Fd", "%", "//"),
    ("tab\there", "new\nline", "nul\x00", "del\x7f"),
    ("ünïcødé", "😀", "日本語", "lg"),
    ("dots.are", "", " "),
    ("\ud800lone", "x" * 40),
    (),
]


def test_namespaces_round_trip_with_odd_characters(kv: BitemporalStore) -> None:
    kv.batch([PutOp(ns, "k", {"ns": list(ns)}) for ns in ODD])  # past BaseStore's label checks
    assert kv.list_namespaces() == sorted(ODD)
    for ns in ODD:
        item, found = kv.batch([GetOp(ns, "k"), SearchOp(ns)])
        assert item.value == {"ns": list(ns)}  # type: ignore[union-attr]
        spaces = sorted(i.namespace for i in found)  # type: ignore[union-attr]
        assert spaces == ([ns] if ns else sorted(ODD))  # () is the prefix of every namespace
    assert kv.memory_namespace(("a/b", "c%2Fd")) == "lg/a%2Fb/c%252Fd"
    assert kv.memory_namespace(()) == "lg"
    assert set(kv.memory.namespaces()) == {kv.memory_namespace(ns) for ns in ODD}
    kv.memory.remember("Not the store's.", namespace="lgx")  # other namespaces are not listed
    assert kv.list_namespaces() == sorted(ODD)
    other = BitemporalStore(kv.memory, namespace_root="other")
    assert other.list_namespaces() == [] and other.batch([GetOp(ODD[0], "k")]) == [None]


def test_values_and_keys_round_trip_exactly(kv: BitemporalStore) -> None:
    value = {
        "text": "caf\u00e9 \x7f with \x01 controls",
        "nested": {"list": [1, 2.5, None, True, {"deep": ["x"]}], "empty": {}},
        "emoji": "😀",
        "lone": "\udfff",
        "big": 10**30,
    }
    keys = ["", "k/with/slashes", "line\nbreak", "é" * 300, "\x00"]
    kv.batch([PutOp(("v",), key, value) for key in keys])
    for key in keys:
        item = kv.get(("v",), key)
        assert item is not None and item.key == key and item.value == value
    assert {i.key for i in kv.search(("v",), limit=10)} == set(keys)
    with pytest.raises(InvalidInput, match="JSON"):
        kv.put(("v",), "bad", {"a": {1, 2}})
    with pytest.raises(InvalidInput, match="too large"):
        kv.put(("v",), "huge", {"text": "x" * 100_000})
    with pytest.raises(InvalidInput, match="key must be a string"):
        kv.batch([GetOp(("v",), 3)])  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="unknown store operation"):
        kv.batch(["get"])  # type: ignore[list-item]
    with pytest.raises(InvalidInput, match="too long once encoded"):
        kv.batch([PutOp(("v",), "first", {"a": 1}), PutOp(("é" * 300,), "k", {"a": 1})])
    assert kv.get(("v",), "bad") is None and kv.get(("v",), "huge") is None
    assert kv.get(("v",), "first") is None  # the batch was refused whole


def test_index_and_fields_choose_what_is_ranked(kv: BitemporalStore) -> None:
    ns = ("docs",)
    kv.put(ns, "hidden", {"text": "Secret apple pie recipe."}, index=False)
    kv.put(
        ns,
        "notes",
        {"title": "x", "notes": [{"body": "Apple harvest in May."}]},
        index=["notes[*].body"],
    )
    found = kv.search(ns, query="apple")
    assert [(i.key, i.score is not None) for i in found] == [("notes", True), ("hidden", False)]
    titled = BitemporalStore(kv.memory, namespace_root="titled", fields=["title"])
    titled.put(ns, "a", {"title": "Pears of Anjou.", "text": "Apples."})
    titled.put(ns, "b", {"title": "Apples of Normandy.", "text": "Pears."})
    ranked = [(i.key, i.score is not None) for i in titled.search(ns, query="apples")]
    assert ranked == [("b", True), ("a", False)]


def test_a_put_interrupted_before_its_record_is_healed_by_the_next_put(
    kv: BitemporalStore,
) -> None:
    """The facts of a put are written before its record: if the record never comes, the old
    value stays, the orphan fact is never returned, and the next put supersedes the orphan."""
    memory, ns = kv.memory, ("h",)
    kv.put(ns, "k", {"text": "I live in Rome."})
    (rome,) = kv.fact_ids(ns, "k")
    orphan = memory.supersede(rome, "I live in Oslo.")  # as a put that stopped halfway would
    assert kv.get(ns, "k").value == {"text": "I live in Rome."}  # type: ignore[union-attr]
    assert [i.score for i in kv.search(ns, query="Oslo")] == [None]  # not ranked: no record
    kv.put(ns, "k", {"text": "I live in Bergen."})
    (bergen,) = kv.fact_ids(ns, "k")
    assert memory.history(bergen).supersedes == orphan.id
    assert memory.history(orphan.id).superseded_by == (bergen,)
    assert [f.text for f in memory.snapshot(kv.memory_namespace(ns))] == ["I live in Bergen."]


def test_async_twins_do_not_block_the_event_loop(kv: BitemporalStore) -> None:
    asyncio.run(_async_round(kv))


async def _async_round(kv: BitemporalStore) -> None:
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    await kv.aput(("async",), "k", {"content": "I like asynchronous tea."})
    await kv.aput(("async",), "k", {"content": "I like asynchronous coffee."})
    item = await kv.aget(("async",), "k")
    found = await kv.asearch(("async",), query="coffee")
    spaces = await kv.alist_namespaces()
    history = await kv.ahistory(("async",), "k")
    await kv.adelete(("async",), "k")
    gone = await kv.aget(("async",), "k")
    done.set()
    await task
    assert item is not None and item.value["content"] == "I like asynchronous coffee."
    assert found[0].key == "k" and found[0].score is not None
    assert spaces == [("async",)] and len(history) == 2 and gone is None
    assert ticks > 20  # the loop kept running while the store worked in threads


def test_bad_configuration_is_refused(store: MemoryStore) -> None:
    from bitemporal_core import ConfigurationError

    for bad in ("", "a/b", "50%", "x\x01"):
        with pytest.raises(ConfigurationError):
            BitemporalStore(store, namespace_root=bad)
    with pytest.raises(ConfigurationError):
        BitemporalStore(store, fields="text")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        BitemporalStore(object())  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        BitemporalStore(store).as_of("yesterday")  # type: ignore[arg-type]
