"""The embedded engine's newest-first index of concept mentions, kept in the process.

LadybugDB has no secondary indexes: "the newest visible mentions of a concept" scans the
concept's whole adjacency list and reads each version's times (a few microseconds per mention,
so tens of milliseconds for a concept mentioned thousands of times). This index keeps, per
concept, its mentions' immutable times (valid_from, recorded_at, valid_to) sorted by
(valid_from, recorded_at), loaded on first use and extended after each committed write. A
recall walks it newest first and reads only the candidates it needs; their current rows
(`superseded_at` is the one mutable time) come from the database, so a stale entry can only
cost a read, never a wrong answer. The process is the database's only writer (LadybugDB locks
the file), as the namespace clocks cached by the engine already assume.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from itertools import islice
from typing import Any

from ..model import Fact
from . import ladybug_cypher as q
from ._port import ALL

Run = Callable[[str, dict[str, Any]], list[list[Any]]]

__all__ = ["MentionIndex", "visible"]

_ENTRIES_MAX = 200_000  # about 60 MB; least recently used concepts are dropped beyond it


def _naive(value: datetime) -> datetime:
    """UTC without a time zone, as the engine returns it (comparisons without conversions)."""
    return value if value.tzinfo is None else value.astimezone(UTC).replace(tzinfo=None)


class _Mentions:
    """One concept's mentions, ascending by (valid_from, recorded_at, version id)."""

    __slots__ = ("ids", "keys", "valid_to")

    def __init__(self, rows: Sequence[Sequence[Any]] = ()) -> None:
        ordered = sorted(
            (_naive(vf), _naive(rec), str(vid), _naive(vt)) for vid, vf, rec, vt in rows
        )
        self.keys: list[tuple[datetime, datetime, str]] = [row[:3] for row in ordered]
        self.valid_to: list[datetime] = [row[3] for row in ordered]
        self.ids: list[str] = [row[2] for row in ordered]

    def add(
        self, vid: str, valid_from: datetime, recorded_at: datetime, valid_to: datetime
    ) -> None:
        key = (_naive(valid_from), _naive(recorded_at), vid)
        at = bisect.bisect(self.keys, key)
        if at and self.keys[at - 1] == key:
            return
        self.keys.insert(at, key)
        self.valid_to.insert(at, _naive(valid_to))
        self.ids.insert(at, vid)

    def newest(self, valid_at: datetime, known_at: datetime) -> Iterator[str]:
        """Version ids whose immutable times admit the basis, newest first."""
        va, ka = _naive(valid_at), _naive(known_at)
        start = bisect.bisect(self.keys, (va, datetime.max, ""))  # valid_from <= valid_at
        for i in range(start - 1, -1, -1):
            if self.keys[i][1] <= ka and self.valid_to[i] > va:
                yield self.ids[i]


class MentionIndex:
    """Per concept id, its mentions newest first; an LRU bounded by the number of entries."""

    def __init__(self, entries_max: int = _ENTRIES_MAX) -> None:
        self._concepts: OrderedDict[str, _Mentions] = OrderedDict()
        self._entries = 0
        self._max = entries_max

    def get(self, cid: str) -> _Mentions | None:
        found = self._concepts.get(cid)
        if found is not None:
            self._concepts.move_to_end(cid)
        return found

    def load(self, cid: str, rows: Sequence[Sequence[Any]]) -> _Mentions:
        """Index a concept from rows (version id, valid_from, recorded_at, valid_to)."""
        mentions = _Mentions(rows)
        self._concepts[cid] = mentions
        self._entries += len(mentions.ids)
        while self._entries > self._max and len(self._concepts) > 1:
            _, dropped = self._concepts.popitem(last=False)
            self._entries -= len(dropped.ids)
        return mentions

    def add(
        self, cid: str, vid: str, valid_from: datetime, recorded_at: datetime, valid_to: datetime
    ) -> None:
        """A committed mention: indexed if its concept is (else it is read on first use)."""
        mentions = self._concepts.get(cid)
        if mentions is not None:
            before = len(mentions.ids)
            mentions.add(vid, valid_from, recorded_at, valid_to)
            self._entries += len(mentions.ids) - before

    def read(
        self,
        run: Run,
        to_fact: Callable[[Sequence[Any]], Fact],
        cids: Mapping[str, str],
        valid_at: datetime,
        known_at: datetime,
        per_concept: int,
        filters: Mapping[str, object] | None = None,
    ) -> dict[str, list[Fact]]:
        """Each key's `per_concept` newest visible versions. Candidates (immutable times
        admitting the basis) are read from the database in rounds, twice what is wanted and
        then four times more, until every concept has enough or none are left; the database
        read applies the recall filter (`RecallFilter.params()`: kinds, archiving)."""
        found: dict[str, list[Fact]] = {key: [] for key in cids}
        walks = {key: self._walk(run, cid, valid_at, known_at) for key, cid in cids.items()}
        batch = 2 * per_concept
        while walks:
            wanted = {key: list(islice(walk, batch)) for key, walk in walks.items()}
            ids = list(dict.fromkeys(vid for got in wanted.values() for vid in got))
            params = {"ids": ids, "known_at": known_at, **(filters or ALL.params())}
            rows = {r[0]: r for r in run(q.RECALLABLE_BY_ID, params)} if ids else {}
            for key, got in wanted.items():
                facts = found[key]
                read = (to_fact(rows[vid]) for vid in got if vid in rows)
                facts.extend(f for f in read if visible(f, valid_at, known_at))
                del facts[per_concept:]
                if len(facts) >= per_concept or len(got) < batch:
                    del walks[key]
            batch *= 4
        return found

    def _walk(self, run: Run, cid: str, valid_at: datetime, known_at: datetime) -> Iterator[str]:
        mentions = self.get(cid)
        if mentions is None:
            mentions = self.load(cid, run(q.MENTION_TIMES, {"id": cid}))
        return mentions.newest(valid_at, known_at)

    def clear(self) -> None:
        self._concepts.clear()
        self._entries = 0


def visible(fact: Fact, valid_at: datetime, known_at: datetime) -> bool:
    """The basis predicate, checked again on the rows read (superseded_at may have moved)."""
    return (
        fact.recorded_at <= known_at
        and (fact.superseded_at is None or fact.superseded_at > known_at)
        and fact.valid_from <= valid_at
        and (fact.valid_to is None or fact.valid_to > valid_at)
    )
