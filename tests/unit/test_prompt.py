"""The prompt block (docs/design.md, "Prompt block") and the public value types, no engine."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import UNSET, Basis, Fact, Hit, InvalidInput, NaiveDatetime, render_context
from bitemporal_core.common.times import check_interval, parse_time
from bitemporal_core.errors import InvalidInterval
from bitemporal_core.providers.tokens import ApproxCounter
from bitemporal_core.views.prompt import HEADER, format_line

T = datetime(2023, 10, 26, 10, 0, tzinfo=UTC)


def fact(text: str, start: datetime, end: datetime | None = None, vid: str = "") -> Fact:
    return Fact(
        id="f" + (vid or text),
        version_id=vid or text,
        namespace="a",
        text=text,
        valid_from=start,
        valid_to=end,
        recorded_at=start,
        superseded_at=None,
    )


def test_lines_match_the_design_example() -> None:
    like = fact("I enjoy eating apples.", T, T + timedelta(days=1))
    allergy = fact("I am allergic to apples.", T + timedelta(days=1))
    block = render_context([Hit(fact=allergy, score=2.0), Hit(fact=like, score=1.0)])
    assert block == "\n".join(
        [
            HEADER,
            "- [2023-10-26 -> 2023-10-27] I enjoy eating apples. (said 2023-10-26)",
            "- [since 2023-10-27] I am allergic to apples. (said 2023-10-27)",
        ]
    )


def test_short_intervals_show_hours_and_past_facts_are_marked() -> None:
    meeting = fact("Meeting with Anna.", T, T + timedelta(hours=2))
    assert "[2023-10-26 10:00 -> 12:00]" in format_line(meeting)
    assert "(no longer true)" in format_line(meeting, past=True)
    block = render_context([Hit(fact=meeting, score=1.0)], valid_at=T + timedelta(days=3))
    assert "(no longer true)" in block


def test_budget_drops_lowest_ranked_first() -> None:
    hits = [
        Hit(fact=fact(f"Memory number {i} about apples.", T + timedelta(days=i)), score=10.0 - i)
        for i in range(10)
    ]
    counter = ApproxCounter()
    block = render_context(hits, max_tokens=60, counter=counter)
    assert counter.count(block) <= 60
    kept = [line for line in block.splitlines()[1:]]
    assert 1 <= len(kept) < 10
    assert all(f"number {i} " in kept[i] for i in range(len(kept))), "best ranked survive"
    assert render_context([], max_tokens=50).startswith("Memories: none")


def test_basis_and_time_helpers() -> None:
    assert Basis().resolved(T) == Basis(valid_at=T, known_at=T)
    with pytest.raises(NaiveDatetime):
        Basis(known_at=datetime(2024, 1, 1))
    with pytest.raises(InvalidInput):
        Basis(valid_at="2024-01-01")  # type: ignore[arg-type]
    assert parse_time("2024-01-01T00:00:00Z") == datetime(2024, 1, 1, tzinfo=UTC)
    with pytest.raises(NaiveDatetime):
        parse_time("2024-01-01T00:00:00")
    with pytest.raises(InvalidInterval):
        check_interval(T, T)
    assert repr(UNSET) == "UNSET"
    f = fact("x", T, T + timedelta(days=1))
    assert f.valid_at(T) and not f.valid_at(T + timedelta(days=1)) and f.known_at(T)
    assert f.to_dict()["valid_from"] == T.isoformat()
