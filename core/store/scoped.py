"""`ScopedStore`: a `MemoryStore` confined to one namespace (`store.scope(namespace)`).

The handle's methods are the store's per-namespace methods without the namespace argument; it
delegates every call to the store. Its fact-id methods (`history`, `supersede`, `correct`,
`retract`, `forget(fact=)`, `undo_update`, `apply_update`) first read the fact's lineage and
raise `NotFound` when the fact belongs to another namespace, before anything is written, so a
multi-tenant application never checks ownership itself.

The store is held untyped (`Any`): `memory.py` builds the handle, and this module may not import
it back (no import cycle among the store's modules). Each method states its own return type.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bitemporal_core.common.twins import twin
from bitemporal_core.common.validate import check_id
from bitemporal_core.errors import InvalidInput, NotFound
from bitemporal_core.model import (
    Abstraction,
    Concept,
    ConceptEdge,
    Fact,
    Hit,
    InferredEdge,
    Lineage,
    Message,
    Turn,
    Update,
)
from bitemporal_core.services.recall import ConceptView
from bitemporal_core.views.timeline import Timeline

__all__ = ["ScopedStore"]


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """A call's keyword options, refused when they name a namespace."""
    if "namespace" in options:
        raise InvalidInput("a scoped store's methods take no namespace: it has one")
    return options


