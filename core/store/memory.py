"""`MemoryStore`: the public API of the bitemporal memory, on any storage engine.

The store checks its arguments, builds one `Services` context from its options, and hands each
call to a service (`bitemporal_core.services`); every method has an `a`-prefixed async twin.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from bitemporal_core.backends.port import Backend, RecallScope
from bitemporal_core.common.twins import Closing, twin
from bitemporal_core.common.validate import (
    check_count,
    check_id,
    check_ids,
    check_kind,
    check_namespace,
    check_text,
)
from bitemporal_core.errors import InvalidInput, NotFound
from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.detect import AUTO, check_language
from bitemporal_core.language.extract import ConceptExtractor
from bitemporal_core.language.pool import AnalysisPool
from bitemporal_core.language.temporal import TimeResolver
from bitemporal_core.model import (
    UNSET,
    Basis,
    Concept,
    ConceptEdge,
    Fact,
    Formation,
    Hit,
    Lineage,
    Turn,
    Unset,
)
from bitemporal_core.providers.embeddings import as_embedder
from bitemporal_core.providers.llm import GuardedLLM, as_llm
from bitemporal_core.providers.tokens import TokenCounter, default_counter
from bitemporal_core.ranking.decay import Lifecycle
from bitemporal_core.ranking.recallm import RecallParams
from bitemporal_core.services import bulk, lifecycle, writes
from bitemporal_core.services.context import Services
from bitemporal_core.services.items import prepare_item
from bitemporal_core.services.recall import ConceptView, Ranker, ranked
from bitemporal_core.services.uses import UseRecorder
from bitemporal_core.services.versions import check_meta
from bitemporal_core.store.formation import FormationMethods
from bitemporal_core.store.lifecycle import LifecycleMethods
from bitemporal_core.store.messages import MessageMethods
from bitemporal_core.store.scope import check_options, key_store, sealed
from bitemporal_core.store.scope import language_option as _language
from bitemporal_core.store.scope import opt_end as _opt_end
from bitemporal_core.store.scope import opt_time as _opt_time
from bitemporal_core.store.scope import resolved_basis as _basis
from bitemporal_core.store.scoped import ScopedStore
from bitemporal_core.views.prompt import render_context
from bitemporal_core.views.timeline import Timeline

__all__ = ["MemoryStore"]

Mode = Literal["hybrid", "recallm"]
DEFAULT_SKEW = timedelta(minutes=5)  # how far an explicit `at` may lie past the engine's clock


class MemoryStore(LifecycleMethods, FormationMethods, MessageMethods, Closing):
    """A bitemporal memory of facts and concepts over a storage engine.

    Build one with `MemoryStore.embedded(path)` (LadybugDB, the default) or
    `MemoryStore.neo4j(uri, auth=...)`. Every method has an async twin prefixed with `a`.

    Args:
        backend: the storage engine (see `bitemporal_core.backends`).
        extractor: concept extractor: a name ("auto", the default: spaCy for English when its
            model loads, else the built-in tagger, and rjieba for Chinese; "spacy"; "simple";
            "stanza" for both languages), a `MultilingualExtractor`, or any `ConceptExtractor`
            (used for the languages in its `languages` attribute, English without one).
        language: "auto" (each statement's language from its script), "en" or "zh": how
            statements are analysed unless a call says otherwise (docs/chinese.md).
        resolver: valid time from text; `None` disables it (valid_from defaults to the
            transaction time), not given means the built-in rule resolver.
        counter: token counter for prompt budgets; default tiktoken when it loads offline.
        embedder: optional embeddings for a vector rank in recall: an `Embedder`, a callable
            `texts -> vectors`, a LangChain `Embeddings`, a LlamaIndex `BaseEmbedding` or an
            OpenAI client (see `bitemporal_core.as_embedder`).
        llm: optional `bitemporal_core.LLM`, `openai.OpenAI` client, LangChain
            `BaseChatModel` or LlamaIndex `LLM`: it then judges what is worth remembering and
            decides which current facts a new statement updates (the offline rules decide
            when it fails or takes longer than `formation.llm_timeout`).
        params: RecallM parameters.
        lifecycle: decay, reinforcement and inferred-relationship weights for recall (default:
            no decay, no reinforcement).
        formation: what becomes a memory and how updates apply (`Formation`; default:
            questions and small talk stay messages, updates apply automatically).
        clock: the default transaction time instead of the engine's clock (replays, tests):
            "yesterday" then resolves against the moment the message was said.
        max_clock_skew: how far an explicit `at` may lie past the engine's clock (default 5
            minutes); a later one raises `FutureTime` and writes nothing.
        owns_backend: close the backend with the store.
        preload: load the extractor's models (spaCy's: seconds) in a background thread
            from now on, not at the first remember or recall; for a process that opens its
            store before the first user message. Default False (loaded on first use).
    """

    def __init__(
        self,
        backend: Backend,
        *,
        extractor: ConceptExtractor | str | None = None,
        language: str = AUTO,
        resolver: TimeResolver | Unset | None = UNSET,
        counter: TokenCounter | None = None,
        embedder: object = None,
        llm: object = None,
        params: RecallParams | None = None,
        lifecycle: Lifecycle | None = None,
        formation: Formation | None = None,
        clock: Callable[[], datetime] | None = None,
        max_clock_skew: timedelta = DEFAULT_SKEW,
        owns_backend: bool = True,
        preload: bool = False,
    ) -> None:
        check_options(
            lifecycle=lifecycle,
            formation=formation,
            clock=clock,
            preload=preload,
            max_clock_skew=max_clock_skew,
        )
        formation = formation or Formation()
        analyser = Analyser(
            extractor=extractor,
            resolver=resolver,
            embedder=None if embedder is None else as_embedder(embedder),
            language=check_language(language),
        )
        self._ctx = Services(
            backend=backend,
            analyser=analyser,
            pool=AnalysisPool(analyser),
            llm=None if llm is None else as_llm(llm, timeout=formation.llm_timeout),
            params=params or RecallParams(),
            lifecycle=lifecycle or Lifecycle(),
            uses=UseRecorder(backend),
            formation=formation,
            clock=clock,
            max_clock_skew=max_clock_skew,
        )
        self._counter = counter
        self._owns_backend = owns_backend
        if preload:
            analyser.preload()

    # --- construction -------------------------------------------------------------------
    @classmethod
    def embedded(
        cls,
        path: str | Path | None = None,
        *,
        read_only: bool = False,
        keys: object = None,
        **options: Any,
    ) -> MemoryStore:
        """A store on the embedded engine (LadybugDB): on disk at `path`, in memory if None.
        `read_only` opens an existing file for reading only (writes raise `ReadOnlyStore`);
        `keys` seals every namespace (see `neo4j`)."""
        from bitemporal_core.backends.ladybug.engine import LadybugBackend

        store_keys = key_store(keys)
        return cls(sealed(LadybugBackend(path, read_only=read_only), store_keys), **options)

    @classmethod
    def neo4j(
        cls,
        uri: str | None = None,
        *,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        driver: Any = None,
        max_transaction_retry_time: float | None = None,
        read_only: bool = False,
        keys: object = None,
        **options: Any,
    ) -> MemoryStore:
        """A store on Neo4j 5.26+: give a URI (and auth), or a driver you own and close.
        `max_transaction_retry_time` (seconds, URI only) bounds the driver's retries of a
        failing transaction (the driver's default is 30 s); `read_only` uses read sessions
        only (writes raise `ReadOnlyStore`). `keys` (a `KeyStore`, or a folder for a
        `FileKeyStore`) seals every namespace: the engine holds its strings encrypted with a
        key per namespace kept there, and `forget(namespace=...)` destroys the key, so what
        the server's files keep of a forgotten namespace cannot be read (needs the `sealed`
        extra)."""
        from bitemporal_core.backends.neo4j.engine import Neo4jBackend

        store_keys = key_store(keys)
        backend = Neo4jBackend(
            uri,
            auth=auth,
            database=database,
            driver=driver,
            max_transaction_retry_time=max_transaction_retry_time,
            read_only=read_only,
        )
        return cls(sealed(backend, store_keys), **options)

    @property
    def backend(self) -> Backend:
        """The storage engine behind this store."""
        return self._ctx.backend

    @property
    def services(self) -> Services:
        """What the store's services work with: the engine, analyser, LLM, parameters,
        lifecycle policy and use recorder (for custom services, tools and tests)."""
        return self._ctx

    def describe(self) -> str:
        """Which engine, extractor (per language), language choice, time resolver and token
        counter this store runs."""
        analyser, llm = self._ctx.analyser, self._ctx.llm
        form = self._ctx.formation
        return (
            f"engine={self._ctx.backend!r} extractor={analyser.extractor_name} "
            f"language={analyser.language} "
            f"resolver={analyser.resolver_name} tokens={self.counter.name} "
            f"embedder={analyser.embedder.name if analyser.embedder else 'off'} "
            f"llm={llm.name if llm else 'off'} "
            f"formation=keep:{form.keep},updates:{form.updates}"
            + (f",nearest:{form.nearest}" if analyser.embedder and form.nearest else "")
        )

    @property
    def counter(self) -> TokenCounter:
        """The token counter used for prompt budgets."""
        if self._counter is None:
            self._counter = default_counter()
        return self._counter

    def __repr__(self) -> str:
        return f"MemoryStore({self._ctx.backend!r})"

    def scope(self, namespace: str) -> ScopedStore:
        """A handle confined to one namespace (a tenant's memory): the per-namespace methods
        without the namespace argument; a fact id of another namespace raises `NotFound` there
        and writes nothing.

        Args:
            namespace: the namespace every call of the handle reads and writes.

        Returns:
            The `ScopedStore` over this store (it owns nothing; close the store, not it).
        """
        return ScopedStore(self, check_namespace(namespace))

    def close(self) -> None:
        """Write pending use counts; close the backend if this store owns it (a caller's
        driver is never closed)."""
        self._ctx.uses.flush()
        self._ctx.pool.close()
        if isinstance(self._ctx.llm, GuardedLLM):
            self._ctx.llm.close()
        if self._owns_backend:
            self._ctx.backend.close()

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
        updates: str | None = None,
        language: str | None = None,
    ) -> list[Fact]:
        """Split `text` into statements and record each memory-worthy one as a new fact at
        transaction time `at`; its claims may supersede current facts (see `Formation`;
        `updates` overrides the store's "auto", "suggest" or "off" for this call).

        `valid_from` given explicitly wins; else a temporal expression in the statement is
        resolved against `at` ("yesterday", "next month"); else it is `at`. `valid_to=None`
        means open; not given, a resolved range may set it. `kind` not given: each statement
        is classified (said, belief, preference, intent, plan, event), by the LLM if any.
        A repeat (the text of a message id whose facts are already remembered) writes nothing
        and returns those facts. `language` ("en", "zh", "auto") overrides the store's for
        this text; each fact's `language` says which analysis it got.
        """
        ns = check_namespace(namespace)
        meta = check_meta(speaker=speaker, source=source, session=session, kind=kind)
        meta["language"] = _language(language)
        item = prepare_item(text, at=at, valid_from=valid_from, valid_to=valid_to, meta=meta)
        if updates is not None and updates not in ("auto", "suggest", "off"):
            raise InvalidInput("updates must be one of auto, suggest, off")
        return writes.remember(self._ctx, ns, item, updates=updates)

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
        `valid_to`, `speaker`, `source` (or `id`), `session`, `kind`, `language` — the options
        of `remember`. Every item is validated before anything is written; explicit `at` times
        must not go backwards. An item whose message id already has facts with the same text
        is skipped (re-running an import is idempotent). Returns the facts of each item.

        `parallel`: parse the next chunks in a worker process while one is written (about
        1.5x the throughput on two cores; the worker is kept until `close`). None does so for
        calls of at least 5,000 items, or once a worker runs; False never.
        """
        ns = check_namespace(namespace)
        if parallel is not None and not isinstance(parallel, bool):
            raise InvalidInput("parallel must be True, False or None")
        return bulk.remember_many(self._ctx, items, ns, check_count(chunk, "chunk"), parallel)

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
        language: str | None = None,
    ) -> Fact:
        """Replace a current fact by a new one valid from `valid_from` (default: `at`).

        The old version is closed at `at`; the old lineage gets a version ending at the new
        start (none if that is not after its own start); the new fact links SUPERSEDES to it.
        """
        text, fact = check_text(text), check_id(fact)
        start, end = _opt_time(valid_from, "valid_from"), _opt_end(valid_to)
        meta = check_meta(speaker=speaker, source=source, session=session, kind=kind)
        meta["language"] = _language(language)
        return writes.supersede(
            self._ctx, fact, text, at=at, valid_from=start, valid_to=end, meta=meta
        )

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
        return writes.correct(
            self._ctx,
            check_id(fact),
            text=None if text is None else check_text(text),
            valid_from=_opt_time(valid_from, "valid_from"),
            valid_to=_opt_end(valid_to),
            at=at,
            kind=None if kind is None else check_kind(kind),
        )

    def retract(self, fact: str, *, at: datetime | None = None) -> Fact:
        """Stop believing a fact ("we were wrong"): close its current version; nothing replaces
        it. Returns the closed version."""
        return writes.retract(self._ctx, check_id(fact), at=at)

    def add_turn(self, turn: Turn, *, namespace: str = "default") -> list[Fact]:
        """Store one conversation turn, the way every framework adapter does: as a message,
        and (if `turn.remember`) as facts whose source is that message. Returns the facts.

        Args:
            turn: the message's text, role, id, session and whether it feeds the memory.
            namespace: the memory it belongs to.
        """
        if not isinstance(turn, Turn):
            raise InvalidInput(f"turn must be a Turn, not {type(turn).__name__}")
        ns = check_namespace(namespace)
        msg_id = turn.id or "msg-" + uuid.uuid4().hex
        return writes.add_turn(self._ctx, ns, turn, msg_id=msg_id)

    def forget(self, *, namespace: str | None = None, fact: str | None = None) -> int:
        """Delete a namespace or one fact's lineage (texts, messages, concept links).

        Unlike `retract`, no node remains. On the embedded engine the database file is
        rewritten without the forgotten bytes when the store closes; on Neo4j the server's
        files keep them until it reclaims the space (README, "Forgetting"). Returns the
        number of nodes removed.
        """
        if (namespace is None) == (fact is None):
            raise InvalidInput("forget needs exactly one of namespace= or fact=")
        if namespace is not None:
            removed = self._ctx.erasure.forget_namespace(check_namespace(namespace))
        else:
            removed = writes.forget_fact(self._ctx, check_id(fact))
        self._ctx.dialogue.drop(namespace)  # a deleted message must not become a field
        return removed

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
        where = lifecycle.recall_filter(kinds, include_archived)
        return ranked(self._ctx, query, namespace, _basis(basis), k, mode, where).recall_hits

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
        """The recalled memories rendered as a prompt block within `max_tokens` (see
        docs/design.md, "Prompt block"); `kinds` and `include_archived` filter as in
        `recall`."""
        check_count(max_tokens, "max_tokens")
        b = _basis(basis)
        where = lifecycle.recall_filter(kinds, include_archived)
        ranker = ranked(self._ctx, query, namespace, b, k, mode, where)
        hits, view = ranker.recall_hits, ranker.last_view
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
        query, ns, b = check_text(query, "query"), check_namespace(namespace), _basis(basis)
        assert b.valid_at is not None and b.known_at is not None
        scope = RecallScope(namespace=ns, valid_at=b.valid_at, known_at=b.known_at)
        return Ranker(self._ctx).concepts(query, scope)

    def concept_graph(
        self, keys: Sequence[str], *, namespace: str = "default", hops: int = 0
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        """The concept nodes for `keys` (and `hops` around them) with the RELATED edges among
        them, ignoring the t_index window; nodes by key, edges by (src, dst)."""
        ns, checked = check_namespace(namespace), check_ids(keys, "concept key")
        hops = check_count(hops, "hops", minimum=0)
        nodes, edges = self._ctx.reads.concept_graph(ns, checked, hops=hops, window=2**62)
        return sorted(nodes, key=lambda c: c.key), sorted(edges, key=lambda e: (e.src, e.dst))

    def concepts(self, namespace: str = "default", *, limit: int = 200) -> list[Concept]:
        """A namespace's concepts, most recently updated first (for pictures and browsing)."""
        limit = check_count(limit, "limit")
        return self._ctx.reads.concepts(check_namespace(namespace), limit)

    def history(self, fact: str) -> Lineage:
        """Every version of a fact's lineage, oldest first, with supersession links."""
        lineage = self._ctx.facts.lineage(check_id(fact))
        if lineage is None:
            raise NotFound(f"no fact with id {fact!r}")
        return lineage

    def snapshot(self, namespace: str = "default", *, basis: Basis | None = None) -> list[Fact]:
        """All facts of a namespace valid and known at the basis, by valid_from."""
        b = _basis(basis)
        assert b.valid_at is not None and b.known_at is not None
        return self._ctx.facts.snapshot(check_namespace(namespace), b.valid_at, b.known_at)

    def timeline(self, namespace: str = "default", *, known_at: datetime | None = None) -> Timeline:
        """Fact versions with their valid intervals: those known at `known_at`, or every version
        ever recorded if None (both axes, for plots)."""
        ns = check_namespace(namespace)
        versions = self._ctx.facts.versions(ns, _opt_time(known_at, "known_at"))
        return Timeline(namespace=ns, versions=tuple(versions))

    def namespaces(self) -> list[str]:
        """Namespaces that hold anything."""
        return self._ctx.facts.namespaces()

    def compact(self) -> bool:
        """Erase now what deletions left on disk, without waiting for `close`.

        On the embedded engine, after `forget` or `delete_messages` the database file still
        holds the deleted bytes until it is rewritten, which `close` does; `compact` rewrites
        it at once (one pass over the whole file; writes wait meanwhile) for a process that
        stays open, such as a server. Neo4j's files are the server's to reclaim (README,
        "Forgetting").

        Returns:
            True if a file was rewritten, False if there was nothing to erase (or the engine
            rewrites nothing).
        """
        return self._ctx.erasure.compact()

    # --- async twins --------------------------------------------------------------------
    aremember = twin(remember)
    aremember_many = twin(remember_many)
    asupersede = twin(supersede)
    acorrect = twin(correct)
    aretract = twin(retract)
    aadd_turn = twin(add_turn)
    aforget = twin(forget)
    arecall = twin(recall)
    acontext = twin(context)
    aconcepts_for = twin(concepts_for)
    aconcept_graph = twin(concept_graph)
    ahistory = twin(history)
    aconcepts = twin(concepts)
    asnapshot = twin(snapshot)
    atimeline = twin(timeline)
    anamespaces = twin(namespaces)
    acompact = twin(compact)
