"""A mapping read from a saved index one key at a time, so that a new process's first recall
unpickles only the postings and concepts it touches, not a whole namespace.

`packed` turns a mapping into (keys, offsets, blob): each value pickled on its own, one after
the other. `LazyMap` answers from that blob, unpickling a value on its first read and keeping
it (writes then change the kept object, as they would a plain dict's). Packing a `LazyMap`
again reuses the bytes of every value never read.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, TypeVar

__all__ = ["LazyMap", "Packed", "packed"]

V = TypeVar("V")
Packed = tuple[list[str], list[int], bytes]
"""Keys, the offset of each value in the blob (and the blob's end), the blob."""


class LazyMap(MutableMapping[str, V]):
    """A str-keyed mapping whose values come from a packed blob on first read."""

    __slots__ = ("_blob", "_extra", "_held", "_slots", "_starts")

    def __init__(self, packed_map: Packed | None = None) -> None:
        keys, starts, blob = packed_map or ([], [0], b"")
        self._slots = {k: i for i, k in enumerate(keys)}
        self._starts = starts
        self._blob = memoryview(blob)
        self._held: dict[str, V] = {}
        self._extra = 0  # held keys that are not in the blob

    def _value(self, key: str) -> V:
        i = self._slots[key]
        value: V = pickle.loads(self._blob[self._starts[i] : self._starts[i + 1]])
        self._held[key] = value
        return value

    def __getitem__(self, key: str) -> V:
        try:
            return self._held[key]
        except KeyError:
            return self._value(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._held:
            return self._held[key]
        return self._value(key) if key in self._slots else default

    def setdefault(self, key: str, default: Any = None) -> Any:
        found = self.get(key, _MISSING)
        if found is _MISSING:
            self[key] = default
            return default
        return found

    def __setitem__(self, key: str, value: V) -> None:
        if key not in self._held and key not in self._slots:
            self._extra += 1
        self._held[key] = value

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        if key in self._slots:
            del self._slots[key]
            self._held.pop(key, None)
        else:
            del self._held[key]
            self._extra -= 1

    def __contains__(self, key: object) -> bool:
        return key in self._held or key in self._slots

    def __iter__(self) -> Iterator[str]:
        yield from self._slots
        yield from (k for k in list(self._held) if k not in self._slots)

    def __len__(self) -> int:
        return len(self._slots) + self._extra

    def raw(self, key: str) -> bytes:
        """The pickled value of `key`: its saved bytes while it was never read."""
        if key in self._held or key not in self._slots:
            return pickle.dumps(self[key], protocol=pickle.HIGHEST_PROTOCOL)
        i = self._slots[key]
        return bytes(self._blob[self._starts[i] : self._starts[i + 1]])


_MISSING = object()


def packed(values: Mapping[str, Any]) -> Packed:
    """`values` as (keys, offsets, blob), each value pickled on its own."""
    keys = list(values)
    if isinstance(values, LazyMap):
        parts = [values.raw(k) for k in keys]
    else:
        parts = [pickle.dumps(values[k], protocol=pickle.HIGHEST_PROTOCOL) for k in keys]
    starts = [0]
    for part in parts:
        starts.append(starts[-1] + len(part))
    return keys, starts, b"".join(parts)
