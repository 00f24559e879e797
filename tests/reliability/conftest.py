"""Fixtures of the reliability tier (the engine-parametrized `store` comes from tests/)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bitemporal_core import MemoryStore
from bitemporal_core.language.extract import ConceptExtractor


@pytest.fixture
def lb(extractor: ConceptExtractor) -> Iterator[MemoryStore]:
    """A fresh in-memory embedded store, for checks that happen before any engine is reached."""
    store = MemoryStore.embedded(None, extractor=extractor)
    yield store
    store.close()
