"""Isolation: random operations in namespace A never change what namespace B recalls,
snapshots, histories, messages or concept graph (hypothesis, rule-based)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from bitemporal_core import BitemporalError, MemoryStore
from bitemporal_core.language.extract import ConceptExtractor

from ._helpers import PINNED, T0, observe, raw_scan

# Pairs of namespaces that collide if anything compares names loosely: prefixes, case,
# trailing space, Unicode normal forms, quotes, Cypher-ish punctuation.
PAIRS = [
    ("a", "b"),
    ("alice", "alice2"),
    ("ns", "NS"),
    ("x", "x "),
    ("é", "e\u0301"),
    ("we'ird", 'we"ird'),
    ("a:b", "a"),
    ("n})-[r]-(m", "n"),
]
SHARED_IDS = ["m1", "m2", "m3", "raw1"]  # B's message ids, reused in A on purpose
SESSIONS = ["s1", "s2", None]
QUERIES = ("Where does Alice live?", "green tea", "Who likes Paris?")
SENTENCES = st.sampled_from(
    [
        "Alice visited Paris.",
        "Bob likes green tea.",
        "Alice moved to Rome.",
        "Carol reads books in Berlin.",
        "I said '}) MATCH (n) DETACH DELETE n //.",
        "Next month Alice goes to Paris.",
    ]
)


def seed(store: MemoryStore, ns: str) -> list[str]:
    """Namespace B: facts, a supersession, a correction, a retraction, raw messages."""
    day = timedelta(days=1)
    alice = store.remember("Alice visited Paris.", namespace=ns, at=T0, source="m1", session="s1")
    tea = store.remember("Bob likes green tea.", namespace=ns, at=T0 + day, source="m2")
    moved = store.supersede(alice[0].id, "Alice moved to Rome.", at=T0 + 2 * day, source="m3")
    store.correct(moved.id, valid_from=T0 + 2 * day - timedelta(hours=3), at=T0 + 3 * day)
    gone = store.remember("Dave owns a boat.", namespace=ns, at=T0 + 4 * day)
    store.retract(gone[0].id, at=T0 + 5 * day)
    store.add_message("hello there", namespace=ns, session="s1", id="raw1", at=T0 + 6 * day)
    store.remember_many(
        [{"text": "Carol reads books in Berlin.", "id": "m4", "session": "s2"}, "Erin sails."],
        namespace=ns,
    )
    return [alice[0].id, tea[0].id, moved.id, gone[0].id]


def view(store: MemoryStore, ns: str) -> dict[str, Any]:
    """Everything B shows, plus its raw engine nodes."""
    seen = observe(store, ns, QUERIES)
    keys = ["alic", "pari", "rome", "bob", "tea", "carol", "berlin"]
    seen["graph"] = store.concept_graph(keys, namespace=ns, hops=2)
    seen["pinned"] = [
        [h.fact.version_id for h in store.recall(q, namespace=ns, basis=PINNED, mode="recallm")]
        for q in QUERIES
    ]
    seen["nodes"] = sorted(
        repr(sorted(props.items()))
        for label, props in raw_scan(store)
        # an Entity's `name` is a person's name ("alice"), not a namespace
        if props.get("namespace") == ns or (label == "Namespace" and props.get("name") == ns)
    )
    return seen


class IsolationMachine(RuleBasedStateMachine):
    """Operations on A; B must look exactly as it did after seeding."""

    make_store: ClassVar[Callable[[], MemoryStore]]
    facts = Bundle("facts")

    @initialize(pair=st.sampled_from(PAIRS), swap=st.booleans())
    def setup(self, pair: tuple[str, str], swap: bool) -> None:
        self.store = type(self).make_store()
        self.a, self.b = pair[::-1] if swap else pair
        self.b_ids = seed(self.store, self.b)
        self.baseline = view(self.store, self.b)
        self.b_clock = self.store.backend.clock(self.b)

    def _try(self, call: Callable[[], Any]) -> Any:
        """Errors of the library's family are fine (a fact may be gone or replaced)."""
        with contextlib.suppress(BitemporalError):
            return call()
        return None

    @rule(target=facts, text=SENTENCES, source=st.sampled_from([None, *SHARED_IDS]))
    def remember(self, text: str, source: str | None) -> Any:
        facts = self._try(lambda: self.store.remember(text, namespace=self.a, source=source))
        return facts[0].id if facts else "unknown-fact"

    @rule(texts=st.lists(SENTENCES, min_size=1, max_size=3), ids=st.booleans())
    def remember_many(self, texts: list[str], ids: bool) -> None:
        items = [
            {"text": t, **({"id": SHARED_IDS[i % 4]} if ids else {})} for i, t in enumerate(texts)
        ]
        self._try(lambda: self.store.remember_many(items, namespace=self.a, chunk=2))

    @rule(target=facts, fact=facts, text=SENTENCES)
    def supersede(self, fact: str, text: str) -> Any:
        new = self._try(lambda: self.store.supersede(fact, text))
        return new.id if new else "unknown-fact"

    @rule(fact=facts, text=st.none() | SENTENCES, hours=st.integers(-48, 48))
    def correct(self, fact: str, text: str | None, hours: int) -> None:
        def call() -> Any:
            start = self.store.history(fact).versions[-1].valid_from + timedelta(hours=hours)
            return self.store.correct(fact, text=text, valid_from=start)

        self._try(call)

    @rule(fact=facts)
    def retract(self, fact: str) -> None:
        self._try(lambda: self.store.retract(fact))

    @rule(text=SENTENCES, msg_id=st.sampled_from(SHARED_IDS), session=st.sampled_from(SESSIONS))
    def add_message(self, text: str, msg_id: str, session: str | None) -> None:
        self._try(
            lambda: self.store.add_message(text, namespace=self.a, id=msg_id, session=session)
        )

    @rule(session=st.sampled_from(["s1", "s2"]), by_id=st.booleans())
    def delete_messages(self, session: str, by_id: bool) -> None:
        if by_id:
            self.store.delete_messages(self.a, ids=SHARED_IDS)
        else:
            self.store.delete_messages(self.a, session=session)

    @rule(fact=consumes(facts))
    def forget_fact(self, fact: str) -> None:
        self._try(lambda: self.store.forget(fact=fact))

    @rule()
    def forget_namespace(self) -> None:
        self.store.forget(namespace=self.a)
        assert self.store.snapshot(self.a) == []

    @rule(query=st.sampled_from(QUERIES))
    def recall(self, query: str) -> None:
        for hit in self.store.recall(query, namespace=self.a):
            assert hit.fact.namespace == self.a

    @invariant()
    def b_is_untouched(self) -> None:
        if not hasattr(self, "store"):
            return
        assert self.store.snapshot(self.b, basis=PINNED) == self.baseline["snapshot"]
        assert self.store.backend.clock(self.b).t_index == self.b_clock.t_index
        assert self.store.backend.clock(self.b).last_tx == self.b_clock.last_tx

    def teardown(self) -> None:
        if not hasattr(self, "store"):
            return
        try:
            assert view(self.store, self.b) == self.baseline
            assert self.b in self.store.namespaces()
            for fact_id in self.b_ids:
                assert self.store.history(fact_id).namespace == self.b
        finally:
            self.store.close()


