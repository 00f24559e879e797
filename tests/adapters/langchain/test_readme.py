"""The README's LangChain example runs as written, and the model receives what it says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import BaseMessage

from ...conftest import ROOT


def examples() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    if "\n## LangChain\n" not in text:
        pytest.skip("README has no '## LangChain' section yet")
    section = text.split("\n## LangChain\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the LangChain section has a python block"
    return list(blocks)


def example() -> str:
    return examples()[0]


def expected_output(code: str) -> list[str]:
    """The comment lines that follow each `print(...)`, without their "# "."""
    out, printing = [], False
    for line in code.splitlines():
        if line.startswith("print("):
            printing = True
        elif printing and line.startswith("#"):
            out.append(line[2:])
        else:
            printing = False
    return out


def test_langgraph_store_example_runs_and_its_comments_hold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = examples()[1]
    assert "BitemporalStore" in code
    scope: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), scope)
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    assert printed == expected_output(code)


def test_langchain_example_runs_and_its_comments_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = example()
    received: list[list[BaseMessage]] = []
    generate = FakeMessagesListChatModel._generate

    def recording(self: FakeMessagesListChatModel, messages: list[BaseMessage], *a: Any, **kw: Any):
        received.append(list(messages))
        return generate(self, messages, *a, **kw)

    monkeypatch.setattr(FakeMessagesListChatModel, "_generate", recording)
    monkeypatch.chdir(tmp_path)
    scope: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), scope)
    assert len(received) == 3
    assert received[2][0].content == (
        "You are a helpful assistant.\n\nMemories (each true during the period shown; most"
        " recent last):\n- [since 2024-06-12] Big news: I moved to Berlin for a new job."
        " (user, event, said 2024-06-12)"
    )
    printed = capsys.readouterr().out.splitlines()
    assert printed == [
        "['human', 'ai', 'human', 'ai', 'human', 'ai']",
        "rule:slot:residence 'move to {v}'",
        "I live in Lyon with my partner. 2024-05-01T09:00:00+00:00 -> 2024-06-12T09:00:00+00:00",
    ]
    scope["store"].close()
