"""Which part of a statement dates it: not a wish or plan said after its main clause."""

from __future__ import annotations

import pytest

from bitemporal_core.language.clauses import timed_text


@pytest.mark.parametrize(
    ("text", "kept", "blanked"),
    [
        ("started japanese instead cos we want to do tokyo next year", "started", "next year"),
        ("moved to leeds last week, might go to paris next month", "last week", "next month"),
        ("现在改学西班牙语了，明年想去巴塞罗那", "现在", "明年"),
    ],
)
def test_a_later_wish_clause_is_blanked(text: str, kept: str, blanked: str) -> None:
    out = timed_text(text, chinese=not text.isascii())
    assert len(out) == len(text) and kept in out and blanked not in out


@pytest.mark.parametrize("text", ["I want to move to Berlin next year", "我打算下个月搬到北京"])
def test_a_wish_that_is_the_whole_statement_keeps_its_time(text: str) -> None:
    assert timed_text(text, chinese=not text.isascii()) == text
