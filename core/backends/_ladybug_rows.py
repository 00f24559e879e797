"""Row helpers of the embedded engine: engine rows to domain values, and the write plan."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from .._time import END_OF_TIME, to_utc
from ..errors import TimeRegression
from ..model import Fact
from ._port import WriteBatch, WriteResult
from ._rows import fact_from_row

_ZERO = datetime(1970, 1, 1, tzinfo=UTC)
_SEP = "\x1f"  # namespace/key separator inside ids; control characters never reach a namespace


def _plan(
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


def scoped(namespace: str, key: str) -> str:
    """The engine id of a namespace-scoped node (concept, term, message)."""
    return namespace + _SEP + key


def _open(value: datetime | None) -> datetime | None:
    """Engine value to domain value: the END_OF_TIME sentinel means an open interval."""
    if value is None:
        return None
    value = to_utc(value)
    return None if value >= END_OF_TIME else value


def _fact(row: Sequence[Any]) -> Fact:
    return fact_from_row(row, to_utc, _open)
