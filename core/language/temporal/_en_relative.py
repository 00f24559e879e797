"""English rules for expressions relative to the moment said: "yesterday", "three days ago",
"in two weeks", "last month", "next Friday", "two weekends ago"..."""

from __future__ import annotations

import re
from datetime import date, timedelta

from bitemporal_core.language.temporal._calendar import (
    add_months,
    day,
    month,
    next_weekday,
    prev_weekday,
    shift,
    week,
    week_start,
    year,
)
from bitemporal_core.language.temporal._en_words import (
    HALF_RE,
    NUM_RE,
    UNIT_RE,
    WEEKDAY_RE,
    WEEKDAYS,
    number,
    sentence_start,
    unit,
)
from bitemporal_core.language.temporal._rules import RuleSet, point
from bitemporal_core.language.temporal._types import Context, Hit, Period

__all__ = ["RELATIVE", "unit_period", "weekday_date", "weekend"]

RELATIVE = RuleSet()

_DAY_WORDS = {
    "the day before yesterday": -2,
    "the day after tomorrow": 2,
    "yesterday": -1,
    "last night": -1,
    "tomorrow": 1,
}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


@RELATIVE.rule(
    r"\b(?P<core>(?P<w>the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|yesterday|"
    r"today|tonight|tomorrow|last\s+night|this\s+(?:morning|afternoon|evening)|"
    r"(?:earlier|later)\s+today)(?:\s+(?:morning|afternoon|evening|night))?)\b"
)
def _day_word(m: re.Match[str], ctx: Context) -> Hit | None:
    offset = _DAY_WORDS.get(_norm(m.group("w")), 0)
    return point(m, day(ctx.today + timedelta(days=offset)))


def weekend(today: date, n: int) -> Period:
    """The Saturday of a weekend: n = -1 the last completed one, 0 this week's, 1 the next one
    to start (never the current one), 2 the one after..."""
    if n == 0:
        return day(week_start(today) + timedelta(days=5), "weekend")
    if n < 0:
        return day(week_start(today) + timedelta(days=5 + 7 * n), "weekend")
    first = next_weekday(today, 5)
    if today.weekday() == 6:
        first += timedelta(days=7)
    return day(first + timedelta(days=7 * (n - 1)), "weekend")


_FINER = {
    "decade": (120, "month"),
    "year": (12, "month"),
    "month": (30, "day"),
    "fortnight": (14, "day"),
    "week": (7, "day"),
    "day": (24, "hour"),
    "hour": (60, "minute"),
    "minute": (1, "minute"),
}


def _offset(ctx: Context, n: float, unit_name: str, half: str | None = None) -> Period | None:
    """The point `n` units from the moment said; halves ("a year and a half") in finer units."""
    n += 0.5 if half else 0.0
    if unit_name == "weekend":
        return weekend(ctx.today, int(n))
    if n != int(n):
        factor, unit_name = _FINER[unit_name]
        n = round(n * factor)
    return shift(ctx.said_at, int(n), unit_name)


@RELATIVE.rule(rf"\b(?P<core>(?P<num>{NUM_RE})\s+(?P<unit>{UNIT_RE})(?P<half>{HALF_RE})\s+ago)\b")
def _ago(m: re.Match[str], ctx: Context) -> Hit | None:
    n = number(m.group("num")) + (0.5 if m.group("half") else 0.0)
    return point(m, _offset(ctx, -n, unit(m.group("unit"))))


@RELATIVE.rule(
    rf"\b(?P<core>in\s+(?P<num>{NUM_RE})\s+(?P<unit>{UNIT_RE})(?P<half>{HALF_RE})(?:['’]?\s+time)?|"
    rf"(?P<num2>{NUM_RE})\s+(?P<unit2>{UNIT_RE})\s+from\s+(?:now|today))\b"
)
def _later(m: re.Match[str], ctx: Context) -> Hit | None:
    if m.group("num") is not None:
        if ctx.tense == "past":  # "I lost 5 kg in two weeks": a duration
            return None
        n, unit_word = m.group("num"), m.group("unit")
    else:
        n, unit_word = m.group("num2"), m.group("unit2")
    return point(m, _offset(ctx, number(n), unit(unit_word), m.group("half")))


