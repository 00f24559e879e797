"""The memory-lifecycle methods of `MemoryStore`: abstractions, pruning, inferred relationships
(docs/design.md, "Memory lifecycle")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from bitemporal_core.common.twins import twin
from bitemporal_core.common.validate import check_namespace
from bitemporal_core.model import Abstraction, Basis, Fact, InferredEdge
from bitemporal_core.services import lifecycle
from bitemporal_core.services.context import Services
from bitemporal_core.store.scope import resolved_basis as _basis

__all__ = ["LifecycleMethods"]


class LifecycleMethods:
    """Abstract, prune and infer relationships (a part of `MemoryStore`)."""

    @property
    def services(self) -> Services:
        raise NotImplementedError

    # --- memory lifecycle ---------------------------------------------------------------
    def abstract(
        self,
        namespace: str = "default",
        *,
        min_facts: int = 3,
        max_facts: int = 12,
        at: datetime | None = None,
    ) -> list[Abstraction]:
        """Summarise groups of related current facts (sharing a concept) as abstractions.

        Each group's abstraction is a fact of kind "abstraction" linked (ABSTRACTS) to the
        versions it summarises, written by the LLM when one is configured, else an extractive
        digest. A group whose members changed gets a new version (the old one stays as known
        then); an unchanged group is left alone. Returns the abstractions written.
        """
        ns = check_namespace(namespace)
        return lifecycle.abstract(
            self.services, ns, min_facts=min_facts, max_facts=max_facts, at=at
        )

    def abstractions(
        self, namespace: str = "default", *, basis: Basis | None = None
    ) -> list[Abstraction]:
        """The abstractions valid and known at the basis, with the versions they summarise."""
        return lifecycle.abstractions(self.services, check_namespace(namespace), _basis(basis))

    def prune(
        self,
        namespace: str = "default",
        *,
        min_weight: float = 0.1,
        half_life: timedelta | None = None,
        at: datetime | None = None,
        dry_run: bool = False,
    ) -> list[Fact]:
        """Archive weak current memories out of default recall; returns them.

        A memory's weight decays with age (`half_life`, default the store's lifecycle) and grows
        with use. Archived memories stay in history, snapshots, timelines and in recalls whose
        basis is known before the archiving; `recall(include_archived=True)` shows them too.
        """
        return lifecycle.prune(
            self.services,
            check_namespace(namespace),
            min_weight=min_weight,
            half_life=half_life,
            at=at,
            dry_run=dry_run,
        )

    def infer_relationships(
        self,
        namespace: str = "default",
        *,
        min_strength: int = 3,
        min_shared: int = 2,
        max_concepts: int = 200,
        at: datetime | None = None,
    ) -> list[InferredEdge]:
        """Infer typed relationships between concepts, kept apart from stated facts.

        Rules: concepts co-mentioned at least `min_strength` times are ASSOCIATED_WITH each
        other; unrelated concepts sharing `min_shared` neighbours are SIMILAR_TO each other
        (confidence from the Adamic-Adar score). With an LLM, it proposes typed relations too
        (e.g. paris LOCATED_IN france). Recall follows those at or above the lifecycle's
        confidence floor (`Lifecycle.min_inferred_confidence`) at a lower weight.
        """
        return lifecycle.infer_relationships(
            self.services,
            check_namespace(namespace),
            min_strength=min_strength,
            min_shared=min_shared,
            max_concepts=max_concepts,
            at=at,
        )

    def relationships(
        self, namespace: str = "default", *, keys: Sequence[str] | None = None
    ) -> list[InferredEdge]:
        """Inferred relationships of a namespace (touching `keys`, if given), best first; those
        below `Lifecycle.min_inferred_confidence` (0.9 by default) are left out."""
        return lifecycle.relationships(self.services, check_namespace(namespace), keys)

    aabstract = twin(abstract)
    aabstractions = twin(abstractions)
    aprune = twin(prune)
    ainfer_relationships = twin(infer_relationships)
    arelationships = twin(relationships)
