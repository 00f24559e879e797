"""The `store` fixture of the contract and reliability tiers: each engine, plain and sealed
(each tier's conftest imports it, which makes it that tier's `store`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bitemporal_core import MemoryStore
from bitemporal_core.language.extract import ConceptExtractor

from .conftest import STORES, open_store


@pytest.fixture(params=STORES, name="store")
def store_plain_and_sealed(
    request: pytest.FixtureRequest, extractor: ConceptExtractor, tmp_path: Path
) -> Iterator[MemoryStore]:
    """A fresh, empty store on each engine, plain and with its namespaces sealed."""
    s = open_store(request, extractor, tmp_path)
    try:
        yield s
    finally:
        s.close()
