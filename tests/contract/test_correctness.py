"""Issue 20's edge cases of the time axes, on every engine: each repro of the issue as a test."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from bitemporal_core import (
    Basis,
    BitemporalError,
    FutureTime,
    InvalidInput,
    MemoryStore,
    StoreInUse,
    SupersededFact,
    TimeRegression,
)
from bitemporal_core.language.extract import ConceptExtractor

T0 = datetime(2023, 10, 26, 10, 0, tzinfo=UTC)


def t(s: str) -> datetime:
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


def _apples(store: MemoryStore) -> tuple[str, str]:
    like = store.remember(
        "I enjoy eating apples.",
        namespace="a",
        at=t("2023-10-26T10:00"),
        valid_from=t("2023-10-26"),
    )[0]
    allergy = store.supersede(like.id, "I am allergic to apples.", at=t("2023-10-27T09:00"))
    return like.id, allergy.id


def _texts(store: MemoryStore, valid_at: str) -> list[str]:
    return [f.text for f in store.snapshot("a", basis=Basis(valid_at=t(valid_at)))]


# --- item 2: the predecessor's end follows a later valid_from -----------------------------------
def test_correcting_a_start_later_moves_the_predecessors_end_with_it(store: MemoryStore) -> None:
    like, allergy = _apples(store)
    store.correct(allergy, valid_from=t("2023-10-28"), at=t("2023-10-28T12:00"))
    assert _texts(store, "2023-10-27T12:00") == ["I enjoy eating apples."]
    assert _texts(store, "2023-10-28T12:00") == ["I am allergic to apples."]
    assert store.history(like).current.valid_to == t("2023-10-28")  # type: ignore[union-attr]
    # Moved again, earlier this time, and back later: the end follows every move.
    store.correct(allergy, valid_from=t("2023-10-27"), at=t("2023-10-29T12:00"))
    assert store.history(like).current.valid_to == t("2023-10-27")  # type: ignore[union-attr]
    store.correct(allergy, valid_from=t("2023-10-30"), at=t("2023-10-30T12:00"))
    assert store.history(like).current.valid_to == t("2023-10-30")  # type: ignore[union-attr]
    assert _texts(store, "2023-10-29T12:00") == ["I enjoy eating apples."]


def test_a_later_start_never_extends_the_predecessor_past_its_own_end(store: MemoryStore) -> None:
    trip = store.remember(
        "I am in Rome.",
        namespace="a",
        at=T0,
        valid_from=t("2023-11-01"),
        valid_to=t("2023-11-10"),
    )[0]
    moved = store.supersede(
        trip.id, "I am in Milan.", at=T0 + timedelta(hours=1), valid_from=t("2023-11-05")
    )
    store.correct(moved.id, valid_from=t("2023-11-20"), at=T0 + timedelta(hours=2))
    assert store.history(trip.id).current.valid_to == t("2023-11-10")  # type: ignore[union-attr]


# --- item 3: a superseded fact cannot be re-opened; a no-op correction writes nothing ------------
def test_correcting_a_superseded_fact_open_is_refused(store: MemoryStore) -> None:
    paris = store.remember("I live in Paris.", namespace="a", at=T0, valid_from=T0)[0]
    store.supersede(paris.id, "I live in Lyon.", at=T0 + timedelta(days=1))
    before = store.history(paris.id)
    with pytest.raises(SupersededFact, match="superseded by"):
        store.correct(paris.id, valid_to=None, at=T0 + timedelta(days=2))
    with pytest.raises(SupersededFact):
        store.correct(paris.id, valid_to=T0 + timedelta(days=5), at=T0 + timedelta(days=2))
    assert store.history(paris.id) == before
    assert _texts(store, "2023-10-30") == ["I live in Lyon."]
    # Within its own time, a superseded fact may still be corrected (a typo, an earlier end).
    fixed = store.correct(paris.id, text="I lived in Paris.", at=T0 + timedelta(days=2))
    assert fixed.valid_to == T0 + timedelta(days=1)


def test_a_correction_that_changes_nothing_writes_nothing(store: MemoryStore) -> None:
    fact = store.remember("I like tea.", namespace="a", at=T0, valid_from=T0)[0]
    same = store.correct(
        fact.id, text="I like tea.", valid_from=T0, valid_to=None, at=T0 + timedelta(days=1)
    )
    assert same == store.history(fact.id).current
    assert len(store.history(fact.id)) == 1
    assert store.correct(fact.id).version_id == fact.version_id


# --- item 4: every write that takes `at` goes through the clock check ---------------------
def test_prune_in_the_past_is_a_time_regression(store: MemoryStore) -> None:
    store.remember("I like tea.", namespace="a", at=T0)
    store.remember("I like coffee.", namespace="a", at=T0 + timedelta(days=100))
    basis = Basis(valid_at=T0 + timedelta(days=60), known_at=T0 + timedelta(days=60))
    seen = [h.fact.text for h in store.recall("tea", namespace="a", basis=basis)]
    with pytest.raises(TimeRegression):
        store.prune("a", min_weight=0.9, half_life=timedelta(days=1), at=T0 + timedelta(days=50))
    assert [h.fact.text for h in store.recall("tea", namespace="a", basis=basis)] == seen


def test_prune_moves_the_namespace_clock(store: MemoryStore) -> None:
    store.remember("I like tea.", namespace="a", at=T0)
    pruned = store.prune(
        "a", min_weight=0.9, half_life=timedelta(days=1), at=T0 + timedelta(days=30)
    )
    assert [f.text for f in pruned] == ["I like tea."]
    with pytest.raises(TimeRegression):  # nothing may now be recorded before the archiving
        store.remember("I like cocoa.", namespace="a", at=T0 + timedelta(days=29))
    assert store.recall("tea", namespace="a", include_archived=False) == []


def test_infer_relationships_in_the_past_is_a_time_regression(store: MemoryStore) -> None:
    for i in range(3):
        store.remember("Paris is in France.", namespace="a", at=T0 + timedelta(days=10 + i))
    with pytest.raises(TimeRegression):
        store.infer_relationships("a", at=T0)
    assert store.relationships("a") == []


# --- item 5: an explicit `at` far past the engine clock is refused -----------------------
def test_an_at_years_ahead_is_refused_and_writes_nothing(store: MemoryStore) -> None:
    typo = datetime.now(UTC).replace(year=datetime.now(UTC).year + 10)
    with pytest.raises(FutureTime, match="clock"):
        store.remember("I like tea.", namespace="a", at=typo)
    with pytest.raises(FutureTime):
        store.remember_many([{"text": "I like tea.", "at": typo}], namespace="a")
    with pytest.raises(FutureTime):
        store.add_message("hello", namespace="a", at=typo)
    assert store.namespaces() == []
    fact = store.remember("I like coffee.", namespace="a")[0]  # the namespace still works
    with pytest.raises(FutureTime):
        store.correct(fact.id, text="I like strong coffee.", at=typo)
    with pytest.raises(FutureTime):
        store.prune("a", half_life=timedelta(days=1), at=typo)
    assert len(store.history(fact.id)) == 1
    store.remember("I like milk.", namespace="a", at=datetime.now(UTC))


def test_a_small_skew_is_accepted(store: MemoryStore) -> None:
    soon = datetime.now(UTC) + timedelta(minutes=1)
    assert store.remember("I like tea.", namespace="a", at=soon)[0].recorded_at == soon


def test_the_skew_is_a_store_option(extractor: ConceptExtractor) -> None:
    ahead = datetime.now(UTC) + timedelta(days=30)
    strict = MemoryStore.embedded(None, extractor=extractor, max_clock_skew=timedelta(seconds=1))
    relaxed = MemoryStore.embedded(None, extractor=extractor, max_clock_skew=timedelta(days=365))
    try:
        with pytest.raises(FutureTime):
            strict.remember("I like tea.", at=datetime.now(UTC) + timedelta(minutes=1))
        assert relaxed.remember("I like tea.", at=ahead)[0].recorded_at == ahead
        with pytest.raises(BitemporalError):
            MemoryStore.embedded(None, extractor=extractor, max_clock_skew=-timedelta(seconds=1))
    finally:
        strict.close()
        relaxed.close()


# --- item 6: one embedded store per path in a process ----------------------------------------
def test_a_second_store_on_an_open_path_is_refused(
    tmp_path: Path, extractor: ConceptExtractor, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "memory.lbdb"
    first = MemoryStore.embedded(path, extractor=extractor)
    first.remember("I like tea.", namespace="a")
    (tmp_path / "link.lbdb").symlink_to(path)
    monkeypatch.chdir(tmp_path)
    try:
        for same in (path, str(path), "memory.lbdb", "./memory.lbdb", tmp_path / "link.lbdb"):
            with pytest.raises(StoreInUse, match=str(path.resolve())):
                MemoryStore.embedded(same, extractor=extractor)
        assert [f.text for f in first.snapshot("a")] == ["I like tea."]
    finally:
        first.close()
    again = MemoryStore.embedded("memory.lbdb", extractor=extractor)  # closing frees the path
    try:
        assert [f.text for f in again.snapshot("a")] == ["I like tea."]
    finally:
        again.close()


def test_stores_on_other_paths_and_in_memory_open_side_by_side(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    stores = [
        MemoryStore.embedded(tmp_path / "one.lbdb", extractor=extractor),
        MemoryStore.embedded(tmp_path / "two.lbdb", extractor=extractor),
        MemoryStore.embedded(None, extractor=extractor),
        MemoryStore.embedded(None, extractor=extractor),
    ]
    try:
        for i, s in enumerate(stores):
            s.remember(f"I like tea number {i}.", namespace="a")
        assert [len(s.snapshot("a")) for s in stores] == [1, 1, 1, 1]
    finally:
        for s in stores:
            s.close()


# --- item 9: extreme times, the LLM's faults, message ids -------------------------------------
_HIGH = datetime(9999, 12, 31, 23, 59, tzinfo=timezone(timedelta(hours=-5)))
_LOW = datetime(1, 1, 1, 0, 0, tzinfo=timezone(timedelta(hours=5)))


@pytest.mark.parametrize(
    "call",
    [
        lambda s, f: s.remember("I like tea.", namespace="a", at=_HIGH),
        lambda s, f: s.remember("I like tea.", namespace="a", valid_from=_LOW),
        lambda s, f: s.remember("I like tea.", namespace="a", valid_to=_HIGH),
        lambda s, f: s.remember_many([{"text": "I like tea.", "valid_to": _HIGH}], namespace="a"),
        lambda s, f: s.recall("tea", namespace="a", basis=Basis(valid_at=_LOW)),
        lambda s, f: s.snapshot("a", basis=Basis(known_at=_HIGH)),
        lambda s, f: s.timeline("a", known_at=_LOW),
        lambda s, f: s.correct(f, valid_from=_LOW),
        lambda s, f: s.supersede(f, "I like milk.", valid_from=_HIGH),
    ],
)
def test_extreme_times_with_an_offset_are_the_librarys_error(
    store: MemoryStore, call: Callable[[MemoryStore, str], object]
) -> None:
    fact = store.remember("I like coffee.", namespace="a", at=T0)[0]
    with pytest.raises(InvalidInput, match="outside the supported range"):
        call(store, fact.id)
    assert len(store.timeline("a").versions) == 1


def test_a_long_message_is_weighed_against_stored_facts_to_its_end(store: MemoryStore) -> None:
    from bitemporal_core.services.formation import MAX_PLANNED

    (paris,) = store.remember("I live in Paris.", namespace="doc", at=T0)
    said = [f"I bought {n} apples at the market." for n in range(MAX_PLANNED + 5)]
    facts = store.remember(" ".join([*said, "I live in Berlin now."]), namespace="doc")
    assert len(facts) == len(said) + 1
    current = {f.id for f in store.snapshot("doc")}
    assert paris.id not in current and facts[-1].id in current
    assert store.history(paris.id).changes  # retired by the rule, with its reason
