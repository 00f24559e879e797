"""Which part of a statement dates it (not a wish or plan said after its main clause), and
which fragments join the statement before them."""

from __future__ import annotations

import pytest

from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.clauses import plain_fragment, timed_text
from bitemporal_core.language.extract import ConceptExtractor


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


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("CBT mostly.", True),
        ("The mountains from the kitchen window, though!", True),
        ("maybe next year", False),
        ("no more nights", False),
        ("Any tips for bakeries?", False),
        ("7pm sharp", False),
    ],
)
def test_a_plain_fragment_says_nothing_of_time_or_change(text: str, plain: bool) -> None:
    assert plain_fragment(text) is plain


def _statements(extractor: ConceptExtractor, text: str) -> list[str]:
    return [st.text for st in Analyser(extractor=extractor).analyse(text, speaker="user")]


def test_a_fragment_belongs_to_the_statement_before_it(extractor: ConceptExtractor) -> None:
    text = "Seeing a therapist, Dr Hughes, on Wednesday evenings. CBT mostly."
    assert _statements(extractor, text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Lisbon is off, Ryan's work won't give him the week. Maybe next year.",
        "I live in Lyon now. Any tips for good bakeries around there?",
        "How was your weekend? Great weather in Paris.",
    ],
)
def test_a_fragment_that_says_something_of_its_own_stays_apart(
    extractor: ConceptExtractor, text: str
) -> None:
    assert len(_statements(extractor, text)) == 2
