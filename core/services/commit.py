"""Transaction time of a write: pick it, build the batch for it, apply it; retry if overtaken."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from bitemporal_core.backends.port import TransactionLog
from bitemporal_core.common.times import TICK, require_tx_time
from bitemporal_core.errors import TimeRegression

__all__ = ["commit"]

R = TypeVar("R")
_RETRIES = 30


def commit(
    log: TransactionLog,
    namespace: str,
    at: object,
    build: Callable[[datetime], R],
    *,
    now: Callable[[], datetime] | None = None,
) -> R:
    """Pick the transaction time, build the batch for it, and apply it atomically.

    An implicit time is the engine's clock (or `now()`, a store's replay clock), moved just
    past the namespace's latest transaction time; if a concurrent writer overtakes it, the
    call is rebuilt and retried.
    An explicit `at` earlier than the namespace's latest time is a `TimeRegression`.
    """
    explicit = None if at is None else require_tx_time(at)
    for attempt in range(_RETRIES):
        clock = log.clock(namespace)
        if explicit is not None:
            when = explicit
            if clock.last_tx is not None and when < clock.last_tx:
                raise TimeRegression(
                    f"at={when.isoformat()} is earlier than namespace {namespace!r}'s "
                    f"latest transaction time {clock.last_tx.isoformat()}"
                )
        else:
            when = clock.now if now is None else require_tx_time(now(), "clock()")
            if clock.last_tx is not None and when <= clock.last_tx:
                when = clock.last_tx + TICK
        try:
            return build(when)
        except TimeRegression:
            if explicit is not None or attempt == _RETRIES - 1:
                raise
            # A concurrent writer moved the namespace's clock past ours: back off, rebuild.
            time.sleep(random.uniform(0, 0.002) * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover
