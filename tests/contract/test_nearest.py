"""The nearest-fact rule of memory formation, with a real small embedding model (offline int8
MiniLM), on every engine: a statement that says something changed retires the current fact of
the same subject nearest to it when no slot or topic rule found what it replaces."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import Formation, MemoryStore
from bitemporal_core.providers.embeddings import Embedder, MiniLMEmbedder

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)
OTHERS = ("My brother plays chess on Sundays.", "The train to Lyon leaves at noon.")


@pytest.fixture(scope="session")
def minilm() -> Embedder:
    pytest.importorskip("onnxruntime")
    return MiniLMEmbedder()


def with_vectors(store: MemoryStore, embedder: Embedder | None, **options: object) -> MemoryStore:
    return MemoryStore(
        store.backend, embedder=embedder, resolver=None, owns_backend=False, **options
    )


def story(store: MemoryStore, old: str, new: str) -> tuple[str, str]:
    """`old`, two unrelated statements, then `new` a day later: the two facts' ids."""
    first = store.remember(old, namespace="n", at=T0)[0].id
    for i, text in enumerate(OTHERS):
        store.remember(text, namespace="n", at=T0 + timedelta(hours=i + 1))
    facts = store.remember(new, namespace="n", at=T0 + timedelta(days=1))
    return first, facts[0].id if facts else ""


def current(store: MemoryStore) -> set[str]:
    return {f.text for f in store.snapshot("n")}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "I wear glasses all day at work.",
            "A month in on daily contact lenses now, and I love them.",
        ),
        (
            "I'm on five coffees a day.",
            "I've cut right back now, one cup before eleven and that's it.",
        ),
        ("I sing in a community choir.", "I've switched to a barbershop quartet now."),
    ],
    ids=["glasses", "coffee", "choir"],
)
def test_a_change_naming_nothing_the_old_fact_names_retires_the_nearest(
    store: MemoryStore, minilm: Embedder, old: str, new: str
) -> None:
    plain = MemoryStore(store.backend, resolver=None, owns_backend=False)
    story(plain, old, new)
    assert old in current(plain), "the slot and topic rules alone see no update here"
    plain.forget(namespace="n")
    s = with_vectors(store, minilm)
    first, later = story(s, old, new)
    assert old not in current(s) and new in current(s) and set(OTHERS) <= current(s)
    (change,) = s.history(first).changes
    assert change.reason.startswith("rule:nearest ") and 0.3 <= change.confidence <= 1
    assert s.history(first).versions[0].text == old  # kept in history
    s.undo_update(later)
    assert old in current(s)


@pytest.mark.parametrize(
    "new",
    [
        "My sister has switched to the viola now.",  # someone else's change
        "I've also picked up the viola now.",  # an addition
        "I'd love to switch to the viola one day.",  # a wish
    ],
    ids=["other-subject", "addition", "wish"],
)
def test_what_is_not_a_change_of_the_speakers_fact_retires_nothing(
    store: MemoryStore, minilm: Embedder, new: str
) -> None:
    s = with_vectors(store, minilm)
    story(s, "I play the cello in a community orchestra.", new)
    assert "I play the cello in a community orchestra." in current(s)


def test_a_change_with_nothing_near_retires_nothing(store: MemoryStore, minilm: Embedder) -> None:
    s = with_vectors(store, minilm)
    story(s, "I play the cello in a community orchestra.", "I've switched dentists now.")
    assert current(s) >= {"I play the cello in a community orchestra.", *OTHERS}


def test_the_rule_is_off_with_nearest_none(store: MemoryStore, minilm: Embedder) -> None:
    s = with_vectors(store, minilm, formation=Formation(nearest=None))
    story(s, "I sing in a community choir.", "I've switched to a barbershop quartet now.")
    assert "I sing in a community choir." in current(s)
    assert "nearest" not in s.describe()
    assert (
        "formation=keep:memories,updates:auto,nearest:0.3" in with_vectors(store, minilm).describe()
    )


def test_when_the_nearest_is_an_event_nothing_is_retired(
    store: MemoryStore, minilm: Embedder
) -> None:
    """Only the nearest fact counts, and an event (or a remark: `_remark`) is
    no state a change replaces: reaching past it for a farther fact retired the wrong one
    too often in long conversations."""
    old = "I'm on five coffees a day."
    nearer = "I had three coffees before lunch yesterday."
    new = "I've cut right back now, one cup before eleven and that's it."
    s = with_vectors(store, minilm)
    for i, text in enumerate((old, nearer)):
        s.remember(text, namespace="n", at=T0 + timedelta(hours=i))
    s.remember(new, namespace="n", at=T0 + timedelta(days=1))
    assert {old, nearer, new} <= current(s)
