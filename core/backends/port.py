"""The storage port: what the services need of an engine, as small role protocols.

An engine implements every role (`Backend` is their sum); each service is typed against the
roles it uses. Writes go through one role, the transaction log: a namespace's clock and an
atomic write of batches. The rest are focused reads and the few operational writes of the
memory lifecycle. Port values are the public model types plus the batch types below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

import attrs

from bitemporal_core.model import (
    Claim,
    Concept,
    ConceptEdge,
    Fact,
    InferredEdge,
    Lineage,
    Message,
    Usage,
)

__all__ = [
    "ALL",
    "Backend",
    "Clock",
    "Erasure",
    "FactReads",
    "Link",
    "MessageLog",
    "NewClaim",
    "NewFact",
    "NewMessage",
    "NewVersion",
    "RecallFilter",
    "RecallReads",
    "RecallScope",
    "TransactionLog",
    "Upkeep",
    "WriteBatch",
    "WriteResult",
]


@attrs.frozen(kw_only=True)
class Clock:
    """A namespace's transaction-time state, read together with the engine's clock."""

    last_tx: datetime | None
    t_index: int
    now: datetime


@attrs.frozen(kw_only=True)
class NewFact:
    """A new lineage node."""

    id: str
    supersedes: str | None = None


@attrs.frozen(kw_only=True)
class NewVersion:
    """A version to create, recorded at the batch's transaction time."""

    fact_id: str
    version_id: str
    text: str
    valid_from: datetime
    valid_to: datetime | None
    version: int
    said_at: datetime | None = None  # when the statement was first said (None: the batch's at)
    source: str | None = None
    speaker: str | None = None
    session: str | None = None
    kind: str = "said"
    supersedes: str | None = None
    language: str = "en"  # the language the statement was analysed in ("en", "zh")
    concepts: tuple[tuple[str, str], ...] = ()  # (key, display) mentioned by this text
    terms: tuple[tuple[str, int], ...] = ()  # (stem, term frequency) for keyword search
    length: int = 0  # number of content terms (BM25 document length)
    embedding: tuple[float, ...] | None = None  # unit vector, when an embedder is configured
    category: str = "memory"  # what the statement is (memory, question, greeting, ...)


@attrs.frozen(kw_only=True)
class NewClaim:
    """A claim of a new version, about an entity (created if the namespace lacks it)."""

    id: str
    version_id: str
    claim: Claim
    entity_name: str  # how the subject was named ("Tom", "my sister", "user")
    entity_kind: str  # "speaker", "person", "relation", "unknown"
    lookups: tuple[str, ...] = ()  # the keys the claim is found by (`FactReads.keyed_claims`)


@attrs.frozen(kw_only=True)
class Link:
    """A SUPERSEDES link from a new lineage to the one it replaces, with why."""

    fact: str
    replaced: str
    reason: str = "explicit"
    confidence: float = 1.0


@attrs.frozen(kw_only=True)
class NewMessage:
    """A raw message to store (kept if a message with the same id already exists)."""

    id: str
    session: str | None
    role: str | None
    text: str


@attrs.frozen(kw_only=True)
class RecallFilter:
    """What recall reads may return beyond the basis: statement kinds, archived memories.

    An archived version is hidden from reads whose `known_at` is at or after its archiving
    (operational metadata: snapshots and histories never look at it).
    """

    kinds: tuple[str, ...] | None = None  # None: every kind but "talk"
    include_archived: bool = False

    def params(self) -> dict[str, object]:
        """The query parameters every engine's recall statements take."""
        return {
            "any_kind": self.kinds is None,
            "kinds": list(self.kinds or ()),
            "with_archived": self.include_archived,
        }


ALL = RecallFilter()
"""Every kind, archived memories excluded (the default of recall reads)."""


@attrs.frozen(kw_only=True)
class RecallScope:
    """What one recall read may return: a namespace's versions valid at `valid_at` as known
    at `known_at`, filtered by `where`."""

    namespace: str
    valid_at: datetime
    known_at: datetime
    where: RecallFilter = ALL

    def params(self) -> dict[str, object]:
        """The query parameters of the scope (namespace, basis and filter)."""
        return {
            "ns": self.namespace,
            "valid_at": self.valid_at,
            "known_at": self.known_at,
            **self.where.params(),
        }


