"""Rule tables, and the steps every language shares: dedupe, ranges, "until", selection."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, time, tzinfo

import attrs

from bitemporal_core.language.temporal._calendar import shift_years
from bitemporal_core.language.temporal._prefilter import Screen, screen
from bitemporal_core.language.temporal._types import Context, Hit, Period, ResolvedTime

__all__ = [
    "Handler",
    "RuleSet",
    "choose_hit",
    "dedupe",
    "join_range",
    "point",
    "to_resolved",
    "until",
]

Handler = Callable[[re.Match[str], Context], Hit | None]


class RuleSet:
    """Regex rules, each with a handler turning a match into a `Hit` (or None to reject it).

    A rule only runs on texts containing one of the literals all its matches contain (its
    `screen`, see `_prefilter`): most statements name no time, and this is what makes them cheap.
    """

    def __init__(self, flags: re.RegexFlag = re.IGNORECASE) -> None:
        self._flags = flags
        self._rules: list[tuple[re.Pattern[str], Screen | None, Handler]] = []

    def rule(self, pattern: str) -> Callable[[Handler], Handler]:
        """Decorator registering `handler` for `pattern` (earlier rules win ties)."""

        def register(handler: Handler) -> Handler:
            compiled = re.compile(pattern, self._flags)
            self._rules.append((compiled, screen(compiled), handler))
            return handler

        return register

    def find(self, ctx: Context) -> list[Hit]:
        """The hits of every rule in `ctx.text`, rule by rule."""
        hits: list[Hit] = []
        text = ctx.text
        lowered = text.lower() if text.isascii() else None
        for pattern, needed, handler in self._rules:
            if needed is not None and not needed.admits(text, lowered):
                continue
            for m in pattern.finditer(text):
                try:
                    hit = handler(m, ctx)
                # A date outside years 1..9999, or a spelling the word tables do not list (the
                # rules match case-insensitively, so "ſunday" matches as "sunday").
                except (ValueError, OverflowError, KeyError):
                    continue
                if hit is not None:
                    hits.append(hit)
        return hits


def point(m: re.Match[str], period: Period | None, rank: int = 1) -> Hit | None:
    """A point hit spanning the match's `core` group (the whole match without one)."""
    if period is None:
        return None
    start, end = m.span("core") if "core" in m.re.groupindex else m.span()
    return Hit(start, end, period, rank=rank)


def dedupe(hits: list[Hit]) -> list[Hit]:
    """Leftmost-longest hits that do not overlap, in text order (stable: rule order breaks ties)."""
    kept: list[Hit] = []
    for hit in sorted(hits, key=lambda h: (h.start, -h.end, -h.rank)):
        if not kept or hit.start >= kept[-1].end:
            kept.append(hit)
    return kept


def _align(first: Period, last: Period) -> tuple[Period, Period]:
    """Give a range's ends consistent years when one of them had none written."""
    if last.floating and not (first.floating and last.start >= first.start):
        for n in (first.start.year - last.start.year, first.start.year - last.start.year + 1):
            moved = shift_years(last, n)
            if moved is not None and moved.end > first.start:
                return first, moved
    elif first.floating and not last.floating:
        for n in (last.start.year - first.start.year, last.start.year - first.start.year - 1):
            moved = shift_years(first, n)
            if moved is not None and moved.start < last.end:
                return moved, last
    return first, last


def join_range(start: int, end: int, first: Period, last: Period) -> Hit | None:
    """The range `[first.start, last.end)` at `text[start:end]`, None when it is reversed."""
    first, last = _align(first, last)
    if last.end <= first.start:
        return None
    rank = 3 if not (first.floating or last.floating) else 2
    return Hit(start, end, first, last, rank=rank)


def until(hit: Hit, start: int, today: date) -> Hit:
    """ "until X": valid from the moment said to the end of X; blocked when X is already over
    (the start is then unknown, and the statement time would be wrong)."""
    end_period = hit.last or hit.first
    if end_period.end <= today:
        return attrs.evolve(hit, start=start, blocked=True)
    return Hit(start, hit.end, end_period, end_period, open_start=True, rank=hit.rank)


_ADJACENT = re.compile(r"[\s,]*(?:(?:the|on|at)\s+)?", re.IGNORECASE)


def choose_hit(hits: list[Hit], text: str) -> Hit | None:
    """The first usable hit; a more precise one right after it ("last Friday, March 1") wins."""
    usable = [h for h in hits if not h.blocked]
    if not usable:
        return None
    best = usable[0]
    for nxt in usable[1:]:
        gap = _ADJACENT.fullmatch(text, best.end, nxt.start)
        if gap is None or nxt.rank <= best.rank:
            break
        best = attrs.evolve(nxt, start=best.start)
    return best


def _midnight(d: date, tz: tzinfo | None) -> datetime:
    return datetime.combine(d, time(), tzinfo=tz).astimezone(UTC)


def to_resolved(hit: Hit, ctx: Context) -> ResolvedTime:
    """The public result of `hit`: calendar days are read in `said_at`'s timezone, given in UTC."""
    tz = ctx.said_at.tzinfo
    if hit.open_start:
        start = ctx.said_at.astimezone(UTC)
    elif hit.first.instant is not None:
        start = hit.first.instant.astimezone(UTC)
    else:
        start = _midnight(hit.first.start, tz)
    end = None if hit.last is None else _midnight(hit.last.end, tz)
    return ResolvedTime(
        valid_from=start,
        valid_to=end,
        expression=ctx.text[hit.start : hit.end],
        granularity=(hit.last if hit.open_start and hit.last else hit.first).granularity,
    )
