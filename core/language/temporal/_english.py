"""English: find the hits of all rules, drop titles, join ranges ("from X to Y", "between X and
Y", "until X")."""

from __future__ import annotations

import re
from datetime import datetime

from bitemporal_core.language.temporal._calendar import day, month, next_weekday, safe_date, year
from bitemporal_core.language.temporal._en_dates import DATES
from bitemporal_core.language.temporal._en_relative import RELATIVE
from bitemporal_core.language.temporal._en_words import (
    MONTH_FULL_RE,
    WEEKDAY_RE,
    WEEKDAYS,
    english_tense,
    looks_like_title,
    month_number,
)
from bitemporal_core.language.temporal._rules import dedupe, join_range, until
from bitemporal_core.language.temporal._types import Context, Hit, Period

__all__ = ["english_hits"]

_RANGE_BEFORE = re.compile(r"\b(?:from|between)\s+(?:the\s+)?$", re.IGNORECASE)
_CONNECTOR = re.compile(
    r"\s*(?P<c>to|until|till|til|through|thru|and|-|–|—)\s*(?:the\s+)?", re.IGNORECASE
)
_DASHES = ("-", "–", "—")
_UNTIL_BEFORE = re.compile(  # "went through this week" is done, not "until"
    r"\b(?:until|till|til|(?<!went\s)(?<!gone\s)(?<!goes\s)(?<!going\s)(?<!came\s)(?<!comes\s)"
    r"through|up\s+(?:to|until))"
    r"\s+(?:the\s+)?$|['’]til\s+$",
    re.IGNORECASE,
)
_OPEN_END = re.compile(r"(?:now|(?:the\s+)?present|date|today)\b", re.IGNORECASE)
_REL_YEAR = re.compile(r"(?P<y>(?:1[89]|20)\d\d|\d\d)\b(?![-/.:]\d)")
_REL_MONTH = re.compile(
    rf"(?P<mon>{MONTH_FULL_RE})(?:,?\s+(?P<y>(?:1[89]|20)\d\d))?\b", re.IGNORECASE
)
_REL_MONTH_DAY = re.compile(
    rf"(?P<mon>{MONTH_FULL_RE})\s+(?:the\s+)?(?P<d>[0-3]?\d)(?:st|nd|rd|th)?\b", re.IGNORECASE
)
_REL_WEEKDAY = re.compile(rf"(?P<wd>{WEEKDAY_RE})\b", re.IGNORECASE)
_REL_DAY = re.compile(r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?\b(?!\s*(?:%|[:.]\d))", re.IGNORECASE)


def _relaxed(text: str, pos: int, first: Period) -> tuple[Period, int] | None:
    """The end of a range written without the context a lone expression needs:
    "between 2015 and 2018", "from May to July", "from Monday to Friday", "June 3-10"."""
    if first.granularity == "year" and (m := _REL_YEAR.match(text, pos)):
        value = int(m.group("y"))
        value += first.start.year // 100 * 100 if value < 100 else 0
        return year(value), m.end()
    if first.granularity in ("month", "year") and (m := _REL_MONTH.match(text, pos)):
        y = int(m.group("y")) if m.group("y") else first.start.year
        p = month(y, month_number(m.group("mon")), floating=m.group("y") is None)
        return p, m.end()
    if first.granularity == "day" and (m := _REL_MONTH_DAY.match(text, pos)):
        mon, d = month_number(m.group("mon")), int(m.group("d"))
        found = safe_date(first.start.year, mon, d)
        return (day(found, floating=first.floating), m.end()) if found else None
    if first.granularity == "day" and (m := _REL_WEEKDAY.match(text, pos)):
        found = next_weekday(first.start, WEEKDAYS[m.group("wd").lower()])
        return day(found), m.end()
    if first.granularity == "day" and (m := _REL_DAY.match(text, pos)):
        found = safe_date(first.start.year, first.start.month, int(m.group("d")))
        if found is not None and found >= first.start:
            return day(found, floating=first.floating), m.end()
    return None


def _join(x: Hit, nxt: Hit | None, ctx: Context) -> tuple[Hit, bool] | None:
    """`x` joined with what follows into a range; the flag says whether `nxt` was used."""
    text = ctx.text
    c = _CONNECTOR.match(text, x.end)
    if c is None:
        return None
    word = c.group("c").lower()
    before = _RANGE_BEFORE.search(text, max(0, x.start - 20), x.start)
    if before is None and word not in _DASHES and x.rank < 2:
        return None
    if word == "and" and (before is None or not before.group(0).lower().startswith("between")):
        return None
    start = before.start() if before else x.start
    if word != "and" and (m := _OPEN_END.match(text, c.end())):
        return Hit(start, m.end(), x.first, rank=x.rank), False
    if nxt is not None and x.end <= nxt.start <= c.end() and nxt.last is None:
        joined = join_range(start, nxt.end, x.first, nxt.first)
        return (joined, True) if joined else None
    relaxed = _relaxed(text, c.end(), x.first)
    if relaxed is None:
        return None
    joined = join_range(start, relaxed[1], x.first, relaxed[0])
    return (joined, False) if joined else None


def compose(hits: list[Hit], ctx: Context) -> list[Hit]:
    """Join ranges, then turn "until X" into ranges from the moment said."""
    out: list[Hit] = []
    i = 0
    while i < len(hits):
        x = hits[i]
        joined = (
            None
            if x.last is not None
            else _join(x, hits[i + 1] if i + 1 < len(hits) else None, ctx)
        )
        if joined is None:
            out.append(x)
            i += 1
        else:
            out.append(joined[0])
            i += 2 if joined[1] else 1
    for k, hit in enumerate(out):
        if hit.last is None and (
            m := _UNTIL_BEFORE.search(ctx.text, max(0, hit.start - 20), hit.start)
        ):
            out[k] = until(hit, m.start(), ctx.today)
    return out


def english_hits(text: str, said_at: datetime) -> list[Hit]:
    """The English expressions of `text` (said at `said_at`), in text order."""
    ctx = Context(text, said_at, said_at.date(), english_tense)
    found = RELATIVE.find(ctx) + DATES.find(ctx)
    hits = [h for h in found if not looks_like_title(text, h.start, h.end)]
    return compose(dedupe(hits), ctx)
