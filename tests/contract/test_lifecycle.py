"""Memory lifecycle on every engine: kinds, abstractions, decay/reinforcement/prune, inference."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bitemporal_core import (
    ABSTRACTION,
    Basis,
    InvalidInput,
    Lifecycle,
    MemoryStore,
    NotFound,
    Usage,
)
from bitemporal_core.language.extract import ConceptExtractor
from bitemporal_core.services.uses import UseRecorder

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def now(n: float) -> Basis:
    return Basis(valid_at=day(n), known_at=day(n))


def policy(store: MemoryStore, **options: object) -> MemoryStore:
    """Another store over the same engine with a lifecycle policy."""
    return MemoryStore(
        store.backend,
        extractor=store.services.analyser.extractor,
        lifecycle=Lifecycle(**options),  # type: ignore[arg-type]
        owns_backend=False,
    )


# --- typed statements -----------------------------------------------------------------------
def test_statements_are_classified_and_an_explicit_kind_wins(store: MemoryStore) -> None:
    texts = {
        "I love green tea.": "preference",
        "I think tea is healthy.": "belief",
        "I want to learn Japanese.": "intent",
        "I am going to visit Kyoto.": "plan",
        "I went to the tea house yesterday.": "event",
        "Tea contains caffeine.": "said",
    }
    for i, (text, kind) in enumerate(texts.items()):
        (fact,) = store.remember(text, namespace="a", at=day(i))
        assert fact.kind == kind, text
        assert store.history(fact.id).current.kind == kind  # type: ignore[union-attr]
    (explicit,) = store.remember("Tea is fine.", namespace="a", at=day(9), kind="belief")
    assert explicit.kind == "belief"
    batch = store.remember_many(
        [{"text": "I hate coffee.", "at": day(10)}, {"text": "Coffee is hot.", "kind": "event"}],
        namespace="a",
    )
    assert [f[0].kind for f in batch] == ["preference", "event"]


def test_recall_filters_kinds_inside_the_engine(store: MemoryStore) -> None:
    """One preference among many plain statements on the same topic: k=1 still finds it."""
    items = [{"text": f"Tea batch {i} arrived in the shop.", "at": day(i)} for i in range(30)]
    store.remember_many(items, namespace="a")
    store.remember("I prefer oolong tea.", namespace="a", at=day(40))
    store.remember_many(
        [{"text": f"Tea lot {i} sold.", "at": day(41 + i)} for i in range(30)], namespace="a"
    )
    (hit,) = store.recall("tea", namespace="a", k=1, kinds=["preference"], basis=now(80))
    assert hit.fact.text == "I prefer oolong tea."
    assert store.recall("tea", namespace="a", kinds=["plan"], basis=now(80)) == []
    block = store.context("tea", namespace="a", kinds=("preference",), basis=now(80))
    assert "I prefer oolong tea. (preference, said 2024-04-10)" in block
    assert "batch" not in block


@pytest.mark.parametrize("kinds", ["preference", [], [3], ["no way"], 5])
def test_bad_kind_filters_are_refused(store: MemoryStore, kinds: object) -> None:
    with pytest.raises(InvalidInput):
        store.recall("tea", namespace="a", kinds=kinds)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        store.recall("tea", namespace="a", include_archived="yes")  # type: ignore[arg-type]


# --- abstraction ----------------------------------------------------------------------------
def _diet(store: MemoryStore) -> list[str]:
    texts = ["I eat apples daily.", "Apples give me energy.", "I buy apples at the market."]
    return [store.remember(t, namespace="a", at=day(i))[0].id for i, t in enumerate(texts)]


def test_abstraction_summarises_related_facts_and_links_them(store: MemoryStore) -> None:
    ids = _diet(store)
    store.remember("My car is blue.", namespace="a", at=day(3))
    (made,) = store.abstract("a", at=day(4))
    assert made.fact.kind == ABSTRACTION and made.concept == "appl"
    assert made.fact.text.startswith("apples: I eat apples daily. Apples give me energy.")
    members = {store.history(i).current.version_id for i in ids}  # type: ignore[union-attr]
    assert set(made.members) == members
    assert made.fact.valid_from == day(2), "true once all of its facts are"
    assert store.abstract("a", at=day(5)) == [], "unchanged groups are left alone"
    (listed,) = store.abstractions("a", basis=now(5))
    assert listed.fact.version_id == made.fact.version_id and listed.members == made.members
    hits = store.recall("apples", namespace="a", basis=now(5))
    assert any(h.fact.kind == ABSTRACTION for h in hits)
    assert (
        store.recall("apples", namespace="a", kinds=[ABSTRACTION], basis=now(5))[0].fact
        == made.fact
    )


def test_a_supersession_makes_a_newer_abstraction_never_an_edit(store: MemoryStore) -> None:
    ids = _diet(store)
    (first,) = store.abstract("a", at=day(4))
    newer = store.supersede(ids[0], "I eat apples weekly now.", at=day(5))
    assert store.abstractions("a", basis=now(5.5)) == [], "it quoted what is no longer believed"
    (second,) = store.abstract("a", at=day(6))
    assert second.fact.id == first.fact.id and second.fact.version == 2
    assert newer.version_id in second.members and first.members != second.members
    lineage = store.history(first.fact.id)
    assert [v.superseded_at for v in lineage.versions] == [day(5), None]
    (then,) = store.abstractions("a", basis=now(4.5))
    assert then.fact.version_id == first.fact.version_id and then.members == first.members
    (later,) = store.abstractions("a", basis=now(7))
    assert "weekly" in later.fact.text


def test_retracting_or_correcting_a_member_ends_its_abstraction(store: MemoryStore) -> None:
    ids = _diet(store)
    store.abstract("a", at=day(4))
    store.correct(ids[2], text="I buy apples at the farm.", at=day(5))
    assert store.abstractions("a", basis=now(5)) == []
    (second,) = store.abstract("a", at=day(6))
    store.retract(ids[1], at=day(7))
    assert store.abstractions("a", basis=now(7)) == []
    assert store.abstractions("a", basis=now(6.5))[0].fact.version_id == second.fact.version_id


def test_a_retracted_abstraction_is_rewritten_as_a_new_version(store: MemoryStore) -> None:
    _diet(store)
    (first,) = store.abstract("a", at=day(4))
    store.retract(first.fact.id, at=day(5))
    assert store.abstractions("a", basis=now(5.5)) == []
    (again,) = asyncio.run(store.aabstract("a", at=day(6)))
    assert again.fact.id == first.fact.id and again.fact.version == 2
    assert again.members == first.members


def test_forgetting_a_fact_forgets_the_abstractions_quoting_it(store: MemoryStore) -> None:
    ids = _diet(store)
    (made,) = store.abstract("a", at=day(4))
    store.forget(fact=ids[1])
    with pytest.raises(NotFound):
        store.history(made.fact.id)
    assert store.abstractions("a", basis=now(5)) == []


@pytest.mark.parametrize(
    "options", [{"min_facts": 0}, {"max_facts": "3"}, {"min_facts": 5, "max_facts": 2}]
)
def test_bad_abstraction_options_are_refused(
    store: MemoryStore, options: dict[str, object]
) -> None:
    _diet(store)
    with pytest.raises(InvalidInput):
        store.abstract("a", **options)  # type: ignore[arg-type]
    assert store.abstractions("a") == []


# --- decay, reinforcement, prune ------------------------------------------------------------
def test_decay_ranks_older_memories_lower_but_keeps_them(store: MemoryStore) -> None:
    store.remember("The garden needs water.", namespace="a", at=day(0))
    store.remember("The garden has roses.", namespace="a", at=day(100))
    plain = [h.fact.text for h in store.recall("garden", namespace="a", basis=now(101))]
    decaying = policy(store, half_life=timedelta(days=10))
    ranked = [h.fact.text for h in decaying.recall("garden", namespace="a", basis=now(101))]
    assert ranked[0] == "The garden has roses."
    assert sorted(ranked) == sorted(plain), "decay reorders, it never hides"


def test_reinforcement_counts_uses_without_changing_what_is_true(store: MemoryStore) -> None:
    reinforcing = policy(store, reinforce=True, use_weight=5.0)
    (old,) = reinforcing.remember("The lake is cold.", namespace="a", at=day(0))
    (new,) = reinforcing.remember("The lake is deep, a deep lake.", namespace="a", at=day(1))
    before = reinforcing.snapshot("a", basis=now(2))
    assert store.recall("lake", namespace="a", basis=now(2))[0].fact.id == new.id
    for _ in range(3):
        reinforcing.recall("cold", namespace="a", k=1, basis=now(2))
    assert reinforcing.services.uses.pending("a")[old.id][0] == 3, "written behind"
    top = reinforcing.recall("lake", namespace="a", basis=now(2))[0]
    assert top.fact.id == old.id, "the often-used memory ranks first"
    reinforcing.context("lake", namespace="a", basis=now(2))
    reinforcing.close()  # flushes the pending uses; the engine stays open (not owned)
    usage = store.backend.usage("a", [old.id, new.id])
    assert usage[old.id].uses == 5 and usage[old.id].last_used is not None
    assert usage[new.id].uses == 2
    assert reinforcing.snapshot("a", basis=now(2)) == before
    assert reinforcing.history(old.id).versions == store.history(old.id).versions


def test_use_counts_are_written_once_a_batch_is_due(store: MemoryStore) -> None:
    (fact,) = store.remember("The lake is cold.", namespace="a", at=day(0))
    recorder = UseRecorder(store.backend, batch=3, interval=3600)
    recorder.add("a", [fact.id, fact.id], day(1))
    assert store.backend.usage("a", [fact.id])[fact.id].uses == 0
    assert recorder.merged("a", [fact.id])[fact.id] == Usage(uses=2, last_used=day(1))
    recorder.add("a", [fact.id], day(2))  # the third use: one write
    assert recorder.pending("a") == {}
    assert store.backend.usage("a", [fact.id])[fact.id] == Usage(uses=3, last_used=day(2))
    recorder.add("b", ["no-such-fact"], day(3))
    recorder.flush()  # unknown lineages are ignored, other namespaces untouched
    assert store.backend.usage("b", ["no-such-fact"]) == {}


def test_prune_archives_weak_memories_out_of_default_recall_only(store: MemoryStore) -> None:
    (weak,) = store.remember("The bike has a flat tyre.", namespace="a", at=day(0))
    (fresh,) = store.remember("The bike is red.", namespace="a", at=day(60))
    pruning = policy(store, half_life=timedelta(days=7))
    assert pruning.prune("a", min_weight=0.1, at=day(61), dry_run=True) == [weak]
    assert [h.fact.id for h in store.recall("bike", namespace="a", basis=now(61))] != [fresh.id]
    assert pruning.prune("a", min_weight=0.1, at=day(61)) == [weak]
    assert [h.fact.id for h in store.recall("bike", namespace="a", basis=now(62))] == [fresh.id]
    wide = store.recall("bike", namespace="a", basis=now(62), include_archived=True)
    assert {h.fact.id for h in wide} == {weak.id, fresh.id}
    assert {f.id for f in store.snapshot("a", basis=now(62))} == {weak.id, fresh.id}
    assert store.history(weak.id).current == weak
    before = store.recall(
        "bike", namespace="a", basis=Basis(valid_at=day(60.5), known_at=day(60.5))
    )
    assert weak.id in {h.fact.id for h in before}, "as known before the archiving"
    assert pruning.prune("a", min_weight=0.1, at=day(63)) == [weak]  # still weak, still archived


def test_prune_needs_a_half_life(store: MemoryStore) -> None:
    store.remember("The bike is red.", namespace="a", at=day(0))
    with pytest.raises(InvalidInput):
        store.prune("a")
    with pytest.raises(InvalidInput):
        store.prune("a", half_life=timedelta(days=1), dry_run="no")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        Lifecycle(half_life=timedelta(0))
    with pytest.raises(InvalidInput):
        Lifecycle(min_weight=2.0)
    assert len(store.prune("a", half_life=timedelta(days=1), at=day(30), dry_run=True)) == 1


# --- inferred relationships -----------------------------------------------------------------
def _late_neighbours(store: MemoryStore) -> None:
    """Lyon early; Turin later with the same neighbours, beyond RecallM's t_index window."""
    texts = ["Lyon has a river.", "Lyon has a museum.", "Lyon has a bakery."]
    texts += [f"Note {i} is about the weather." for i in range(20)]
    texts += ["Turin has a river.", "Turin has a museum.", "Turin has a bakery."]
    for i, text in enumerate(texts):
        store.remember(text, namespace="a", at=day(i))