@attrs.frozen(kw_only=True)
class WriteBatch:
    """Everything one public call writes, applied in one transaction or not at all.

    Preconditions checked inside the transaction: the namespace's latest transaction time is
    not after `at` (else `TimeRegression`), and every version in `close` is still current
    (else `NotCurrent`).
    """

    namespace: str
    at: datetime
    close: tuple[str, ...] = ()
    facts: tuple[NewFact, ...] = ()
    versions: tuple[NewVersion, ...] = ()
    messages: tuple[NewMessage, ...] = ()
    # Concepts co-mentioned by new statements: (key, display) per concept and the RELATED pairs
    # to strengthen. A batch with statements advances the namespace's t_index by one.
    concepts: tuple[tuple[str, str], ...] = ()
    relate: tuple[tuple[str, str], ...] = ()
    advance_t_index: bool = False
    # Concept summaries written by an LLM, (key, text): each replaces the concept's current
    # summary (closed at `at`), so an as-of read sees the summary known then.
    summaries: tuple[tuple[str, str], ...] = ()
    # ABSTRACTS links: (abstraction version id, summarised version id).
    abstracts: tuple[tuple[str, str], ...] = ()
    # Memory formation: the claims of new versions, the SUPERSEDES links written (with their
    # reasons), links undone (fact, replaced), and the people the conversation mentioned
    # most recently (kept on the namespace to resolve pronouns; unchanged if empty).
    claims: tuple[NewClaim, ...] = ()
    links: tuple[Link, ...] = ()
    undo: tuple[tuple[str, str], ...] = ()
    recent: tuple[str, ...] = ()
    # Facts archived out of default recall at `at` (`prune`): every version gets `archived_at`.
    archive: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class WriteResult:
    """What the engine decided while applying a batch."""

    at: datetime
    t_index: int


class TransactionLog(Protocol):
    """A namespace's transaction time and the only way facts are written: atomic batches."""

    def clock(self, namespace: str) -> Clock:
        """The namespace's latest transaction time and t_index, with the engine's now."""
        ...

    def apply_many(self, batches: Sequence[WriteBatch]) -> list[WriteResult]:
        """Apply batches of one namespace in order, atomically, checking each batch's
        preconditions inside the transaction."""
        ...


class FactReads(Protocol):
    """Fact versions by lineage, by basis, or all of a namespace."""

    def lineage(self, fact_id: str) -> Lineage | None:
        """All versions of a fact, oldest first, or None if no such fact exists."""
        ...

    def snapshot(self, namespace: str, valid_at: datetime, known_at: datetime) -> list[Fact]:
        """Every version valid at `valid_at` as known at `known_at`."""
        ...

    def versions(self, namespace: str, known_at: datetime | None) -> list[Fact]:
        """Every version known at `known_at` (all versions ever, if None), by valid_from."""
        ...

    def namespaces(self) -> list[str]:
        """The namespaces that hold anything."""
        ...

    def claims(
        self, namespace: str, subjects: Sequence[str], at: datetime
    ) -> list[tuple[Fact, Claim]]:
        """The current versions (believed now, valid at or after `at`) holding claims about
        these subject entities, with those claims."""
        ...

    def keyed_claims(
        self, namespace: str, lookups: Sequence[str], at: datetime
    ) -> list[tuple[Fact, Claim]] | None:
        """The current facts at `at` holding claims stored under any of these lookup keys,
        with those claims; None for a namespace written before claims had keys (read its
        subjects with `claims`)."""
        ...

    def version_claims(
        self, namespace: str, version_ids: Sequence[str]
    ) -> dict[str, tuple[Claim, ...]]:
        """The claims of each of these versions of a namespace (those without any are
        missing)."""
        ...

    def recent(self, namespace: str) -> tuple[str, ...]:
        """The entities the namespace's conversation mentioned most recently, newest first."""
        ...


