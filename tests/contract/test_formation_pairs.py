"""Memory formation on every engine over short pairs of the kinds issue 16 names, in both
languages (`data/simple_pairs.json`, written for these tests): a later statement of the
same thing retires the earlier one, one that adds leaves it true (docs/design.md, "Memory
formation"); and one pair per rule or reading a stop added (`data/rule_pairs.json`), whose
messages may hold several statements."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bitemporal_core import MemoryStore

from ._said import say, texts

_PAIRS = json.loads((Path(__file__).parent / "data" / "simple_pairs.json").read_text("utf-8"))
_UPDATES = [(old, new) for lang in ("en", "zh") for old, new in _PAIRS["update"][lang]]
_ADDITIONS = [(old, new) for old, new in _PAIRS["addition"]["en"]]
_RULES = json.loads((Path(__file__).parent / "data" / "rule_pairs.json").read_text("utf-8"))


@pytest.mark.parametrize(("old", "new"), _UPDATES)
def test_a_later_statement_of_the_same_thing_retires_the_earlier(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "u", old, new)
    assert old in texts(store, "u", days=0.5)
    assert new in texts(store, "u")
    assert old not in texts(store, "u")


@pytest.mark.parametrize(("old", "new"), _ADDITIONS)
def test_an_addition_leaves_the_first_true(store: MemoryStore, old: str, new: str) -> None:
    say(store, "a", old, new)
    assert {old, new} <= texts(store, "a")


@pytest.mark.parametrize(("old", "new"), _RULES["update"])
def test_a_rule_retires_the_earlier_message(store: MemoryStore, old: str, new: str) -> None:
    say(store, "r", old, new)
    assert texts(store, "r", days=0.5) == {old}
    now = texts(store, "r")
    assert old not in now
    assert any(part in new for part in now)


@pytest.mark.parametrize(("old", "new"), _RULES["unchanged"])
def test_what_only_looks_like_a_change_leaves_the_first_true(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "n", old, new)
    assert old in texts(store, "n")