def _city_graph(store: MemoryStore) -> None:
    texts = [
        "Lyon has a river.",
        "Lyon has a museum.",
        "Lyon has a bakery.",
        "Turin has a river.",
        "Turin has a museum.",
        "Turin has a bakery.",
        "The bakery in Turin sells bread.",
        "Lyon has a river.",
        "Lyon has a river.",
    ]
    for i, text in enumerate(texts):
        store.remember(text, namespace="a", at=day(i))


def test_rules_infer_relationships_apart_from_stated_facts(store: MemoryStore) -> None:
    _city_graph(store)
    store = policy(store, min_inferred_confidence=0.0)  # every relation, however weak
    facts = store.snapshot("a", basis=now(20))
    found = store.infer_relationships("a", min_strength=3, min_shared=2, at=day(20))
    by_type = {(e.src, e.type, e.dst): e for e in found}
    assert ("lyon", "ASSOCIATED_WITH", "river") in by_type
    similar = by_type[("lyon", "SIMILAR_TO", "turin")]
    assert similar.provenance == "rule:shared-neighbours" and 0 < similar.confidence <= 1
    stored = store.relationships("a", keys=["turin"])
    assert any(e.type == "SIMILAR_TO" and {e.src, e.dst} == {"lyon", "turin"} for e in stored)
    assert store.snapshot("a", basis=now(20)) == facts, "stated facts are untouched"
    again = store.infer_relationships("a", at=day(21))
    assert len(store.relationships("a")) == len({(e.src, e.dst, e.type) for e in again})
    store.forget(namespace="a")
    assert store.relationships("a") == []


