"""Fixtures of the reliability tier: `store` on each engine, plain and sealed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bitemporal_core import MemoryStore
from bitemporal_core.language.extract import ConceptExtractor

from .._stores import store_plain_and_sealed

__all__ = ["lb", "store_plain_and_sealed"]


@pytest.fixture
def lb(extractor: ConceptExtractor) -> Iterator[MemoryStore]:
    """A fresh in-memory embedded store, for checks that happen before any engine is reached."""
    store = MemoryStore.embedded(None, extractor=extractor)
    yield store
    store.close()
