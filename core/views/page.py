"""A namespace as one self-contained HTML page: its timeline on both time axes and its concept
graph, with the history of a version shown when it is hovered (`bitemporal-memory view`).

The page needs nothing from a network: the pictures are inline SVG drawn here, the style and
the hover script are inline (from `view_page.html` beside this module), and each fact's
history travels in the page as JSON.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bitemporal_core.common.times import utcnow
from bitemporal_core.model import Concept, ConceptEdge, Fact, InferredEdge
from bitemporal_core.views.graph import spring_layout
from bitemporal_core.views.mpl import short
from bitemporal_core.views.timeline import Timeline

__all__ = ["PALETTE", "render_page"]

TEMPLATE = Path(__file__).with_name("view_page.html")
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
"""One colour per fact, in order of first record (cycling)."""

_MARKER = re.compile(r"__(?:TITLE|HEADING|SUMMARY|TIMELINE|GRAPH|LINEAGES)__")
LABEL_W, CHART_W, ROW_H, AXIS_H = 270, 640, 30, 30
GRAPH_SIZE, GRAPH_PAD = 520, 60


def _ordered(versions: Sequence[Fact]) -> list[Fact]:
    """Versions grouped by fact (facts by first record), each fact's oldest version first."""
    first: dict[str, datetime] = {}
    for v in versions:
        first[v.id] = min(first.get(v.id, v.recorded_at), v.recorded_at)
    return sorted(versions, key=lambda v: (first[v.id], v.id, v.version, v.recorded_at))