_PERFECT = re.compile(
    r"\b(?:have|has|['’]ve)\s+(?:(?:not|never|always|just|now)\s+)?(?:been|had|known|gone|"
    r"kept|run|taught|held|[a-z]+ed)\b|['’]s\s+been\b",
    re.IGNORECASE,
)


@RELATIVE.rule(
    rf"\b(?:for|in|over|during|within|throughout)\s+the\s+(?P<core>(?:past|last|previous)\s+"
    rf"(?:(?P<num>{NUM_RE})\s+)?(?P<unit>{UNIT_RE}))\b"
)
def _rolling(m: re.Match[str], ctx: Context) -> Hit | None:
    n = number(m.group("num")) if m.group("num") else 1
    return point(m, _offset(ctx, -n, unit(m.group("unit"))))


@RELATIVE.rule(rf"\bfor\s+(?P<core>(?P<num>{NUM_RE})\s+(?P<unit>{UNIT_RE}))(?P<now>\s+now)?\b")
def _duration_so_far(m: re.Match[str], ctx: Context) -> Hit | None:
    """ "I have lived here for five years": the state began five years ago."""
    if m.group("now") is None and not _PERFECT.search(ctx.text):
        return None
    return point(m, _offset(ctx, -number(m.group("num")), unit(m.group("unit"))))


_MOD = {
    "last": -1,
    "previous": -1,
    "this past": -1,
    "next": 1,
    "coming": 1,
    "this coming": 1,
    "following": 1,
    "this": 0,
    "current": 0,
    "before last": -2,
    "after next": 2,
}


def unit_period(today: date, n: int, unit_name: str) -> Period:
    """The calendar week/month/year/weekend/decade `n` steps from the one containing `today`."""
    if unit_name == "weekend":
        return weekend(today, n)
    if unit_name in ("week", "fortnight"):
        return week(today + timedelta(days=7 * n))
    if unit_name == "month":
        shifted = add_months(today, n)
        return month(shifted.year, shifted.month)
    if unit_name == "decade":
        start = (today.year // 10 + n) * 10
        return Period(date(start, 1, 1), date(start + 10, 1, 1), "decade")
    return year(today.year + n)


@RELATIVE.rule(
    r"\b(?P<core>(?P<mod>last|previous|this\s+past|next|this\s+coming|coming|following|this|"
    r"current)\s+(?P<unit>week|fortnight|month|year|weekend|decade)|the\s+(?P<unit2>week|month|"
    r"year|weekend)\s+(?P<mod2>before\s+last|after\s+next))\b"
)
def _calendar_unit(m: re.Match[str], ctx: Context) -> Hit | None:
    """ "last week", "next month", "the year before last"; not "the last year of my degree"."""
    mod, unit_word = m.group("mod") or m.group("mod2"), m.group("unit") or m.group("unit2")
    if m.group("mod") and _THE_BEFORE.search(ctx.text, max(0, m.start() - 10), m.start()):
        return None
    return point(m, unit_period(ctx.today, _MOD[_norm(mod)], unit_word.lower()))


_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)


@RELATIVE.rule(
    r"\b(?:over|on|at|during|for)\s+(?P<core>the\s+weekend)\b(?!\s+(?:of|before|after)\b)"
)
def _the_weekend(m: re.Match[str], ctx: Context) -> Hit | None:
    """ "over the weekend": the latest one (or the current one) in a past-tense sentence, the
    coming one otherwise."""
    current = weekend(ctx.today, 0)
    if ctx.tense == "past":
        return point(m, current if current.start <= ctx.today else weekend(ctx.today, -1))
    return point(m, current if ctx.today.weekday() < 6 else weekend(ctx.today, 1))


