"""bitemporal-memory: a graph-native bitemporal memory for conversational LLM agents.

Every fact carries valid time (when it is true in the world) and transaction time (when the
memory learned it); recall is ranked by the RecallM concept graph and pinned to a `Basis`.
This module is the public API: adapters and applications import from here.
"""

from __future__ import annotations

from bitemporal_core.backends.port import Backend
from bitemporal_core.backends.sealed import FileKeyStore, KeyStore
from bitemporal_core.errors import (
    BackendError,
    BitemporalError,
    ConfigurationError,
    EmbeddingMismatch,
    ExtractorUnavailable,
    FutureTime,
    InvalidInput,
    InvalidInterval,
    KeyStoreError,
    MessageConflict,
    NaiveDatetime,
    NotCurrent,
    NotFound,
    ReadOnlyStore,
    StoreInUse,
    SupersededFact,
    TimeRegression,
)
from bitemporal_core.language.extract import (
    ChineseExtractor,
    ConceptExtractor,
    MultilingualExtractor,
    SimpleExtractor,
    SpacyExtractor,
    StanzaExtractor,
    default_extractor,
)
from bitemporal_core.language.kinds import ABSTRACTION, KINDS
from bitemporal_core.language.temporal import ResolvedTime, TimeResolver, default_resolver
from bitemporal_core.model import (
    UNSET,
    Abstraction,
    Basis,
    Change,
    Claim,
    Concept,
    ConceptEdge,
    Fact,
    Formation,
    Hit,
    InferredEdge,
    Lineage,
    Message,
    RankContribution,
    Turn,
    Unset,
    Update,
    Usage,
)
from bitemporal_core.providers.embeddings import (
    BaseEmbedder,
    E5Embedder,
    Embedder,
    MiniLMEmbedder,
    as_embedder,
)
from bitemporal_core.providers.llm import LLM, OpenAIChat, as_llm
from bitemporal_core.providers.tokens import ApproxCounter, TokenCounter, default_counter
from bitemporal_core.ranking.decay import Lifecycle
from bitemporal_core.ranking.fusion import Weights
from bitemporal_core.ranking.recallm import RankedConcept, RecallParams
from bitemporal_core.services.recall import ConceptView
from bitemporal_core.store import MemoryStore, ScopedStore
from bitemporal_core.views.graph import plot_concept_graph, plot_question_graph
from bitemporal_core.views.mpl import cjk_font
from bitemporal_core.views.prompt import (
    fact_metadata,
    format_line,
    hit_metadata,
    render_context,
    validity_label,
)
from bitemporal_core.views.timeline import Timeline, plot_timeline

__version__ = "0.1.0"

__all__ = [
    "ABSTRACTION",
    "KINDS",
    "LLM",
    "UNSET",
    "Abstraction",
    "ApproxCounter",
    "Backend",
    "BackendError",
    "BaseEmbedder",
    "Basis",
    "BitemporalError",
    "Change",
    "ChineseExtractor",
    "Claim",
    "Concept",
    "ConceptEdge",
    "ConceptExtractor",
    "ConceptView",
    "ConfigurationError",
    "E5Embedder",
    "Embedder",
    "EmbeddingMismatch",
    "ExtractorUnavailable",
    "Fact",
    "FileKeyStore",
    "Formation",
    "FutureTime",
    "Hit",
    "InferredEdge",
    "InvalidInput",
    "InvalidInterval",
    "KeyStore",
    "KeyStoreError",
    "Lifecycle",
    "Lineage",
    "MemoryStore",
    "Message",
    "MessageConflict",
    "MiniLMEmbedder",
    "MultilingualExtractor",
    "NaiveDatetime",
    "NotCurrent",
    "NotFound",
    "OpenAIChat",
    "RankContribution",
    "RankedConcept",
    "ReadOnlyStore",
    "RecallParams",
    "ResolvedTime",
    "ScopedStore",
    "SimpleExtractor",
    "SpacyExtractor",
    "StanzaExtractor",
    "StoreInUse",
    "SupersededFact",
    "TimeRegression",
    "TimeResolver",
    "Timeline",
    "TokenCounter",
    "Turn",
    "Unset",
    "Update",
    "Usage",
    "Weights",
    "__version__",
    "as_embedder",
    "as_llm",
    "cjk_font",
    "default_counter",
    "default_extractor",
    "default_resolver",
    "fact_metadata",
    "format_line",
    "hit_metadata",
    "plot_concept_graph",
    "plot_question_graph",
    "plot_timeline",
    "render_context",
    "validity_label",
]
