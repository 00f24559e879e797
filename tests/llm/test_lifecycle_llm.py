"""Lifecycle features with an LLM (the real openai client against the fake server)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bitemporal_core import Lifecycle, MemoryStore
from bitemporal_core.services.llm_tasks import ABSTRACT_PROMPT, KIND_PROMPT, RELATIONS_PROMPT

from .fake_openai import fake_openai_server

openai = pytest.importorskip("openai")

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


@pytest.fixture
def served(store: MemoryStore) -> Iterator[tuple[MemoryStore, Any]]:
    with fake_openai_server() as server:
        client = openai.OpenAI(
            base_url=f"http://127.0.0.1:{server.server_address[1]}/v1", api_key="x", max_retries=0
        )
        yield MemoryStore(store.backend, llm=client, resolver=None, owns_backend=False), server
        client.close()


def _asked(server: Any, prompt: str) -> list[str]:
    return [
        r["messages"][1]["content"]
        for r in server.requests
        if r["messages"][0]["content"] == prompt
    ]


def test_the_llm_classifies_kinds_unless_one_is_given(served: tuple[MemoryStore, Any]) -> None:
    llm_store, server = served
    # the fake answers "event" where the offline rules would say "said"
    (plain,) = llm_store.remember("The sky is grey.", namespace="a", at=T0)
    (liked,) = llm_store.remember("I love rain.", namespace="a", at=T0 + timedelta(hours=1))
    (given,) = llm_store.remember(
        "It rains.", namespace="a", at=T0 + timedelta(hours=2), kind="said"
    )
    assert (plain.kind, liked.kind, given.kind) == ("event", "preference", "said")
    assert len(_asked(server, KIND_PROMPT)) == 2, "an explicit kind asks nothing"
    batch = llm_store.remember_many(["Tomorrow I fly.", "I think so."], namespace="a")
    assert [f[0].kind for f in batch] == ["plan", "belief"]
    assert "1. Tomorrow I fly.\n2. I think so." in _asked(server, KIND_PROMPT)[-1]


def test_an_unusable_answer_falls_back_to_the_offline_rules(
    served: tuple[MemoryStore, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    llm_store, _ = served
    from . import fake_openai

    monkeypatch.setattr(fake_openai, "_kinds", lambda user: '{"kinds": ["gossip"]}')
    (fact,) = llm_store.remember("I love rain.", namespace="a", at=T0)
    assert fact.kind == "preference"


def test_the_llm_writes_abstractions_and_proposes_relations(
    served: tuple[MemoryStore, Any],
) -> None:
    llm_store, server = served
    for i, text in enumerate(
        ["Paris is in France.", "Paris has a tower.", "Paris hosts the Louvre."]
    ):
        llm_store.remember(text, namespace="a", at=T0 + timedelta(hours=i))
    (made,) = llm_store.abstract("a", at=T0 + timedelta(days=1))
    assert made.fact.text.startswith("About Paris: Paris is in France.; ")
    assert "TOPIC: Paris" in _asked(server, ABSTRACT_PROMPT)[0]
    found = llm_store.infer_relationships("a", at=T0 + timedelta(days=1))
    from_llm = [e for e in found if e.provenance == "llm:openai:gpt-4o-mini"]
    assert from_llm and all(e.type == "LINKED_TO" and e.confidence == 0.7 for e in from_llm)
    assert "CONCEPTS: " in _asked(server, RELATIONS_PROMPT)[0]
    assert llm_store.relationships("a") == []  # 0.7 is below the default floor (0.9)
    everything = MemoryStore(
        llm_store.backend,
        extractor=llm_store.services.analyser.extractor,
        lifecycle=Lifecycle(min_inferred_confidence=0.0),
        owns_backend=False,
    )
    stored = {(e.src, e.type, e.dst) for e in everything.relationships("a")}
    assert {(e.src, e.type, e.dst) for e in from_llm} <= stored


def test_malformed_relations_are_dropped(
    served: tuple[MemoryStore, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    llm_store, _ = served
    from . import fake_openai

    bad = (
        '{"relations": [["pari", "located in", "franc", 0.9], ["pari", "X", "nowhere", 0.9],'
        ' ["pari", "NEAR", "franc", 7], ["pari", "NEAR", "franc", 0.5]]}'
    )
    monkeypatch.setattr(fake_openai, "_relations", lambda user: bad)
    llm_store.remember("Paris is in France.", namespace="a", at=T0)
    found = llm_store.infer_relationships("a", min_strength=9, at=T0 + timedelta(days=1))
    assert [(e.src, e.type, e.dst, e.confidence) for e in found] == [("pari", "NEAR", "franc", 0.5)]