class ScopedStore:
    """One namespace of a `MemoryStore`: a tenant's view, made by `store.scope(namespace)`.

    Every method is the store's method of the same name, without the namespace argument, with
    the same keyword-only options (see `MemoryStore`); each has an `a`-prefixed async twin.
    A fact id of another namespace is unknown here: the fact-id methods raise `NotFound` and
    write nothing. The handle owns nothing: closing the store is the store owner's job.

    Args:
        store: the `MemoryStore` it delegates to.
        namespace: the namespace every call reads and writes (already checked by the store).
    """

    def __init__(self, store: Any, namespace: str) -> None:
        self._store = store
        self._namespace = namespace

    @property
    def namespace(self) -> str:
        """The namespace this handle reads and writes."""
        return self._namespace

    def __repr__(self) -> str:
        return f"ScopedStore({self._store!r}, namespace={self._namespace!r})"

    def _owned(self, fact: str) -> Lineage:
        """The lineage of a fact of this namespace; any other fact id is unknown."""
        lineage: Lineage = self._store.history(check_id(fact))
        if lineage.namespace != self._namespace:
            raise NotFound(f"no fact with id {fact!r} in namespace {self._namespace!r}")
        return lineage

    # --- writes -------------------------------------------------------------------------
    def remember(self, /, text: str, **options: Any) -> list[Fact]:
        """`MemoryStore.remember` in this namespace: the new facts."""
        facts: list[Fact] = self._store.remember(
            text, namespace=self._namespace, **_options(options)
        )
        return facts

    def remember_many(
        self, /, items: Iterable[Mapping[str, Any] | str], **options: Any
    ) -> list[list[Fact]]:
        """`MemoryStore.remember_many` in this namespace: the facts of each item."""
        facts: list[list[Fact]] = self._store.remember_many(
            items, namespace=self._namespace, **_options(options)
        )
        return facts

    def add_message(self, /, text: str, **options: Any) -> Message:
        """`MemoryStore.add_message` in this namespace: the stored message."""
        message: Message = self._store.add_message(
            text, namespace=self._namespace, **_options(options)
        )
        return message

    def add_turn(self, turn: Turn) -> list[Fact]:
        """`MemoryStore.add_turn` in this namespace: the facts of the turn."""
        facts: list[Fact] = self._store.add_turn(turn, namespace=self._namespace)
        return facts

    def supersede(self, /, fact: str, text: str, **options: Any) -> Fact:
        """`MemoryStore.supersede` of a fact of this namespace: the new fact.

        Raises:
            NotFound: no fact `fact` in this namespace (nothing is written).
        """
        self._owned(fact)
        new: Fact = self._store.supersede(fact, text, **_options(options))
        return new

    def correct(self, /, fact: str, **options: Any) -> Fact:
        """`MemoryStore.correct` of a fact of this namespace: the corrected version.

        Raises:
            NotFound: no fact `fact` in this namespace (nothing is written).
        """
        self._owned(fact)
        fixed: Fact = self._store.correct(fact, **_options(options))
        return fixed

    def retract(self, /, fact: str, **options: Any) -> Fact:
        """`MemoryStore.retract` of a fact of this namespace: the closed version.

        Raises:
            NotFound: no fact `fact` in this namespace (nothing is written).
        """
        self._owned(fact)
        closed: Fact = self._store.retract(fact, **_options(options))
        return closed

    def forget(self, *, fact: str | None = None, everything: bool = False) -> int:
        """Delete one fact's lineage of this namespace (`fact=`), or the whole namespace
        (`everything=True`); exactly one of them. Returns the number of nodes removed.

        Raises:
            InvalidInput: neither or both were given.
            NotFound: no fact `fact` in this namespace (nothing is deleted).
        """
        if not isinstance(everything, bool) or (fact is None) != everything:
            raise InvalidInput("forget needs exactly one of fact= or everything=True")
        if fact is None:
            removed: int = self._store.forget(namespace=self._namespace)
        else:
            self._owned(fact)
            removed = self._store.forget(fact=fact)
        return removed

    def delete_messages(self, /, **options: Any) -> int:
        """`MemoryStore.delete_messages` in this namespace: the number deleted."""
        deleted: int = self._store.delete_messages(self._namespace, **_options(options))
        return deleted

    # --- formation ----------------------------------------------------------------------
    def pending_updates(self, /, **options: Any) -> list[Update]:
        """`MemoryStore.pending_updates` of this namespace."""
        found: list[Update] = self._store.pending_updates(self._namespace, **_options(options))
        return found

    def apply_update(self, /, update: Update, **options: Any) -> Fact:
        """`MemoryStore.apply_update` of an update between facts of this namespace.

        Raises:
            NotFound: either fact of the update is not in this namespace (nothing is written).
        """
        if not isinstance(update, Update):
            raise InvalidInput(f"update must be an Update, not {type(update).__name__}")
        self._owned(update.fact)
        self._owned(update.replaced)
        new: Fact = self._store.apply_update(update, **_options(options))
        return new

    def undo_update(
        self, /, fact: str, *, replaced: str | None = None, **options: Any
    ) -> list[Fact]:
        """`MemoryStore.undo_update` of a fact of this namespace: the restored versions.

        Raises:
            NotFound: `fact` (or `replaced`) is not in this namespace (nothing is written).
        """
        self._owned(fact)
        if replaced is not None:
            self._owned(replaced)
        restored: list[Fact] = self._store.undo_update(fact, replaced=replaced, **_options(options))
        return restored

    # --- reads --------------------------------------------------------------------------
    def recall(self, /, query: str, **options: Any) -> list[Hit]:
        """`MemoryStore.recall` in this namespace."""
        hits: list[Hit] = self._store.recall(query, namespace=self._namespace, **_options(options))
        return hits

    def context(self, /, query: str, **options: Any) -> str:
        """`MemoryStore.context` in this namespace: the prompt block."""
        block: str = self._store.context(query, namespace=self._namespace, **_options(options))
        return block

    def concepts_for(self, /, query: str, **options: Any) -> ConceptView:
        """`MemoryStore.concepts_for` in this namespace: RecallM's view of the question."""
        view: ConceptView = self._store.concepts_for(
            query, namespace=self._namespace, **_options(options)
        )
        return view

    def concept_graph(
        self, /, keys: Iterable[str], **options: Any
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        """`MemoryStore.concept_graph` in this namespace."""
        graph: tuple[list[Concept], list[ConceptEdge]] = self._store.concept_graph(
            keys, namespace=self._namespace, **_options(options)
        )
        return graph

    def concepts(self, /, **options: Any) -> list[Concept]:
        """`MemoryStore.concepts` of this namespace."""
        found: list[Concept] = self._store.concepts(self._namespace, **_options(options))
        return found

    def history(self, fact: str) -> Lineage:
        """Every version of a fact of this namespace (`MemoryStore.history`).

        Raises:
            NotFound: no fact `fact` in this namespace.
        """
        return self._owned(fact)

    def snapshot(self, /, **options: Any) -> list[Fact]:
        """`MemoryStore.snapshot` of this namespace."""
        facts: list[Fact] = self._store.snapshot(self._namespace, **_options(options))
        return facts

    def timeline(self, /, **options: Any) -> Timeline:
        """`MemoryStore.timeline` of this namespace: its fact versions and their intervals."""
        found: Timeline = self._store.timeline(self._namespace, **_options(options))
        return found

    def messages(self, /, **options: Any) -> list[Message]:
        """`MemoryStore.messages` of this namespace."""
        found: list[Message] = self._store.messages(self._namespace, **_options(options))
        return found

    def sessions(self) -> list[str]:
        """`MemoryStore.sessions` of this namespace."""
        found: list[str] = self._store.sessions(self._namespace)
        return found

    # --- lifecycle ----------------------------------------------------------------------
    def abstract(self, /, **options: Any) -> list[Abstraction]:
        """`MemoryStore.abstract` of this namespace: the abstractions written."""
        written: list[Abstraction] = self._store.abstract(self._namespace, **_options(options))
        return written

    def abstractions(self, /, **options: Any) -> list[Abstraction]:
        """`MemoryStore.abstractions` of this namespace."""
        found: list[Abstraction] = self._store.abstractions(self._namespace, **_options(options))
        return found

    def prune(self, /, **options: Any) -> list[Fact]:
        """`MemoryStore.prune` of this namespace: the archived memories."""
        archived: list[Fact] = self._store.prune(self._namespace, **_options(options))
        return archived

    def infer_relationships(self, /, **options: Any) -> list[InferredEdge]:
        """`MemoryStore.infer_relationships` of this namespace."""
        edges: list[InferredEdge] = self._store.infer_relationships(
            self._namespace, **_options(options)
        )
        return edges

    def relationships(self, /, **options: Any) -> list[InferredEdge]:
        """`MemoryStore.relationships` of this namespace."""
        edges: list[InferredEdge] = self._store.relationships(self._namespace, **_options(options))
        return edges

    # --- async twins --------------------------------------------------------------------
    aremember = twin(remember)
    aremember_many = twin(remember_many)
    aadd_message = twin(add_message)
    aadd_turn = twin(add_turn)
    asupersede = twin(supersede)
    acorrect = twin(correct)
    aretract = twin(retract)
    aforget = twin(forget)
    adelete_messages = twin(delete_messages)
    apending_updates = twin(pending_updates)
    aapply_update = twin(apply_update)
    aundo_update = twin(undo_update)
    arecall = twin(recall)
    acontext = twin(context)
    aconcepts_for = twin(concepts_for)
    aconcept_graph = twin(concept_graph)
    aconcepts = twin(concepts)
    ahistory = twin(history)
    asnapshot = twin(snapshot)
    atimeline = twin(timeline)
    amessages = twin(messages)
    asessions = twin(sessions)
    aabstract = twin(abstract)
    aabstractions = twin(abstractions)
    aprune = twin(prune)
    ainfer_relationships = twin(infer_relationships)
    arelationships = twin(relationships)
