"""Row helpers of the embedded engine: scoped ids and engine rows as domain values."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from .._time import END_OF_TIME, to_utc
from ..model import Fact
from ._rows import fact_from_row

_ZERO = datetime(1970, 1, 1, tzinfo=UTC)


def _open(value: datetime | None) -> datetime | None:
    """Engine value to domain value: the END_OF_TIME sentinel means an open interval."""
    if value is None:
        return None
    value = to_utc(value)
    return None if value >= END_OF_TIME else value


def _fact(row: Sequence[Any]) -> Fact:
    return fact_from_row(row, to_utc, _open)


def no_nulls(row: dict[str, Any], *fields: str) -> dict[str, Any]:
    """The row with these optional names as '' for None (the statements read '' as NULL)."""
    return {**row, **{f: "" for f in fields if row.get(f) is None}}
