"""The public API's behaviour beyond the shared scenarios, on every engine."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bitemporal_core import (
    UNSET,
    Basis,
    InvalidInput,
    InvalidInterval,
    MemoryStore,
    MessageConflict,
    NaiveDatetime,
    NotCurrent,
    NotFound,
    TimeRegression,
)
from bitemporal_core.backends.sealed.backend import SealedBackend

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


def test_remember_splits_statements_and_keeps_provenance(store: MemoryStore) -> None:
    facts = store.remember(
        "I live in Rome. My dog is called Rex.",
        namespace="a",
        at=T0,
        speaker="user",
        source="msg-17",
        session="s1",
    )
    assert [f.text for f in facts] == ["I live in Rome.", "My dog is called Rex."]
    assert len({f.id for f in facts}) == 2
    for f in facts:
        assert (f.source, f.speaker, f.session, f.namespace) == ("msg-17", "user", "s1", "a")
        assert f.recorded_at == T0 and f.superseded_at is None and f.version == 1
    assert [m.id for m in store.messages("a", session="s1")] == ["msg-17"]
    stored = store.snapshot("a", basis=Basis(valid_at=day(1), known_at=day(1)))
    assert {f.source for f in stored} == {"msg-17"}


def test_generated_message_ids_link_facts_to_their_message(store: MemoryStore) -> None:
    facts = store.remember("I like tea.", namespace="a", at=T0)
    messages = store.messages("a")
    assert len(messages) == 1 and messages[0].text == "I like tea."
    assert facts[0].source == messages[0].id


def test_implicit_transaction_time_moves_past_the_latest(store: MemoryStore) -> None:
    future = datetime.now(UTC) + timedelta(minutes=4)  # within the default max_clock_skew
    store.remember("I like tea.", namespace="a", at=future)
    fact = store.remember("I like coffee.", namespace="a")[0]
    assert fact.recorded_at > future
    assert fact.recorded_at - future < timedelta(seconds=1)
    with pytest.raises(TimeRegression):
        store.remember("I like cocoa.", namespace="a", at=future - timedelta(seconds=1))


def test_supersede_and_history_links(store: MemoryStore) -> None:
    like = store.remember("I enjoy eating apples.", namespace="a", at=T0, valid_from=T0)[0]
    allergy = store.supersede(like.id, "I am allergic to apples.", at=day(1))
    assert allergy.supersedes == like.id and allergy.valid_from == day(1)
    old = store.history(like.id)
    assert old.superseded_by == (allergy.id,)
    assert [(v.version, v.valid_to, v.superseded_at) for v in old] == [
        (1, None, day(1)),
        (2, day(1), None),
    ]
    assert store.history(allergy.id).supersedes == like.id
    store.retract(allergy.id, at=day(2))
    with pytest.raises(NotCurrent):
        store.supersede(allergy.id, "I am no longer allergic.", at=day(3))


def test_correct_changes_text_and_interval_as_a_new_version(store: MemoryStore) -> None:
    trip = store.remember(
        "I will be in Paris.", namespace="a", at=T0, valid_from=day(10), valid_to=day(15)
    )[0]
    fixed = store.correct(trip.id, valid_from=day(12), at=day(1))
    assert (fixed.id, fixed.version, fixed.valid_from, fixed.valid_to) == (
        trip.id,
        2,
        day(12),
        day(15),
    )
    opened = store.correct(trip.id, valid_to=None, text="I will live in Paris.", at=day(2))
    assert opened.valid_to is None and opened.text == "I will live in Paris."
    assert store.correct(trip.id, at=day(3), valid_to=UNSET).valid_to is None  # a no-op
    with pytest.raises(InvalidInterval):
        store.correct(trip.id, valid_from=day(20), valid_to=day(19), at=day(4))
    assert len(store.history(trip.id)) == 3


def test_retract_returns_the_closed_version(store: MemoryStore) -> None:
    fact = store.remember("I like tea.", namespace="a", at=T0)[0]
    closed = store.retract(fact.id, at=day(1))
    assert closed.superseded_at == day(1) and closed.version_id == fact.version_id
    with pytest.raises(NotCurrent):
        store.retract(fact.id, at=day(2))
    with pytest.raises(NotFound):
        store.retract("no-such-fact", at=day(2))


def test_recall_is_pinned_to_the_basis(store: MemoryStore) -> None:
    like = store.remember("I enjoy eating apples.", namespace="a", at=T0, valid_from=T0)[0]
    store.supersede(like.id, "I am allergic to apples.", at=day(1))
    store.remember("My sister lives in Lyon.", namespace="a", at=day(1))

    def texts(basis: Basis) -> list[str]:
        return [h.fact.text for h in store.recall("Can I eat apples?", namespace="a", basis=basis)]

    assert texts(Basis(valid_at=day(2), known_at=day(2))) == ["I am allergic to apples."]
    assert texts(Basis(valid_at=T0, known_at=day(2))) == ["I enjoy eating apples."]
    assert texts(Basis(valid_at=day(2), known_at=T0)) == ["I enjoy eating apples."]
    pinned = Basis(valid_at=day(2), known_at=day(2))
    before = texts(pinned)
    store.remember("I now love apples again.", namespace="a", at=day(3))
    assert texts(pinned) == before, "the same basis returns the same facts"


def test_keyword_rank_finds_words_that_are_not_concepts(store: MemoryStore) -> None:
    store.remember("I usually swim before breakfast.", namespace="a", at=T0)
    store.remember("My brother plays chess.", namespace="a", at=T0)
    hits = store.recall("When do I swim?", namespace="a")
    assert hits and hits[0].fact.text == "I usually swim before breakfast."
    assert "keyword" in hits[0].sources


def test_context_block_is_chronological_and_within_budget(store: MemoryStore) -> None:
    store.remember("I enjoy eating apples.", namespace="a", at=T0, valid_from=T0)
    for i in range(1, 30):
        store.remember(f"I ate {i} apples at the market.", namespace="a", at=day(i))
    block = store.context("apples", namespace="a", max_tokens=120)
    lines = block.splitlines()
    assert lines[0].startswith("Memories")
    assert 2 <= len(lines) < 30
    assert store.counter.count(block) <= 120
    starts = [line.split("]")[0] for line in lines[1:]]
    assert starts == sorted(starts)


def test_bad_input_is_refused_and_writes_nothing(store: MemoryStore) -> None:
    store.remember("I like tea.", namespace="a", at=T0)
    before = store.timeline("a").rows()
    bad_calls = [
        lambda: store.remember("   ", namespace="a", at=day(1)),
        lambda: store.remember("ok\x00", namespace="a", at=day(1)),
        lambda: store.remember("x" * 200_001, namespace="a", at=day(1)),
        lambda: store.remember("I like \ud800 tea.", namespace="a", at=day(1)),
        lambda: store.remember(42, namespace="a", at=day(1)),  # type: ignore[arg-type]
        lambda: store.remember("I like tea.", namespace="", at=day(1)),
        lambda: store.remember("I like tea.", namespace="a\x00b", at=day(1)),
        lambda: store.remember("I like tea.", namespace="a", at=datetime(2024, 5, 1)),
        lambda: store.remember(
            "I like tea.", namespace="a", at=day(1), valid_from=day(3), valid_to=day(2)
        ),
        lambda: store.recall("tea", namespace="a", k=0),
        lambda: store.recall("tea", namespace="a", basis="now"),  # type: ignore[arg-type]
        lambda: store.forget(),
        lambda: store.history("nope"),
    ]
    for call in bad_calls:
        with pytest.raises((InvalidInput, NotFound)):
            call()
    assert store.timeline("a").rows() == before
    with pytest.raises(NaiveDatetime):
        Basis(valid_at=datetime(2024, 1, 1))


def test_quotes_and_cypher_fragments_are_plain_text(store: MemoryStore) -> None:
    text = "I said \"}) MATCH (n) DETACH DELETE n //' and $param."
    fact = store.remember(text, namespace="we'ird\"ns})", at=T0)[0]
    assert store.history(fact.id).versions[0].text == text.strip()
    assert store.namespaces() == ["we'ird\"ns})"]


def test_forget_one_fact_leaves_the_rest(store: MemoryStore) -> None:
    keep = store.remember("I live in Rome.", namespace="a", at=T0)[0]
    # distinctive enough that no random id or ciphertext holds it by chance ("4921" once
    # stood inside a fact's hex id)
    gone = store.remember("My bank PIN is 49217735, Zorbleq.", namespace="a", at=T0)[0]
    assert store.forget(fact=gone.id) >= 2
    with pytest.raises(NotFound):
        store.history(gone.id)
    assert [f.id for f in store.snapshot("a", basis=Basis(valid_at=day(1), known_at=day(1)))] == [
        keep.id
    ]
    dump = str(store.backend.raw_dump())  # type: ignore[attr-defined]
    assert "49217735" not in dump and "Zorbleq" not in dump
    # A sealed engine never holds a statement's words in plain text.
    assert ("Rome" in dump) is not isinstance(store.backend, SealedBackend)


def test_forget_namespace_leaves_no_trace(store: MemoryStore) -> None:
    store.remember("My secret word is zanzibar.", namespace="x", at=T0, source="m1")
    store.add_message("zanzibar again", namespace="x", session="s", at=day(1))
    store.remember("I like zanzibar too.", namespace="y", at=T0)
    store.forget(namespace="x")
    dump = store.backend.raw_dump()  # type: ignore[attr-defined]
    assert not [n for n in dump if n.get("namespace") == "x" or n.get("name") == "x"]
    left = [n for n in dump if "zanzibar" in str(n)]
    if isinstance(store.backend, SealedBackend):
        assert not left and "zanzibar" in store.snapshot("y", basis=Basis(known_at=day(2)))[0].text
    else:
        assert {n["namespace"] for n in left} == {"y"}
        assert len(left) == 6  # y's message, version, concept, keyword term, claim, claim key
    assert store.namespaces() == ["y"]


def test_messages_keep_order_per_session(store: MemoryStore) -> None:
    for i in range(5):
        store.add_message(
            f"message {i}",
            namespace="a",
            session="s1" if i % 2 else "s2",
            role="user" if i % 2 else "assistant",
            at=day(i),
        )
    assert [m.text for m in store.messages("a", session="s1")] == ["message 1", "message 3"]
    assert [m.text for m in store.messages("a")] == [f"message {i}" for i in range(5)]
    assert [m.text for m in store.messages("a", limit=2)] == ["message 3", "message 4"]


def test_add_message_is_idempotent_by_id_and_refuses_another_message(store: MemoryStore) -> None:
    first = store.add_message("hello", namespace="a", session="s1", id="m1", at=day(0))
    assert store.add_message("hello", namespace="a", session="s1", id="m1") == first
    for changed in ({"text": "goodbye"}, {"session": "s2"}, {"role": "user"}):
        options: dict[str, Any] = {"text": "hello", "session": "s1", **changed}
        with pytest.raises(MessageConflict, match="m1"):
            store.add_message(options.pop("text"), namespace="a", id="m1", **options)
    assert [(m.text, m.session, m.at) for m in store.messages("a")] == [("hello", "s1", day(0))]
    store.remember("I live in Lyon.", namespace="a", source="m2", at=day(1))
    with pytest.raises(MessageConflict):
        store.add_message("I live in Berlin.", namespace="a", id="m2")
    assert store.add_message("goodbye", namespace="b", id="m1").text == "goodbye"
    assert [m.text for m in store.messages("a")] == ["hello", "I live in Lyon."]


def test_async_twins_match_the_sync_api(store: MemoryStore) -> None:
    async def scenario() -> list[str]:
        facts = await store.aremember("I enjoy eating apples.", namespace="a", at=T0)
        await store.asupersede(facts[0].id, "I am allergic to apples.", at=day(1))
        hits = await store.arecall("apples", namespace="a")
        history = await store.ahistory(facts[0].id)
        assert len(history) == 2
        return [h.fact.text for h in hits]

    assert asyncio.run(scenario()) == ["I am allergic to apples."]


def test_sessions_and_message_deletion(store: MemoryStore) -> None:
    for i, session in enumerate(["s2", "s1", "s2", "s3"]):
        store.add_message(f"message {i}", namespace="a", session=session, id=f"m{i}", at=day(i))
    fact = store.remember("I like tea.", namespace="a", session="s1", source="m9", at=day(5))[0]
    assert store.sessions("a") == ["s2", "s1", "s3"]
    assert store.delete_messages("a", session="s2") == 2
    assert [m.id for m in store.messages("a")] == ["m1", "m3", "m9"]
    assert store.delete_messages("a", ids=["m3", "nope"]) == 1
    assert store.sessions("a") == ["s1"]
    assert store.history(fact.id).versions[0].source == "m9", "facts keep their source id"
    with pytest.raises(InvalidInput):
        store.delete_messages("a")


def test_remember_many_is_a_bulk_remember(store: MemoryStore) -> None:
    items = [
        {"text": "Brandon loves coffee.", "at": day(0), "speaker": "user", "id": "m0"},
        "Brandon wants to travel to Paris.",
        {"text": "I live in Rome. My dog is Rex.", "at": day(2), "session": "s1"},
        {"text": "We met last Saturday.", "at": day(3)},
    ]
    facts = store.remember_many(items, namespace="b", chunk=2)
    assert [len(f) for f in facts] == [1, 1, 2, 1]
    assert facts[0][0].source == "m0" and facts[0][0].recorded_at == day(0)
    assert day(0) < facts[1][0].recorded_at < day(2)
    assert [f[0].t_index for f in facts] == [1, 2, 3, 4]
    assert facts[3][0].valid_from == datetime(2024, 3, 2, tzinfo=UTC)  # resolved from the text
    _, edges = store.concept_graph(["brandon", "coffe", "pari"], namespace="b")
    assert {(e.src, e.dst, e.strength, e.t_index) for e in edges} == {
        ("brandon", "coffe", 1, 1),
        ("brandon", "pari", 1, 2),
    }
    messages = store.messages("b")
    assert messages[0].id == "m0" and len(messages) == 4
    concepts = store.concepts("b")
    assert {"brandon", "coffe", "pari", "rome", "rex"} <= {c.key for c in concepts}
    assert concepts[0].t_index == max(c.t_index for c in concepts)
    assert len(store.concepts("b", limit=2)) == 2
    assert store.recall("Where does Rex live?", namespace="b")[0].fact.text in {
        "I live in Rome.",
        "My dog is Rex.",
    }


def test_remember_many_validates_everything_first(store: MemoryStore) -> None:
    assert store.concepts("b") == []
    with pytest.raises(InvalidInput, match="item 1"):
        store.remember_many([{"text": "fine", "at": day(1)}, {"text": " "}], namespace="b")
    with pytest.raises(TimeRegression):
        store.remember_many([{"text": "a b", "at": day(2)}, {"text": "c d", "at": day(1)}])
    with pytest.raises(InvalidInput, match="unknown fields"):
        store.remember_many([{"text": "a b", "when": day(2)}])
    assert store.namespaces() == []
