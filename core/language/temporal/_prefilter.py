"""Required literals of a regex: a cheap test that rules out texts a rule cannot match (issue #8).

`screen(pattern)` reads the pattern's parse tree and finds a set of literal strings such that
every match of the pattern contains one of them; it returns a `Screen` testing for any of those
strings as the pattern compares them (case-insensitively or not), or None when the pattern has
no such set. A text the screen does not find anything in
has no match of the pattern, so skipping the pattern there changes no result.

Sound by construction: whatever the analysis does not understand (classes, backreferences,
conditionals, scoped flags, unknown opcodes) counts as "any text", which only makes the set
weaker, never wrong.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["Screen", "required", "screen"]

_parser: Any = importlib.import_module("re._parser")  # the stdlib's own regex parser

_LIMIT = 64  # largest set of exact strings tracked for one node
_MAX_FACTORS = 256  # a larger required set is not worth a screen
_ZERO_WIDTH = frozenset({"AT", "ASSERT", "ASSERT_NOT"})
_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})

# What one node can match: `exact`, every string it can match when that set is small (else
# None), and `need`, strings one of which is in every match (None: no such set known).
_Info = tuple[frozenset[str] | None, frozenset[str] | None]
_NOTHING: _Info = (None, None)


def _useful(strings: frozenset[str] | None) -> frozenset[str] | None:
    """`strings` as a requirement: it says nothing when it holds the empty string."""
    return strings if strings and "" not in strings else None


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """The more selective requirement: longer shortest string, then fewer strings."""
    if a is None or b is None:
        return a if b is None else b
    rank_a, rank_b = (min(map(len, a)), -len(a)), (min(map(len, b)), -len(b))
    return a if rank_a >= rank_b else b


def _product(a: frozenset[str], b: frozenset[str]) -> frozenset[str] | None:
    if len(a) * len(b) > _LIMIT:
        return None
    return frozenset(x + y for x in a for y in b)


def _sequence(items: Iterable[tuple[Any, Any]]) -> _Info:
    """A concatenation: adjacent exact nodes join into longer strings."""
    run: frozenset[str] | None = frozenset({""})  # exact strings of the current run
    whole: frozenset[str] | None = frozenset({""})  # exact strings of the sequence so far
    need: frozenset[str] | None = None
    for op, av in items:
        exact, item_need = _node(op, av)
        need = _better(need, item_need)
        joined = None if exact is None or run is None else _product(run, exact)
        if joined is None:
            need = _better(need, _useful(run))
            run = exact
        else:
            run = joined
        whole = None if exact is None or whole is None else _product(whole, exact)
    return whole, _better(need, _useful(run))


def _branch(branches: list[Any]) -> _Info:
    """An alternation: every branch must bring a requirement of its own."""
    infos = [_sequence(b) for b in branches]
    exact: frozenset[str] | None = frozenset()
    need: frozenset[str] | None = frozenset()
    for branch_exact, branch_need in infos:
        exact = None if exact is None or branch_exact is None else exact | branch_exact
        own = _better(_useful(branch_exact), branch_need)
        need = None if need is None or own is None else need | own
    if exact is not None and len(exact) > _LIMIT:
        exact = None
    if need is not None and len(need) > _MAX_FACTORS:
        need = None
    return exact, need


def _repeat(low: int, high: int, items: Any) -> _Info:
    exact, need = _sequence(items)
    if low == 0:
        optional = exact | {""} if exact is not None and high == 1 else None
        return optional, None
    need = _better(_useful(exact), need)
    if low != high or exact is None:
        return None, need
    whole: frozenset[str] | None = frozenset({""})
    for _ in range(low):
        whole = None if whole is None else _product(whole, exact)
    return whole, need


def _charset(items: list[tuple[Any, Any]]) -> _Info:
    """A class of plain characters (no ranges, categories or negation) is a small exact set."""
    if len(items) > _LIMIT or any(getattr(op, "name", None) != "LITERAL" for op, _ in items):
        return _NOTHING
    return frozenset(chr(code) for _, code in items), None


def _node(op: Any, av: Any) -> _Info:
    name = getattr(op, "name", None)
    if name == "LITERAL":
        return frozenset({chr(av)}), None
    if name in _ZERO_WIDTH:
        return frozenset({""}), None
    if name == "IN":
        return _charset(av)
    if name == "BRANCH":
        return _branch(av[1])
    if name == "SUBPATTERN":
        _, add_flags, del_flags, items = av
        return _NOTHING if add_flags or del_flags else _sequence(items)
    if name == "ATOMIC_GROUP":
        return _sequence(av)
    if name in _REPEATS:
        low, high, items = av
        return _repeat(low, high, items)
    return _NOTHING


def required(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Strings one of which every match of `pattern` contains (None when none is known)."""
    try:
        tree = _parser.parse(pattern.pattern, pattern.flags)
    except (re.error, TypeError, ValueError):
        return None
    exact, need = _sequence(tree)
    return _better(_useful(exact), need)


class Screen:
    """Tells whether a text contains one of a rule's required literals.

    `admits(text, lowered)` is exact for the literals (case-insensitively when the pattern is):
    plain substring tests on the text, or on `lowered` (its lowercase, given only for ASCII
    texts, where case-insensitive equality of ASCII letters is exactly equality of their
    lowercase); a regex with the pattern's flags in any other case.
    """

    __slots__ = ("_ignorecase", "_plain", "_regex")

    def __init__(self, literals: list[str], flags: int) -> None:
        self._regex = re.compile("|".join(re.escape(s) for s in literals), flags)
        self._ignorecase = bool(flags & re.IGNORECASE)
        self._plain: tuple[str, ...] | None = tuple(literals)
        if self._ignorecase:
            ascii_only = all(s.isascii() for s in literals)
            self._plain = tuple(s.lower() for s in literals) if ascii_only else None

    def admits(self, text: str, lowered: str | None) -> bool:
        """False only when `text` contains none of the literals (`lowered` as in the class doc)."""
        if self._plain is None or (self._ignorecase and lowered is None):
            return self._regex.search(text) is not None
        haystack = lowered if self._ignorecase and lowered is not None else text
        return any(s in haystack for s in self._plain)


def screen(pattern: re.Pattern[str]) -> Screen | None:
    """A `Screen` admitting every text `pattern` matches (None: no required literal known)."""
    need = required(pattern)
    if need is None:
        return None
    # A string holding another required one adds nothing: "day" is in "days".
    kept = sorted(s for s in need if not any(o != s and o in s for o in need))
    return Screen(kept, pattern.flags)
