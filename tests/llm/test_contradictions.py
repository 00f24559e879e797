"""Contradiction checks through the real `openai` client against a local fake server."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bitemporal_core import BackendError, Basis, MemoryStore, OpenAIChat
from bitemporal_core.services.llm_tasks import CONTRADICTION_PROMPT, contradictions

from .fake_openai import fake_openai_server

openai = pytest.importorskip("openai")

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


@pytest.fixture
def server() -> Iterator[Any]:
    with fake_openai_server() as s:
        yield s


@pytest.fixture
def client(server: Any) -> Iterator[Any]:
    port = server.server_address[1]
    c = openai.OpenAI(
        base_url=f"http://127.0.0.1:{port}/v1", api_key="sk-test-secret", max_retries=0
    )
    yield c
    c.close()


def test_a_contradiction_supersedes_only_what_shares_concepts(
    store: MemoryStore, client: Any, server: Any
) -> None:
    llm_store = MemoryStore(store.backend, llm=client, resolver=None, owns_backend=False)
    like = llm_store.remember("I enjoy eating apples.", namespace="a", at=T0)[0]
    chess = llm_store.remember("My brother plays chess.", namespace="a", at=T0)[0]
    allergy = llm_store.remember(
        "I am allergic to apples.", namespace="a", at=T0 + timedelta(days=1)
    )[0]
    assert allergy.supersedes == like.id
    now = Basis(valid_at=T0 + timedelta(days=2), known_at=T0 + timedelta(days=2))
    assert {f.text for f in llm_store.snapshot("a", basis=now)} == {
        "I am allergic to apples.",
        "My brother plays chess.",
    }
    before = Basis(valid_at=T0 + timedelta(hours=1), known_at=now.known_at)
    assert "I enjoy eating apples." in {f.text for f in llm_store.snapshot("a", basis=before)}
    assert store.history(like.id).superseded_by == (allergy.id,)
    assert len(store.history(chess.id)) == 1
    asked = [
        r["messages"][1]["content"]
        for r in server.requests
        if r["messages"][0]["content"] == CONTRADICTION_PROMPT
    ]
    assert any("I enjoy eating apples." in a for a in asked)
    assert not any("chess" in a for a in asked), "only facts sharing concepts are checked"
    assert "llm=openai:" in llm_store.describe()


def test_without_an_llm_nothing_is_superseded(store: MemoryStore) -> None:
    plain = MemoryStore(store.backend, resolver=None, owns_backend=False)
    plain.remember("I enjoy eating apples.", namespace="a", at=T0)
    plain.remember("I am allergic to apples.", namespace="a", at=T0 + timedelta(days=1))
    assert len(plain.snapshot("a")) == 2


def test_a_failing_llm_is_a_clear_error_and_writes_nothing(
    store: MemoryStore, client: Any, server: Any
) -> None:
    llm_store = MemoryStore(store.backend, llm=client, resolver=None, owns_backend=False)
    llm_store.remember("I enjoy eating apples.", namespace="a", at=T0)
    server.fail = True
    with pytest.raises(BackendError) as info:
        llm_store.remember("I am allergic to apples.", namespace="a", at=T0 + timedelta(1))
    assert "sk-test-secret" not in str(info.value)
    assert [f.text for f in llm_store.snapshot("a")] == ["I enjoy eating apples."]


def test_unparseable_answers_replace_nothing(store: MemoryStore) -> None:
    class Garbage:
        name = "garbage"

        def complete(self, system: str, user: str) -> str:
            return "I think number 1, maybe"

    fact = store.remember("I enjoy eating apples.", namespace="a", at=T0)[0]
    assert contradictions(Garbage(), "I am allergic to apples.", [fact]) == []
    assert repr(OpenAIChat(object.__new__(type("C", (), {"chat": None})))).startswith("OpenAIChat")
