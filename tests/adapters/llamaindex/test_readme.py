"""The README's LlamaIndex example runs as written and prints what its comments say."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ...conftest import ROOT


def examples() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## LlamaIndex" in text, "the README has a LlamaIndex section"
    section = text.split("## LlamaIndex", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the LlamaIndex section has a python block"
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


def test_llamaindex_example_runs_and_its_comments_hold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = example()
    scope: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), scope)
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    assert printed == expected_output(code)
    scope["store"].close()


def test_llamaindex_memory_example_runs_and_its_comments_hold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = examples()[1]
    assert "Memory.from_defaults" in code and "BitemporalDBChatStore" in code
    scope: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), scope)
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    assert printed == expected_output(code)
    assert sorted(f.text for f in scope["store"].snapshot("bob")) == [
        "I am allergic to apples.",
        "I play the piano.",
        "My sister Anna lives in Lyon.",
    ]
    scope["store"].close()
