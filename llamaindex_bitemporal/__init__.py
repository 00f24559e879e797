"""LlamaIndex adapters over the bitemporal core (docs/design.md, "Adapters"): thin, no storage
logic.

- `BitemporalChatStore`: a `BaseChatStore` (one session of a namespace per key).
- `BitemporalMemoryBlock`: a `BaseMemoryBlock` for `llama_index.core.memory.Memory`.
- `BitemporalMemory`: a `BaseMemory` for chat engines and workflow agents.
- `BitemporalRetriever`: a `BaseRetriever` returning facts with validity and provenance.
"""

from __future__ import annotations

from .chat_store import BitemporalChatStore
from .memory import BitemporalMemory
from .memory_block import BitemporalMemoryBlock
from .retriever import BitemporalRetriever

__all__ = [
    "BitemporalChatStore",
    "BitemporalMemory",
    "BitemporalMemoryBlock",
    "BitemporalRetriever",
]
