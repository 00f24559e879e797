"""Sealed namespaces: an engine wrapper that encrypts every stored string with a key per
namespace kept outside the engine, and destroys the key on `forget` (`SealedBackend`,
`FileKeyStore`). Needs the `cryptography` package (`pip install 'bitemporal-memory[sealed]'`).
"""

from __future__ import annotations

from bitemporal_core.backends.sealed.keys import FileKeyStore, KeyStore

__all__ = ["FileKeyStore", "KeyStore"]
