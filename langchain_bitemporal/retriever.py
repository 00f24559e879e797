"""`BitemporalRetriever`: a LangChain retriever over the memories valid at a basis."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any, Literal

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig, ensure_config
from langgraph.runtime import get_runtime
from pydantic import ConfigDict

from bitemporal_core import Basis, Hit, MemoryStore, hit_metadata

from ._common import Defaults, concept_displays, parse_time, resolve_scope

__all__ = ["BitemporalRetriever"]


class BitemporalRetriever(BaseRetriever):
    """The `k` memories most relevant to a query, valid and known at a basis, as Documents.

    Each Document holds one fact version: `page_content` is its text, `id` its fact id, and
    `metadata` carries both intervals (`valid_from`, `valid_to`, `recorded_at`,
    `superseded_at`, ISO-8601 strings, None for open ends), the fused `score`, the
    `source` message id, speaker, session and the matched concepts.

    Per call, `invoke(query, k=..., valid_at=..., known_at=...)` (datetimes or ISO strings)
    or `basis=Basis(...)` override the configured `k` and `basis` (None: now, at each call).

    The namespace is found as by the middleware: `namespace` in the LangGraph runtime
    context or the config's `configurable`; else the one given here; else `user_id` in the
    context, then in `configurable`; else "default".

    Example:
        ```python
        retriever = BitemporalRetriever(store, namespace="alice", k=5)
        docs = retriever.invoke("apples", valid_at="2023-10-26T12:00:00+00:00")
        ```
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: MemoryStore
    namespace: str | None = None
    basis: Basis | None = None
    k: int = 4
    mode: Literal["hybrid", "recallm"] = "hybrid"

    def __init__(self, store: MemoryStore | None = None, /, **data: Any) -> None:
        """Build from a store (positional or `store=`) and keyword-only options."""
        if store is not None:
            data["store"] = store
        super().__init__(**data)

    def invoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Retrieve the Documents for `input` (the config's `configurable` may name the
        namespace: see the class docstring)."""
        config = ensure_config(config)
        kwargs["configurable"] = config.get("configurable") or {}
        return super().invoke(input, config, **kwargs)

    async def ainvoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Async twin of `invoke`."""
        config = ensure_config(config)
        kwargs["configurable"] = config.get("configurable") or {}
        return await super().ainvoke(input, config, **kwargs)

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
        valid_at: datetime | str | None = None,
        known_at: datetime | str | None = None,
        basis: Basis | None = None,
        configurable: dict[str, Any] | None = None,
    ) -> list[Document]:
        if not query.strip():
            return []
        options = self._options(k, valid_at, known_at, basis, configurable)
        hits = self.store.recall(query, **options)
        displays = concept_displays(self.store, options["namespace"], hits)
        return [_document(h, options["basis"], displays) for h in hits]

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        k: int | None = None,
        valid_at: datetime | str | None = None,
        known_at: datetime | str | None = None,
        basis: Basis | None = None,
        configurable: dict[str, Any] | None = None,
    ) -> list[Document]:
        if not query.strip():
            return []
        options = self._options(k, valid_at, known_at, basis, configurable)
        hits = await self.store.arecall(query, **options)
        displays = await asyncio.to_thread(concept_displays, self.store, options["namespace"], hits)
        return [_document(h, options["basis"], displays) for h in hits]

    def _options(
        self,
        k: int | None,
        valid_at: datetime | str | None,
        known_at: datetime | str | None,
        basis: Basis | None,
        configurable: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """The recall options of one call: per-call values over the configured ones."""
        chosen = basis or self.basis or Basis()
        if valid_at is not None or known_at is not None:
            chosen = Basis(
                valid_at=parse_time(valid_at, "valid_at") or chosen.valid_at,
                known_at=parse_time(known_at, "known_at") or chosen.known_at,
            )
        return {
            "namespace": self._namespace(configurable),
            "basis": chosen.resolved(),
            "k": self.k if k is None else k,
            "mode": self.mode,
        }

    def _namespace(self, configurable: dict[str, Any] | None) -> str:
        """The namespace of this call (`resolve_scope`'s order)."""
        try:
            context = get_runtime().context
        except (RuntimeError, KeyError, AttributeError):  # not inside a graph run
            context = None
        default = Defaults(namespace=self.namespace, session=None, basis=None)
        return resolve_scope(default, context, configurable).namespace


def _document(hit: Hit, basis: Basis, displays: dict[str, str]) -> Document:
    """A recalled fact version as a Document, with the metadata every adapter shows."""
    metadata = hit_metadata(hit, basis=basis, displays=displays)
    return Document(page_content=hit.fact.text, id=hit.fact.id, metadata=metadata)
