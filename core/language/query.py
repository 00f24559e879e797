"""What a question says about time: whether it asks when, and which period it names.

Recall turns this into boosts (docs/design.md, "Ranking"): a question asking when ("When did
Ben move?", "On what day...", "什么时候") favours statements that carry their own time
expression, whose valid time is the answer's day; a question naming a period ("in May 2023",
"last summer", "去年") favours memories said or valid in it. The period comes from the same
rule resolver as statements' valid time, relative to the recall's `valid_at`; a point in time
stands for its whole unit ("May 2023" is the month, "Christmas 2023" the day).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import attrs

from bitemporal_core.language.temporal import TimeResolver

__all__ = ["QueryTime", "query_time"]

# Phrases that ask for a time wherever they stand (English lower-cased, and Chinese).
ASKING_TIME = (
    "what day",
    "what date",
    "which day",
    "which date",
    "what month",
    "which month",
    "what year",
    "which year",
    "what time",
    "how long ago",
    "since when",
    "什么时候",
    "哪天",
    "哪一天",
    "几号",
    "何时",
    "哪年",
    "哪一年",
    "几月",
    "哪个月",
    "什么时间",
)
# "when" asks only as a question word: followed by an auxiliary ("When did..."), not as the
# conjunction of "What was he marking when they caught up?".
_AUXILIARIES = "did do does was were is are will would has have had can could"
_WHEN = re.compile(r"\bwhen (?:" + "|".join(_AUXILIARIES.split()) + r")\b")
_ASKING = re.compile("|".join(re.escape(p) for p in ASKING_TIME))
# How long a resolved point in time lasts, by granularity (months and years by the calendar).
_DAYS = {"instant": 1, "day": 1, "weekend": 2, "week": 7}
_MONTHS = {"month": 1, "season": 3, "year": 12, "decade": 120}


@attrs.frozen(kw_only=True)
class QueryTime:
    """What a question says about time: `asks_when`, and the period `[start, end)` it names."""

    asks_when: bool = False
    window: tuple[datetime, datetime] | None = None


def query_time(question: str, resolver: TimeResolver | None, now: datetime) -> QueryTime:
    """The time a question asks about, its period resolved against `now` (the basis)."""
    lowered = question.lower()
    asks = bool(_WHEN.search(lowered) or _ASKING.search(lowered))
    resolved = resolver.resolve(question, now) if resolver is not None else None
    if resolved is None:
        return QueryTime(asks_when=asks)
    start = resolved.valid_from
    end = resolved.valid_to or _end(start, resolved.granularity)
    return QueryTime(asks_when=asks, window=(start, end))


def _end(start: datetime, granularity: str) -> datetime:
    """The end of the unit a resolved point stands for."""
    months = _MONTHS.get(granularity)
    if months is None:
        return start + timedelta(days=_DAYS.get(granularity, 1))
    total = start.month - 1 + months
    try:
        return start.replace(year=start.year + total // 12, month=total % 12 + 1, day=1)
    except ValueError:  # beyond year 9999
        return datetime.max.replace(tzinfo=start.tzinfo)
