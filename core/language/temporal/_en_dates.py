"""English rules for calendar dates: "15 February", "March 3rd, 2022", "2023-11-20", "May 2021",
"in 2019", "the 90s", "last summer", "Christmas Eve", "from 2 to 5 March"..."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from bitemporal_core.language.temporal._calendar import (
    add_months,
    choose,
    day,
    easter,
    month,
    nth_weekday,
    safe_date,
    season,
    year,
)
from bitemporal_core.language.temporal._en_words import (
    MONTH_FULL_RE,
    MONTH_RE,
    ORD_RE,
    ORDINALS,
    WEEKDAY_RE,
    WEEKDAYS,
    month_number,
    ordinal,
)
from bitemporal_core.language.temporal._rules import RuleSet, join_range, point
from bitemporal_core.language.temporal._types import Context, Hit, Period, Tense

__all__ = ["DATES", "day_in_year", "month_in_year", "pick_day", "pick_month"]

DATES = RuleSet()

_YEAR = r"(?:1[89]|20)\d\d"
_PAST_MODS = ("last", "past", "this past", "the last", "the past", "previous")
_NEXT_MODS = ("next", "coming", "this coming", "the next")


def _norm(text: str | None) -> str:
    return " ".join((text or "").lower().split())


def _direction(prep: str, tense: Tense) -> Tense:
    """The tense a preposition implies: "since" looks back, "until" forward (unless past)."""
    if prep == "since":
        return "past"
    if prep in ("until", "till", "til", "by") and tense != "past":
        return "future"
    return tense


def day_in_year(m: int, d: int, y: int | None, today: date, tense: Tense) -> Period | None:
    """The day `d` of month `m`, in year `y`, or in the year the tense suggests."""
    if y is not None:
        found = safe_date(y, m, d)
        return None if found is None else day(found)

    def make(y2: int) -> Period | None:
        found = safe_date(y2, m, d)
        return None if found is None else day(found)

    return choose(make, today, tense)


def month_in_year(m: int, y: int | None, today: date, tense: Tense) -> Period | None:
    if y is not None:
        return month(y, m)
    return choose(lambda y2: month(y2, m), today, tense)


def pick_day(match: re.Match[str], ctx: Context) -> Period | None:
    """The day of a match with groups `d`, `mon` and optional `y` and `prep`; without a
    year, a weekday said before it ("Tuesday 19 March") picks the nearest year it fits."""
    d = ordinal(match.group("d"))
    y = int(match.group("y")) if match.group("y") else None
    mon = month_number(match.group("mon"))
    named = _WEEKDAY_BEFORE.search(ctx.text, 0, match.start("core"))
    if y is None and named is not None:
        weekday = WEEKDAYS.get(named.group("wd").lower(), -1)  # not "ſunday"
        fits = [
            found
            for year in (ctx.today.year - 1, ctx.today.year, ctx.today.year + 1)
            if (found := safe_date(year, mon, d)) is not None and found.weekday() == weekday
        ]
        if fits:
            return day(min(fits, key=lambda f: abs((f - ctx.today).days)))
    tense = _direction(_norm(match.groupdict().get("prep")), ctx.tense)
    return day_in_year(mon, d, y, ctx.today, tense)


_WEEKDAY_BEFORE = re.compile(rf"\b(?P<wd>{WEEKDAY_RE}),?\s+(?:the\s+)?$", re.IGNORECASE)


def pick_month(match: re.Match[str], ctx: Context) -> Period | None:
    y = int(match.group("y")) if match.group("y") else None
    return month_in_year(month_number(match.group("mon")), y, ctx.today, ctx.tense)


def _rank(match: re.Match[str]) -> int:
    return 3 if match.groupdict().get("y") else 2


@DATES.rule(
    r"\b(?P<core>(?P<y>\d{4})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2}))\b(?![-/.]\d)"
)
def _iso(m: re.Match[str], ctx: Context) -> Hit | None:
    found = safe_date(int(m.group("y")), int(m.group("m")), int(m.group("d")))
    return point(m, None if found is None else day(found), rank=3)


@DATES.rule(rf"\b(?P<core>(?P<y>{_YEAR})-(?P<m>0[1-9]|1[0-2]))\b(?![-/.]\d)")
def _iso_month(m: re.Match[str], ctx: Context) -> Hit | None:
    return point(m, month(int(m.group("y")), int(m.group("m"))), rank=3)


@DATES.rule(r"\b(?P<core>(?P<a>\d{1,2})(?P<sep>[/.])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}))\b")
def _numeric(m: re.Match[str], ctx: Context) -> Hit | None:
    """dd/mm/yyyy or mm/dd/yyyy when only one reading is possible; dd.mm.yyyy always."""
    a, b, y = int(m.group("a")), int(m.group("b")), int(m.group("y"))
    if a > 12 or m.group("sep") == ".":
        found = safe_date(y, b, a)
    elif b > 12:
        found = safe_date(y, a, b)
    else:
        return None
    return point(m, None if found is None else day(found), rank=3)


@DATES.rule(
    r"\b(?:(?P<prep>on|since|until|till|til|by|from|before|after)\s+)?"
    rf"(?P<core>(?:the\s+)?(?P<d>{ORD_RE})\s+(?:of\s+)?(?P<mon>{MONTH_RE})"
    rf"(?:,?\s+(?P<y>{_YEAR}))?)(?![\w'’])"
)
def _day_month(m: re.Match[str], ctx: Context) -> Hit | None:
    return point(m, pick_day(m, ctx), rank=_rank(m))


_FIRST_NAMES = ("april", "may", "june", "august")
_CLAUSE_END = re.compile(r"\s*(?:[,.;!?)]|$|[-–—]|(?:to|until|till|through|and)\b)", re.IGNORECASE)


@DATES.rule(
    r"\b(?:(?P<prep>on|since|until|till|til|by|from|before|after)\s+)?"
    rf"(?P<core>(?P<mon>{MONTH_RE})\s+(?:the\s+)?(?P<d>{ORD_RE})(?:,?\s+(?P<y>{_YEAR}))?)"
    r"(?![\w'’]|\s*(?:%|[:.]\d))"
)
def _month_day(m: re.Match[str], ctx: Context) -> Hit | None:
    """ "June 3", "March 3rd, 2022"; a month that is also a first name, with a bare number and
    no preposition or year, is a person ("I gave May 5 dollars")."""
    plain = not (m.group("prep") or m.group("y")) and m.group("d").isdigit()
    name_like = plain and m.group("mon").lower() in _FIRST_NAMES
    if name_like and not _CLAUSE_END.match(ctx.text, m.end()):
        return None
    return point(m, pick_day(m, ctx), rank=_rank(m))


_ORD_WORDS = "|".join(sorted(ORDINALS, key=len, reverse=True)).replace(" ", r"\s+")
# A lone day number reads as a date only before a clause boundary or a function word.
_AFTER_LONE_DAY = re.compile(
    r"\s*(?:[,.;!?)]|$)|\s+(?:at|and|to|until|till|through|in|for|I|we|you|he|she|they|my|our)\b",
    re.IGNORECASE,
)


def _lone_day(d: int, prep: str, ctx: Context) -> Period | None:
    """Day `d` of a month near today (as the tense says; the nearest without one)."""
    first = ctx.today.replace(day=1)
    found = [safe_date(x.year, x.month, d) for x in (add_months(first, k) for k in range(-2, 3))]
    options = [x for x in found if x is not None]
    tense = _direction(prep, ctx.tense)
    if tense == "past":
        options = [x for x in options if x <= ctx.today][-1:]
    elif tense == "future":
        options = [x for x in options if x >= ctx.today][:1]
    if not options:
        return None
    return day(min(options, key=lambda x: (abs((x - ctx.today).days), x > ctx.today)))


@DATES.rule(
    r"\b(?P<prep>on|by|until|till|til|since|from|before|after)\s+the\s+"
    rf"(?P<core>(?P<d>[0-3]?\d(?:st|nd|rd|th)|{_ORD_WORDS}))\b"
)
def _day_of_month(m: re.Match[str], ctx: Context) -> Hit | None:
    """ "on the 3rd", "until the 20th": a day of this month or a neighbouring one."""
    if not _AFTER_LONE_DAY.match(ctx.text, m.end()):
        return None
    d = ordinal(m.group("d"))
    return point(m, _lone_day(d, _norm(m.group("prep")), ctx) if 1 <= d <= 31 else None)


@DATES.rule(rf"\b(?P<core>(?P<mon>{MONTH_RE}),?\s+(?:of\s+)?(?P<y>{_YEAR}))\b")
def _month_year(m: re.Match[str], ctx: Context) -> Hit | None:
    return point(m, pick_month(m, ctx), rank=3)


# A month name followed by these reads as a person's name ("since May started school").
_NAME_NEXT = re.compile(
    r"\s*(?:['’]s\b|\s(?:is|was|has|had|said|says|told|asks|asked|and\s+I|[a-z]+ed)\b)"
)
_EDGE_DAY = {"early": 1, "the beginning of": 1, "the start of": 1, "mid": 11}
_EDGE_DAY |= {"the middle of": 11, "late": 21, "the end of": 21}


def _month_by_mod(mon: int, mod: str, prep: str, ctx: Context) -> Period | None:
    first_of_month = ctx.today.replace(day=1)
    options = [month(ctx.today.year + k, mon) for k in (-1, 0, 1)]
    if mod in _PAST_MODS:
        return [p for p in options if p.end <= first_of_month][-1]
    if mod in _NEXT_MODS:
        return next(p for p in options if p.start > ctx.today)
    if mod == "this":
        return month(ctx.today.year, mon)
    return month_in_year(mon, None, ctx.today, _direction(prep, ctx.tense))


@DATES.rule(
    r"\b(?:(?P<prep>in|since|until|till|til|through|throughout|by|during|from|before|after|of|"
    r"around|for)\s+)?(?P<core>(?:(?P<mod>last|next|this\s+past|this\s+coming|this|coming|past|"
    r"early|late|mid|the\s+end\s+of|the\s+beginning\s+of|the\s+start\s+of|the\s+middle\s+of)"
    rf"[-\s]+)?(?P<mon>{MONTH_FULL_RE}))\b"
)
def _month_context(m: re.Match[str], ctx: Context) -> Hit | None:
    """A month name alone needs a preposition or modifier ("May is my friend" is no time)."""
    mod, prep = _norm(m.group("mod")), _norm(m.group("prep"))
    if not (mod or prep) or _NAME_NEXT.match(ctx.text, m.end()):
        return None
    p = _month_by_mod(month_number(m.group("mon")), mod, prep, ctx)
    if p is not None and mod in _EDGE_DAY:
        p = day(p.start + timedelta(days=_EDGE_DAY[mod] - 1), "month", floating=p.floating)
    return point(m, p, rank=2)


@DATES.rule(
    r"\b(?P<prep>in|since|until|till|til|through|throughout|by|during|from|before|after|of|"
    rf"around|circa|early|late|mid|the\s+year|between)[-\s]+(?P<core>(?P<y>{_YEAR}))\b"
    r"(?!\s*%|[.,]\d)"
)
def _year_context(m: re.Match[str], ctx: Context) -> Hit | None:
    """A year needs a preposition: "in 2019", "since 2019", "early 2020"."""
    return point(m, year(int(m.group("y"))), rank=3)


@DATES.rule(
    r"\b(?:in|during|since|from|through|throughout|of|until|by)\s+(?:the\s+)?(?:early\s+|late\s+|"
    r"mid[-\s])?(?P<core>(?:(?P<c>1[89]|20)|['’])?(?P<d>\d)0['’]?s)\b"
)
def _decade(m: re.Match[str], ctx: Context) -> Hit | None:
    if m.group("c"):
        start = int(m.group("c") + m.group("d") + "0")
    else:
        start = 2000 + int(m.group("d")) * 10
        if start > ctx.today.year:
            start -= 100
    return point(m, Period(date(start, 1, 1), date(start + 10, 1, 1), "decade"), rank=2)


def _season_occurrence(name: str, mod: str, prep: str, ctx: Context) -> Period | None:
    options = [season(ctx.today.year + k, name, floating=True) for k in (-2, -1, 0, 1)]
    if mod in _PAST_MODS:
        return [p for p in options if p.end <= ctx.today][-1]
    if mod in _NEXT_MODS:
        return next(p for p in options if p.start > ctx.today)
    current = [p for p in options if p.start <= ctx.today < p.end]
    if mod == "this":
        return current[0] if current else season(ctx.today.year, name, floating=True)
    return choose(lambda y: season(y, name), ctx.today, _direction(prep, ctx.tense))


@DATES.rule(
    r"\b(?:(?P<prep>in|during|since|until|till|til|through|throughout|by|over|from|before|after"
    r")\s+)?(?P<core>(?:(?P<mod>last|next|this\s+past|this\s+coming|this|past|coming|the)\s+)?"
    r"(?:(?P<edge>early|late|mid)[-\s])?(?P<s>spring|summer|autumn|fall|winter)"
    rf"(?:\s+(?:of\s+)?(?P<y>{_YEAR}))?)\b(?!\s+of\s+(?!{_YEAR}))"
)
def _season(m: re.Match[str], ctx: Context) -> Hit | None:
    """A season needs a modifier, a preposition or a year ("a summer job" is no time)."""
    mod, prep, name = _norm(m.group("mod")), _norm(m.group("prep")), m.group("s").lower()
    if not (prep or m.group("y") or mod not in ("", "the")):
        return None
    if m.group("y"):
        p: Period | None = season(int(m.group("y")), name)
    else:
        p = _season_occurrence(name, mod, prep, ctx)
    if p is not None and m.group("edge"):
        months = {"early": 0, "mid": 1, "late": 2}[m.group("edge").lower()]
        p = day(add_months(p.start, months), "season", floating=p.floating)
    return point(m, p, rank=2)


_FIXED_DAYS = {
    "christmas eve": (12, 24),
    "christmas": (12, 25),
    "christmas day": (12, 25),
    "xmas": (12, 25),
    "boxing day": (12, 26),
    "new years eve": (12, 31),
    "new years day": (1, 1),
    "new years": (1, 1),
    "new year": (1, 1),
    "valentines day": (2, 14),
    "valentines": (2, 14),
    "st patricks day": (3, 17),
    "halloween": (10, 31),
    "independence day": (7, 4),
    "the fourth of july": (7, 4),
    "fourth of july": (7, 4),
}
_MOVABLE: dict[str, Callable[[int], date]] = {
    "easter": easter,
    "easter sunday": easter,
    "easter monday": lambda y: easter(y) + timedelta(days=1),
    "good friday": lambda y: easter(y) - timedelta(days=2),
    "thanksgiving": lambda y: nth_weekday(y, 11, 3, 4),
    "thanksgiving day": lambda y: nth_weekday(y, 11, 3, 4),
}
_HOLIDAY_RE = (
    r"christmas\s+eve|christmas\s+day|christmas|xmas|boxing\s+day|new\s+year['’]?s\s+eve|"
    r"new\s+year['’]?s\s+day|new\s+year['’]?s|new\s+year|valentine['’]?s\s+day|valentine['’]?s|"
    r"st\.?\s+patrick['’]?s\s+day|halloween|independence\s+day|(?:the\s+)?fourth\s+of\s+july|"
    r"easter\s+sunday|easter\s+monday|easter|good\s+friday|thanksgiving\s+day|thanksgiving"
)


_LUNAR = re.compile(r"\b(?:chinese|lunar)\s+$", re.IGNORECASE)


def holiday_date(name: str, y: int) -> date:
    """The date of a named day in year `y` (`name` normalised: lower case, no apostrophes)."""
    if name in _MOVABLE:
        return _MOVABLE[name](y)
    mon, d = _FIXED_DAYS[name]
    return date(y, mon, d)


def _holiday_occurrence(name: str, mod: str, ctx: Context) -> date:
    """last: the latest before today; next: the earliest after; this: this year's; no modifier:
    the latest not after today, or the next one when the sentence is in the future tense."""
    options = [holiday_date(name, ctx.today.year + k) for k in (-1, 0, 1)]
    if mod in _PAST_MODS:
        return [d for d in options if d < ctx.today][-1]
    if mod in _NEXT_MODS:
        return next(d for d in options if d > ctx.today)
    if mod == "this":
        return options[1]
    if ctx.tense == "future":
        return next(d for d in options if d >= ctx.today)
    return [d for d in options if d <= ctx.today][-1]


@DATES.rule(
    r"\b(?:(?P<prep>on|at|for|over|during|since|until|till|til|through|before|after|by|around|"
    r"from|of)\s+)?(?P<core>(?:(?P<mod>last|next|this\s+past|this\s+coming|this|the\s+last|"
    rf"the\s+next|the\s+past|coming)\s+)?(?P<hol>{_HOLIDAY_RE})(?:,?\s+(?P<y>{_YEAR}))?)\b"
)
def _holiday(m: re.Match[str], ctx: Context) -> Hit | None:
    """A named day needs a preposition, a modifier or a year ("I love Christmas" is no time)."""
    mod = _norm(m.group("mod"))
    if not (m.group("prep") or mod or m.group("y")):
        return None
    if _LUNAR.search(ctx.text, max(0, m.start("hol") - 20), m.start("hol")):
        return None
    name = re.sub(r"['’.]", "", _norm(m.group("hol")))
    if m.group("y"):
        found = holiday_date(name, int(m.group("y")))
    else:
        found = _holiday_occurrence(name, mod, ctx)
    return point(m, day(found, floating=not m.group("y")), rank=_rank(m))


@DATES.rule(
    r"\b(?P<core>(?:(?P<prep>from|between)\s+)?(?:the\s+)?(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?\s*"
    r"(?P<conn>-|–|—|to|until|till|through|and)\s*(?:the\s+)?(?P<d>[0-3]?\d)(?:st|nd|rd|th)?\s+"
    rf"(?:of\s+)?(?P<mon>{MONTH_RE})(?:,?\s+(?P<y>{_YEAR}))?)\b"
)
def _day_span(m: re.Match[str], ctx: Context) -> Hit | None:
    """ "from 2 to 5 March", "3-7 June 2021": both days in the named month."""
    if m.group("conn").lower() == "and" and not m.group("prep"):
        return None
    last = pick_day(m, ctx)
    if last is None:
        return None
    first = safe_date(last.start.year, last.start.month, int(m.group("d1")))
    if first is None or first > last.start:
        return None
    return join_range(m.start(), m.end(), day(first, floating=last.floating), last)
