"""bitemporal-memory: a graph-native bitemporal memory for conversational LLM agents.

Every fact carries valid time (when it is true in the world) and transaction time (when the
memory learned it); recall is ranked by the RecallM concept graph and pinned to a `Basis`.
"""

from __future__ import annotations

from ._recall import ConceptView
from .errors import (
    BackendError,
    BitemporalError,
    ConfigurationError,
    ExtractorUnavailable,
    InvalidInput,
    InvalidInterval,
    NaiveDatetime,
    NotCurrent,
    NotFound,
    TimeRegression,
)
from .lifecycle import ABSTRACTION, KINDS, Abstraction, InferredEdge, Lifecycle
from .model import UNSET, Basis, Concept, Fact, Hit, Lineage, Message, Timeline
from .prompt import render_context
from .recallm import RankedConcept, RecallParams
from .store import MemoryStore

__version__ = "0.1.0"

__all__ = [
    "ABSTRACTION",
    "KINDS",
    "UNSET",
    "Abstraction",
    "BackendError",
    "Basis",
    "BitemporalError",
    "Concept",
    "ConceptView",
    "ConfigurationError",
    "ExtractorUnavailable",
    "Fact",
    "Hit",
    "InferredEdge",
    "InvalidInput",
    "InvalidInterval",
    "Lifecycle",
    "Lineage",
    "MemoryStore",
    "Message",
    "NaiveDatetime",
    "NotCurrent",
    "NotFound",
    "RankedConcept",
    "RecallParams",
    "TimeRegression",
    "Timeline",
    "__version__",
    "render_context",
]
