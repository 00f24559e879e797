"""Calendar arithmetic shared by the language rules (proleptic Gregorian, ISO weeks)."""

from __future__ import annotations

import calendar
from collections.abc import Callable
from datetime import date, datetime, timedelta

import attrs

from bitemporal_core.language.temporal._types import Period, Tense

__all__ = [
    "SEASON_MONTH",
    "add_months",
    "add_years",
    "choose",
    "day",
    "easter",
    "month",
    "next_weekday",
    "nth_weekday",
    "prev_weekday",
    "safe_date",
    "season",
    "shift",
    "shift_years",
    "week",
    "week_start",
    "year",
]

DAY = timedelta(days=1)
# Northern meteorological seasons: the month each one starts (winter Y starts in December Y).
SEASON_MONTH = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


def safe_date(y: int, m: int, d: int) -> date | None:
    """The date, or None when it does not exist (February 30, year 0)."""
    try:
        return date(y, m, d)
    except ValueError:
        return None


def add_months(d: date, n: int) -> date:
    """`d` moved by `n` calendar months, the day clamped to the target month's length."""
    index = d.year * 12 + d.month - 1 + n
    y, m = divmod(index, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


def add_years(d: date, n: int) -> date:
    """`d` moved by `n` years (February 29 becomes February 28)."""
    return add_months(d, 12 * n)


def week_start(d: date) -> date:
    """The Monday of `d`'s ISO week."""
    return d - timedelta(days=d.weekday())


def day(d: date, granularity: str = "day", *, floating: bool = False) -> Period:
    return Period(d, d + DAY, granularity, floating=floating)


def week(d: date) -> Period:
    start = week_start(d)
    return Period(start, start + 7 * DAY, "week")


def month(y: int, m: int, *, floating: bool = False) -> Period:
    start = date(y, m, 1)
    return Period(start, add_months(start, 1), "month", floating=floating)


def year(y: int) -> Period:
    return Period(date(y, 1, 1), date(y + 1, 1, 1), "year")


def season(y: int, name: str, *, floating: bool = False) -> Period:
    start = date(y, SEASON_MONTH[name], 1)
    return Period(start, add_months(start, 3), "season", floating=floating)


def shift(said_at: datetime, n: int, unit: str) -> Period | None:
    """The point `n` units (negative: back) from `said_at`, as a day (or an instant); None
    when it falls outside the calendar (years 1 to 9999)."""
    try:
        return _shift(said_at, n, unit)
    except (ValueError, OverflowError):
        return None


def _shift(said_at: datetime, n: int, unit: str) -> Period:
    today = said_at.date()
    if unit in ("hour", "minute"):
        moment = said_at + timedelta(hours=n) if unit == "hour" else said_at + timedelta(minutes=n)
        return Period(moment.date(), moment.date() + DAY, "instant", instant=moment)
    if unit in ("day", "week", "fortnight"):
        size = {"day": 1, "week": 7, "fortnight": 14}[unit]
        return day(today + timedelta(days=n * size), "day" if unit == "day" else "week")
    if unit == "month":
        return day(add_months(today, n), "month")
    if unit == "decade":
        return day(add_years(today, 10 * n), "decade")
    return day(add_years(today, n), "year")


def shift_years(p: Period, n: int) -> Period | None:
    """A floating period moved by `n` years (None if the day does not exist then)."""
    start = safe_date(p.start.year + n, p.start.month, p.start.day)
    if start is None:
        return None
    return Period(start, start + (p.end - p.start), p.granularity, floating=p.floating)


def prev_weekday(today: date, wd: int, *, inclusive: bool = False) -> date:
    """The latest weekday `wd` (0 = Monday) before `today` (or on it if `inclusive`)."""
    back = (today.weekday() - wd) % 7
    if back == 0 and not inclusive:
        back = 7
    return today - timedelta(days=back)


def next_weekday(today: date, wd: int, *, inclusive: bool = False) -> date:
    """The earliest weekday `wd` after `today` (or on it if `inclusive`)."""
    ahead = (wd - today.weekday()) % 7
    if ahead == 0 and not inclusive:
        ahead = 7
    return today + timedelta(days=ahead)


def nth_weekday(y: int, m: int, wd: int, n: int) -> date:
    """The `n`-th weekday `wd` of a month (n = -1: the last one)."""
    if n < 0:
        last = date(y, m, calendar.monthrange(y, m)[1])
        return prev_weekday(last, wd, inclusive=True)
    first = date(y, m, 1)
    return next_weekday(first, wd, inclusive=True) + timedelta(days=7 * (n - 1))


def easter(y: int) -> date:
    """Western Easter Sunday (anonymous Gregorian algorithm)."""
    a, b, c = y % 19, y // 100, y % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * el) // 433
    mon = (h + el - 7 * m + 90) // 25
    return date(y, mon, (h + el - 7 * m + 33 * mon + 19) % 32)


def choose(make: Callable[[int], Period | None], today: date, tense: Tense) -> Period | None:
    """Pick the occurrence of a period without a written year.

    Past tense: the latest one that started by `today`; future: the earliest one not over before
    `today`; otherwise the one containing `today`, else the nearest (ties go to the past).
    """
    found = [make(today.year + k) for k in (-2, -1, 0, 1, 2)]
    options = [attrs.evolve(p, floating=True) for p in found if p is not None]
    if not options:
        return None
    if tense == "past":
        past = [p for p in options if p.start <= today]
        return past[-1] if past else None
    if tense == "future":
        future = [p for p in options if p.end > today]
        return future[0] if future else None
    for p in options:
        if p.start <= today < p.end:
            return p

    def distance(p: Period) -> tuple[int, int]:
        gap = (p.start - today).days if p.start > today else (today - p.end).days + 1
        return gap, 1 if p.start > today else 0

    return min(options, key=distance)
