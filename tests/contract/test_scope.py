"""The tenant-scoped handle on every engine: `store.scope(namespace)` reads what the store reads
for its namespace, and its fact-id methods refuse another namespace's facts, writing nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bitemporal_core import (
    Basis,
    InvalidInput,
    MemoryStore,
    NotFound,
    ScopedStore,
    Turn,
    Update,
)

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def state(store: MemoryStore) -> dict[str, Any]:
    """Everything a write could change, per namespace: every version ever recorded, messages."""
    return {
        ns: (
            [(v.version_id, v.superseded_at, v.valid_to) for v in store.timeline(ns)],
            [m.id for m in store.messages(ns)],
        )
        for ns in ("alice", "bob")
    }


@pytest.fixture
def tenants(store: MemoryStore) -> dict[str, Any]:
    """Alice's and Bob's memories in one store; Bob's Berlin fact superseded his Lyon one."""
    alice = store.scope("alice")
    tea = alice.remember("I love green tea.", at=day(0))[0]
    alice.add_turn(Turn(text="I work at the library.", role="user", session="s1", at=day(1)))
    bob = store.scope("bob")
    lyon = bob.remember("I live in Lyon.", at=day(0))[0]
    berlin = bob.remember("Big news: I moved to Berlin!", at=day(2))[0]
    assert berlin.supersedes == lyon.id
    return {"alice": alice, "bob": bob, "tea": tea, "lyon": lyon, "berlin": berlin}


def test_scope_is_exported_and_checks_its_namespace(store: MemoryStore) -> None:
    handle = store.scope("alice")
    assert isinstance(handle, ScopedStore)
    assert handle.namespace == "alice"
    assert "alice" in repr(handle)
    with pytest.raises(InvalidInput):
        store.scope("")
    with pytest.raises(InvalidInput, match="no namespace"):
        handle.recall("tea", namespace="bob")


def _calls(t: dict[str, Any]) -> dict[str, Callable[[], object]]:
    """Every fact-id method of Alice's handle, each given one of Bob's facts."""
    alice, berlin, lyon = t["alice"], t["berlin"].id, t["lyon"].id
    cross = Update(fact=berlin, replaced=lyon, reason="test", confidence=1.0)
    mixed = Update(fact=t["tea"].id, replaced=lyon, reason="test", confidence=1.0)
    return {
        "history": lambda: alice.history(berlin),
        "supersede": lambda: alice.supersede(berlin, "I live in Rome.", at=day(3)),
        "correct": lambda: alice.correct(berlin, valid_from=day(1), at=day(3)),
        "retract": lambda: alice.retract(berlin, at=day(3)),
        "forget": lambda: alice.forget(fact=berlin),
        "undo_update": lambda: alice.undo_update(berlin, at=day(3)),
        "undo_update replaced": lambda: alice.undo_update(t["tea"].id, replaced=lyon),
        "apply_update": lambda: alice.apply_update(cross, at=day(3)),
        "apply_update mixed": lambda: alice.apply_update(mixed, at=day(3)),
        "ahistory": lambda: asyncio.run(alice.ahistory(berlin)),
        "asupersede": lambda: asyncio.run(alice.asupersede(berlin, "I live in Rome.")),
        "acorrect": lambda: asyncio.run(alice.acorrect(berlin, text="I live in Rome.")),
        "aretract": lambda: asyncio.run(alice.aretract(berlin)),
        "aforget": lambda: asyncio.run(alice.aforget(fact=berlin)),
        "aundo_update": lambda: asyncio.run(alice.aundo_update(berlin)),
        "aapply_update": lambda: asyncio.run(alice.aapply_update(cross)),
    }


def test_every_fact_id_method_refuses_another_namespaces_fact_and_writes_nothing(
    store: MemoryStore, tenants: dict[str, Any]
) -> None:
    before = state(store)
    for name, call in _calls(tenants).items():
        with pytest.raises(NotFound, match="namespace 'alice'"):
            call()
        assert state(store) == before, name
    # an unknown id is the same error, and a fact of the handle's own namespace works
    with pytest.raises(NotFound):
        tenants["alice"].retract("no-such-fact")
    assert store.scope("bob").history(tenants["berlin"].id).namespace == "bob"


