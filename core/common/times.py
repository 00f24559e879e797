"""Time helpers: everything is timezone-aware UTC; naive datetimes are refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bitemporal_core.errors import InvalidInput, InvalidInterval, NaiveDatetime

__all__ = [
    "END_OF_TIME",
    "TICK",
    "check_interval",
    "parse_time",
    "require_aware",
    "require_tx_time",
    "to_utc",
    "utcnow",
]

# Open intervals are stored with this sentinel so range predicates stay index-friendly.
END_OF_TIME = datetime(9999, 12, 31, tzinfo=UTC)
# Transaction times start here: the engines store a new namespace's clock as this instant.
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The smallest step both engines keep (microseconds).
TICK = timedelta(microseconds=1)


def utcnow() -> datetime:
    """Now, in UTC, truncated to microseconds."""
    return datetime.now(UTC)


def require_aware(value: object, name: str) -> datetime:
    """Return `value` as a UTC datetime, or raise if it is not an aware datetime."""
    if not isinstance(value, datetime):
        raise InvalidInput(f"{name} must be a datetime, not {type(value).__name__}")
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise NaiveDatetime(f"{name} is a naive datetime; give a timezone-aware one (UTC)")
    return to_utc(value)


def require_tx_time(value: object, name: str = "at") -> datetime:
    """A transaction time: aware, from 1970 (the Unix epoch) to before END_OF_TIME. Valid
    times may lie anywhere before END_OF_TIME; only the memory's own clock starts at 1970."""
    when = require_aware(value, name)
    if not EPOCH < when < END_OF_TIME:
        raise InvalidInput(
            f"{name}={when.isoformat()} is outside the transaction-time range: a transaction "
            "time (when the memory learned something) must be after 1970-01-01 and before 9999"
        )
    return when


def to_utc(value: datetime) -> datetime:
    """Convert an aware datetime to UTC; a naive one is read as UTC (engines return naive UTC)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError as e:  # e.g. 9999-12-31T23:00-05:00 is in year 10000 in UTC
        raise InvalidInput(
            f"{value.isoformat()} is outside the supported range once converted to UTC"
        ) from e


def parse_time(text: str, name: str = "time") -> datetime:
    """Parse an ISO-8601 timestamp (a `Z` suffix allowed); naive input is an error."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError as e:
        raise InvalidInput(f"{name}: not an ISO-8601 time: {repr(text)[:60]}") from e
    return require_aware(value, name)


def check_interval(start: datetime, end: datetime | None, what: str = "valid time") -> None:
    """Refuse an empty or reversed half-open interval `[start, end)`."""
    if end is not None and end <= start:
        raise InvalidInterval(
            f"{what} interval is empty or reversed: [{start.isoformat()}, {end.isoformat()})"
        )
    if start >= END_OF_TIME or (end is not None and end > END_OF_TIME):
        raise InvalidInterval(f"{what} is beyond the supported range (before year 9999)")
