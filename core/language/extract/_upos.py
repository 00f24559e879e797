"""UPOS from a pipeline's own attribute-ruler rules, without running spaCy's Matcher (issue #8).

In ``en_core_web_sm`` the attribute ruler is the last component and turns the tagger's
fine-grained TAG (with LOWER and DEP for some words) into UPOS through a Matcher over ~180
patterns; that Matcher costs about as much as the tagger and parser together. `UposTable`
compiles the rules that set POS into set-membership tests on the tokens' hashed attributes and
memoises the answer per distinct token, which gives the same `pos_` as the ruler.

The ruler's semantics reproduced here: every pattern is matched against the doc as the earlier
components left it (no rule sees another rule's writes), then matches are applied in rule order,
so the last rule that matches a token and sets POS decides it; a token no such rule matches keeps
an empty POS. Only plain attribute tests are supported (equality, ``IN``, ``NOT_IN`` on TAG,
DEP, LOWER, ORTH/TEXT and IS_SPACE, no ``OP`` quantifiers); `UposTable.compile` returns None for
any other POS rule, and the caller then keeps the ruler.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

__all__ = ["UposTable"]

_COLUMNS = ("TAG", "DEP", "LOWER", "ORTH", "IS_SPACE")
_ALIASES = {"TEXT": "ORTH"}
_NONE = -1  # stands for every value no rule names: no hash is negative
_SEEN_LIMIT = 100_000


@attrs.frozen
class _Test:
    """One attribute test of a token pattern: the value is (not) one of `values`."""

    column: int
    values: frozenset[int]
    negated: bool

    def holds(self, row: Sequence[int]) -> bool:
        return (row[self.column] in self.values) != self.negated


@attrs.frozen
class _Rule:
    """One ruler entry that sets POS: `pos` goes to token `index` of a span matching `tokens`
    (one alternative per pattern of the entry)."""

    pos: str
    index: int
    alternatives: tuple[tuple[tuple[_Test, ...], ...], ...]


class _Unsupported(Exception):
    """A POS rule uses a Matcher feature `UposTable` does not reproduce."""


def _hash_values(strings: Any, column: str, value: object) -> frozenset[int]:
    """The hashes the Matcher compares a token attribute with, as the Matcher computes them."""
    values = value if isinstance(value, list) else [value]
    if column == "IS_SPACE":
        if not all(isinstance(v, bool) for v in values):
            raise _Unsupported(f"IS_SPACE value {value!r}")
        return frozenset(1 if v else 0 for v in values)
    if not all(isinstance(v, str) for v in values):
        raise _Unsupported(f"{column} value {value!r}")
    return frozenset(int(strings.add(v)) for v in values)


def _test(strings: Any, key: str, value: object) -> _Test:
    column = _ALIASES.get(key, key)
    if column not in _COLUMNS:
        raise _Unsupported(f"attribute {key}")
    if isinstance(value, Mapping):
        if len(value) != 1 or next(iter(value)) not in ("IN", "NOT_IN"):
            raise _Unsupported(f"predicate {value!r}")
        ((op, listed),) = value.items()
        if not isinstance(listed, list):
            raise _Unsupported(f"predicate {value!r}")
        return _Test(_COLUMNS.index(column), _hash_values(strings, column, listed), op != "IN")
    return _Test(_COLUMNS.index(column), _hash_values(strings, column, value), False)


def _rule(strings: Any, entry: Mapping[str, Any], pos: str) -> _Rule:
    alternatives = []
    for pattern in entry["patterns"]:
        if not pattern:
            raise _Unsupported("empty pattern")
        alternatives.append(
            tuple(tuple(_test(strings, k, v) for k, v in token.items()) for token in pattern)
        )
    return _Rule(pos=pos, index=int(entry["index"]), alternatives=tuple(alternatives))


class UposTable:
    """The POS-setting rules of one attribute ruler, answered by dictionary look-ups."""

    def __init__(self, rules: Sequence[_Rule]) -> None:
        self._rules = tuple(rules)
        named: list[set[int]] = [set() for _ in _COLUMNS]
        for rule in rules:
            for alternative in rule.alternatives:
                for token in alternative:
                    for test in token:
                        named[test.column] |= test.values
        self._named = tuple(frozenset(values) for values in named)
        # Multi-token alternatives, checked per position: (rule order, pos, index, width, slot).
        self._spans: list[tuple[int, str, int, int, int]] = []
        slot = 0
        for order, rule in enumerate(rules):
            for alternative in rule.alternatives:
                if len(alternative) > 1:
                    index = rule.index if rule.index >= 0 else len(alternative) + rule.index
                    self._spans.append((order, rule.pos, index, len(alternative), slot))
                    slot += len(alternative)
        # Entries by the attributes the rules name (a bounded set), and by a token's own
        # attributes (a cache, emptied when it grows past _SEEN_LIMIT).
        self._memo: dict[tuple[int, ...], tuple[int, str, tuple[bool, ...]]] = {}
        self._seen: dict[tuple[int, ...], tuple[int, str, tuple[bool, ...]]] = {}

    @classmethod
    def compile(cls, nlp: Any, name: str = "attribute_ruler") -> UposTable | None:
        """The table of `nlp`'s attribute ruler `name`, or None if it cannot stand in for it.

        It can when the ruler is the pipeline's last component (nothing after it reads POS)
        and all its POS rules use only the tests this module reproduces.
        """
        if not nlp.pipe_names or nlp.pipe_names[-1] != name:
            return None
        pos_id = importlib.import_module("spacy.attrs").POS
        pos_names = importlib.import_module("spacy.parts_of_speech").NAMES
        try:
            ruler, strings = nlp.get_pipe(name), nlp.vocab.strings
            rules = [
                _rule(strings, entry, pos_names[normed[pos_id]])
                for entry, normed in zip(ruler.patterns, ruler.attrs, strict=True)
                if pos_id in normed
            ]
        except (_Unsupported, AttributeError, KeyError, TypeError, ValueError):
            return None  # not an AttributeRuler, or rules this table does not reproduce
        return cls(rules)

    def tags(self, doc: Any) -> list[str]:
        """The `pos_` the ruler would give each token of `doc` (parsed, ruler not run)."""
        if not len(doc):
            return []
        seen = self._seen
        if len(seen) > _SEEN_LIMIT:
            seen.clear()
        entries = []
        for row in map(tuple, doc.to_array(list(_COLUMNS)).tolist()):
            entry = seen.get(row)
            if entry is None:
                entry = seen[row] = self._entry(row)
            entries.append(entry)
        tags = [pos for _, pos, _ in entries]
        if not self._spans:
            return tags
        best = [order for order, _, _ in entries]
        for order, pos, index, width, slot in self._spans:
            for start in range(len(entries) - width + 1):
                if best[start + index] < order and all(
                    entries[start + k][2][slot + k] for k in range(width)
                ):
                    best[start + index] = order
                    tags[start + index] = pos
        return tags

    def _entry(self, row: tuple[int, ...]) -> tuple[int, str, tuple[bool, ...]]:
        """For one token: the order and POS of the last single-token rule matching it, and
        whether it passes each token test of the multi-token patterns."""
        key = tuple(v if v in named else _NONE for v, named in zip(row, self._named, strict=True))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._evaluate(key)
        return found

    def _evaluate(self, row: tuple[int, ...]) -> tuple[int, str, tuple[bool, ...]]:
        order, pos = -1, ""
        passes: list[bool] = []
        for i, rule in enumerate(self._rules):
            for alternative in rule.alternatives:
                if len(alternative) == 1:
                    if all(test.holds(row) for test in alternative[0]):
                        order, pos = i, rule.pos
                else:
                    passes.extend(all(test.holds(row) for test in token) for token in alternative)
        return order, pos, tuple(passes)
