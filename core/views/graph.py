"""Pictures of the RecallM concept graph: a namespace's concepts and a question's neighbourhood.

Needs matplotlib (`pip install 'bitemporal-memory[plot]'`), imported only when a picture is
drawn. Every function draws into the given Axes (or a new figure) and returns that Axes:

    plot_question_graph(store, "Can I bake an apple pie?", namespace="alice")
    plot_concept_graph(*store.concept_graph(["appl"], namespace="alice", hops=2))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bitemporal_core.model import Basis, Concept, ConceptEdge, InferredEdge
from bitemporal_core.views.mpl import axes, fonts_for, mpl, short

__all__ = ["ConceptSource", "plot_concept_graph", "plot_question_graph", "spring_layout"]

ESSENTIAL_COLOR = "#f28e2b"
CONCEPT_COLOR = "#a0cbe8"
INFERRED_COLOR = "#59a14f"


class _View(Protocol):
    @property
    def essential(self) -> tuple[str, ...]: ...

    @property
    def concepts(self) -> Sequence[Any]: ...


class ConceptSource(Protocol):
    """What `plot_question_graph` reads (a `MemoryStore` is one)."""

    def concepts_for(
        self, query: str, *, namespace: str = ..., basis: Basis | None = ...
    ) -> _View: ...

    def concept_graph(
        self, keys: Sequence[str], *, namespace: str = ..., hops: int = ...
    ) -> tuple[list[Concept], list[ConceptEdge]]: ...

    def relationships(
        self, namespace: str = ..., *, keys: Sequence[str] | None = ...
    ) -> list[InferredEdge]: ...


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
    line_collection = mpl("matplotlib.collections").LineCollection

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
        mpl("matplotlib.collections").LineCollection(
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
        label = short(c.display, 12)
        size = 8 if len(label) <= 6 else 6.5
        ax.text(x, y, label, ha="center", va="center", fontsize=size, zorder=4)


def _graph_legend(ax: Any) -> None:
    line2d = mpl("matplotlib.lines").Line2D

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
    fonts_for(c.display for c in ordered)
    ax = axes(ax, (7.0, 7.0))
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
    store: ConceptSource,
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
    ax.set_title(f"Concepts around {short(question, 48)!r}")
    return ax
