"""Pictures of a memory: the bitemporal timeline of fact versions and the RecallM concept graph.

Needs matplotlib (`pip install 'bitemporal-memory[plot]'`), imported only when a picture is
drawn. Every function draws into the given Axes (or a new figure) and returns that Axes:

    store.timeline("alice").plot()                     # = plot_timeline(store.timeline("alice"))
    plot_question_graph(store, "Can I bake an apple pie?", namespace="alice")
    plot_concept_graph(*store.concept_graph(["appl"], namespace="alice", hops=2))

On a machine without a display (and outside IPython/Jupyter) the non-interactive Agg backend
is selected, unless `MPLBACKEND` says otherwise or pyplot was already imported.
"""

from __future__ import annotations

import importlib
import math
import os
import sys
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ._time import require_aware
from .errors import ConfigurationError

if TYPE_CHECKING:
    from .backends._port import ConceptEdge, InferredEdge
    from .model import Basis, Concept, Fact, Timeline
    from .store import MemoryStore

__all__ = ["plot_concept_graph", "plot_question_graph", "plot_timeline", "spring_layout"]

CURRENT_ALPHA = 0.85
SUPERSEDED_ALPHA = 0.3
SUPERSEDED_HATCH = "///"
ESSENTIAL_COLOR = "#f28e2b"
CONCEPT_COLOR = "#a0cbe8"
TX_COLOR = "#333333"
INFERRED_COLOR = "#59a14f"
_LABEL_CHARS = 42


