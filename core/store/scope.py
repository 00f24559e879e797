"""Argument helpers of the store's methods."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bitemporal_core.common.times import require_aware
from bitemporal_core.errors import ConfigurationError, InvalidInput
from bitemporal_core.language.detect import check_language
from bitemporal_core.model import Basis, Formation, Unset
from bitemporal_core.ranking.decay import Lifecycle

if TYPE_CHECKING:
    from bitemporal_core.backends.port import Backend
    from bitemporal_core.backends.sealed import KeyStore

__all__ = [
    "check_options",
    "key_store",
    "language_option",
    "opt_end",
    "opt_time",
    "resolved_basis",
    "sealed",
]


def key_store(keys: object) -> KeyStore | None:
    """The `keys=` option as a key store: a `KeyStore`, a folder (`FileKeyStore`) or None."""
    if keys is None:
        return None
    try:
        from bitemporal_core.backends.sealed import FileKeyStore, KeyStore
    except ImportError as e:
        raise ConfigurationError(
            "keys= needs the cryptography package: pip install 'bitemporal-memory[sealed]'"
        ) from e
    if isinstance(keys, (str, os.PathLike)):
        return FileKeyStore(keys)
    if isinstance(keys, KeyStore):
        return keys
    raise InvalidInput(f"keys must be a KeyStore or a folder path, not {type(keys).__name__}")


def sealed(backend: Backend, keys: KeyStore | None) -> Backend:
    """The engine, its namespaces sealed with keys from `keys` if given."""
    if keys is None:
        return backend
    from bitemporal_core.backends.sealed.backend import SealedBackend

    return SealedBackend(backend, keys)


def resolved_basis(basis: Basis | None) -> Basis:
    """A checked basis with "now" pinned on both axes where it is open."""
    if basis is not None and not isinstance(basis, Basis):
        raise InvalidInput(f"basis must be a Basis, not {type(basis).__name__}")
    return (basis or Basis()).resolved()


def opt_time(value: datetime | None, name: str) -> datetime | None:
    """An optional time argument: None, or an aware datetime."""
    return None if value is None else require_aware(value, name)


def opt_end(value: datetime | Unset | None) -> datetime | Unset | None:
    """A `valid_to` argument: not given, None (open), or an aware datetime."""
    return value if isinstance(value, Unset) else opt_time(value, "valid_to")


def language_option(value: str | None) -> str | None:
    """A call's `language=`: None keeps the store's choice."""
    return None if value is None else check_language(value)


def check_options(
    *,
    lifecycle: object,
    formation: object,
    clock: Callable[[], datetime] | None,
    preload: object,
    max_clock_skew: object,
) -> None:
    """The store's constructor options that are checked before anything is built."""
    if lifecycle is not None and not isinstance(lifecycle, Lifecycle):
        raise InvalidInput("lifecycle must be a Lifecycle")
    if formation is not None and not isinstance(formation, Formation):
        raise InvalidInput("formation must be a Formation")
    if clock is not None and not callable(clock):
        raise InvalidInput("clock must be a callable returning an aware datetime")
    if not isinstance(preload, bool):
        raise InvalidInput("preload must be True or False")
    if not isinstance(max_clock_skew, timedelta) or max_clock_skew < timedelta(0):
        raise InvalidInput("max_clock_skew must be a timedelta of zero or more")
