"""`BitemporalRetriever`: a LlamaIndex `BaseRetriever` over bitemporal recall."""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from typing import Literal

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle, QueryType, TextNode

from bitemporal_core import Basis, Hit, MemoryStore, hit_metadata

from ._convert import concept_displays, resolve_basis
from ._tenancy import resolve_namespace

__all__ = ["BitemporalRetriever"]

# The basis of the current `retrieve(..., basis=...)` call, tagged with the retriever's id.
_CALL_BASIS: ContextVar[tuple[int, Basis] | None] = ContextVar(
    "bitemporal_retriever_basis", default=None
)
_LLM_KEYS = frozenset({"validity"})


def _to_node(hit: Hit, basis: Basis, displays: dict[str, str]) -> NodeWithScore:
    """A recalled fact version as a `NodeWithScore` with the metadata every adapter shows."""
    fact = hit.fact
    metadata = hit_metadata(hit, basis=basis, displays=displays)
    node = TextNode(
        id_=fact.version_id,
        text=fact.text,
        metadata=metadata,
        excluded_llm_metadata_keys=[k for k in metadata if k not in _LLM_KEYS],
        excluded_embed_metadata_keys=list(metadata),
    )
    return NodeWithScore(node=node, score=hit.score)


class BitemporalRetriever(BaseRetriever):
    """Retrieves the facts relevant to a query that are valid and known at a basis.

    Each result is a `NodeWithScore` whose node text is the fact and whose metadata holds its
    validity (the only key shown to the LLM), both time intervals, its provenance (source
    message id, speaker, session) and why it was recalled. Pass `basis=` to `retrieve` or
    `aretrieve` to query as of another basis for one call.

    Args:
        store: the bitemporal memory store.
        namespace: the namespace to recall from; None uses `user_id`, else "default".
        user_id: the user whose memory this is, when `namespace` is not given.
        basis: the default basis; None means "now" at each call.
        k: how many facts to return.
        mode: "hybrid" (concept graph + BM25) or "recallm" (concept graph alone).
        callback_manager: LlamaIndex callbacks.
        verbose: LlamaIndex verbosity flag.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: str | None = None,
        user_id: str | None = None,
        basis: Basis | None = None,
        k: int = 10,
        mode: Literal["hybrid", "recallm"] = "hybrid",
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> None:
        super().__init__(callback_manager=callback_manager, verbose=verbose)
        self.store = store
        self.namespace = resolve_namespace(namespace, user_id)[0]
        self.basis = basis
        self.k = k
        self.mode: Literal["hybrid", "recallm"] = mode

    def retrieve(
        self, str_or_query_bundle: QueryType, *, basis: Basis | None = None
    ) -> list[NodeWithScore]:
        """Retrieve the facts for a query, as of `basis` (default: the retriever's)."""
        token = _CALL_BASIS.set(None if basis is None else (id(self), basis))
        try:
            return super().retrieve(str_or_query_bundle)
        finally:
            _CALL_BASIS.reset(token)

    async def aretrieve(
        self, str_or_query_bundle: QueryType, *, basis: Basis | None = None
    ) -> list[NodeWithScore]:
        """Async twin of `retrieve`."""
        token = _CALL_BASIS.set(None if basis is None else (id(self), basis))
        try:
            return await super().aretrieve(str_or_query_bundle)
        finally:
            _CALL_BASIS.reset(token)

    def _call_basis(self) -> Basis:
        current = _CALL_BASIS.get()
        override = current[1] if current is not None and current[0] == id(self) else None
        return resolve_basis(self.basis, override)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if not query_bundle.query_str.strip():
            return []
        basis = self._call_basis()
        hits = self.store.recall(
            query_bundle.query_str, namespace=self.namespace, basis=basis, k=self.k, mode=self.mode
        )
        displays = concept_displays(self.store, self.namespace, hits)
        return [_to_node(h, basis, displays) for h in hits]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if not query_bundle.query_str.strip():
            return []
        basis = self._call_basis()
        hits = await self.store.arecall(
            query_bundle.query_str, namespace=self.namespace, basis=basis, k=self.k, mode=self.mode
        )
        displays = await asyncio.to_thread(concept_displays, self.store, self.namespace, hits)
        return [_to_node(h, basis, displays) for h in hits]
