"""LangChain adapters over the bitemporal core (docs/design.md, "Adapters"): thin, no storage
logic.

- `BitemporalMemory`: the classic `BaseMemory` (langchain_classic) for chains.
- `BitemporalChatMessageHistory`: messages per session, facts from what the user says.
- `BitemporalRetriever`: memories valid at a basis, as Documents.
- `BitemporalMemoryMiddleware`: memory for `langchain.agents.create_agent`.
- `create_memory_tools`: recall / remember / supersede / correct / retract / history tools.
- `BitemporalStore`: a LangGraph `BaseStore` (long-term memory of `create_agent(store=...)`).
"""

from __future__ import annotations

from .chat_history import BitemporalChatMessageHistory
from .memory import BitemporalMemory
from .middleware import BitemporalMemoryMiddleware
from .retriever import BitemporalRetriever
from .store import BitemporalStore, ReadOnlyStoreError
from .tools import TOOL_NAMES, create_memory_tools

__all__ = [
    "TOOL_NAMES",
    "BitemporalChatMessageHistory",
    "BitemporalMemory",
    "BitemporalMemoryMiddleware",
    "BitemporalRetriever",
    "BitemporalStore",
    "ReadOnlyStoreError",
    "create_memory_tools",
]
