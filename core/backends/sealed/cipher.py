"""Deterministic encryption of a namespace's strings (AES-SIV), so equal values still match
in the engine's lookups, merges and joins while the engine holds no readable text."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESSIV

from bitemporal_core.errors import KeyStoreError

__all__ = ["Seal"]


class Seal:
    """Encrypts and decrypts the strings of one namespace with its key.

    A seal made while the namespace had no key (`later`: how to read the key again) opens
    what a first write sealed meanwhile: a read that raced that write finds its data."""

    def __init__(
        self, namespace: str, key: bytes, *, later: Callable[[], bytes | None] | None = None
    ) -> None:
        self.namespace = namespace
        self._aead = AESSIV(key)
        self._later = later

    def enc(self, text: str) -> str:
        """The sealed form of a string (URL-safe base64, no padding)."""
        data = self._aead.encrypt(text.encode("utf-8", "surrogatepass"), None)
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")

    def dec(self, value: str) -> str:
        """The string a sealed form came from; `KeyStoreError` if this key did not seal it."""
        try:
            data = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
            try:
                return self._aead.decrypt(data, None).decode("utf-8", "surrogatepass")
            except InvalidTag:
                key, self._later = (self._later() if self._later else None), None
                if key is None:
                    raise
                self._aead = AESSIV(key)
                return self._aead.decrypt(data, None).decode("utf-8", "surrogatepass")
        except (InvalidTag, ValueError, TypeError) as e:
            raise KeyStoreError(
                f"namespace {self.namespace!r} holds data its key does not open (its key was"
                " destroyed or is kept in another key store, or the data was written unsealed)"
            ) from e

    def enc_opt(self, text: str | None) -> str | None:
        return None if text is None else self.enc(text)

    def dec_opt(self, value: str | None) -> str | None:
        return None if value is None else self.dec(value)

    def enc_all(self, texts: Iterable[str]) -> tuple[str, ...]:
        return tuple(self.enc(t) for t in texts)

    def dec_all(self, values: Iterable[str]) -> tuple[str, ...]:
        return tuple(self.dec(v) for v in values)