# --- matplotlib -------------------------------------------------------------------------
def _headless() -> bool:
    """Nothing could show a window: no display, and not inside IPython or Jupyter."""
    if "IPython" in sys.modules or "ipykernel" in sys.modules:
        return False
    if sys.platform in ("darwin", "win32"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _pyplot() -> Any:
    """`matplotlib.pyplot`, imported on first use (Agg when headless and nothing chosen)."""
    matplotlib = _mpl("matplotlib")
    pyplot_loaded = "matplotlib.pyplot" in sys.modules
    if not pyplot_loaded and not os.environ.get("MPLBACKEND") and _headless():
        matplotlib.use("Agg")
    return _mpl("matplotlib.pyplot")


def _mpl(module: str) -> Any:
    """A matplotlib module (untyped here: matplotlib's own hints are partial)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ConfigurationError(
            "plots need matplotlib: pip install 'bitemporal-memory[plot]'"
        ) from e


def _axes(ax: Any, size: tuple[float, float]) -> Any:
    """The given Axes, or the Axes of a new figure of `size` inches."""
    if ax is not None:
        return ax
    _, new = _pyplot().subplots(figsize=size, layout="constrained")
    return new


def _short(text: str, limit: int = _LABEL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- timeline ---------------------------------------------------------------------------
def _ordered(versions: Iterable[Fact]) -> list[Fact]:
    """Versions grouped by lineage (lineages by first record), oldest version first."""
    items = list(versions)
    first: dict[str, tuple[datetime, int]] = {}
    for i, v in enumerate(items):
        seen = first.get(v.id)
        if seen is None or v.recorded_at < seen[0]:
            first[v.id] = (v.recorded_at, i)
    return sorted(items, key=lambda v: (first[v.id], v.version, v.recorded_at))


def _span(versions: Sequence[Fact], now: datetime | None) -> tuple[datetime, datetime]:
    """The x range: every finite instant (both axes, and `now`), padded on both sides; open
    intervals run to the right edge."""
    points = [v.valid_from for v in versions] + [v.recorded_at for v in versions]
    points += [t for v in versions for t in (v.valid_to, v.superseded_at) if t is not None]
    if now is not None:
        points.append(now)
    lo, hi = min(points), max(points)
    pad = max((hi - lo) * 0.08, timedelta(hours=1))
    return lo - pad / 2, hi + pad


def _lineage_colors(versions: Sequence[Fact]) -> dict[str, Any]:
    cmap = _mpl("matplotlib").colormaps["tab10"]
    ids = list(dict.fromkeys(v.id for v in versions))
    return {fact_id: cmap(i % 10) for i, fact_id in enumerate(ids)}


def _draw_versions(ax: Any, versions: Sequence[Fact], right: datetime) -> Any:
    """One bar per version over valid time; open ends get an arrow at the right edge."""
    mdates = _mpl("matplotlib.dates")

    colors = _lineage_colors(versions)
    starts = [mdates.date2num(v.valid_from) for v in versions]
    ends = [mdates.date2num(v.valid_to or right) for v in versions]
    bars = ax.barh(
        range(len(versions)),
        [e - s for s, e in zip(starts, ends, strict=True)],
        left=starts,
        height=0.5,
        color=[colors[v.id] for v in versions],
        edgecolor="black",
        linewidth=0.6,
        label="valid time",
        gid="versions",
    )
    for row, (bar, v) in enumerate(zip(bars, versions, strict=True)):
        bar.set_alpha(CURRENT_ALPHA if v.is_current else SUPERSEDED_ALPHA)
        if not v.is_current:
            bar.set_hatch(SUPERSEDED_HATCH)
        if v.valid_to is None:
            ax.plot([ends[row]], [row], marker=">", markersize=9, color=colors[v.id], clip_on=False)
    return bars


def _draw_transactions(ax: Any, versions: Sequence[Fact], right: datetime) -> None:
    """Transaction time as a thin line above each bar: recorded (o) to superseded (x)."""
    mdates = _mpl("matplotlib.dates")

    for row, v in enumerate(versions):
        y = row - 0.36
        start = mdates.date2num(v.recorded_at)
        end = mdates.date2num(v.superseded_at or right)
        ax.plot([start, end], [y, y], color=TX_COLOR, linewidth=1.0)
        ax.plot([start], [y], marker="o", markersize=5, color=TX_COLOR, gid="recorded_at")
        if v.superseded_at is not None:
            ax.plot([end], [y], marker="x", markersize=7, color="crimson", gid="superseded_at")


def _timeline_legend(ax: Any, now: datetime | None) -> None:
    line2d = _mpl("matplotlib.lines").Line2D
    patch = _mpl("matplotlib.patches").Patch

    handles = [
        patch(facecolor="grey", alpha=CURRENT_ALPHA, label="current version"),
        patch(
            facecolor="grey",
            alpha=SUPERSEDED_ALPHA,
            hatch=SUPERSEDED_HATCH,
            label="superseded version",
        ),
        line2d([], [], marker=">", linestyle="none", color="grey", label="open (no end yet)"),
        line2d([], [], marker="o", color=TX_COLOR, label="recorded (transaction time)"),
        line2d([], [], marker="x", linestyle="none", color="crimson", label="superseded at"),
    ]
    if now is not None:
        handles.append(line2d([], [], linestyle="--", color="red", label="now"))
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.14),
        ncol=3,
        fontsize="small",
        frameon=False,
    )


def plot_timeline(
    timeline: Timeline | Iterable[Fact], *, ax: Any = None, now: datetime | None = None
) -> Any:
    """Draw fact versions over valid time, with their transaction time; return the Axes.

    One horizontal bar per version (a row each, grouped by fact, one colour per fact) spans
    its valid interval; an open end runs to the right edge with an arrow. Current versions are
    solid, superseded ones pale and hatched. A thin line above each bar is its transaction
    interval: `o` where it was recorded, `x` where it was superseded. `now`, if given, is drawn
    as a dashed vertical line.
    """
    versions = _ordered(timeline)
    ax = _axes(ax, (10.0, 1.6 + 0.55 * max(len(versions), 1)))
    namespace = getattr(timeline, "namespace", None)
    ax.set_title(f"Timeline of {namespace!r}" if namespace else "Timeline")
    ax.set_xlabel("time (UTC): bars = valid time, thin lines = transaction time")
    ax.set_ylabel("fact versions")
    if not versions:
        ax.text(0.5, 0.5, "no facts", ha="center", va="center", transform=ax.transAxes)
        return ax
    now = None if now is None else require_aware(now, "now")
    left, right = _span(versions, now)
    _draw_versions(ax, versions, right)
    _draw_transactions(ax, versions, right)
    mdates = _mpl("matplotlib.dates")

    if now is not None:
        ax.axvline(mdates.date2num(now), color="red", linestyle="--", linewidth=1.0, gid="now")
    ax.set_xlim(mdates.date2num(left), mdates.date2num(right))
    locator = mdates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.set_yticks(range(len(versions)))
    ax.set_yticklabels([f"{_short(v.text)}  v{v.version} ({v.kind})" for v in versions])
    ax.set_ylim(len(versions) - 0.5, -0.8)  # first row on top, room for its transaction line
    ax.grid(axis="x", alpha=0.3)
    _timeline_legend(ax, now)
    return ax


# --- concept graph ----------------------------------------------------------------------
def spring_layout(
    keys: Sequence[str],
    pairs: Iterable[tuple[str, str]],
    *,
    iterations: int = 300,
    gravity: float = 1.5,
) -> dict[str, tuple[float, float]]:
    """Deterministic force-directed positions (Fruchterman-Reingold from a circle) in [-1, 1]².

    The same keys and pairs always give the same picture; `gravity` pulls every node towards
    the centre, so separate components and lone concepts stay in view.
    """
    import numpy as np

    n = len(keys)
    if n < 2:
        return {key: (0.0, 0.0) for key in keys}
    index = {key: i for i, key in enumerate(keys)}
    adjacency = np.zeros((n, n))
    for a, b in pairs:
        if a in index and b in index and a != b:
            adjacency[index[a], index[b]] = adjacency[index[b], index[a]] = 1.0
    angles = 2 * math.pi * np.arange(n) / n
    pos = np.column_stack([np.cos(angles), np.sin(angles)])
    k = math.sqrt(4.0 / n)  # ideal edge length in a 2x2 box
    for step in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=-1), 1e-3)
        force = k * k / dist**2 - adjacency * dist / k  # repulsion - attraction, per unit delta
        np.fill_diagonal(force, 0.0)
        move = (delta * force[..., None]).sum(axis=1) - gravity * pos
        length = np.maximum(np.linalg.norm(move, axis=1), 1e-9)
        limit = 0.1 * (1.0 - step / iterations)
        pos += move / length[:, None] * np.minimum(length, limit)[:, None]
    pos -= pos.mean(axis=0)
    pos /= max(float(np.abs(pos).max()), 1e-9)
    return {key: (float(pos[i, 0]), float(pos[i, 1])) for key, i in index.items()}


def _draw_edges(ax: Any, edges: Sequence[ConceptEdge], pos: dict[str, tuple[float, float]]) -> None:
    """RELATED edges: width grows with strength, labelled with their t_index."""
    line_collection = _mpl("matplotlib.collections").LineCollection

    shown = [e for e in edges if e.src in pos and e.dst in pos]
    segments = [[pos[e.src], pos[e.dst]] for e in shown]
    widths = [1.0 + 1.5 * min(e.strength, 6) for e in shown]
    ax.add_collection(
        line_collection(segments, linewidths=widths, colors="#8c8c8c", zorder=1, gid="related")
    )
    for e in shown:
        (x1, y1), (x2, y2) = pos[e.src], pos[e.dst]
        ax.text(
            (x1 + x2) / 2,
            (y1 + y2) / 2,
            f"t{e.t_index}",
            fontsize=7,
            ha="center",
            va="center",
            zorder=2,
            bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"},
        )


def _draw_inferred(
    ax: Any, edges: Sequence[InferredEdge], pos: dict[str, tuple[float, float]]
) -> None:
    """Inferred relationships: dashed, labelled with their type, kept apart from RELATED."""
    shown = [e for e in edges if e.src in pos and e.dst in pos]
    if not shown:
        return
    segments = [[pos[e.src], pos[e.dst]] for e in shown]
    ax.add_collection(
        _mpl("matplotlib.collections").LineCollection(
            segments, linestyles="dashed", colors=INFERRED_COLOR, zorder=1, gid="inferred"
        )
    )
    for e in shown:
        (x1, y1), (x2, y2) = pos[e.src], pos[e.dst]
        label = f"{e.type.lower()} {e.confidence:.2f}"
        ax.text((x1 + x2) / 2, (y1 + y2) / 2 - 0.05, label, fontsize=6, color=INFERRED_COLOR)


def _draw_nodes(
    ax: Any,
    nodes: Sequence[Concept],
    pos: dict[str, tuple[float, float]],
    highlight: frozenset[str],
    chosen: frozenset[str],
) -> None:
    """Concept nodes (display form as label); highlighted ones coloured, chosen ones ringed."""
    xs = [pos[c.key][0] for c in nodes]
    ys = [pos[c.key][1] for c in nodes]
    colors = [ESSENTIAL_COLOR if c.key in highlight else CONCEPT_COLOR for c in nodes]
    rings = [2.5 if c.key in chosen else 0.8 for c in nodes]
    ax.scatter(
        xs, ys, s=1200, c=colors, edgecolors="black", linewidths=rings, zorder=3, gid="concepts"
    )
    for c, x, y in zip(nodes, xs, ys, strict=True):
        label = _short(c.display, 12)
        size = 8 if len(label) <= 6 else 6.5
        ax.text(x, y, label, ha="center", va="center", fontsize=size, zorder=4)


def _graph_legend(ax: Any) -> None:
    line2d = _mpl("matplotlib.lines").Line2D

    def dot(color: str, ring: float, label: str) -> Any:
        return line2d(
            [],
            [],
            marker="o",
            linestyle="none",
            markersize=11,
            markerfacecolor=color,
            markeredgecolor="black",
            markeredgewidth=ring,
            label=label,
        )

    handles = [
        dot(ESSENTIAL_COLOR, 0.8, "highlighted (e.g. named by the question)"),
        dot(CONCEPT_COLOR, 0.8, "concept"),
        dot("white", 2.5, "chosen (e.g. kept by RecallM)"),
        line2d(
            [], [], color="#8c8c8c", linewidth=3, label="RELATED: width = strength, tN = t_index"
        ),
        line2d([], [], color=INFERRED_COLOR, linestyle="dashed", label="inferred (confidence)"),
    ]
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncol=2,
        fontsize="small",
        frameon=False,
    )


def plot_concept_graph(
    nodes: Sequence[Concept],
    edges: Sequence[ConceptEdge],
    *,
    ax: Any = None,
    highlight: Iterable[str] = (),
    chosen: Iterable[str] = (),
    inferred: Sequence[InferredEdge] = (),
) -> Any:
    """Draw concept nodes and their RELATED edges (as `MemoryStore.concept_graph` returns
    them); return the Axes.

    Edge width grows with `strength` and each edge is labelled with its `t_index`; concepts
    whose key is in `highlight` (e.g. a question's essential concepts) are orange, those in
    `chosen` (e.g. the concepts RecallM keeps) get a thick ring. `inferred` relationships
    (`MemoryStore.relationships`) are dashed, labelled with their type. The layout is
    deterministic.
    """
    ordered = sorted({c.key: c for c in nodes}.values(), key=lambda c: c.key)
    ax = _axes(ax, (7.0, 7.0))
    pos = spring_layout([c.key for c in ordered], [(e.src, e.dst) for e in edges])
    _draw_edges(ax, edges, pos)
    _draw_inferred(ax, inferred, pos)
    _draw_nodes(ax, ordered, pos, frozenset(highlight), frozenset(chosen))
    if not ordered:
        ax.text(0.5, 0.5, "no concepts", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlim(-1.25, 1.25)
    ax.set_ylim(-1.25, 1.25)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title("Concept graph")
    _graph_legend(ax)
    return ax


def plot_question_graph(
    store: MemoryStore,
    question: str,
    *,
    namespace: str = "default",
    basis: Basis | None = None,
    hops: int = 2,
    ax: Any = None,
) -> Any:
    """Draw the concept neighbourhood RecallM explores for `question`; return the Axes.

    The question's concepts found in the graph (essential) are orange, the `hops`-neighbourhood
    around them is drawn (ignoring the t_index window), the concepts RecallM keeps for the
    prompt at the basis are ringed, and inferred relationships among them are dashed.
    """
    view = store.concepts_for(question, namespace=namespace, basis=basis)
    nodes, edges = store.concept_graph(view.essential, namespace=namespace, hops=hops)
    ax = plot_concept_graph(
        nodes,
        edges,
        ax=ax,
        highlight=view.essential,
        chosen=[c.key for c in view.concepts],
        inferred=store.relationships(namespace, keys=[c.key for c in nodes]),
    )
    ax.set_title(f"Concepts around {_short(question, 48)!r}")
    return ax
