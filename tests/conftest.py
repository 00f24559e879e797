"""Shared fixtures: a store per engine (LadybugDB always; Neo4j when a server is reachable)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bitemporal_core import MemoryStore
from bitemporal_core.language.extract import ConceptExtractor, default_extractor

ROOT = Path(__file__).resolve().parent.parent


def _origin() -> list[Path]:
    """The checkout this clone was cloned from, when that is a local folder (a clean clone
    in a temporary folder finds shared/ beside its origin)."""
    try:
        url = subprocess.run(
            ["git", "-C", str(ROOT), "config", "--get", "remote.origin.url"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:
        return []
    origin = Path(url) if url and "://" not in url and ":" not in url.split("/")[0] else None
    return [origin.resolve().parent] if origin is not None and origin.is_dir() else []


# shared/ beside the clone (or $BITEMPORAL_SHARED); a git worktree (wt/NAME) finds it one
# folder further up; a clean clone elsewhere, beside the checkout it was cloned from.
_PLACES = [ROOT.parent, ROOT.parent.parent]
SHARED = next(
    (
        p
        for p in (
            *(
                [Path(os.environ["BITEMPORAL_SHARED"])]
                if os.environ.get("BITEMPORAL_SHARED")
                else []
            ),
            *(place / "shared" for place in [*_PLACES, *_origin()]),
        )
        if p.is_dir()
    ),
    ROOT.parent / "shared",
)

ENGINES = ["ladybug", "neo4j"]
# The engines of the contract and reliability tiers' `store`: each plain, and each sealed.
STORES = [*ENGINES, "ladybug-sealed", "neo4j-sealed"]


@pytest.fixture(scope="session")
def extractor() -> ConceptExtractor:
    """One loaded extractor for the whole run (spaCy when its model is installed)."""
    return default_extractor()


def neo4j_settings() -> tuple[str, str, str]:
    return (
        os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687"),
        os.environ.get("NEO4J_USER", "neo4j"),
        os.environ.get("NEO4J_PASSWORD", "bitemporal-test"),
    )


@pytest.fixture(scope="session")
def neo4j_driver() -> Iterator[object]:
    """A driver to the test server; skips (or fails under CI=true) when none answers."""
    neo4j = pytest.importorskip("neo4j")
    uri, user, password = neo4j_settings()
    driver = neo4j.GraphDatabase.driver(uri, auth=(user, password))
    try:
        driver.verify_connectivity()
    except Exception as e:  # any failure to reach the server means "no server"
        driver.close()
        if os.environ.get("CI") == "true":
            pytest.fail(f"Neo4j at {uri} is not reachable under CI: {e}")
        pytest.skip(f"no Neo4j server at {uri} (run `make neo4j` or set NEO4J_URI)")
    yield driver
    driver.close()


def _wipe(driver: object) -> None:
    """Empty the test database (a managed transaction, so transient errors are retried)."""
    with driver.session() as session:  # type: ignore[attr-defined]
        # Indexes stay: one vector index per dimension, so whatever dimensions an earlier
        # run (or another test) used on this server, the next test's writes are accepted.
        session.execute_write(lambda tx: tx.run("MATCH (n) DETACH DELETE n").consume())


def is_sealed(store: MemoryStore) -> bool:
    """Whether the store's engine holds its namespaces' strings sealed (raw reads see none)."""
    return store.backend is not getattr(store.backend, "inner", store.backend)


def open_store(
    request: pytest.FixtureRequest, extractor: ConceptExtractor, tmp_path: Path
) -> MemoryStore:
    """A fresh, empty store for `request.param`: an engine, or "<engine>-sealed" for the same
    engine with its namespaces sealed (keys in a fresh folder)."""
    engine, _, sealed = str(request.param).partition("-")
    keys = tmp_path / "keys" if sealed else None
    if engine == "ladybug":
        return MemoryStore.embedded(None, extractor=extractor, keys=keys)
    request.applymarker(pytest.mark.neo4j)
    driver = request.getfixturevalue("neo4j_driver")
    _wipe(driver)
    return MemoryStore.neo4j(driver=driver, extractor=extractor, keys=keys)


@pytest.fixture(params=ENGINES)
def store(
    request: pytest.FixtureRequest, extractor: ConceptExtractor, tmp_path: Path
) -> Iterator[MemoryStore]:
    """A fresh, empty store on each engine (tests/contract and tests/reliability also run
    each test on each engine sealed: their `store` takes `STORES`)."""
    s = open_store(request, extractor, tmp_path)
    try:
        yield s
    finally:
        s.close()
