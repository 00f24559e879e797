"""The README's 5-minute tour runs as written, and says what it claims."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT


def tour() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## A 5-minute tour", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the tour has a python block"
    return match.group(1)


def test_readme_starts_with_the_two_commands() -> None:
    head = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:15]
    assert any(line.startswith("make demo") for line in head)
    assert any(line.startswith("make test") for line in head)


def test_tour_runs_and_its_comments_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    scope: dict[str, Any] = {}
    exec(compile(tour(), "README.md", "exec"), scope)
    store, t = scope["store"], scope["t"]
    assert scope["trip"].valid_from == datetime(2024, 6, 1, tzinfo=UTC)
    assert [h.fact.text for h in scope["now"]] == ["I am allergic to apples."]
    assert [h.fact.text for h in scope["then"]] == ["I enjoy eating apples."]
    assert [f.text for f in scope["believed"]] == ["I enjoy eating apples."]
    assert len(scope["versions"]) == 2
    printed = capsys.readouterr().out
    assert "- [since 2023-10-27] I am allergic to apples. (said 2023-10-27)" in printed
    assert store.namespaces() == []
    assert t("2023-10-26T00:00").tzinfo is UTC


def test_tenancy_example_runs_and_its_comments_hold() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Tenancy", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the Tenancy section has a python block"
    scope: dict[str, Any] = {}
    exec(compile(match.group(1), "README.md", "exec"), scope)
    store, lyon = scope["store"], scope["lyon"]
    assert scope["refused"] == f"no fact with id {lyon.id!r} in namespace 'alice'"
    assert store.history(lyon.id).current is not None
    assert store.namespaces() == ["bob"]
    store.close()


def test_chinese_example_runs_and_its_comments_hold() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Chinese", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the Chinese section has a python block"
    from bitemporal_core import MemoryStore

    scope: dict[str, Any] = {
        "MemoryStore": MemoryStore,
        "t": lambda s: datetime.fromisoformat(s).replace(tzinfo=UTC),
    }
    exec(compile(match.group(1), "README.md", "exec"), scope)
    trip = scope["trip"]
    assert (trip.valid_from, trip.kind, trip.language) == (
        datetime(2024, 6, 1, tzinfo=UTC),
        "plan",
        "zh",
    )
    recalled = scope["store"].recall("我可以吃苹果吗？", namespace="xiaomei")
    assert recalled[0].fact.text == "我对苹果过敏。"
    scope["store"].close()
