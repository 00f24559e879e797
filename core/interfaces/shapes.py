"""What the command line and the MCP server show of facts, lineages and hits, as JSON and as
text, with concepts by their display forms (never their stems)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bitemporal_core import Basis, Fact, Hit, Lineage, MemoryStore

__all__ = [
    "basis_json",
    "concept_displays",
    "hit_json",
    "lineage_json",
    "lineage_text",
]


def concept_displays(store: MemoryStore, namespace: str, hits: Sequence[Hit]) -> dict[str, str]:
    """The display form of every concept that found these hits (one read of the concept nodes).

    Seam: once `Hit` carries its concepts' display forms, read them from the hit instead.
    """
    keys = sorted({key for hit in hits for key in hit.concepts})
    if not keys:
        return {}
    nodes, _ = store.concept_graph(keys, namespace=namespace)
    return {c.key: c.display for c in nodes}


def hit_json(hit: Hit, displays: Mapping[str, str]) -> dict[str, Any]:
    """A recalled memory as JSON: its score, fact, the concepts (display forms) and ranks that
    found it."""
    return {
        "score": hit.score,
        "fact": hit.fact.to_dict(),
        "concepts": [displays.get(key, key) for key in hit.concepts],
        "found_by": list(hit.sources),
    }


def lineage_json(lineage: Lineage) -> dict[str, Any]:
    """Every version of a fact as JSON, oldest first, with its supersession links."""
    return {
        "fact_id": lineage.fact_id,
        "namespace": lineage.namespace,
        "supersedes": lineage.supersedes,
        "superseded_by": list(lineage.superseded_by),
        "versions": [v.to_dict() for v in lineage.versions],
    }


def _when(value: datetime | None, open_end: str) -> str:
    return open_end if value is None else value.strftime("%Y-%m-%d %H:%M")


def _version_lines(v: Fact) -> list[str]:
    state = "current" if v.is_current else "no longer believed"
    return [
        f"  v{v.version}  {v.text}",
        f"      valid     {_when(v.valid_from, '')} -> {_when(v.valid_to, 'open')}",
        f"      believed  {_when(v.recorded_at, '')} -> {_when(v.superseded_at, 'now')}  ({state})",
        f"      kind {v.kind}" + (f", said by {v.speaker}" if v.speaker else ""),
    ]


def lineage_text(lineage: Lineage) -> str:
    """Every version of a fact for people: text, both intervals (UTC), links."""
    count = len(lineage.versions)
    lines = [
        f"Fact {lineage.fact_id} in namespace {lineage.namespace!r}: "
        f"{count} version{'s' if count != 1 else ''}, oldest first"
    ]
    for v in lineage.versions:
        lines += _version_lines(v)
    if lineage.supersedes:
        lines.append(f"It replaced fact {lineage.supersedes}.")
    if lineage.superseded_by:
        lines.append(f"It was replaced by {', '.join(lineage.superseded_by)}.")
    return "\n".join(lines)


def basis_json(basis: Basis) -> dict[str, str | None]:
    """A resolved basis as JSON."""
    return {
        "valid_at": None if basis.valid_at is None else basis.valid_at.isoformat(),
        "known_at": None if basis.known_at is None else basis.known_at.isoformat(),
    }
