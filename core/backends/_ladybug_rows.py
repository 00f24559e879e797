"""Row helpers of the embedded engine: batch planning and result rows as domain values."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .._time import END_OF_TIME, to_utc
from ..errors import TimeRegression
from ..model import Fact
from ._port import WriteBatch, WriteResult

__all__ = ["fact_row", "open_time", "plan"]


def plan(
    ns: str, last_tx: datetime, t_index: int, batches: Sequence[WriteBatch]
) -> list[WriteResult]:
    """Each batch's transaction time (never before the previous one) and t_index."""
    results = []
    for b in batches:
        if last_tx > b.at:
            raise TimeRegression(
                f"transaction time {b.at.isoformat()} is earlier than namespace "
                f"{ns!r}'s latest ({last_tx.isoformat()})"
            )
        last_tx = b.at
        t_index += 1 if b.advance_t_index else 0
        results.append(WriteResult(at=b.at, t_index=t_index))
    return results


def open_time(value: datetime | None) -> datetime | None:
    """Engine value to domain value: the END_OF_TIME sentinel means an open interval."""
    if value is None:
        return None
    value = to_utc(value)
    return None if value >= END_OF_TIME else value


def fact_row(row: Sequence[Any]) -> Fact:
    return Fact(
        id=row[1],
        version_id=row[0],
        namespace=row[2],
        text=row[3],
        valid_from=to_utc(row[4]),
        valid_to=open_time(row[5]),
        recorded_at=to_utc(row[6]),
        superseded_at=open_time(row[7]),
        version=int(row[8]),
        source=row[9],
        speaker=row[10],
        session=row[11],
        kind=row[12] or "said",
        supersedes=row[13],
        t_index=int(row[14] or 0),
        said_at=to_utc(row[15]) if row[15] is not None else None,
    )
