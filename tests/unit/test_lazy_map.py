"""The saved index's mappings, read one key at a time (`backends/ladybug/lazy.py`)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from bitemporal_core.backends.ladybug.lazy import LazyMap, packed

PLAIN: dict[str, Any] = {"a": [1, 2], "b": {"x": [3, 4]}, "c": ([5], [6]), "d": set("pq")}


def test_a_packed_map_reads_each_value_only_when_asked() -> None:
    lazy: LazyMap[Any] = LazyMap(packed(PLAIN))
    assert len(lazy) == 4 and "b" in lazy and "z" not in lazy
    assert lazy._held == {}  # nothing unpickled yet
    assert lazy["b"] == {"x": [3, 4]} and list(lazy._held) == ["b"]
    assert lazy.get("z") is None and lazy.get("z", 7) == 7
    assert dict(lazy) == PLAIN


def test_writes_change_the_held_value_as_on_a_dict() -> None:
    lazy: LazyMap[Any] = LazyMap(packed(PLAIN))
    lazy.setdefault("a", []).append(9)  # an existing key: its value, changed in place
    lazy.setdefault("e", []).append(1)  # a new key
    lazy["b"]["x"].append(5)
    del lazy["c"]
    expected = {"a": [1, 2, 9], "b": {"x": [3, 4, 5]}, "d": set("pq"), "e": [1]}
    assert dict(lazy) == expected and len(lazy) == 4
    with pytest.raises(KeyError):
        del lazy["c"]
    assert dict(LazyMap(packed(lazy))) == expected  # packed again, read again


def test_packing_again_reuses_the_bytes_of_values_never_read() -> None:
    first = packed(PLAIN)
    lazy: LazyMap[Any] = LazyMap(first)
    _ = lazy["a"]
    keys, starts, blob = packed(lazy)
    assert keys == first[0] and blob == first[2] and starts == first[1]
    assert pickle.loads(blob[starts[3] : starts[4]]) == set("pq")