def test_recall_follows_inferred_relationships_at_a_lower_weight(store: MemoryStore) -> None:
    _late_neighbours(store)
    store = policy(store, min_inferred_confidence=0.0)
    assert "turin" not in {c.key for c in store.concepts_for("Lyon?", namespace="a").concepts}
    plain = store.recall("What about Lyon?", namespace="a", k=20, basis=now(40))
    assert not any("Turin" in h.fact.text for h in plain)
    store.infer_relationships("a", min_strength=5, at=day(40))
    hits = store.recall("What about Lyon?", namespace="a", k=20, basis=now(41))
    via = [h for h in hits if "inferred" in h.sources]
    assert via and all("Turin" in h.fact.text for h in via)
    assert hits[0].fact.text.startswith("Lyon")
    off = policy(store, inferred_weight=0.0, min_inferred_confidence=0.0)
    assert all(
        "inferred" not in h.sources
        for h in off.recall("What about Lyon?", namespace="a", k=20, basis=now(41))
    )


def test_weak_inferred_relationships_are_kept_but_not_used_or_shown(store: MemoryStore) -> None:
    _late_neighbours(store)
    found = store.infer_relationships("a", min_strength=5, at=day(40))
    weak = {(e.src, e.dst, e.type) for e in found if e.confidence < 0.9}
    strong = {(e.src, e.dst, e.type) for e in found if e.confidence >= 0.9}
    assert ("lyon", "turin", "SIMILAR_TO") in weak
    shown = {(e.src, e.dst, e.type) for e in store.relationships("a")}
    assert shown == strong  # the default floor (0.9) hides the weak ones
    hits = store.recall("What about Lyon?", namespace="a", k=20, basis=now(41))
    assert not any("Turin" in h.fact.text for h in hits)  # not followed either
    everything = policy(store, min_inferred_confidence=0.0)
    assert {(e.src, e.dst, e.type) for e in everything.relationships("a")} == weak | strong
    hits = everything.recall("What about Lyon?", namespace="a", k=20, basis=now(41))
    assert any("Turin" in h.fact.text and "inferred" in h.sources for h in hits)
    with pytest.raises(InvalidInput):
        Lifecycle(min_inferred_confidence=1.5)