def test_fact_id_methods_act_within_the_namespace(
    store: MemoryStore, tenants: dict[str, Any]
) -> None:
    bob, alice = tenants["bob"], tenants["alice"]
    restored = bob.undo_update(tenants["berlin"].id, at=day(3))
    assert [f.id for f in restored] == [tenants["lyon"].id]
    tea = alice.correct(tenants["tea"].id, text="I love jasmine tea.", at=day(4))
    assert alice.history(tea.id).versions[-1].text == "I love jasmine tea."
    coffee = alice.supersede(tea.id, "I love coffee now.", at=day(5))
    assert alice.retract(coffee.id, at=day(6)).superseded_at == day(6)
    assert alice.forget(fact=coffee.id) > 0
    with pytest.raises(NotFound):
        store.history(coffee.id)


def test_forget_takes_exactly_one_target(store: MemoryStore, tenants: dict[str, Any]) -> None:
    alice = tenants["alice"]
    for options in ({}, {"fact": tenants["tea"].id, "everything": True}):
        with pytest.raises(InvalidInput):
            alice.forget(**options)
    assert alice.forget(everything=True) > 0
    assert alice.timeline().versions == () and alice.messages() == []
    assert store.snapshot("bob", basis=Basis(valid_at=day(1), known_at=day(1)))


def test_the_handles_reads_equal_the_stores(store: MemoryStore, tenants: dict[str, Any]) -> None:
    alice = tenants["alice"]
    basis = Basis(valid_at=day(1.5), known_at=day(1.5))
    ns = {"namespace": "alice"}
    assert alice.recall("tea", basis=basis) == store.recall("tea", basis=basis, **ns)
    assert alice.context("tea", basis=basis) == store.context("tea", basis=basis, **ns)
    view = alice.concepts_for("tea", basis=basis)
    assert view == store.concepts_for("tea", basis=basis, **ns)
    assert alice.snapshot(basis=basis) == store.snapshot("alice", basis=basis)
    assert alice.timeline() == store.timeline("alice")
    assert alice.messages(session="s1") == store.messages("alice", session="s1")
    assert alice.sessions() == store.sessions("alice") == ["s1"]
    assert alice.concepts() == store.concepts("alice")
    keys = [c.key for c in alice.concepts()]
    assert alice.concept_graph(keys) == store.concept_graph(keys, **ns)
    assert alice.pending_updates() == store.pending_updates("alice")
    assert alice.abstractions() == store.abstractions("alice")
    assert alice.relationships() == store.relationships("alice")
    assert alice.history(tenants["tea"].id) == store.history(tenants["tea"].id)
    assert asyncio.run(alice.arecall("tea", basis=basis)) == alice.recall("tea", basis=basis)
    assert all(h.fact.namespace == "alice" for h in alice.recall("Lyon Berlin library tea"))


def test_the_handles_writes_land_in_its_namespace(store: MemoryStore) -> None:
    carol = store.scope("carol")
    (fact,) = carol.remember_many([{"text": "I play the cello.", "at": day(0)}])[0]
    message = carol.add_message("hello", session="s2", at=day(1))
    assert fact.namespace == message.namespace == "carol"
    assert asyncio.run(carol.aremember("I play the piano too.", at=day(2)))[0].namespace == "carol"
    assert carol.delete_messages(ids=[message.id]) == 1
    week = {"half_life": timedelta(days=7), "dry_run": True, "at": day(3)}
    assert carol.prune(**week) == store.prune("carol", **week)
    assert isinstance(carol.abstract(at=day(3)), list)
    assert isinstance(carol.infer_relationships(at=day(3)), list)
    assert store.namespaces() == ["carol"]


def test_the_handle_mirrors_every_per_namespace_method_of_the_store() -> None:
    """A new store method taking a namespace or a fact id needs its twin on the handle."""
    import inspect

    store_only = {"scope", "namespaces", "anamespaces", "close", "aclose", "describe"}
    store_only |= {"compact", "acompact"}  # the whole store's files, not one namespace's
    wanted = {
        name
        for name, member in inspect.getmembers(MemoryStore, callable)
        if not name.startswith("_")
        and name not in store_only
        and not isinstance(inspect.getattr_static(MemoryStore, name), classmethod)
    }
    assert "arecall" in wanted and "abstract" in wanted  # the async twins are counted too
    assert wanted - set(dir(ScopedStore)) == set()
