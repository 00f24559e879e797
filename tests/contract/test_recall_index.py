"""The embedded engine's recall index, changed write by write, answers as one read afresh.

LadybugDB's recall reads come from an in-process read model (`_ladybug_index`) that each
committed write updates with the rows it stored. After every step of a mixed history of writes
(remember, bulk import, correct, supersede, retract, abstract, prune, inference, forget), each
recall (several questions, bases, kind filters, archived or not, with embeddings) must return
exactly what the same recall returns once the index is dropped and read from the database.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bitemporal_core import Basis, Lifecycle, MemoryStore
from bitemporal_core.language.extract.terms import stem
from bitemporal_core.providers.embeddings import CallableEmbedder

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
WORDS = [
    "apples",
    "pears",
    "chess",
    "Lyon",
    "train",
    "brother",
    "sister",
    "piano",
    "guitar",
    "flute",
    "garden",
    "tomatoes",
    "Berlin",
    "Paris",
    "job",
    "bank",
    "coffee",
    "tea",
    "dog",
    "cat",
    "hiking",
    "skiing",
    "novel",
    "budget",
    "project",
    "Monday",
]
QUESTIONS = (
    "What does my brother play?",
    "Where does the train to Lyon go?",
    "Which fruit do I like, apples or pears?",
    "Tell me about the garden and the tomatoes.",
    "What happened with the project budget on Monday?",
)


def _embed(texts: list[str]) -> list[list[float]]:
    """A small deterministic bag-of-words embedding (32 dimensions, hashed words)."""
    out = []
    for text in texts:
        vector = [0.0] * 32
        for word in text.lower().split():
            digest = hashlib.sha256(word.strip(".,?!").encode()).digest()
            vector[digest[0] % 32] += 1.0 if digest[1] % 2 else -1.0
        vector[0] += 0.01  # never the zero vector
        out.append(vector)
    return out


def _sentence(rng: random.Random) -> str:
    a, b, c = rng.sample(WORDS, 3)
    return rng.choice(
        (
            f"My {a} likes the {b} near {c}.",
            f"I want to visit {a} with the {b}.",
            f"Yesterday the {a} and the {b} talked about {c}.",
            f"I prefer {a} to {b}.",
            f"We plan to buy a {a} next week.",
        )
    )


def _answers(store: MemoryStore, now: datetime) -> list[object]:
    bases = (
        Basis(valid_at=now, known_at=now),
        Basis(valid_at=T0 + timedelta(hours=5), known_at=now),
        Basis(valid_at=T0 + timedelta(hours=5), known_at=T0 + timedelta(hours=6)),
    )
    out: list[object] = []
    for question in QUESTIONS:
        for basis in bases:
            for options in ({}, {"kinds": ["preference", "plan"]}, {"include_archived": True}):
                hits = store.recall(question, namespace="n", basis=basis, k=12, **options)
                out.append([(h.fact.version_id, round(h.score, 9), h.sources) for h in hits])
    nodes, edges = store.concept_graph([stem(w) for w in WORDS], namespace="n", hops=1)
    out.append([(n.key, n.display, n.t_index) for n in nodes])
    out.append([(e.src, e.dst, e.strength, e.t_index) for e in edges])
    return out


def _check(store: MemoryStore, now: datetime) -> None:
    live = _answers(store, now)
    store.backend._index.clear()  # type: ignore[attr-defined]
    assert _answers(store, now) == live


@pytest.mark.parametrize("seed", range(3))
def test_incremental_index_answers_as_a_fresh_read(seed: int) -> None:
    rng = random.Random(seed)
    embedder = CallableEmbedder(_embed, name="bag-of-words", dim=32)
    store = MemoryStore.embedded(
        None,
        embedder=embedder,
        lifecycle=Lifecycle(inferred_weight=0.5, min_inferred_confidence=0.0),
    )
    at = T0
    facts: list[str] = []

    def tick() -> datetime:
        nonlocal at
        at += timedelta(minutes=rng.randint(1, 90))
        return at

    steps: list[Callable[[], object]] = [
        lambda: facts.extend(
            f.id for f in store.remember(_sentence(rng), namespace="n", at=tick())
        ),
        lambda: facts.extend(
            f.id
            for group in store.remember_many(
                [{"text": _sentence(rng), "at": tick()} for _ in range(6)], namespace="n"
            )
            for f in group
        ),
        lambda: facts and store.correct(rng.choice(facts), text=_sentence(rng), at=tick()),
        lambda: facts and store.supersede(rng.choice(facts), _sentence(rng), at=tick()),
        lambda: facts and store.retract(rng.choice(facts), at=tick()),
        lambda: store.abstract("n", min_facts=2, at=tick()),
        lambda: store.infer_relationships("n", min_strength=1, min_shared=1, at=tick()),
        lambda: store.prune("n", min_weight=0.9, half_life=timedelta(hours=3), at=tick()),
        lambda: facts and store.forget(fact=facts.pop(rng.randrange(len(facts)))),
    ]
    try:
        for _ in range(4):
            steps[1]()
        _check(store, at)
        for _ in range(14):
            try:
                rng.choice(steps)()
            except Exception as e:  # a fact already closed by an earlier step
                if type(e).__name__ not in ("NotCurrent", "UnknownFact"):
                    raise
            _answers(store, at)  # recall between writes: the index is held and updated
            _check(store, at)
    finally:
        store.close()


def test_saved_index_answers_as_a_fresh_read_and_is_never_stale(tmp_path: Path) -> None:
    """`close` saves the recall index beside the file; the next process's first recall uses it
    and answers exactly as a read from the database; a write deletes it before it happens, and
    a file whose namespace moved on since it was saved is ignored (and deleted)."""
    rng = random.Random(7)
    path = tmp_path / "mem.lbdb"
    embedder = CallableEmbedder(_embed, name="bag-of-words", dim=32)
    at = T0

    def open_store() -> MemoryStore:
        return MemoryStore.embedded(path, embedder=embedder)

    def write(store: MemoryStore) -> None:
        nonlocal at
        items = []
        for _ in range(20):
            at += timedelta(minutes=rng.randint(1, 90))
            items.append({"text": _sentence(rng), "at": at})
        store.remember_many(items, namespace="n")

    store = open_store()
    write(store)
    expected = _answers(store, at)
    store.close()
    saved = sorted((tmp_path / "mem.lbdb.recall").glob("*.idx"))
    assert len(saved) == 1

    store = open_store()  # a new process, as far as the index is concerned
    index: Any = store.backend._index  # type: ignore[attr-defined]
    assert _answers(store, at) == expected
    assert index.loads == 0  # the saved index was used, not a read of the database
    stale = saved[0].read_bytes()
    write(store)  # deletes the saved index before writing
    assert not saved[0].exists()
    moved = _answers(store, at)
    store.close()

    saved[0].write_bytes(stale)  # as if an old file survived a crash after later writes
    store = open_store()
    index = store.backend._index  # type: ignore[attr-defined]
    assert _answers(store, at) == moved
    assert index.loads == 1  # the stale file was ignored
    index.clear()
    assert _answers(store, at) == moved
    store.close()

    store = open_store()  # a write before any read: the saved embeddings are kept with it
    assert {p.suffix for p in (tmp_path / "mem.lbdb.recall").iterdir()} == {".idx", ".npz"}
    _ = store.recall("anything", namespace="n", k=1, mode="recallm")  # no vector search
    write(store)
    index = store.backend._index  # type: ignore[attr-defined]
    assert index.loads == 0
    after = _answers(store, at)
    index.clear()
    assert _answers(store, at) == after
    store.close()


def test_a_process_that_only_writes_leaves_a_saved_index(tmp_path: Path) -> None:
    """A bulk import into a new namespace, then a single `remember` in another process (as
    the command line makes them), each closed without a recall: the next process's first
    recall still finds a saved index and answers exactly as a read from the database."""
    rng = random.Random(11)
    path = tmp_path / "mem.lbdb"
    at = T0

    def items(n: int) -> list[dict[str, Any]]:
        nonlocal at
        out = []
        for _ in range(n):
            at += timedelta(minutes=rng.randint(1, 90))
            out.append({"text": _sentence(rng), "at": at})
        return out

    def first_recall() -> list[Any]:
        store = MemoryStore.embedded(path)
        index: Any = store.backend._index  # type: ignore[attr-defined]
        try:
            answers = _answers(store, at)
            assert index.loads == 0, "the saved index was used, not a read of the database"
            index.clear()
            assert _answers(store, at) == answers
            return answers
        finally:
            store.close()

    store = MemoryStore.embedded(path)
    store.remember_many(items(30), namespace="n")
    store.close()
    assert len(list((tmp_path / "mem.lbdb.recall").glob("*.idx"))) == 1
    before = first_recall()
    store = MemoryStore.embedded(path)
    (said,) = items(1)
    store.remember(said["text"], at=said["at"], namespace="n", source="m-1")
    store.close()
    assert first_recall() != before  # the new statement is among the answers


def test_an_import_into_many_namespaces_holds_a_bounded_index(tmp_path: Path) -> None:
    """Indexes held only because they were written are bounded (`written_max` versions): the
    oldest are saved and let go, so an import into many namespaces neither grows the process
    nor leaves a namespace for its first recall to read from the database."""
    rng = random.Random(5)
    path = tmp_path / "mem.lbdb"
    store = MemoryStore.embedded(path)
    index: Any = store.backend._index  # type: ignore[attr-defined]
    index._written_max = 10
    for n in range(4):
        store.remember_many(
            [{"text": _sentence(rng), "at": T0} for _ in range(8)], namespace=f"t{n}"
        )
    assert set(index._spaces) == {"t2", "t3"}  # 16 versions held: t0 and t1 saved, let go
    assert len(list((tmp_path / "mem.lbdb.recall").glob("*.idx"))) == 2
    store.close()
    store = MemoryStore.embedded(path)
    index = store.backend._index  # type: ignore[attr-defined]
    for n in range(4):
        assert store.recall("anything at all", namespace=f"t{n}", k=3) is not None
    assert index.loads == 0
    store.close()
