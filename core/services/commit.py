"""Transaction time of a write: pick it, build the batch for it, apply it; retry if overtaken."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TypeVar

from bitemporal_core.backends.port import Clock
from bitemporal_core.common.times import TICK, require_tx_time
from bitemporal_core.errors import FutureTime, TimeRegression
from bitemporal_core.services.context import Services

__all__ = ["check_ahead", "commit", "tx_time"]

R = TypeVar("R")
_RETRIES = 30


def check_ahead(when: datetime, clock: Clock, skew: timedelta, what: str = "at") -> None:
    """Refuse an explicit transaction time more than `skew` past the engine's clock: a typo
    there would put the namespace's clock years ahead, hiding every later write from "now"."""
    if when > clock.now + skew:
        raise FutureTime(
            f"{what}={when.isoformat()} is more than {skew} past the engine's clock "
            f"({clock.now.isoformat()}); give a time up to now (or raise max_clock_skew)"
        )


def tx_time(ctx: Services, namespace: str, at: object) -> datetime:
    """The transaction time a write at `at` would get now (raising what `commit` raises):
    for reads that must agree with a write's clock rules (`prune(dry_run=True)`)."""
    return _pick(ctx, namespace, None if at is None else require_tx_time(at))


def _pick(ctx: Services, namespace: str, explicit: datetime | None) -> datetime:
    clock = ctx.log.clock(namespace)
    if explicit is not None:
        check_ahead(explicit, clock, ctx.max_clock_skew)
        if clock.last_tx is not None and explicit < clock.last_tx:
            raise TimeRegression(
                f"at={explicit.isoformat()} is earlier than namespace {namespace!r}'s "
                f"latest transaction time {clock.last_tx.isoformat()}"
            )
        return explicit
    when = clock.now if ctx.clock is None else require_tx_time(ctx.clock(), "clock()")
    if clock.last_tx is not None and when <= clock.last_tx:
        when = clock.last_tx + TICK
    return when


def commit(ctx: Services, namespace: str, at: object, build: Callable[[datetime], R]) -> R:
    """Pick the transaction time, build the batch for it, and apply it atomically.

    An implicit time is the engine's clock (or `ctx.clock()`, a store's replay clock), moved
    just past the namespace's latest transaction time; if a concurrent writer overtakes it,
    the call is rebuilt and retried. An explicit `at` earlier than the namespace's latest
    time is a `TimeRegression`; one more than `ctx.max_clock_skew` past the engine's clock is
    a `FutureTime`.
    """
    explicit = None if at is None else require_tx_time(at)
    for attempt in range(_RETRIES):
        when = _pick(ctx, namespace, explicit)
        try:
            return build(when)
        except TimeRegression:
            if explicit is not None or attempt == _RETRIES - 1:
                raise
            # A concurrent writer moved the namespace's clock past ours: back off, rebuild.
            time.sleep(random.uniform(0, 0.002) * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover
