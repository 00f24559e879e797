"""The public result and protocol types, and the internal records the rules produce."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import date, datetime
from typing import Literal, Protocol, runtime_checkable

import attrs

from bitemporal_core.errors import InvalidInput, InvalidInterval, NaiveDatetime

__all__ = ["Context", "Hit", "Period", "ResolvedTime", "Tense", "TimeResolver", "aware"]

Tense = Literal["past", "future"] | None


def aware(value: object, name: str) -> datetime:
    """`value` itself if it is a timezone-aware datetime; raise otherwise."""
    if not isinstance(value, datetime):
        raise InvalidInput(f"{name} must be a datetime, not {type(value).__name__}")
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise NaiveDatetime(f"{name} is a naive datetime; give a timezone-aware one (UTC)")
    return value


def _check_from(_: object, attribute: attrs.Attribute[datetime], value: datetime) -> None:
    aware(value, attribute.name)


def _check_to(
    inst: ResolvedTime, attribute: attrs.Attribute[datetime | None], value: object
) -> None:
    if value is None:
        return
    end = aware(value, attribute.name)
    if end <= inst.valid_from:
        raise InvalidInterval(f"valid_to {end.isoformat()} is not after valid_from")


@attrs.frozen
class ResolvedTime:
    """The valid time a statement's text refers to.

    `valid_from` is the start of the referenced period (UTC); `valid_to` is the exclusive end of
    an explicit range ("from June 3 to June 10" ends the day after June 10), else None.
    `expression` is the text span that was resolved; `granularity` is how precise it is
    ("instant", "day", "weekend", "week", "month", "season", "year", "decade").
    """

    valid_from: datetime = attrs.field(validator=_check_from)
    valid_to: datetime | None = attrs.field(validator=_check_to)
    expression: str
    granularity: str


@runtime_checkable
class TimeResolver(Protocol):
    """Finds the valid time in a statement said at `said_at` (timezone-aware)."""

    name: str

    def resolve(self, text: str, said_at: datetime) -> ResolvedTime | None:
        """The statement's valid time, or None when the text has no temporal expression."""
        ...


@attrs.frozen
class Period:
    """A calendar period a rule recognised: `[start, end)` in days of the speaker's calendar."""

    start: date
    end: date
    granularity: str
    instant: datetime | None = None  # an exact moment ("two hours ago")
    floating: bool = False  # the year was chosen by the resolver, not written


@attrs.frozen
class Hit:
    """A recognised expression at `text[start:end]`.

    A point when `last` is None; a range `[first.start, last.end)` otherwise; with `open_start`
    ("until X") the range starts when the statement was said. A `blocked` hit was recognised but
    gives no usable valid time ("until last year": the start is unknown); it only hides its span.
    """

    start: int
    end: int
    first: Period
    last: Period | None = None
    open_start: bool = False
    blocked: bool = False
    rank: int = 1  # 2 for written calendar dates, 3 when they also give the year


def _no_tense(_: str) -> Tense:
    return None


@attrs.frozen
class Context:
    """What the rules know about a statement: the text, when it was said, its tense.

    The tense is worked out by `tense_of` when a rule first asks for it: most statements name
    no time, and no rule then looks at it.
    """

    text: str
    said_at: datetime
    today: date
    tense_of: Callable[[str], Tense] = attrs.field(default=_no_tense, repr=False)

    @functools.cached_property
    def tense(self) -> Tense:
        """The statement's tense as `tense_of` reads it."""
        return self.tense_of(self.text)
