"""Concept summaries every 3 mentions, stored bitemporally (through the real openai client)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import Basis, MemoryStore

from .fake_openai import fake_openai_server

openai = pytest.importorskip("openai")

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


@pytest.fixture
def llm_store(store: MemoryStore) -> Iterator[MemoryStore]:
    with fake_openai_server() as server:
        client = openai.OpenAI(
            base_url=f"http://127.0.0.1:{server.server_address[1]}/v1", api_key="x", max_retries=0
        )
        yield MemoryStore(store.backend, llm=client, resolver=None, owns_backend=False)
        client.close()


def at(hours: int) -> datetime:
    return T0 + timedelta(hours=hours)


def test_every_third_mention_writes_a_new_summary_version(llm_store: MemoryStore) -> None:
    texts = [
        "Coffee keeps Anna awake.",
        "Brandon roasts coffee.",
        "Coffee costs more now.",
        "Lisa sells coffee.",
        "Tom spills coffee.",
        "Coffee smells good.",
    ]
    for i, text in enumerate(texts):
        llm_store.remember(text, namespace="a", at=at(i))
    backend = llm_store.backend
    assert backend.summaries("a", ["coffe"], at(1)) == {}
    first = backend.summaries("a", ["coffe"], at(2))["coffe"]
    assert first == "Summary: Coffee; Brandon; Coffee"
    second = backend.summaries("a", ["coffe"], at(6))["coffe"]
    assert second.count(";") == 5 and second != first
    assert backend.summaries("a", ["coffe"], at(4)) == {"coffe": first}, "as known then"
    block = llm_store.context("coffee", namespace="a", basis=Basis(valid_at=at(7), known_at=at(7)))
    assert "Summaries of the concepts above" in block and "- coffe: " + second in block
    old = llm_store.context("coffee", namespace="a", basis=Basis(valid_at=at(3), known_at=at(3)))
    assert "- coffe: " + first in old


def test_forgetting_a_fact_drops_the_summaries_that_may_quote_it(llm_store: MemoryStore) -> None:
    facts = [
        llm_store.remember(f"Coffee note {w}.", namespace="a", at=at(i))[0]
        for i, w in enumerate(["alpha", "bravo", "zulu"])
    ]
    assert llm_store.backend.summaries("a", ["coffe"], at(5))
    llm_store.forget(fact=facts[2].id)
    assert llm_store.backend.summaries("a", ["coffe"], at(5)) == {}
    assert "zulu" not in str(llm_store.backend.raw_dump())  # type: ignore[attr-defined]
