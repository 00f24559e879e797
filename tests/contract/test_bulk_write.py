"""The port's bulk write on every engine: `apply_many` equals `apply` one batch at a time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest

from bitemporal_core import MemoryStore, NotCurrent, TimeRegression
from bitemporal_core.backends import NewFact, NewMessage, NewVersion, RecallScope, WriteBatch

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)
LATER = T0 + timedelta(hours=1)


def _version(ns: str, vid: str, fid: str, text: str, at: datetime, **kw: Any) -> NewVersion:
    words = [w.strip(".").lower() for w in text.split()]
    return NewVersion(
        fact_id=f"{ns}-{fid}",
        version_id=f"{ns}-{vid}",
        text=text,
        valid_from=at,
        valid_to=None,
        version=kw.pop("version", 1),
        concepts=tuple((w, w.capitalize()) for w in words if len(w) > 3),
        terms=tuple((w, 1) for w in words),
        length=len(words),
        **kw,
    )


def _batches(ns: str) -> list[WriteBatch]:
    """A chunk in which later batches close, correct and supersede what earlier ones wrote."""
    at = [T0 + timedelta(minutes=i) for i in range(5)]
    v1 = _version(ns, "v1", "f1", "Alice likes apple pie.", at[0], source="m1")
    v1b = _version(ns, "v1b", "f1", "Alice likes apple tart.", at[0], source="m2", version=2)
    # The same message as v1 (stored once), superseding v1's lineage.
    v2 = _version(
        ns, "v2", "f2", "Alice hates apple pie.", at[2], source="m1", supersedes=f"{ns}-f1"
    )
    v3 = _version(ns, "v3", "f3", "Bob bakes apple cake.", at[3], source="m3")

    def msg(i: str) -> tuple[NewMessage, ...]:
        return (NewMessage(id=i, session="s", role="user", text=f"text of {i}"),)

    return [
        WriteBatch(
            namespace=ns,
            at=at[0],
            facts=(NewFact(id=f"{ns}-f1"),),
            versions=(v1,),
            messages=msg("m1"),
            concepts=(("alice", "Alice"), ("apple", "Apple")),
            relate=(("alice", "apple"),),
            advance_t_index=True,
        ),
        WriteBatch(
            namespace=ns, at=at[1], close=(v1.version_id,), versions=(v1b,), messages=msg("m2")
        ),
        WriteBatch(
            namespace=ns,
            at=at[2],
            close=(v1b.version_id,),
            facts=(NewFact(id=f"{ns}-f2", supersedes=f"{ns}-f1"),),
            versions=(v2,),
            messages=msg("m1"),
            concepts=(("alice", "ALICE"), ("hates", "Hates")),
            relate=(("alice", "apple"), ("alice", "hates")),
            advance_t_index=True,
            summaries=(("apple", "first summary"),),
        ),
        WriteBatch(
            namespace=ns,
            at=at[3],
            facts=(NewFact(id=f"{ns}-f3"),),
            versions=(v3,),
            messages=msg("m3"),
            concepts=(("bakes", "Bakes"),),
            relate=(("alice", "apple"),),
            advance_t_index=True,
            summaries=(("apple", "second summary"),),
        ),
    ]


def _state(store: MemoryStore, ns: str) -> dict[str, Any]:
    """What a namespace holds, with the namespace taken out of the ids."""
    backend: Any = store.backend

    def plain(text: str | None) -> str | None:
        return None if text is None else text.replace(ns, "NS")

    facts = [
        (plain(v.id), plain(v.version_id), v.text, v.recorded_at, v.superseded_at, v.t_index)
        for f in ("f1", "f2", "f3")
        for v in (backend.lineage(f"{ns}-{f}") or pytest.fail(f"{f} missing")).versions
    ]
    keys = ["alice", "apple", "hates", "bakes", "pie", "tart", "cake"]
    nodes, edges = backend.concept_graph(ns, keys, hops=1, window=100)
    return {
        "facts": facts,
        "supersedes": backend.lineage(f"{ns}-f2").supersedes.replace(ns, "NS"),
        "concepts": sorted((c.key, c.display, c.t_index) for c in nodes),
        "edges": sorted((e.src, e.dst, e.strength, e.t_index) for e in edges),
        "messages": [(m.id, m.seq, m.at) for m in backend.messages(ns, None, None)],
        "summaries": [
            backend.summaries(ns, ["apple"], T0 + timedelta(minutes=i)) for i in range(5)
        ],
        "mentions": backend.mention_counts(ns, keys),
        "clock": (backend.clock(ns).last_tx, backend.clock(ns).t_index),
        "search": [
            (plain(f.version_id), round(score, 6))
            for f, score in backend.keyword_search(
                RecallScope(namespace=ns, valid_at=LATER, known_at=LATER), ["apple", "pie"], 5
            )
        ],
    }


def test_apply_many_equals_one_batch_at_a_time(store: MemoryStore) -> None:
    backend: Any = store.backend
    for batch in _batches("one"):
        backend.apply_many([batch])
    results = backend.apply_many(_batches("many"))
    assert [(r.at, r.t_index) for r in results] == [
        (T0 + timedelta(minutes=i), t) for i, t in zip((0, 1, 2, 3), (1, 1, 2, 3), strict=True)
    ]
    assert _state(store, "many") == _state(store, "one")


@pytest.mark.parametrize("fault", ["double close", "close before create", "time regression"])
def test_a_failed_apply_many_writes_nothing(store: MemoryStore, fault: str) -> None:
    backend: Any = store.backend
    store.remember("Carol owns a boat.", namespace="many", at=T0 - timedelta(days=1))
    before = sorted(map(str, backend.raw_dump()))
    batches = _batches("many")
    if fault == "double close":
        batches[2] = attrs.evolve(batches[2], close=("many-v1",))
    elif fault == "close before create":
        batches[0] = attrs.evolve(batches[0], close=("many-v3",))
    else:
        batches[3] = attrs.evolve(batches[3], at=T0 - timedelta(seconds=1))
    with pytest.raises(NotCurrent if "close" in fault else TimeRegression):
        backend.apply_many(batches)
    assert sorted(map(str, backend.raw_dump())) == before
    assert backend.clock("many").t_index == 1
