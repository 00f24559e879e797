"""`Timeline`: a namespace's fact versions with their valid intervals, and its picture.

The picture needs matplotlib (`pip install 'bitemporal-memory[plot]'`), imported only when it
is drawn: `store.timeline("alice").plot()` or `plot_timeline(versions)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

import attrs

from bitemporal_core.common.times import require_aware
from bitemporal_core.model import Fact
from bitemporal_core.views.mpl import axes, fonts_for, mpl, short

__all__ = ["Timeline", "plot_timeline"]

CURRENT_ALPHA = 0.85
SUPERSEDED_ALPHA = 0.3
SUPERSEDED_HATCH = "///"
TX_COLOR = "#333333"


@attrs.frozen(kw_only=True)
class Timeline:
    """Fact versions of a namespace with their valid intervals, ready to tabulate or plot."""

    namespace: str
    versions: tuple[Fact, ...]

    def __iter__(self) -> Iterator[Fact]:
        return iter(self.versions)

    def __len__(self) -> int:
        return len(self.versions)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per version, in valid-time order."""
        return [v.to_dict() for v in self.versions]

    def plot(self, *, ax: Any = None, now: datetime | None = None) -> Any:
        """Draw this timeline with matplotlib and return the Axes: one bar per version over
        valid time, its transaction time as a thin line (see `plot_timeline`)."""
        return plot_timeline(self, ax=ax, now=now)


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
    cmap = mpl("matplotlib").colormaps["tab10"]
    ids = list(dict.fromkeys(v.id for v in versions))
    return {fact_id: cmap(i % 10) for i, fact_id in enumerate(ids)}


def _draw_versions(ax: Any, versions: Sequence[Fact], right: datetime) -> Any:
    """One bar per version over valid time; open ends get an arrow at the right edge."""
    mdates = mpl("matplotlib.dates")

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
    mdates = mpl("matplotlib.dates")

    for row, v in enumerate(versions):
        y = row - 0.36
        start = mdates.date2num(v.recorded_at)
        end = mdates.date2num(v.superseded_at or right)
        ax.plot([start, end], [y, y], color=TX_COLOR, linewidth=1.0)
        ax.plot([start], [y], marker="o", markersize=5, color=TX_COLOR, gid="recorded_at")
        if v.superseded_at is not None:
            ax.plot([end], [y], marker="x", markersize=7, color="crimson", gid="superseded_at")


def _timeline_legend(ax: Any, now: datetime | None) -> None:
    line2d = mpl("matplotlib.lines").Line2D
    patch = mpl("matplotlib.patches").Patch

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
    fonts_for(v.text for v in versions)
    ax = axes(ax, (10.0, 1.6 + 0.55 * max(len(versions), 1)))
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
    mdates = mpl("matplotlib.dates")

    if now is not None:
        ax.axvline(mdates.date2num(now), color="red", linestyle="--", linewidth=1.0, gid="now")
    ax.set_xlim(mdates.date2num(left), mdates.date2num(right))
    locator = mdates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.set_yticks(range(len(versions)))
    ax.set_yticklabels([f"{short(v.text)}  v{v.version} ({v.kind})" for v in versions])
    ax.set_ylim(len(versions) - 0.5, -0.8)  # first row on top, room for its transaction line
    ax.grid(axis="x", alpha=0.3)
    _timeline_legend(ax, now)
    return ax