def _run(make_store: Callable[[], MemoryStore], examples: int, steps: int) -> None:
    """The default tier replays the same examples every run; the slow tier explores."""
    slow = examples > 20
    machine = type("Machine", (IsolationMachine,), {"make_store": staticmethod(make_store)})
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            database=None,
            derandomize=not slow,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )


@pytest.mark.parametrize(
    ("examples", "steps"), [(12, 5), pytest.param(100, 12, marks=pytest.mark.slow, id="slow")]
)
def test_operations_in_one_namespace_never_change_another_ladybug(
    extractor: ConceptExtractor, examples: int, steps: int
) -> None:
    _run(lambda: MemoryStore.embedded(None, extractor=extractor), examples, steps)


@pytest.mark.neo4j
@pytest.mark.parametrize(
    ("examples", "steps"), [(3, 5), pytest.param(30, 12, marks=pytest.mark.slow, id="slow")]
)
def test_operations_in_one_namespace_never_change_another_neo4j(
    neo4j_driver: Any, extractor: ConceptExtractor, examples: int, steps: int
) -> None:
    shared = MemoryStore.neo4j(driver=neo4j_driver, extractor=extractor)

    def fresh() -> MemoryStore:  # one backend (its schema made once), emptied per example
        with neo4j_driver.session() as session:
            session.run("MATCH (n) DETACH DELETE n").consume()
        return MemoryStore(shared.backend, extractor=extractor, owns_backend=False)

    try:
        _run(fresh, examples, steps)
    finally:
        shared.close()
