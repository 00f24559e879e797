"""Engine rows to domain values, shared by the engines (each passes its own time reader)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from bitemporal_core.common.times import END_OF_TIME
from bitemporal_core.model import Fact

__all__ = ["WIDTH", "fact_from_row", "open_end", "scoped"]

_SEP = "\x1f"  # namespace/key separator inside ids; control characters never reach a namespace


WIDTH = 18
"""The columns of a version as every engine's shared projection returns them (the next
column of a row is the statement's own)."""


def scoped(namespace: str, key: str) -> str:
    """The engine id of a namespace-scoped node (concept, term, message), on every engine."""
    return namespace + _SEP + key


def open_end(value: datetime | None) -> datetime | None:
    """An interval end as stored to its domain value: END_OF_TIME (or NULL) is open, None."""
    return None if value is None or value >= END_OF_TIME else value


def fact_from_row(
    row: Sequence[Any],
    when: Callable[[Any], datetime],
    until: Callable[[Any], datetime | None],
) -> Fact:
    """A version from the `WIDTH` columns every engine's `_V` projection returns, in order;
    `when` reads a time, `until` an interval end (the END_OF_TIME sentinel is None)."""
    return Fact(
        id=row[1],
        version_id=row[0],
        namespace=row[2],
        text=row[3],
        valid_from=when(row[4]),
        valid_to=until(row[5]),
        recorded_at=when(row[6]),
        superseded_at=until(row[7]),
        version=int(row[8]),
        source=row[9],
        speaker=row[10],
        session=row[11],
        kind=row[12] or "said",
        supersedes=row[13],
        t_index=int(row[14] or 0),
        said_at=when(row[15]) if row[15] is not None else None,
        language=row[16] or "en",  # versions written before languages were analysed in English
        category=row[17] or "memory",
    )