@RELATIVE.rule(r"\b(?P<core>this\s+time\s+(?P<mod>last|next)\s+(?P<unit>week|month|year))\b")
def _this_time(m: re.Match[str], ctx: Context) -> Hit | None:
    n = -1 if m.group("mod").lower() == "last" else 1
    p = shift(ctx.said_at, n, m.group("unit").lower())
    return point(m, None if p is None else day(p.start))


@RELATIVE.rule(
    r"\b(?:the\s+)?(?P<core>(?P<edge>end|beginning|start|middle)\s+of\s+(?:the\s+)?"
    r"(?:(?P<mod>last|previous|next|coming|this|current)\s+)?(?P<unit>week|month|year))\b"
)
def _edge_of(m: re.Match[str], ctx: Context) -> Hit | None:
    mod = _norm(m.group("mod") or "this")
    p = unit_period(ctx.today, _MOD[mod], m.group("unit").lower())
    edge = m.group("edge").lower()
    if edge == "end":
        target = p.end - timedelta(days=1)
    elif edge == "middle":
        target = p.start + (p.end - p.start) / 2
    else:
        target = p.start
    return point(m, day(target))


def weekday_date(today: date, wd: int, how: str, ctx: Context) -> date:
    """Which `wd` a modifier or preposition means (see the rule's docstring)."""
    if how in ("last", "past", "this past"):
        return prev_weekday(today, wd)
    if how in ("next", "coming", "this coming"):
        return next_weekday(today, wd)
    if how == "this":
        if ctx.tense == "future":
            return next_weekday(today, wd, inclusive=True)
        if ctx.tense == "past":
            return prev_weekday(today, wd, inclusive=True)
        return week_start(today) + timedelta(days=wd)
    if how == "since" or (how in ("until", "till", "til", "through", "by") and ctx.tense == "past"):
        return prev_weekday(today, wd, inclusive=True)
    if how in ("until", "till", "til", "through", "by"):
        return next_weekday(today, wd, inclusive=True)
    before, after = prev_weekday(today, wd), next_weekday(today, wd)
    if ctx.tense == "past":
        return before
    if ctx.tense == "future":
        return after
    return before if today - before <= after - today else after


# A sentence-initial weekday is a time when a subject or a comma follows ("Monday I start").
_SUBJECT_NEXT = re.compile(r"\s*,|\s+(?:I|we|you|he|she|they|my|our|his|her|it)\b", re.IGNORECASE)


@RELATIVE.rule(
    r"\b(?:(?P<prep>on|since|until|till|til|through|by|before|after|from)\s+)?"
    r"(?P<core>(?:(?P<mod>last|next|this\s+coming|this\s+past|this|coming|past)\s+)?"
    rf"(?P<wd>{WEEKDAY_RE})(?P<plural>s)?"
    r"(?:\s+(?P<part>morning|afternoon|evening|night)(?P<plural2>s)?)?)\b"
)
def _weekday(m: re.Match[str], ctx: Context) -> Hit | None:
    """A weekday needs a modifier, a preposition or to open the sentence before its subject
    ("Monday I start"; "a Sunday newspaper" is no time); plural
    forms ("on Mondays") are habits, not times. last = the latest before today, next = the
    earliest after today, this = in the current ISO week; a bare "on Friday" follows the tense
    (no tense: the nearest)."""
    if m.group("plural") or m.group("plural2"):
        return None
    how = m.group("mod") or m.group("prep")
    if how is None and not (
        sentence_start(ctx.text, m.start()) and _SUBJECT_NEXT.match(ctx.text, m.end())
    ):
        return None
    wd = WEEKDAYS[m.group("wd").lower()]
    return point(m, day(weekday_date(ctx.today, wd, _norm(how or ""), ctx)))