class RecallReads(Protocol):
    """The reads of one recall: the concept graph, mentions, keyword and vector ranks."""

    def concept_graph(
        self,
        namespace: str,
        keys: Sequence[str],
        *,
        hops: int,
        window: int,
        known_at: datetime | None = None,
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        """The concepts within `hops` of the given keys whose t_index lies within `window`
        below their start concept's, and the RELATED edges among them; as the graph was at
        `known_at` (each concept's t_index and each edge's strength and t_index from the
        writes recorded by then), or as it is now if None."""
        ...

    def mentions(
        self, scope: RecallScope, keys: Sequence[str], per_concept: int
    ) -> list[tuple[str, Fact]]:
        """Visible versions mentioning each concept, newest first, at most `per_concept` each."""
        ...

    def keyword_search(
        self, scope: RecallScope, terms: Sequence[str], k: int
    ) -> list[tuple[Fact, float]]:
        """The `k` best visible versions by BM25 over `terms` (content-word stems), best first;
        document frequencies, the number of documents and their mean length count the
        versions recorded by `scope.known_at`."""
        ...

    def vector_search(
        self, scope: RecallScope, vector: Sequence[float], k: int
    ) -> list[tuple[Fact, float]]:
        """The `k` visible versions nearest to a unit vector (cosine), best first."""
        ...

    def concepts(self, namespace: str, limit: int) -> list[Concept]:
        """A namespace's concepts, most recently updated first."""
        ...

    def mention_counts(self, namespace: str, keys: Sequence[str]) -> dict[str, int]:
        """How many fact versions ever mentioned each concept (for summary cadence)."""
        ...

    def summaries(self, namespace: str, keys: Sequence[str], known_at: datetime) -> dict[str, str]:
        """Each concept's summary as known at `known_at`, where one exists."""
        ...

    def inferred(
        self, namespace: str, keys: Sequence[str] | None, known_at: datetime | None = None
    ) -> list[InferredEdge]:
        """Inferred relationships touching the given concepts (all of them if None), as
        known at `known_at` (a refreshed edge is a new version of it), or current if None."""
        ...


class MessageLog(Protocol):
    """Raw messages per namespace and session, and the facts remembered from them."""

    def message(self, namespace: str, msg_id: str) -> Message | None:
        """The stored message of a namespace with this id, if any."""
        ...

    def messages(self, namespace: str, session: str | None, limit: int | None) -> list[Message]:
        """Stored messages of a namespace (and session, if given), oldest first."""
        ...

    def last_messages(
        self, namespace: str, sessions: Sequence[str], limit: int
    ) -> dict[str, list[Message]]:
        """The last `limit` messages (oldest first) of each of these sessions that has any,
        read in one statement."""
        ...

    def remembered(self, namespace: str, ids: Sequence[str]) -> list[tuple[str, str, Fact | None]]:
        """For each given message id that is stored: (message id, message text, version) for
        every version linked to the message, or one row with None for a message that gave no
        fact (a question kept as a message only)."""
        ...

    def sessions(self, namespace: str) -> list[str]:
        """The sessions that hold messages in a namespace, by first message."""
        ...

    def delete_messages(
        self, namespace: str, session: str | None, ids: Sequence[str] | None
    ) -> int:
        """Physically delete messages (of a session, or by id); facts keep their source ids."""
        ...


class Erasure(Protocol):
    """Physical deletion (right to be forgotten)."""

    def forget_namespace(self, namespace: str) -> int:
        """Physically delete everything of a namespace; return the number of nodes removed."""
        ...

    def forget_fact(self, fact_id: str) -> int:
        """Physically delete a lineage, its orphaned message, concepts and terms."""
        ...

    def compact(self) -> bool:
        """Rewrite the engine's files without what deletions left in them, if the engine can
        (the embedded one); return whether anything was rewritten."""
        ...


class Upkeep(Protocol):
    """Operational metadata, never part of what a basis sees: use counts, archiving,
    abstraction links, inferred relationships, and the lookup keys of older claims."""

    def record_use(self, namespace: str, counts: Mapping[str, int], at: datetime) -> None:
        """Add uses (recalled or injected) to lineages, last used at `at`."""
        ...

    def usage(self, namespace: str, fact_ids: Sequence[str]) -> dict[str, Usage]:
        """The use counts of lineages (those never used may be missing)."""
        ...

    def archive(self, namespace: str, fact_ids: Sequence[str], at: datetime) -> int:
        """Hide lineages' versions from recall reads known at or after `at`; the count."""
        ...

    def abstraction_members(self, version_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """For each abstraction version, the version ids it summarises."""
        ...

    def citing(self, fact_id: str) -> list[str]:
        """The abstraction lineages that summarise a version of this fact."""
        ...

    def citing_current(self, fact_ids: Sequence[str]) -> list[str]:
        """The current versions of abstractions that quote a version of these facts."""
        ...

    def write_inferred(self, namespace: str, edges: Sequence[InferredEdge], at: datetime) -> int:
        """Add or refresh inferred relationships (one current per src, dst and type: a
        refresh closes the one before at `at`, so a read as known earlier still sees it)."""
        ...

    def unkeyed_claims(self, namespace: str) -> list[tuple[str, Claim]] | None:
        """Every claim of a namespace written before claims had lookup keys, by claim id;
        None once its claims are filed under keys (or it holds nothing)."""
        ...

    def file_claims(self, namespace: str, keys: Mapping[str, Sequence[str]]) -> None:
        """File these claims (by id) under their lookup keys and mark the namespace's claims
        keyed, in one transaction (nothing if another call filed them first)."""
        ...


@runtime_checkable
class Backend(TransactionLog, FactReads, RecallReads, MessageLog, Erasure, Upkeep, Protocol):
    """A storage engine: every role. Every read filters by namespace (and basis where one is
    given)."""

    name: str
    read_only: bool  # every write raises `ReadOnlyStore` before touching the engine

    def close(self) -> None:
        """Release what the backend owns (never a driver the caller passed in)."""
        ...
