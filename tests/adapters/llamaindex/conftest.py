"""Fixtures for the LlamaIndex adapter tests: the apples example, and a clean event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from bitemporal_core import MemoryStore

NS = "alice"
LIKE = "I enjoy eating apples."
ALLERGY = "I am allergic to apples."
# The prompt lines of docs/design.md, "Prompt block", for the apples example.
LIKE_THEN = "- [2023-10-26 -> 2023-10-27] I enjoy eating apples. (preference, said 2023-10-26)"
LIKE_BELIEVED = "- [since 2023-10-26] I enjoy eating apples. (preference, said 2023-10-26)"
ALLERGY_NOW = "- [since 2023-10-27] I am allergic to apples. (said 2023-10-27)"


def t(s: str) -> datetime:
    """An aware UTC datetime from an ISO string without zone."""
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


ON_26 = t("2023-10-26T12:00")  # the like is valid, the allergy not yet
ON_28 = t("2023-10-28T00:00")


@pytest.fixture
def apples(store: MemoryStore) -> MemoryStore:
    """The store holding the design's apples example in namespace "alice"."""
    like = store.remember(LIKE, namespace=NS, at=t("2023-10-26T10:00"), valid_from=t("2023-10-26"))
    store.supersede(like[0].id, ALLERGY, at=t("2023-10-27T09:00"))
    return store


@pytest.fixture(autouse=True)
def own_event_loop() -> Iterator[None]:
    """A current event loop closed after the test.

    LlamaIndex's sync paths call `asyncio.get_event_loop()`, which otherwise creates a loop
    that is never closed (a ResourceWarning when some later test drops it).
    """
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        yield
    finally:
        asyncio.set_event_loop(None)
        loop.close()