def _when(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M")


def _interval(start: datetime, end: datetime | None, open_end: str) -> str:
    return f"{_when(start)} → {_when(end)}" if end is not None else f"{_when(start)} → {open_end}"


class _Scale:
    """Time to x pixels over every instant of the versions (and `now`), padded."""

    def __init__(self, versions: Sequence[Fact], now: datetime) -> None:
        points = [now] + [t for v in versions for t in (v.valid_from, v.recorded_at)]
        points += [t for v in versions for t in (v.valid_to, v.superseded_at) if t is not None]
        lo, hi = min(points), max(points)
        pad = max((hi - lo) * 0.05, timedelta(hours=1))
        self.left, self.right = lo - pad, hi + pad

    def x(self, when: datetime | None) -> float:
        """The x of `when` (None, an open end: the right edge)."""
        when = self.right if when is None else min(max(when, self.left), self.right)
        share = (when - self.left) / (self.right - self.left)
        return round(LABEL_W + share * CHART_W, 1)

    def ticks(self, count: int = 6) -> list[tuple[float, str]]:
        step = (self.right - self.left) / count
        fmt = "%Y-%m-%d %H:%M" if self.right - self.left < timedelta(days=3) else "%Y-%m-%d"
        out = []
        for i in range(1, count):
            when = self.left + step * i
            out.append((self.x(when), when.strftime(fmt)))
        return out


def _version_svg(v: Fact, row: int, scale: _Scale, color: str) -> str:
    """One version's row: its label, valid-time bar, transaction-time line and marks."""
    y = AXIS_H + row * ROW_H
    x1, x2 = scale.x(v.valid_from), scale.x(v.valid_to)
    t1, t2 = scale.x(v.recorded_at), scale.x(v.superseded_at)
    past = "" if v.is_current else " past"
    label = html.escape(f"{short(v.text, 36)}  v{v.version}")
    parts = [
        f'<g class="version" tabindex="0" data-fact="{html.escape(v.id)}" '
        f'data-version="{html.escape(v.version_id)}">',
        f"<title>{html.escape(v.text)}</title>",
        f'<rect class="hit" x="0" y="{y}" width="{LABEL_W + CHART_W + 12}" height="{ROW_H}"/>',
        f'<text class="label" x="4" y="{y + 17}">{label}</text>',
        f'<rect class="valid{past}" x="{x1}" y="{y + 5}" width="{max(x2 - x1, 2.0)}" '
        f'height="13" fill="{color}" stroke="#000" stroke-width="0.6"/>',
        f'<line class="tx" x1="{t1}" y1="{y + 24}" x2="{t2}" y2="{y + 24}"/>',
        f'<circle class="recorded" cx="{t1}" cy="{y + 24}" r="3" fill="#333"/>',
    ]
    if v.valid_to is None:
        parts.append(
            f'<polygon class="open" points="{x2},{y + 4} {x2 + 8},{y + 11.5} {x2},{y + 19}" '
            f'fill="{color}"/>'
        )
    if v.superseded_at is not None:
        parts.append(
            f'<path class="cut" d="M{t2 - 4},{y + 20} L{t2 + 4},{y + 28} '
            f'M{t2 - 4},{y + 28} L{t2 + 4},{y + 20}"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _timeline_svg(versions: Sequence[Fact], now: datetime) -> str:
    if not versions:
        return '<p class="note">No facts in this namespace.</p>'
    scale = _Scale(versions, now)
    colors: dict[str, str] = {}
    for v in versions:
        colors.setdefault(v.id, PALETTE[len(colors) % len(PALETTE)])
    height = AXIS_H + ROW_H * len(versions) + 6
    width = LABEL_W + CHART_W + 14
    axis = ['<g class="axis">']
    for x, label in scale.ticks():
        axis.append(f'<line x1="{x}" y1="{AXIS_H - 6}" x2="{x}" y2="{height}"/>')
        axis.append(f'<text x="{x}" y="{AXIS_H - 10}" text-anchor="middle">{label}</text>')
    axis.append("</g>")
    rows = [_version_svg(v, i, scale, colors[v.id]) for i, v in enumerate(versions)]
    x_now = scale.x(now)
    now_line = f'<line class="now" x1="{x_now}" y1="{AXIS_H - 6}" x2="{x_now}" y2="{height}"/>'
    return (
        f'<svg id="timeline-svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="timeline">'
        + "".join(axis)
        + "".join(rows)
        + now_line
        + "</svg>"
    )


def _graph_svg(
    concepts: Sequence[Concept], edges: Sequence[ConceptEdge], inferred: Sequence[InferredEdge]
) -> str:
    if not concepts:
        return '<p class="note">No concepts in this namespace.</p>'
    keys = [c.key for c in concepts]
    known = set(keys)
    related = [e for e in edges if e.src in known and e.dst in known]
    linked = [e for e in inferred if e.src in known and e.dst in known]
    pairs = [(e.src, e.dst) for e in related] + [(e.src, e.dst) for e in linked]
    layout = spring_layout(keys, pairs)
    span = GRAPH_SIZE / 2 - GRAPH_PAD

    def at(key: str) -> tuple[float, float]:
        x, y = layout[key]
        return round(GRAPH_SIZE / 2 + x * span, 1), round(GRAPH_SIZE / 2 + y * span, 1)

    parts = [
        f'<svg id="graph" width="{GRAPH_SIZE}" height="{GRAPH_SIZE}" '
        f'viewBox="0 0 {GRAPH_SIZE} {GRAPH_SIZE}" role="img" aria-label="concept graph">'
    ]
    for e in related:
        (x1, y1), (x2, y2) = at(e.src), at(e.dst)
        width = 1.0 + 0.8 * min(e.strength, 6)
        parts.append(
            f'<line class="related" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
            f'stroke-width="{width}"><title>mentioned together {e.strength}x</title></line>'
        )
    for rel in linked:
        (x1, y1), (x2, y2) = at(rel.src), at(rel.dst)
        note = html.escape(f"{rel.type} (confidence {rel.confidence:.2f}, {rel.provenance})")
        parts.append(
            f'<line class="inferred" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
            f'stroke-width="2"><title>{note}</title></line>'
        )
    for c in concepts:
        x, y = at(c.key)
        parts.append(
            f'<g class="node" data-key="{html.escape(c.key)}"><circle cx="{x}" cy="{y}" r="7"/>'
            f'<text x="{x + 10}" y="{y + 4}">{html.escape(c.display)}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _lineages(versions: Sequence[Fact]) -> dict[str, Any]:
    """Each fact's versions (oldest first) as the hover panel shows them, with its links."""
    out: dict[str, Any] = {}
    replaced_by: dict[str, list[str]] = {}
    for v in versions:
        entry = out.setdefault(v.id, {"versions": [], "supersedes": None, "superseded_by": []})
        entry["supersedes"] = entry["supersedes"] or v.supersedes
        if v.supersedes and v.id not in replaced_by.setdefault(v.supersedes, []):
            replaced_by[v.supersedes].append(v.id)
        entry["versions"].append(
            {
                "version_id": v.version_id,
                "version": v.version,
                "text": v.text,
                "valid": _interval(v.valid_from, v.valid_to, "open"),
                "believed": _interval(v.recorded_at, v.superseded_at, "now"),
                "current": v.is_current,
            }
        )
    for fact_id, successors in replaced_by.items():
        if fact_id in out:
            out[fact_id]["superseded_by"] = successors
    return out


def render_page(
    timeline: Timeline,
    *,
    concepts: Sequence[Concept] = (),
    edges: Sequence[ConceptEdge] = (),
    inferred: Sequence[InferredEdge] = (),
    now: datetime | None = None,
    note: str = "",
) -> str:
    """The HTML page of a namespace: its timeline (every version of `timeline`, one row each,
    valid time as a bar and transaction time as a line below it), its concept graph
    (`concepts` by display form, `edges`, `inferred` dashed), and each fact's history, shown
    beside them when a version is hovered or focused. `note` is added to the summary line."""
    now = now or utcnow()
    versions = _ordered(timeline.versions)
    facts = len({v.id for v in versions})
    summary = (
        f"{facts} facts, {len(versions)} versions, {len(concepts)} concepts; "
        f"generated {_when(now)} UTC. {note}"
    ).strip()
    lineages = json.dumps(_lineages(versions), ensure_ascii=False).replace("</", "<\\/")
    fills = {
        "__TITLE__": html.escape(f"Memory of {timeline.namespace}"),
        "__HEADING__": html.escape(f"Memory of namespace {timeline.namespace!r}"),
        "__SUMMARY__": html.escape(summary),
        "__TIMELINE__": _timeline_svg(versions, now),
        "__GRAPH__": _graph_svg(concepts, edges, inferred),
        "__LINEAGES__": lineages,
    }
    template = TEMPLATE.read_text(encoding="utf-8")
    return _MARKER.sub(lambda m: fills[m.group(0)], template)  # one pass: values stay as given
