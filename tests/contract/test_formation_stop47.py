"""Memory formation on every engine, stop 47's rules (docs/design.md, "Memory formation"):
a statement said with a question mark, a slot's own word opening a clause, being together,
a favourite named before its phrasing, an ending used as an adjective."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import Basis, MemoryStore

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


def _texts(store: MemoryStore, ns: str, *, days: float = 100) -> set[str]:
    at = T0 + timedelta(days=days)
    return {f.text for f in store.snapshot(ns, basis=Basis(valid_at=at, known_at=at))}


def _say(store: MemoryStore, ns: str, *lines: str) -> None:
    for i, line in enumerate(lines):
        store.remember(line, namespace=ns, at=T0 + timedelta(days=i))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a statement said with a question mark is one, and a later diet replaces it
        ("i've been veggie since first year of uni so like 9 years?", "i'm eating fish again."),
        # "gym is ..." is the speaker's gym, which cancelling it ends
        ("gym is the puregym on london road", "cancelled puregym this morning."),
        ("dev and i have been together for three years", "dev and i ended things."),
        ("the secret history is my favourite book", "the goldfinch is my favourite book now"),
    ],
)
def test_stop_47_a_later_statement_of_the_same_thing_retires_the_earlier(
    store: MemoryStore, old: str, new: str
) -> None:
    _say(store, "u", old, new)
    assert _texts(store, "u", days=0.5) == {old}  # a fact until the later one
    assert _texts(store, "u") == {new}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I work at Tesco.", "thursdays are chess club, it's mostly retired men and me lol"),
        ("so would I have to move to leeds?", "I live in York."),  # a question is no fact
    ],
)
def test_stop_47_a_statement_of_another_thing_leaves_the_first(
    store: MemoryStore, old: str, new: str
) -> None:
    _say(store, "a", old, new)
    expected = {new} if old.endswith("?") else {old, new}
    assert _texts(store, "a") == expected
