"""The exception family: every error raised on purpose derives from `BitemporalError`."""

from __future__ import annotations

__all__ = [
    "BackendError",
    "BitemporalError",
    "ConfigurationError",
    "EmbeddingMismatch",
    "ExtractorUnavailable",
    "FutureTime",
    "InvalidInput",
    "InvalidInterval",
    "KeyStoreError",
    "MessageConflict",
    "NaiveDatetime",
    "NotCurrent",
    "NotFound",
    "ReadOnlyStore",
    "StoreInUse",
    "SupersededFact",
    "TimeRegression",
]


class BitemporalError(Exception):
    """Root of the library's exceptions; catch this to catch them all."""

    kind: str = "error"


class InvalidInput(BitemporalError, ValueError):
    """An argument has the wrong type or an unusable value (empty text, bad namespace...)."""

    kind = "invalid_input"


class InvalidInterval(InvalidInput):
    """A time interval is empty or reversed (`valid_to <= valid_from`)."""

    kind = "invalid_interval"


class NaiveDatetime(InvalidInput):
    """A datetime without a timezone was given; all times must be timezone-aware."""

    kind = "naive_datetime"


class FutureTime(InvalidInput):
    """An explicit transaction time lies further past the engine's clock than the store's
    `max_clock_skew` allows (a typo in `at` would otherwise hide every later write)."""

    kind = "future_time"


class SupersededFact(InvalidInput):
    """A correction would make a superseded fact valid again where its successor is."""

    kind = "superseded_fact"


class MessageConflict(InvalidInput):
    """A message id already names another message (other text, session or role) in the
    namespace; the stored message is kept unchanged."""

    kind = "message_conflict"


class TimeRegression(BitemporalError):
    """An explicit transaction time is earlier than the namespace's latest transaction time."""

    kind = "time_regression"


class NotFound(BitemporalError, LookupError):
    """No fact (or message) with the given id exists."""

    kind = "not_found"


class NotCurrent(BitemporalError):
    """The fact has no current version (it was retracted or superseded)."""

    kind = "not_current"


class ExtractorUnavailable(BitemporalError):
    """A concept extractor (spaCy, Stanza) or its model cannot be loaded."""

    kind = "extractor_unavailable"


class ConfigurationError(BitemporalError):
    """The store or an adapter was configured inconsistently."""

    kind = "configuration"


class StoreInUse(ConfigurationError):
    """Another open store in this process already uses the embedded database at this path, or
    another process holds it open for writing."""

    kind = "store_in_use"


class ReadOnlyStore(BitemporalError):
    """A write was asked of a store opened read-only (or of a database the server keeps
    read-only); nothing was written."""

    kind = "read_only"


class BackendError(BitemporalError):
    """The storage engine failed (connection, transaction, schema)."""

    kind = "backend"


class KeyStoreError(BackendError):
    """A sealed namespace's key could not be read, created or destroyed, or does not open
    what the engine holds for the namespace (destroyed, or kept in another key store)."""

    kind = "key_store"


class EmbeddingMismatch(ConfigurationError, InvalidInput):
    """Vectors of another length than expected: an embedder whose dimension changed, a batch
    of unequal lengths, or a namespace whose dimension (fixed at its first embedded write)
    differs from the embedder's. Nothing is written."""

    kind = "embedding_mismatch"
