"""Updates decided by an LLM through the real `openai` client against a local fake server, and
the offline rules taking over when it fails."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bitemporal_core import Basis, Formation, MemoryStore, OpenAIChat
from bitemporal_core.services.llm_tasks import UPDATE_PROMPT, decide_updates

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


def _asked(server: Any) -> list[str]:
    return [
        r["messages"][1]["content"]
        for r in server.requests
        if r["messages"][0]["content"] == UPDATE_PROMPT
    ]


def test_the_llm_decides_among_candidates_sharing_the_statements_words(
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
    history = store.history(like.id)
    assert history.superseded_by == (allergy.id,)
    assert history.changes[0].reason.startswith("llm:openai:")
    assert len(store.history(chess.id)) == 1
    asked = _asked(server)
    assert any("I enjoy eating apples." in a for a in asked)
    assert not any("chess" in a for a in asked), "only related facts are candidates"
    assert "llm=openai:" in llm_store.describe()


def test_the_llm_judges_what_is_worth_remembering(
    store: MemoryStore, client: Any, server: Any
) -> None:
    llm_store = MemoryStore(store.backend, llm=client, resolver=None, owns_backend=False)
    assert llm_store.remember("Where do I live", namespace="w", at=T0) != []  # no "?": rules
    assert llm_store.remember("Is it sunny today?", namespace="w", at=T0 + timedelta(1)) == []
    assert [m.text for m in store.messages("w")][-1] == "Is it sunny today?"


def test_without_an_llm_the_offline_rules_decide(store: MemoryStore) -> None:
    plain = MemoryStore(store.backend, resolver=None, owns_backend=False)
    plain.remember("I enjoy eating apples.", namespace="a", at=T0)
    plain.remember("I am allergic to apples.", namespace="a", at=T0 + timedelta(days=1))
    assert len(plain.snapshot("a")) == 2, "a liking and an allergy fill different slots"
    plain.remember("I live in Lyon.", namespace="a", at=T0 + timedelta(days=2))
    berlin = plain.remember("I moved to Berlin.", namespace="a", at=T0 + timedelta(days=3))[0]
    assert "I live in Lyon." not in {f.text for f in plain.snapshot("a")}
    assert berlin.supersedes is not None


def test_a_failing_llm_falls_back_to_the_offline_rules(
    store: MemoryStore, client: Any, server: Any
) -> None:
    llm_store = MemoryStore(store.backend, llm=client, resolver=None, owns_backend=False)
    lyon = llm_store.remember("I live in Lyon.", namespace="a", at=T0)[0]
    server.fail = True
    berlin = llm_store.remember("I moved to Berlin.", namespace="a", at=T0 + timedelta(1))[0]
    assert berlin.supersedes == lyon.id
    reason = store.history(lyon.id).changes[0].reason
    assert reason.startswith("rule:slot:residence"), "the offline rules decided"
    assert "sk-test-secret" not in reason


def test_an_unreachable_or_slow_llm_never_blocks_remember(store: MemoryStore) -> None:
    dead = openai.OpenAI(base_url="http://127.0.0.1:9/v1", api_key="sk-x", max_retries=0)

    class Slow:
        name = "slow"

        def complete(self, system: str, user: str) -> str:
            import time

            time.sleep(5)
            return "{}"

    try:
        for llm in (dead, Slow()):
            s = MemoryStore(
                store.backend,
                llm=llm,
                resolver=None,
                formation=Formation(llm_timeout=0.5),
                owns_backend=False,
            )
            ns = "dead" if llm is dead else "slow"
            s.remember("I live in Lyon.", namespace=ns, at=T0)
            started = datetime.now(UTC)
            berlin = s.remember("I moved to Berlin.", namespace=ns, at=T0 + timedelta(1))[0]
            assert berlin.supersedes is not None
            assert datetime.now(UTC) - started < timedelta(seconds=4)
            s.close()
    finally:
        dead.close()


@pytest.mark.parametrize(
    "answer",
    [
        "I think number 1, maybe",
        '{"actions": [{"fact": 7, "action": "update"}]}',
        '{"actions": [{"fact": 1, "action": "explode"}]}',
        '{"actions": "all"}',
    ],
)
def test_unusable_answers_leave_the_decision_to_the_rules(store: MemoryStore, answer: str) -> None:
    class Garbage:
        name = "garbage"

        def complete(self, system: str, user: str) -> str:
            return answer

    fact = store.remember("I enjoy eating apples.", namespace="a", at=T0)[0]
    assert decide_updates(Garbage(), "I am allergic to apples.", [fact]) is None
    assert repr(OpenAIChat(object.__new__(type("C", (), {"chat": None})))).startswith("OpenAIChat")


def test_every_fact_the_llm_names_is_handled(store: MemoryStore) -> None:
    class Both:
        name = "both"

        def complete(self, system: str, user: str) -> str:
            if "worth remembering" in system:
                return '{"memory": [true]}'
            if '"actions"' in system:
                return (
                    '{"actions": [{"fact": 1, "action": "update"},'
                    ' {"fact": 2, "action": "delete"}]}'
                )
            return "{}"

    s = MemoryStore(store.backend, llm=Both(), resolver=None, owns_backend=False)
    old = s.remember("I work at Finch Labs in Leeds.", namespace="b", at=T0)[0]
    other = s.remember("My office at Finch Labs is on Leeds Road.", namespace="b", at=T0)[0]
    new = s.remember(
        "I left Finch Labs and work at Corvid Health now.", namespace="b", at=T0 + timedelta(1)
    )[0]
    assert {c.replaced for c in store.history(new.id).changes} == {old.id, other.id}
