"""Replaying lines a day apart and reading what is true after them: the helpers of the
formation tests (`test_formation_*`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bitemporal_core import Basis, MemoryStore

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


def texts(store: MemoryStore, ns: str, *, days: float = 100) -> set[str]:
    """The texts of the facts true and known `days` after `T0`."""
    at = T0 + timedelta(days=days)
    return {f.text for f in store.snapshot(ns, basis=Basis(valid_at=at, known_at=at))}


def say(store: MemoryStore, ns: str, *lines: str) -> None:
    """Remember each line a day after the one before, from `T0`."""
    for i, line in enumerate(lines):
        store.remember(line, namespace=ns, at=T0 + timedelta(days=i))


def still_true(store: MemoryStore, old: str, new: str) -> tuple[bool, set[str]]:
    """Say `old` then `new` in a fresh namespace: whether `old` is still true, and what is."""
    say(store, "u", old, new)
    current = texts(store, "u")
    return old in current, current
