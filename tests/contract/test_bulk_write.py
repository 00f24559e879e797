"""The port's bulk write on every engine: `apply_many` equals `apply` one batch at a time."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs
import pytest

from bitemporal_core import MemoryStore, NotCurrent, TimeRegression
from bitemporal_core.backends import NewFact, NewMessage, NewVersion, RecallScope, WriteBatch
from bitemporal_core.language.extract import ConceptExtractor

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


def test_last_messages_of_many_sessions_in_one_read(store: MemoryStore) -> None:
    """`last_messages` (a bulk import's first message of each session) holds what
    `messages(namespace, session, limit)` reads one session at a time."""
    for i, (ns, session) in enumerate([("a", "s1"), ("a", "s2"), ("b", "s1")] * 3):
        store.add_message(f"m{i}", namespace=ns, id=f"{ns}{i}", session=session)
    store.add_message("no session", namespace="a", id="a-none")
    backend = store.backend
    found = backend.last_messages("a", ["s1", "s2", "s9", "s1"], 2)
    assert set(found) == {"s1", "s2"}, "a session without messages is left out"
    for session, held in found.items():
        assert held == backend.messages("a", session, 2)
        assert [m.id for m in held] == [m.id for m in backend.messages("a", session, None)][-2:]
    assert backend.last_messages("a", [], 2) == {} == backend.last_messages("a", ["s1"], 0)


def test_bulk_import_follows_the_message_before_from_the_log(
    store: MemoryStore, extractor: ConceptExtractor
) -> None:
    """A session begun before this store was opened: the batched read finds the message each
    bulk-imported session follows, as `remember` finds it one session at a time."""
    for i, session in enumerate(["s1", "s2"]):
        store.add_message(
            "How did the half marathon go?",
            namespace="c",
            session=session,
            id=f"q{i}",
            at=T0 + timedelta(minutes=i),
        )
    fresh = MemoryStore(store.backend, extractor=extractor, owns_backend=False)
    items = [
        {"text": "Two hours!", "session": s, "id": f"a{i}", "at": LATER + timedelta(minutes=i)}
        for i, s in enumerate(["s1", "s2"])
    ]
    fresh.remember_many(items, namespace="c")
    hits = fresh.recall("How long did the half marathon take?", namespace="c", k=5)
    assert sorted(h.fact.source for h in hits) == ["a0", "a1"]


def _broken_log(monkeypatch: pytest.MonkeyPatch, store: MemoryStore) -> None:
    """From now on, a read of sessions' messages from the message log fails."""
    inner: Any = getattr(store.backend, "inner", store.backend)
    statements = copy.copy(inner._s)
    statements.MESSAGES_OF_SESSIONS = "RETURN no_such_function(1)"
    statements.MESSAGES_LAST_SESSION = "RETURN no_such_function(1)"
    monkeypatch.setattr(inner, "_s", statements)


def test_a_session_is_read_from_its_tail_not_the_log(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last two messages of a session (what a new message follows) are kept on its tail
    and read by primary key, not from the namespace's message log (a scan on LadybugDB);
    a session without messages is known empty; deletions are read right."""
    for i in range(3):
        store.add_message(f"a{i}", namespace="t", id=f"a{i}", session="s1", at=T0)
    order = ["s2", "s1", "s2", "s3", "s2", None]
    items = [{"text": f"b{i}", "id": f"b{i}", "session": s} for i, s in enumerate(order)]
    store.remember_many(items, namespace="t", chunk=2)
    log = store.backend.messages("t", None, None)

    def last(session: str, n: int = 2) -> list[str]:
        return [m.id for m in log if m.session == session][-n:]

    with monkeypatch.context() as patched:
        _broken_log(patched, store)
        found = store.backend.last_messages("t", ["s1", "s2", "s3", "s9"], 2)
        assert {s: [m.id for m in held] for s, held in found.items()} == {
            "s1": last("s1"),
            "s2": last("s2"),
            "s3": last("s3"),
        }
        assert [m.id for m in store.backend.messages("t", "s2", 1)] == last("s2", 1)
        assert store.backend.messages("t", "s9", 2) == []
    store.delete_messages("t", ids=[last("s2")[-1]])
    assert [m.id for m in store.backend.messages("t", "s2", 2)] == ["b0", "b2"]
    store.delete_messages("t", session="s1")
    assert store.backend.last_messages("t", ["s1"], 2) == {}
    store.add_message("again", namespace="t", id="c0", session="s1")
    with monkeypatch.context() as patched:
        _broken_log(patched, store)
        assert [m.id for m in store.backend.messages("t", "s1", 2)] == ["c0"]


def test_a_namespace_written_before_session_tails_reads_the_log(store: MemoryStore) -> None:
    """A namespace created before sessions had tails has none: its sessions' last messages
    come from the message log."""
    store.add_message("a", namespace="old", id="a", session="s1")
    inner: Any = getattr(store.backend, "inner", store.backend)
    inner._write("MATCH (n:Namespace {name: 'old'}) SET n.session_tails = NULL", {})
    inner._write("MATCH (s:SessionTail) DELETE s", {})
    store.add_message("b", namespace="old", id="b", session="s1")
    store.add_message("c", namespace="old", id="c", session="s2")
    held = store.backend.last_messages("old", ["s1", "s2"], 2)
    assert {s: [m.id for m in ms] for s, ms in held.items()} == {"s1": ["a", "b"], "s2": ["c"]}
