"""The prompt block (recalled memories, chronological, each annotated with its validity) and the
one mapping of a recalled memory that every adapter shows as metadata."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bitemporal_core.model import Basis, Fact, Hit
from bitemporal_core.providers.tokens import TokenCounter, default_counter

__all__ = [
    "HEADER",
    "fact_metadata",
    "format_line",
    "hit_metadata",
    "render_context",
    "validity_label",
]

HEADER = "Memories (each true during the period shown; most recent last):"
EMPTY = "Memories: none recorded that are true at this time."
SUMMARIES = "Summaries of the concepts above (as known then):"


def _day(value: datetime) -> str:
    return value.strftime("%Y-%m-%d")


def _period(fact: Fact) -> str:
    start, end = fact.valid_from, fact.valid_to
    if end is None:
        return f"since {_day(start)}"
    if end - start < timedelta(days=1) and _day(start) == _day(end - timedelta(microseconds=1)):
        return f"{_day(start)} {start:%H:%M} -> {end:%H:%M}"
    return f"{_day(start)} -> {_day(end)}"


def validity_label(fact: Fact, *, valid_at: datetime | None = None) -> str:
    """When a memory is true, as the prompt block shows it: "since 2023-10-27",
    "2023-10-26 -> 2023-10-27", plus " (no longer true)" if it ended by `valid_at`."""
    past = valid_at is not None and fact.valid_to is not None and fact.valid_to <= valid_at
    return _period(fact) + (" (no longer true)" if past else "")


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def fact_metadata(fact: Fact) -> dict[str, Any]:
    """A fact version's both intervals and provenance, JSON-ready (times as ISO strings): the
    keys every adapter's documents and nodes carry."""
    return {
        "fact_id": fact.id,
        "version_id": fact.version_id,
        "version": fact.version,
        "namespace": fact.namespace,
        "valid_from": _iso(fact.valid_from),
        "valid_to": _iso(fact.valid_to),
        "recorded_at": _iso(fact.recorded_at),
        "superseded_at": _iso(fact.superseded_at),
        "said_at": _iso(fact.said_at),
        "source": fact.source,
        "speaker": fact.speaker,
        "session": fact.session,
        "kind": fact.kind,
        "supersedes": fact.supersedes,
        "language": fact.language,
    }


def hit_metadata(
    hit: Hit, *, basis: Basis | None = None, displays: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """`fact_metadata` of a recalled memory, with its validity label at the basis, its score,
    the concepts (their display forms from `displays`, keyed by concept key, where given) and
    ranks that found it, and the basis it was recalled at."""
    valid_at = None if basis is None else basis.valid_at
    shown = displays or {}
    return {
        **fact_metadata(hit.fact),
        "validity": validity_label(hit.fact, valid_at=valid_at),
        "score": hit.score,
        "concepts": [shown.get(key, key) for key in hit.concepts],
        "found_by": list(hit.sources),
        "essential": hit.essential,
        "basis_valid_at": _iso(valid_at),
        "basis_known_at": _iso(None if basis is None else basis.known_at),
    }


def format_line(fact: Fact, *, past: bool = False) -> str:
    """One memory as a prompt line: `- [validity] text (kind, said date)`; `past` marks facts
    whose validity ended before the basis; the kind shows unless it is plain "said"."""
    said = f"said {_day(fact.said_at or fact.recorded_at)}"
    if fact.kind != "said":
        said = f"{fact.kind}, {said}"
    if fact.speaker:
        said = f"{fact.speaker}, {said}"
    mark = " (no longer true)" if past else ""
    return f"- [{_period(fact)}] {fact.text}{mark} ({said})"


def render_context(
    hits: Sequence[Hit],
    *,
    max_tokens: int = 800,
    valid_at: datetime | None = None,
    counter: TokenCounter | None = None,
    header: str = HEADER,
    summaries: dict[str, str] | None = None,
) -> str:
    """Render hits (best first) as a chronological block within `max_tokens`.

    The lowest-ranked memories are dropped first until the block fits; the header counts too.
    Concept summaries (written by an LLM, as known at the basis) follow the memories while
    they fit.
    """
    counter = counter or default_counter()
    if not hits:
        return EMPTY
    kept = list(hits)
    lines = {h.fact.version_id: _line(h.fact, valid_at) for h in kept}
    costs = {vid: counter.count(line) + 1 for vid, line in lines.items()}
    budget = max_tokens - counter.count(header) - 1
    total = sum(costs.values())
    while kept and total > budget:
        dropped = kept.pop()
        total -= costs[dropped.fact.version_id]
    if not kept:
        return EMPTY
    ordered = sorted(kept, key=lambda h: (h.fact.valid_from, h.fact.recorded_at))
    block = [header, *(lines[h.fact.version_id] for h in ordered)]
    extra = [f"- {key}: {text}" for key, text in sorted((summaries or {}).items())]
    if extra:
        section = [SUMMARIES, *extra]
        if total + counter.count("\n".join(section)) + 1 <= budget:
            block += section
    return "\n".join(block)


def _line(fact: Fact, valid_at: datetime | None) -> str:
    past = valid_at is not None and fact.valid_to is not None and fact.valid_to <= valid_at
    return format_line(fact, past=past)
