"""LlamaIndex adapters over the bitemporal core (docs/design.md, "Adapters"): thin, no storage
logic.

- `BitemporalChatStore`: a `BaseChatStore` (one session of a namespace per key), for
  `ChatMemoryBuffer` and the other users of that interface.
- `BitemporalDBChatStore`: the chat store of `llama_index.core.memory.Memory`
  (`Memory.from_defaults(chat_store=...)`), remembering each turn as it is added.
- `BitemporalMemoryBlock`: a `BaseMemoryBlock` for `Memory`, taking every turn as it arrives.
- `BitemporalMemory`: a `BaseMemory` for chat engines and workflow agents.
- `BitemporalRetriever`: a `BaseRetriever` returning facts with validity and provenance.
"""

from __future__ import annotations

from .chat_store import BitemporalChatStore
from .db_chat_store import BitemporalDBChatStore
from .memory import BitemporalMemory
from .memory_block import BitemporalMemoryBlock
from .retriever import BitemporalRetriever

__all__ = [
    "BitemporalChatStore",
    "BitemporalDBChatStore",
    "BitemporalMemory",
    "BitemporalMemoryBlock",
    "BitemporalRetriever",
]