def test_bad_inference_options_are_refused(store: MemoryStore) -> None:
    for options in ({"min_strength": 0}, {"min_shared": -1}, {"max_concepts": 1.5}):
        with pytest.raises(InvalidInput):
            store.infer_relationships("a", **options)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        store.relationships("a", keys="lyon")  # type: ignore[arg-type]


def test_a_file_written_before_quotes_were_marked_still_ends_its_abstractions(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """LadybugDB marks the facts an abstraction quotes (a retirement asks which abstractions
    quote a fact only for marked ones); a file written before the mark is marked as it opens,
    so a supersession there still ends the abstraction quoting the fact."""
    import ladybug

    path = tmp_path / "memory.lbdb"
    with MemoryStore.embedded(path, extractor=extractor) as s:
        ids = _diet(s)
        (made,) = s.abstract("a", at=day(4))
    db = ladybug.Database(str(path))
    conn = ladybug.Connection(db)
    conn.execute("ALTER TABLE Fact DROP cited")  # as an earlier version wrote the file
    conn.close()
    db.close()
    with MemoryStore.embedded(path, extractor=extractor) as s:
        assert s.abstractions("a", basis=now(4.5))[0].fact.id == made.fact.id
        s.supersede(ids[0], "I eat apples weekly now.", at=day(5))
        assert s.abstractions("a", basis=now(5.5)) == [], "it quoted what is no longer believed"
