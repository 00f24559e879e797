"""Temporal rule screens (issue #8): a rule is skipped only on texts it cannot match."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bitemporal_core.language.temporal import RuleResolver, _rules
from bitemporal_core.language.temporal._chinese import ZH
from bitemporal_core.language.temporal._en_dates import DATES
from bitemporal_core.language.temporal._en_relative import RELATIVE
from bitemporal_core.language.temporal._prefilter import required, screen
from bitemporal_core.language.temporal._types import Context

from . import test_temporal

CASES = Path(__file__).resolve().parents[3] / "shared" / "temporal" / "cases.jsonl"
RULE_SETS = (RELATIVE, DATES, ZH)
TRICKY = [
    "",
    "See you on the 3rd of May!",
    "met him 2 days ago",
    "I MOVED HERE LAST YEAR",
    "in the ſummer of 2019",  # long s: matches "s" case-insensitively
    "Last \u212aelvin day",  # Kelvin sign: matches "k" case-insensitively
    "thıs time next year",  # dotless i
    "İn 2020 we met",
    "from 2015–2018",
    "2023-11-20 and 11/20/2023 and 2023-11",
    "the '90s, the 80’s, in the 1970s",
    "Valentine’s Day, St. Patrick's day, the fourth of July",
    "上周六我们见过面, 三天前, 2019年, 十二月底",
]


def _test_texts() -> list[str]:
    texts = list(TRICKY)
    for value in vars(test_temporal).values():
        for mark in getattr(value, "pytestmark", []):
            if mark.name == "parametrize":
                for case in mark.args[1]:
                    texts.extend(x for x in (case if isinstance(case, tuple) else (case,)))
    if CASES.exists():
        texts.extend(json.loads(line)["text"] for line in CASES.read_text().splitlines() if line)
    return [t for t in texts if isinstance(t, str)]


TEXTS = _test_texts()


def _folded(text: str) -> str | None:
    return text.lower() if text.isascii() else None


def test_the_test_texts_are_found() -> None:
    assert len(TEXTS) > 150


@pytest.mark.parametrize("rules", RULE_SETS, ids=["relative", "dates", "zh"])
def test_no_rule_is_skipped_where_it_matches(rules: _rules.RuleSet) -> None:
    screened = 0
    for pattern, needed, handler in rules._rules:
        assert needed is not None, handler.__name__  # every rule names a required literal
        for text in TEXTS:
            if pattern.search(text):
                assert needed.admits(text, _folded(text)), (handler.__name__, text)
            screened += not needed.admits(text, _folded(text))
    assert screened > 0  # and the screens do skip rules


def _hits(rules: _rules.RuleSet, text: str) -> object:
    said = datetime(2025, 3, 12, 15, 30, tzinfo=UTC)
    return rules.find(Context(text, said, said.date()))


@pytest.mark.parametrize("rules", RULE_SETS, ids=["relative", "dates", "zh"])
def test_screened_find_equals_unscreened(rules: _rules.RuleSet) -> None:
    bare = _rules.RuleSet()
    bare._rules = [(pattern, None, handler) for pattern, _, handler in rules._rules]
    for text in TEXTS:
        assert _hits(rules, text) == _hits(bare, text), text


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"\b(?P<core>\d+)\s+days?\s+ago\b", {"ago"}),
        (r"(?:jan|feb)(?:uary)?\s+\d", {"jan", "feb"}),
        (r"(?:mon|tues)day", {"monday", "tuesday"}),
        (r"\d{4}", None),
        (r"(?:ago|\d+)", None),  # a branch without a literal
        (r"(?:foo)?bar", {"bar", "foobar"}),
        (r"x*", None),
        (r"[/.]\d", {"/", "."}),
        (r"[a-z]+day", {"day"}),
        (r"(?i:foo)", None),  # scoped flags are not analysed
        (r"(?P<s>[-/])\d(?P=s)", {"-", "/"}),
    ],
)
def test_required_literals(pattern: str, literals: set[str] | None) -> None:
    found = required(re.compile(pattern, re.IGNORECASE))
    assert found == (None if literals is None else frozenset(literals))


def test_case_insensitive_screens_follow_the_regex_engine() -> None:
    check = screen(re.compile(r"\bkelvin\b|\bsummer\b|\bthis\b", re.IGNORECASE))
    assert check is not None
    for text in ("\u212aELVIN", "ſummer", "thıs", "THIS", "Summer"):
        assert check.admits(text, _folded(text)), text
    assert not check.admits("winter", "winter")
    exact = screen(re.compile("上周"))
    assert exact is not None and exact.admits("上周六", None) and not exact.admits("下周", None)


def test_a_spelling_the_tables_do_not_list_is_not_a_time() -> None:
    said = datetime(2025, 3, 12, 15, 30, tzinfo=UTC)
    resolver = RuleResolver()
    # "ſunday" matches the weekday rule case-insensitively but names no weekday it lists.
    assert resolver.resolve("I met her on ſunday.", said) is None
    found = resolver.resolve("I met her on ſunday, March 2.", said)
    assert found is not None and found.valid_from.day == 2
