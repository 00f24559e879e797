"""The public API: `MemoryStore` (the facade over the services) and `ScopedStore` (one
namespace of it)."""

from bitemporal_core.store.memory import MemoryStore
from bitemporal_core.store.scoped import ScopedStore

__all__ = ["MemoryStore", "ScopedStore"]
