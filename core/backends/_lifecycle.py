"""The memory-lifecycle part of the storage port, shared by the engines.

Use counts, archiving, abstraction links and inferred relationships are operational metadata:
no snapshot, history or timeline read looks at them. Each engine supplies its Cypher module
(`_q`, with the same statement names), `_read`, `_write` and `_time`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from .._time import END_OF_TIME
from ._port import InferredEdge, Usage, WriteBatch
from ._rows import scoped

__all__ = ["LifecycleOps", "abstract_rows", "inferred_rows"]


def abstract_rows(batches: Sequence[WriteBatch]) -> list[dict[str, str]]:
    """The ABSTRACTS links of some batches as statement rows."""
    return [{"a": a, "b": b} for batch in batches for a, b in batch.abstracts]


def inferred_rows(namespace: str, edges: Sequence[InferredEdge]) -> list[dict[str, Any]]:
    """Inferred relationships as statement rows (concept ids scoped to the namespace)."""
    return [
        {
            "a": scoped(namespace, e.src),
            "b": scoped(namespace, e.dst),
            "type": e.type,
            "confidence": float(e.confidence),
            "provenance": e.provenance,
        }
        for e in edges
    ]


class LifecycleOps:
    """Port methods of the memory lifecycle, written once over an engine's statements."""

    _q: Any

    def _read(self, query: str, params: dict[str, Any]) -> list[list[Any]]:
        raise NotImplementedError

    def _write(self, query: str, params: dict[str, Any]) -> list[list[Any]]:
        raise NotImplementedError

    @staticmethod
    def _time(value: Any) -> datetime | None:
        raise NotImplementedError

    def record_use(self, namespace: str, counts: Mapping[str, int], at: datetime) -> None:
        rows = [{"id": k, "n": int(n)} for k, n in counts.items()]
        if rows:
            self._write(self._q.RECORD_USE, {"ns": namespace, "rows": rows, "at": at})

    def usage(self, namespace: str, fact_ids: Sequence[str]) -> dict[str, Usage]:
        if not fact_ids:
            return {}
        rows = self._read(self._q.USAGE, {"ns": namespace, "ids": list(dict.fromkeys(fact_ids))})
        return {r[0]: Usage(uses=int(r[1] or 0), last_used=self._time(r[2])) for r in rows}

    def archive(self, namespace: str, fact_ids: Sequence[str], at: datetime) -> int:
        if not fact_ids:
            return 0
        params = {"ns": namespace, "ids": list(dict.fromkeys(fact_ids)), "at": at}
        rows = self._write(self._q.ARCHIVE, params)
        return int(rows[0][0]) if rows else 0

    def abstraction_members(self, version_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        if not version_ids:
            return {}
        out: dict[str, list[str]] = {}
        for a, b in self._read(self._q.ABSTRACTION_MEMBERS, {"ids": list(version_ids)}):
            out.setdefault(a, []).append(b)
        return {a: tuple(sorted(bs)) for a, bs in out.items()}

    def citing(self, fact_id: str) -> list[str]:
        """The abstraction lineages that summarise a version of this fact."""
        return [r[0] for r in self._read(self._q.CITING, {"id": fact_id})]

    def citing_current(self, fact_ids: Sequence[str]) -> list[str]:
        """The current versions of abstractions that quote a version of these facts."""
        if not fact_ids:
            return []
        params = {"ids": list(fact_ids), "eot": END_OF_TIME}
        return sorted(r[0] for r in self._read(self._q.CITING_CURRENT, params))

    def _inferred_rows(self, namespace: str, keys: Sequence[str] | None) -> list[list[Any]]:
        """Rows (a key, b key, type, confidence, provenance, recorded_at) touching `keys`."""
        if keys is None:
            return self._read(self._q.INFERRED_ALL, {"ns": namespace})
        ids = [scoped(namespace, k) for k in keys]
        rows = self._read(self._q.INFERRED_FROM, {"ids": ids})
        return rows + self._read(self._q.INFERRED_TO, {"ids": ids})

    def inferred(self, namespace: str, keys: Sequence[str] | None) -> list[InferredEdge]:
        if keys is not None and not keys:
            return []
        rows = self._inferred_rows(namespace, keys)
        seen: dict[tuple[str, str, str], InferredEdge] = {}
        for a, b, kind, confidence, provenance, at in rows:
            seen[(a, b, kind)] = InferredEdge(
                src=a,
                dst=b,
                type=kind,
                confidence=float(confidence),
                provenance=provenance,
                recorded_at=self._time(at),
            )
        return sorted(seen.values(), key=lambda e: (-e.confidence, e.src, e.dst, e.type))
