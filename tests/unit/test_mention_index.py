"""The embedded engine's newest-first mention index (the database stays the judge of visibility)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bitemporal_core._time import END_OF_TIME
from bitemporal_core.backends._ladybug_mentions import MentionIndex

T0 = datetime(2024, 3, 1, tzinfo=UTC)


def h(n: float) -> datetime:
    return T0 + timedelta(hours=n)


def test_newest_first_within_the_basis_times() -> None:
    index = MentionIndex()
    mentions = index.load("c", [("v1", h(1), h(1), END_OF_TIME), ("v3", h(3), h(3), h(4))])
    index.add("c", "v2", h(2), h(5), END_OF_TIME)  # recorded later, valid earlier
    index.add("c", "v0", h(0), h(6), END_OF_TIME)
    index.add("c", "v0", h(0), h(6), END_OF_TIME)  # the same mention twice is kept once
    assert list(mentions.newest(h(10), h(10))) == ["v2", "v1", "v0"]  # v3 ended at h(4)
    assert list(mentions.newest(h(3.5), h(10))) == ["v3", "v2", "v1", "v0"]
    assert list(mentions.newest(h(3.5), h(3.5))) == ["v3", "v1"]  # v2, v0 not yet known
    assert list(mentions.newest(h(0.5), h(10))) == ["v0"]


def test_unloaded_concepts_are_read_on_first_use_and_the_lru_is_bounded() -> None:
    index = MentionIndex(entries_max=3)
    index.add("x", "v9", h(0), h(0), END_OF_TIME)  # not loaded: nothing to extend
    assert index.get("x") is None
    index.load("a", [("a1", h(0), h(0), END_OF_TIME), ("a2", h(1), h(1), END_OF_TIME)])
    index.load("b", [("b1", h(0), h(0), END_OF_TIME), ("b2", h(1), h(1), END_OF_TIME)])
    assert index.get("a") is None and index.get("b") is not None  # "a" dropped (LRU)
    index.clear()
    assert index.get("b") is None
