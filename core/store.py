"""`MemoryStore`: the public API of the bitemporal memory (DESIGN §2), on any storage engine."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

import attrs

from ._async import Closing, twin
from ._bulk import prepare_item, remember_batch, repeat_of
from ._bulk import remember_many as _remember_many
from ._commit import commit
from ._lifecycle import LifecycleMixin, recall_filter
from ._pool import AnalysisPool
from ._recall import ConceptView, Ranker, ranked
from ._statements import Analyser
from ._supersession import (
    concept_summaries,
    llm_kinds,
    moved_predecessor,
    replaced_facts,
    truncated,
)
from ._time import check_interval, require_aware
from ._uses import UseRecorder
from ._validate import (
    check_count,
    check_id,
    check_ids,
    check_kind,
    check_namespace,
    check_optional_name,
    check_text,
)
from ._versions import check_meta, new_version, to_fact
from .backends._port import Backend, ConceptEdge, NewFact, NewMessage, WriteBatch
from .embeddings import as_embedder
from .errors import InvalidInput, NotCurrent, NotFound
from .extract import ConceptExtractor
from .lifecycle import Lifecycle
from .llm import as_llm
from .model import UNSET, Basis, Concept, Fact, Hit, Lineage, Message, Timeline, Unset
from .prompt import render_context
from .recallm import RecallParams
from .temporal import TimeResolver
from .tokens import TokenCounter, default_counter

__all__ = ["MemoryStore"]

R = TypeVar("R")
Mode = Literal["hybrid", "recallm"]


def _new_id() -> str:
    return uuid.uuid4().hex


def _opt_time(value: datetime | None, name: str) -> datetime | None:
    return None if value is None else require_aware(value, name)


class MemoryStore(LifecycleMixin, Closing):
    """A bitemporal memory of facts and concepts over a storage engine.

    Build one with `MemoryStore.embedded(path)` (LadybugDB, the default) or
    `MemoryStore.neo4j(uri, auth=...)`. Every method has an async twin prefixed with `a`.

    Args:
        backend: the storage engine (see `bitemporal_core.backends`).
        extractor: concept extractor; default spaCy when its model loads, else a built-in one.
        resolver: valid time from text; `None` disables it (valid_from defaults to the
            transaction time), not given means the built-in rule resolver.
        counter: token counter for prompt budgets; default tiktoken when it loads offline.
        embedder: optional embeddings for a vector rank in recall: an `Embedder`, a callable
            `texts -> vectors`, a LangChain `Embeddings`, a LlamaIndex `BaseEmbedding` or an
            OpenAI client (see `bitemporal_core.embeddings.as_embedder`).
        llm: optional `bitemporal_core.llm.LLM` or `openai.OpenAI` client: a new statement
            then supersedes the current facts sharing its concepts that the LLM says it
            contradicts. Without one, nothing is superseded implicitly.
        params: RecallM parameters.
        lifecycle: decay, reinforcement and inferred-relationship weights for recall (default:
            no decay, no reinforcement).
        owns_backend: close the backend with the store.
    """

    def __init__(
        self,
        backend: Backend,
        *,
        extractor: ConceptExtractor | None = None,
        resolver: TimeResolver | Unset | None = UNSET,
        counter: TokenCounter | None = None,
        embedder: object = None,
        llm: object = None,
        params: RecallParams | None = None,
        lifecycle: Lifecycle | None = None,
        owns_backend: bool = True,
    ) -> None:
        self._backend = backend
        self._params = params or RecallParams()
        if lifecycle is not None and not isinstance(lifecycle, Lifecycle):
            raise InvalidInput("lifecycle must be a Lifecycle")
        self._lifecycle = lifecycle or Lifecycle()
        self._uses = UseRecorder(backend)
        self._analyser = Analyser(
            extractor=extractor,
            resolver=resolver,
            embedder=None if embedder is None else as_embedder(embedder),
        )
        self._counter = counter
        self._pool = AnalysisPool(self._analyser)
        self._llm = None if llm is None else as_llm(llm)
        self._owns_backend = owns_backend

    # --- construction -------------------------------------------------------------------
    @classmethod
    def embedded(cls, path: str | Path | None = None, **options: Any) -> MemoryStore:
        """A store on the embedded engine (LadybugDB): on disk at `path`, in memory if None."""
        from .backends.ladybug import LadybugBackend

        return cls(LadybugBackend(path), **options)

    @classmethod
    def neo4j(
        cls,
        uri: str | None = None,
        *,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        driver: Any = None,
        max_transaction_retry_time: float | None = None,
        **options: Any,
    ) -> MemoryStore:
        """A store on Neo4j 5.26+: give a URI (and auth), or a driver you own and close.
        `max_transaction_retry_time` (seconds, URI only) bounds the driver's retries of a
        failing transaction (the driver's default is 30 s)."""
        from .backends.neo4j import Neo4jBackend

        backend = Neo4jBackend(
            uri,
            auth=auth,
            database=database,
            driver=driver,
            max_transaction_retry_time=max_transaction_retry_time,
        )
        return cls(backend, **options)

    @property
    def backend(self) -> Backend:
        """The storage engine behind this store."""
        return self._backend

    def describe(self) -> str:
        """Which engine, extractor, time resolver and token counter this store runs."""
        return (
            f"engine={self._backend!r} extractor={self._analyser.extractor_name} "
            f"resolver={self._analyser.resolver_name} tokens={self.counter.name} "
            f"embedder={self._analyser.embedder.name if self._analyser.embedder else 'off'} "
            f"llm={self._llm.name if self._llm else 'off'}"
        )

    @property
    def counter(self) -> TokenCounter:
        """The token counter used for prompt budgets."""
        if self._counter is None:
            self._counter = default_counter()
        return self._counter

    def __repr__(self) -> str:
        return f"MemoryStore({self._backend!r})"

    def close(self) -> None:
        """Write pending use counts; close the backend if this store owns it (a caller's
        driver is never closed)."""
        self._uses.flush()
        self._pool.close()
        if self._owns_backend:
            self._backend.close()

    # --- transaction time ---------------------------------------------------------------
    def _commit(self, namespace: str, at: datetime | None, build: Callable[[datetime], R]) -> R:
        return commit(self._backend, namespace, at, build)

    # --- writes -------------------------------------------------------------------------
    def remember(
        self,
        text: str,
        *,
        namespace: str = "default",
        at: datetime | None = None,
        valid_from: datetime | None = None,
        valid_to: datetime | Unset | None = UNSET,
        speaker: str | None = None,
        source: str | None = None,
        session: str | None = None,
        kind: str | None = None,
    ) -> list[Fact]:
        """Split `text` into statements and record each as a new fact at transaction time `at`.

        `valid_from` given explicitly wins; else a temporal expression in the statement is
        resolved against `at` ("yesterday", "next month"); else it is `at`. `valid_to=None`
        means open; not given, a resolved range may set it. `kind` not given: each statement
        is classified (said, belief, preference, intent, plan, event), by the LLM if any.
        A repeat (the text of a message id whose facts are already remembered) writes nothing
        and returns those facts.
        """
        ns = check_namespace(namespace)
        meta = self._meta(speaker=speaker, source=source, session=session, kind=kind)
        item = prepare_item(text, at=at, valid_from=valid_from, valid_to=valid_to, meta=meta)
        repeated = repeat_of(self, ns, item)
        if repeated is not None:
            return repeated
        statements = llm_kinds(self, self._analyser.analyse(item.text), meta["kind"])
        replaces = replaced_facts(self, ns, statements, item.at)
        summaries = concept_summaries(self, ns, statements, item.at)

        def build(when: datetime) -> list[Fact]:
            batch, versions = remember_batch(self, ns, when, item, statements, replaces, summaries)
            result = self._backend.apply(batch)
            return [self._fact(ns, v, result) for v in versions]

        return self._commit(ns, at, build)

    def remember_many(
        self,
        items: Iterable[Mapping[str, Any] | str],
        *,
        namespace: str = "default",
        chunk: int = 500,
        parallel: bool | None = None,
    ) -> list[list[Fact]]:
        """Remember many messages in order: a bulk import, one transaction per `chunk` items.

        Each item is a text or a mapping with `text` and optionally `at`, `valid_from`,
        `valid_to`, `speaker`, `source` (or `id`), `session`, `kind` — the options of
        `remember`. Every item is validated before anything is written; explicit `at` times
        must not go backwards. An item whose message id already has facts with the same text
        is skipped (re-running an import is idempotent). Returns the facts of each item.

        `parallel`: parse the next chunks in a worker process while one is written (about
        1.5x the throughput on two cores; the worker is kept until `close`). None does so for
        calls of at least 5,000 items, or once a worker runs; False never.
        """
        ns = check_namespace(namespace)
        if parallel is not None and not isinstance(parallel, bool):
            raise InvalidInput("parallel must be True, False or None")
        return _remember_many(self, items, ns, check_count(chunk, "chunk"), parallel)

    def supersede(
        self,
        fact: str,
        text: str,
        *,
        at: datetime | None = None,
        valid_from: datetime | None = None,
        valid_to: datetime | Unset | None = UNSET,
        speaker: str | None = None,
        source: str | None = None,
        session: str | None = None,
        kind: str | None = None,
    ) -> Fact:
        """Replace a current fact by a new one valid from `valid_from` (default: `at`).

        The old version is closed at `at`; the old lineage gets a version ending at the new
        start (none if that is not after its own start); the new fact links SUPERSEDES to it.
        """
        text = check_text(text)
        lineage, current = self._current(fact)
        if lineage.superseded_by:  # its current version is the copy ending at the successor
            raise NotCurrent(f"fact {fact!r} was already superseded by {lineage.superseded_by[0]}")
        ns = lineage.namespace
        vf = _opt_time(valid_from, "valid_from")
        vt = valid_to if isinstance(valid_to, Unset) else _opt_time(valid_to, "valid_to")
        meta = self._meta(speaker=speaker, source=source, session=session, kind=kind)
        statement = llm_kinds(self, [self._analyser.analyse_one(text)], meta["kind"])[0]
        old = self._analyser.analyse_one(current.text)
        message_id = meta["source"] or "msg-" + _new_id()
        stale = self._backend.citing_current([current.id])  # abstractions quoting it end too

        def build(when: datetime) -> Fact:
            start, end = self._analyser.valid_time(text, when, vf, vt)
            new = self._version(_new_id(), statement, start, end, 1, meta, message_id)
            new = attrs.evolve(new, supersedes=current.id)
            versions = [new, *truncated(current, old, start)]
            batch = WriteBatch(
                namespace=ns,
                at=when,
                close=(current.version_id, *stale),
                facts=(NewFact(id=new.fact_id, supersedes=current.id),),
                versions=tuple(versions),
                messages=(
                    NewMessage(
                        id=message_id, session=meta["session"], role=meta["speaker"], text=text
                    ),
                ),
                concepts=statement.concepts,
                relate=statement.pairs,
                advance_t_index=True,
            )
            return self._fact(ns, new, self._backend.apply(batch))

        return self._commit(ns, at, build)

    def correct(
        self,
        fact: str,
        *,
        text: str | None = None,
        valid_from: datetime | None = None,
        valid_to: datetime | Unset | None = UNSET,
        at: datetime | None = None,
        kind: str | None = None,
    ) -> Fact:
        """Record a corrected version of a current fact (text and/or valid interval).

        If the fact superseded another whose validity ended where this one began, moving
        `valid_from` moves that end too, in the same transaction.
        """
        lineage, current = self._current(fact)
        new_text = current.text if text is None else check_text(text)
        kind = current.kind if kind is None else check_kind(kind)
        start = (
            current.valid_from if valid_from is None else require_aware(valid_from, "valid_from")
        )
        end = current.valid_to if isinstance(valid_to, Unset) else _opt_time(valid_to, "valid_to")
        check_interval(start, end)
        statement = self._analyser.analyse_one(new_text)
        meta = {
            "source": current.source,
            "speaker": current.speaker,
            "session": current.session,
            "kind": kind,
            "said_at": None if text else current.said_at,
        }
        moved = moved_predecessor(self, lineage, current, start)
        stale = self._backend.citing_current([current.id, *([moved[0].id] if moved else [])])

        def build(when: datetime) -> Fact:
            version = self._version(
                current.id, statement, start, end, current.version + 1, meta, None
            )
            version = attrs.evolve(version, supersedes=current.supersedes)
            versions, close = [version], [current.version_id, *stale]
            if moved is not None:
                prev, prev_statement = moved
                close.append(prev.version_id)
                versions.extend(truncated(prev, prev_statement, start))
            batch = WriteBatch(
                namespace=lineage.namespace,
                at=when,
                close=tuple(close),
                versions=tuple(versions),
                concepts=statement.concepts if text else (),
                relate=statement.pairs if text else (),
                advance_t_index=text is not None,
            )
            return self._fact(lineage.namespace, version, self._backend.apply(batch))

        return self._commit(lineage.namespace, at, build)

    def retract(self, fact: str, *, at: datetime | None = None) -> Fact:
        """Stop believing a fact ("we were wrong"): close its current version; nothing replaces
        it. Returns the closed version."""
        lineage, current = self._current(fact)
        stale = self._backend.citing_current([current.id])

        def build(when: datetime) -> Fact:
            close = (current.version_id, *stale)
            batch = WriteBatch(namespace=lineage.namespace, at=when, close=close)
            self._backend.apply(batch)
            return attrs.evolve(current, superseded_at=when)

        return self._commit(lineage.namespace, at, build)

    def add_message(
        self,
        text: str,
        *,
        namespace: str = "default",
        session: str | None = None,
        role: str | None = None,
        id: str | None = None,
        at: datetime | None = None,
    ) -> Message:
        """Store a raw message (no facts extracted); messages keep their order per session."""
        text = check_text(text, "message")
        ns = check_namespace(namespace)
        msg_id = check_id(id, "message id") if id is not None else "msg-" + _new_id()
        session = check_optional_name(session, "session")
        role = check_optional_name(role, "role")

        def build(when: datetime) -> Message:
            message = NewMessage(id=msg_id, session=session, role=role, text=text)
            self._backend.apply(WriteBatch(namespace=ns, at=when, messages=(message,)))
            return Message(id=msg_id, namespace=ns, session=session, role=role, text=text, at=when)

        return self._commit(ns, at, build)

    def forget(self, *, namespace: str | None = None, fact: str | None = None) -> int:
        """Delete a namespace or one fact's lineage (texts, messages, concept links).

        Unlike `retract`, no node remains (the embedded engine's file is not compacted: see
        README, "Forgetting"). Returns the number of nodes removed.
        """
        if (namespace is None) == (fact is None):
            raise InvalidInput("forget needs exactly one of namespace= or fact=")
        if namespace is not None:
            return self._backend.forget_namespace(check_namespace(namespace))
        fact_id = check_id(fact)
        if self._backend.lineage(fact_id) is None:
            raise NotFound(f"no fact with id {fact_id!r}")
        return self._forget_citing(fact_id) + self._backend.forget_fact(fact_id)

    # --- reads --------------------------------------------------------------------------
    def recall(
        self,
        query: str,
        *,
        namespace: str = "default",
        basis: Basis | None = None,
        k: int = 10,
        mode: Mode = "hybrid",
        kinds: Sequence[str] | None = None,
        include_archived: bool = False,
    ) -> list[Hit]:
        """The memories most relevant to `query` that are valid and known at the basis.

        `mode="recallm"` ranks by the concept graph alone (keyword search only when the
        question names no known concept); "hybrid" fuses concept and keyword ranks. `kinds`
        keeps only statements of those kinds; memories archived by `prune` are left out
        unless `include_archived`.
        """
        where = recall_filter(kinds, include_archived)
        return ranked(self, query, namespace, basis, k, mode, where).recall_hits

    def context(
        self,
        query: str,
        *,
        namespace: str = "default",
        basis: Basis | None = None,
        max_tokens: int = 800,
        k: int = 30,
        mode: Mode = "hybrid",
        kinds: Sequence[str] | None = None,
        include_archived: bool = False,
    ) -> str:
        """The recalled memories rendered as a prompt block within `max_tokens` (DESIGN §5);
        `kinds` and `include_archived` filter as in `recall`."""
        check_count(max_tokens, "max_tokens")
        b = self._basis(basis)
        where = recall_filter(kinds, include_archived)
        ranker = ranked(self, query, namespace, b, k, mode, where)
        hits = ranker.recall_hits
        view = ranker.last_view
        used = {c for h in hits for c in h.concepts}
        summaries = {k: v for k, v in (view.summaries if view else {}).items() if k in used}
        return render_context(
            hits,
            max_tokens=max_tokens,
            valid_at=b.valid_at,
            counter=self.counter,
            summaries=summaries,
        )

    def concepts_for(
        self, query: str, *, namespace: str = "default", basis: Basis | None = None
    ) -> ConceptView:
        """RecallM's view of a question: its concepts, the chosen neighbourhood in prompt order
        (essential last), and each concept's contexts valid at the basis."""
        query = check_text(query, "query")
        b = self._basis(basis)
        assert b.valid_at is not None and b.known_at is not None
        ranker = Ranker(self._backend, self._analyser, self._params, self._lifecycle)
        return ranker.concepts(query, check_namespace(namespace), b.valid_at, b.known_at)

    def concept_graph(
        self, keys: Sequence[str], *, namespace: str = "default", hops: int = 0
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        """The concept nodes for `keys` (and `hops` around them) with the RELATED edges among
        them, ignoring the t_index window; nodes by key, edges by (src, dst)."""
        ns, checked = check_namespace(namespace), check_ids(keys, "concept key")
        hops = check_count(hops, "hops", minimum=0)
        nodes, edges = self._backend.concept_graph(ns, checked, hops=hops, window=2**62)
        return sorted(nodes, key=lambda c: c.key), sorted(edges, key=lambda e: (e.src, e.dst))

    def concepts(self, namespace: str = "default", *, limit: int = 200) -> list[Concept]:
        """A namespace's concepts, most recently updated first (for pictures and browsing)."""
        limit = check_count(limit, "limit")
        return self._backend.concepts(check_namespace(namespace), limit)

    def history(self, fact: str) -> Lineage:
        """Every version of a fact's lineage, oldest first, with supersession links."""
        lineage = self._backend.lineage(check_id(fact))
        if lineage is None:
            raise NotFound(f"no fact with id {fact!r}")
        return lineage

    def snapshot(self, namespace: str = "default", *, basis: Basis | None = None) -> list[Fact]:
        """All facts of a namespace valid and known at the basis, by valid_from."""
        b = self._basis(basis)
        assert b.valid_at is not None and b.known_at is not None
        return self._backend.snapshot(check_namespace(namespace), b.valid_at, b.known_at)

    def timeline(self, namespace: str = "default", *, known_at: datetime | None = None) -> Timeline:
        """Fact versions with their valid intervals: those known at `known_at`, or every version
        ever recorded if None (both axes, for plots)."""
        ns = check_namespace(namespace)
        known = _opt_time(known_at, "known_at")
        return Timeline(namespace=ns, versions=tuple(self._backend.versions(ns, known)))

    def messages(
        self, namespace: str = "default", *, session: str | None = None, limit: int | None = None
    ) -> list[Message]:
        """Stored raw messages, oldest first (the last `limit` if given)."""
        ns = check_namespace(namespace)
        limit = None if limit is None else check_count(limit, "limit", minimum=0)
        return self._backend.messages(ns, check_optional_name(session, "session"), limit)

    def namespaces(self) -> list[str]:
        """Namespaces that hold anything."""
        return self._backend.namespaces()

    def sessions(self, namespace: str = "default") -> list[str]:
        """Sessions with stored messages in a namespace, in order of their first message."""
        return self._backend.sessions(check_namespace(namespace))

    def delete_messages(
        self,
        namespace: str = "default",
        *,
        session: str | None = None,
        ids: Sequence[str] | None = None,
    ) -> int:
        """Physically delete raw messages: a whole session's, or those with the given ids.

        Facts extracted from them stay (they keep the message id as `source`); use `forget`
        to remove facts. Returns the number of messages deleted.
        """
        ns = check_namespace(namespace)
        if (session is None) == (ids is None):
            raise InvalidInput("delete_messages needs exactly one of session= or ids=")
        checked = None if ids is None else check_ids(ids, "message id")
        return self._backend.delete_messages(ns, check_optional_name(session, "session"), checked)

    # --- helpers ------------------------------------------------------------------------
    @staticmethod
    def _basis(basis: Basis | None) -> Basis:
        if basis is not None and not isinstance(basis, Basis):
            raise InvalidInput(f"basis must be a Basis, not {type(basis).__name__}")
        return (basis or Basis()).resolved()

    _meta = staticmethod(check_meta)

    def _current(self, fact: str) -> tuple[Lineage, Fact]:
        lineage = self._backend.lineage(check_id(fact))
        if lineage is None:
            raise NotFound(f"no fact with id {fact!r}")
        current = lineage.current
        if current is None:
            raise NotCurrent(f"fact {fact!r} has no current version (retracted or replaced)")
        return lineage, current

    _version = staticmethod(new_version)
    _fact = staticmethod(to_fact)

    # --- async twins --------------------------------------------------------------------
    aremember = twin(remember)
    aremember_many = twin(remember_many)
    asupersede = twin(supersede)
    acorrect = twin(correct)
    aretract = twin(retract)
    aadd_message = twin(add_message)
    aforget = twin(forget)
    arecall = twin(recall)
    acontext = twin(context)
    aconcepts_for = twin(concepts_for)
    aconcept_graph = twin(concept_graph)
    ahistory = twin(history)
    aconcepts = twin(concepts)
    asnapshot = twin(snapshot)
    atimeline = twin(timeline)
    amessages = twin(messages)
    anamespaces = twin(namespaces)
    asessions = twin(sessions)
    adelete_messages = twin(delete_messages)
