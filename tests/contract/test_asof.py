"""Issue 20 item 1: a read at a basis is computed from what was known at `known_at` (the concept
graph, its t_index window, inferred edges, BM25 statistics), so later writes never change it.

Every read of recall (`recall` in both modes, `context`, `concepts_for`) at an earlier basis must
return exactly what it returned before: the same hits, scores and rank contributions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bitemporal_core import Basis, BitemporalError, Fact, InferredEdge, MemoryStore
from bitemporal_core.language.extract import ConceptExtractor

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
NS = "a"
QUERIES = ("What does Alice like?", "coffee", "Who drinks tea?", "Bob and the garden")


def _as_read(fact: Fact) -> Fact:
    """A returned version without its `superseded_at`: when a version stopped being believed
    is learned after the basis (the version itself, its scores and ranks must not change)."""
    return attrs.evolve(fact, superseded_at=None)


def read_all(store: MemoryStore, basis: Basis, namespace: str = NS) -> dict[str, Any]:
    """Everything recall shows at a basis, for a few questions."""
    out: dict[str, Any] = {}
    for q in QUERIES:
        hits = [
            store.recall(q, namespace=namespace, basis=basis, k=5, mode=mode)
            for mode in ("hybrid", "recallm")
        ]
        view = store.concepts_for(q, namespace=namespace, basis=basis)
        out[q] = (
            [[attrs.evolve(h, fact=_as_read(h.fact)) for h in found] for found in hits],
            store.context(q, namespace=namespace, basis=basis, max_tokens=200),
            attrs.evolve(
                view,
                contexts={k: tuple(map(_as_read, v)) for k, v in view.contexts.items()},
            ),
        )
    return out


def _at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_the_issues_repro_reads_the_same_after_later_writes(store: MemoryStore) -> None:
    store.remember("Alice likes coffee.", namespace=NS, at=_at(0))
    store.remember("Alice likes tea.", namespace=NS, at=_at(1))
    basis = Basis(valid_at=_at(2), known_at=_at(2))
    hits = store.recall("What does Alice like?", namespace=NS, basis=basis)
    before = read_all(store, basis)
    for i in range(20):
        store.remember(f"Bob drinks coffee {i}.", namespace=NS, at=_at(3 + i))
    assert store.recall("What does Alice like?", namespace=NS, basis=basis) == hits
    assert read_all(store, basis) == before
    # The later statements are there for a later basis.
    later = store.recall("coffee", namespace=NS, basis=Basis(valid_at=_at(30), known_at=_at(30)))
    assert any("Bob" in h.fact.text for h in later)


def test_a_past_basis_in_the_middle_of_a_history_is_stable(store: MemoryStore) -> None:
    """A basis between writes (not at the end of what is stored) reads the same before and
    after more writes: it is computed as of `known_at` both times."""
    texts = ["Alice likes coffee.", "Alice likes tea.", "Bob plants a garden.", "Alice hates tea."]
    for i, text in enumerate(texts):
        store.remember(text, namespace=NS, at=_at(i))
    basis = Basis(valid_at=_at(1.5), known_at=_at(1.5))
    before = read_all(store, basis)
    store.remember("Bob drinks coffee in the garden.", namespace=NS, at=_at(10))
    store.remember_many(
        [{"text": f"Alice buys coffee beans {i}.", "at": _at(11 + i)} for i in range(3)],
        namespace=NS,
    )
    assert read_all(store, basis) == before


def test_forgetting_a_fact_learned_later_leaves_an_earlier_read_as_it_was(
    store: MemoryStore,
) -> None:
    store.remember("Alice likes coffee.", namespace=NS, at=_at(0))
    store.remember("Alice likes tea.", namespace=NS, at=_at(1))
    basis = Basis(valid_at=_at(2), known_at=_at(2))
    before = read_all(store, basis)
    later = store.remember("Bob drinks coffee with Alice.", namespace=NS, at=_at(3))[0]
    store.remember("Carol drinks tea.", namespace=NS, at=_at(4))
    store.forget(fact=later.id)  # its versions leave the document counts too
    assert read_all(store, basis) == before


def _edge(src: str, dst: str, confidence: float) -> InferredEdge:
    return InferredEdge(src=src, dst=dst, type="NEAR", confidence=confidence, provenance="rule:t")


def test_inferred_edges_written_later_do_not_change_a_past_read(store: MemoryStore) -> None:
    store.remember("Alice likes coffee.", namespace=NS, at=_at(0))
    store.remember("Bob plants a garden.", namespace=NS, at=_at(1))
    edge = _edge("coffe", "garden", 0.9)
    store.backend.write_inferred(NS, [edge], _at(2))
    basis = Basis(valid_at=_at(3), known_at=_at(3))
    before = read_all(store, basis)
    reached = [h.fact.text for h in before["coffee"][0][0] if "inferred" in h.ranks]
    assert reached == ["Bob plants a garden."]  # the inferred edge is followed at this basis
    # Refreshed with another confidence, and a new one: the past read keeps what was known.
    weaker = InferredEdge(
        src="coffe", dst="garden", type="NEAR", confidence=0.2, provenance="rule:t"
    )
    tea = InferredEdge(src="alic", dst="garden", type="NEAR", confidence=0.9, provenance="rule:t")
    store.backend.write_inferred(NS, [weaker, tea], _at(4))
    assert read_all(store, basis) == before


# --- the property: any later writes leave every earlier basis as it was ------------------------
NAMES = ("Alice", "Bob", "Carol")
VERBS = ("likes", "drinks", "hates", "plants", "buys")
NOUNS = ("coffee", "tea", "a garden", "roses", "green tea", "coffee beans")

statement = st.builds(
    lambda n, v, o: f"{n} {v} {o}.",
    st.sampled_from(NAMES),
    st.sampled_from(VERBS),
    st.sampled_from(NOUNS),
)
operation = st.one_of(
    st.tuples(st.just("remember"), statement),
    st.tuples(st.just("many"), st.lists(statement, min_size=1, max_size=3)),
    st.tuples(st.just("supersede"), statement),
    st.tuples(st.just("correct"), statement),
    st.tuples(st.just("retract"), st.just("")),
)


class History:
    """Applies operations at increasing transaction times and keeps what each basis read."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.minute = 0.0
        self.reads: list[tuple[Basis, dict[str, Any]]] = []

    def _next(self) -> datetime:
        self.minute += 1
        return _at(self.minute)

    def _current(self) -> str | None:
        facts = self.store.snapshot(NS)
        return facts[len(facts) // 2].id if facts else None

    def apply(self, op: tuple[str, Any]) -> None:
        kind, arg = op
        s = self.store
        with contextlib.suppress(BitemporalError):  # e.g. a fact already superseded
            if kind == "remember":
                s.remember(arg, namespace=NS, at=self._next())
            elif kind == "many":
                items = [{"text": t, "at": self._next()} for t in arg]
                s.remember_many(items, namespace=NS)
            elif (fact := self._current()) is not None:
                if kind == "supersede":
                    s.supersede(fact, arg, at=self._next())
                elif kind == "correct":
                    s.correct(fact, text=arg, at=self._next())
                else:
                    s.retract(fact, at=self._next())

    def pin(self) -> None:
        """Read at a basis just after everything written so far (as "now" would)."""
        when = _at(self.minute + 0.5)
        basis = Basis(valid_at=when, known_at=when)
        self.reads.append((basis, read_all(self.store, basis)))

    def check(self) -> None:
        for basis, seen in self.reads:
            assert read_all(self.store, basis) == seen, basis


def _property(make_store: Callable[[], MemoryStore], examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=examples <= 20,
        phases=(Phase.explicit, Phase.reuse, Phase.generate),  # shrinking takes many minutes
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(st.lists(st.lists(operation, min_size=1, max_size=3), min_size=2, max_size=4))
    def run(phases: list[list[tuple[str, Any]]]) -> None:
        history = History(make_store())
        try:
            for phase in phases:
                for op in phase:
                    history.apply(op)
                history.check()
                history.pin()
        finally:
            history.store.close()

    run()


@pytest.mark.parametrize("examples", [8, pytest.param(80, marks=pytest.mark.slow, id="slow")])
def test_later_writes_never_change_an_earlier_read_ladybug(
    extractor: ConceptExtractor, examples: int
) -> None:
    _property(lambda: MemoryStore.embedded(None, extractor=extractor), examples)


@pytest.mark.neo4j
@pytest.mark.parametrize("examples", [3, pytest.param(25, marks=pytest.mark.slow, id="slow")])
def test_later_writes_never_change_an_earlier_read_neo4j(
    neo4j_driver: Any, extractor: ConceptExtractor, examples: int
) -> None:
    shared = MemoryStore.neo4j(driver=neo4j_driver, extractor=extractor)

    def fresh() -> MemoryStore:  # one backend (its schema made once), emptied per example
        with neo4j_driver.session() as session:
            session.run("MATCH (n) DETACH DELETE n").consume()
        return MemoryStore(shared.backend, extractor=extractor, owns_backend=False)

    try:
        _property(fresh, examples)
    finally:
        shared.close()
