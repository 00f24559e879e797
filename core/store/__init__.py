"""The public API: `MemoryStore` (the facade over the services)."""

from bitemporal_core.store.memory import MemoryStore

__all__ = ["MemoryStore"]
