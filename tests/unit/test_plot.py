"""The picture helpers (`bitemporal_core.views`), drawn with the Agg backend, without an engine."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bitemporal_core import (
    Concept,
    ConceptEdge,
    ConceptView,
    ConfigurationError,
    Fact,
    InferredEdge,
    NaiveDatetime,
    Timeline,
    plot_concept_graph,
    plot_question_graph,
    plot_timeline,
)
from bitemporal_core.ranking.recallm import RankedConcept
from bitemporal_core.views.graph import spring_layout

matplotlib = pytest.importorskip("matplotlib")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def t(s: str) -> datetime:
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


def d(s: str | None) -> datetime | None:
    """A day of late 2023 ("10-26" or "10-26T09:00"), or None for an open end."""
    return None if s is None else t(f"2023-{s}")


def version(fact_id: str, n: int, text: str, valid: str, recorded: str) -> Fact:
    """One version; `valid` and `recorded` are "start/end" with "-" for an open end."""
    vf, vt = (None if x == "-" else x for x in valid.split("/"))
    rf, rt = (None if x == "-" else x for x in recorded.split("/"))
    valid_from, recorded_at = d(vf), d(rf)
    assert valid_from is not None and recorded_at is not None
    return Fact(
        id=fact_id,
        version_id=f"{fact_id}-v{n}",
        namespace="alice",
        text=text,
        valid_from=valid_from,
        valid_to=d(vt),
        recorded_at=recorded_at,
        superseded_at=d(rt),
        version=n,
    )


LIKE, ALLERGY, TRIP = "I enjoy eating apples.", "I am allergic to apples.", "Paris trip."
# the design's apples table, plus a trip whose date was corrected.
APPLES = Timeline(
    namespace="alice",
    versions=(
        version("like", 1, LIKE, "10-26/-", "10-26T10:00/10-27T09:00"),
        version("allergy", 1, ALLERGY, "10-27T09:00/-", "10-27T09:00/-"),
        version("like", 2, LIKE, "10-26/10-27T09:00", "10-27T09:00/-"),
        version("trip", 1, TRIP, "11-01/-", "10-28T08:00/10-30T12:00"),
        version("trip", 2, TRIP, "11-05/-", "10-30T12:00/-"),
    ),
)

NODES = [
    Concept(key="pari", display="Paris", t_index=3),
    Concept(key="busi", display="business", t_index=3),
    Concept(key="trip", display="trip", t_index=3),
    Concept(key="appl", display="apples", t_index=2),
]
EDGES = [
    ConceptEdge(src="busi", dst="trip", strength=1, t_index=3),
    ConceptEdge(src="busi", dst="pari", strength=4, t_index=3),
]


@pytest.fixture(autouse=True)
def agg() -> Iterator[None]:
    """Draw off-screen and close every figure (more than 20 open ones is a warning)."""
    matplotlib.use("Agg")
    plt = pytest.importorskip("matplotlib.pyplot")
    yield
    plt.close("all")


def by_gid(ax: Any, gid: str) -> list[Any]:
    return [a for a in ax.get_children() if a.get_gid() == gid]


def test_timeline_has_one_bar_per_version() -> None:
    ax = plot_timeline(APPLES)
    (bars,) = [c for c in ax.containers if c.get_label() == "valid time"]
    assert len(bars) == len(APPLES) == 5
    assert ax.get_title() == "Timeline of 'alice'"
    assert "valid time" in ax.get_xlabel() and "transaction time" in ax.get_xlabel()
    assert ax.get_ylabel() == "fact versions"


def test_timeline_rows_are_grouped_by_fact_and_styled_by_currency() -> None:
    ax = plot_timeline(APPLES)
    labels = [label.get_text() for label in ax.get_yticklabels()]
    assert labels == [
        "I enjoy eating apples.  v1 (said)",
        "I enjoy eating apples.  v2 (said)",
        "I am allergic to apples.  v1 (said)",
        "Paris trip.  v1 (said)",
        "Paris trip.  v2 (said)",
    ]
    bars = ax.containers[0]
    current = [bar.get_hatch() is None for bar in bars]
    assert current == [False, True, True, False, True]
    assert bars[0].get_alpha() < bars[1].get_alpha()


def test_timeline_marks_transaction_time() -> None:
    ax = plot_timeline(APPLES)
    assert len(by_gid(ax, "recorded_at")) == 5
    assert len(by_gid(ax, "superseded_at")) == 2  # like v1, trip v1
    assert by_gid(ax, "now") == []
    ax = plot_timeline(APPLES, now=t("2023-11-02"))
    assert len(by_gid(ax, "now")) == 1


def test_open_intervals_run_to_the_right_edge() -> None:
    mdates = pytest.importorskip("matplotlib.dates")
    ax = plot_timeline(APPLES)
    right = ax.get_xlim()[1]
    bars = ax.containers[0]
    open_ends = [bar.get_x() + bar.get_width() for bar, v in zip(bars, ordered(), strict=True)]
    assert open_ends[2] == pytest.approx(right)  # the allergy is open
    assert open_ends[1] == pytest.approx(mdates.date2num(t("2023-10-27T09:00")))


def ordered() -> Sequence[Fact]:
    like1, allergy, like2, trip1, trip2 = APPLES.versions
    return [like1, like2, allergy, trip1, trip2]


def test_timeline_plot_method_delegates_and_draws_into_given_axes() -> None:
    plt = pytest.importorskip("matplotlib.pyplot")
    fig, ax = plt.subplots()
    assert APPLES.plot(ax=ax) is ax
    assert len(ax.containers[0]) == 5
    assert fig.axes == [ax]


def test_timeline_saves_a_png(tmp_path: Path) -> None:
    ax = APPLES.plot(now=t("2023-11-02"))
    out = tmp_path / "timeline.png"
    ax.figure.savefig(out, dpi=80)
    data = out.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 10_000


def test_empty_timeline_and_naive_now() -> None:
    ax = plot_timeline(Timeline(namespace="bob", versions=()))
    assert ax.containers == []
    assert [x.get_text() for x in ax.texts] == ["no facts"]
    with pytest.raises(NaiveDatetime):
        plot_timeline(APPLES, now=datetime(2023, 11, 2))


def test_concept_graph_draws_nodes_edges_and_highlights(tmp_path: Path) -> None:
    ax = plot_concept_graph(NODES, EDGES, highlight=["pari"], chosen=["busi"])
    (nodes,) = by_gid(ax, "concepts")
    (edges,) = by_gid(ax, "related")
    assert len(nodes.get_offsets()) == 4
    assert len(edges.get_segments()) == 2
    widths = list(edges.get_linewidths())
    assert widths[1] > widths[0]  # strength 4 is drawn wider than strength 1
    texts = [x.get_text() for x in ax.texts]
    assert texts.count("t3") == 2 and {"Paris", "business", "trip", "apples"} <= set(texts)
    colors = nodes.get_facecolors()
    order = ["appl", "busi", "pari", "trip"]  # nodes are drawn sorted by key
    orange = matplotlib.colors.to_rgba("#f28e2b")
    assert [tuple(c) == orange for c in colors] == [k == "pari" for k in order]
    assert list(nodes.get_linewidths()) == [0.8, 2.5, 0.8, 0.8]
    ax.figure.savefig(tmp_path / "graph.png", dpi=60)
    assert (tmp_path / "graph.png").read_bytes().startswith(PNG_MAGIC)


def test_inferred_relationships_are_dashed_and_labelled() -> None:
    inferred = [
        InferredEdge(
            src="appl", dst="trip", type="SIMILAR_TO", confidence=0.5, provenance="rule:x"
        ),
        InferredEdge(src="appl", dst="gone", type="NEAR", confidence=0.9, provenance="rule:x"),
    ]
    ax = plot_concept_graph(NODES, EDGES, inferred=inferred)
    (dashed,) = by_gid(ax, "inferred")
    assert len(dashed.get_segments()) == 1, "edges to concepts not drawn are skipped"
    assert dashed.get_linestyles()[0][1] is not None  # a dash pattern, not a solid line
    assert "similar_to 0.50" in [x.get_text() for x in ax.texts]
    assert len(by_gid(plot_concept_graph(NODES, EDGES), "inferred")) == 0


def test_layout_is_deterministic_and_bounded() -> None:
    keys = ["a", "b", "c", "d", "e"]
    pairs = [("a", "b"), ("b", "c")]
    first = spring_layout(keys, pairs)
    assert first == spring_layout(keys, pairs)
    assert all(-1.0 <= x <= 1.0 and -1.0 <= y <= 1.0 for x, y in first.values())
    assert len(set(first.values())) == 5
    assert spring_layout(["a"], []) == {"a": (0.0, 0.0)}
    assert spring_layout([], []) == {}


def test_empty_concept_graph() -> None:
    ax = plot_concept_graph([], [])
    assert "no concepts" in [x.get_text() for x in ax.texts]


class FakeStore:
    """Just the three reads `plot_question_graph` makes."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def concepts_for(self, question: str, *, namespace: str, basis: Any) -> ConceptView:
        self.calls.append(("concepts_for", question, namespace))
        chosen = (
            RankedConcept(key="busi", display="business", score=4.0, essential=False),
            RankedConcept(key="pari", display="Paris", score=3.0, essential=True),
        )
        return ConceptView(question_concepts=("pari", "pie"), concepts=chosen, contexts={})

    def concept_graph(
        self, keys: Sequence[str], *, namespace: str, hops: int
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        self.calls.append(("concept_graph", tuple(keys), namespace, hops))
        return NODES[:3], EDGES

    def relationships(self, namespace: str, *, keys: Sequence[str]) -> list[InferredEdge]:
        self.calls.append(("relationships", namespace, tuple(keys)))
        return [InferredEdge(src="pari", dst="trip", type="NEAR", confidence=1.0, provenance="x")]


def test_question_graph_highlights_the_essential_concepts() -> None:
    store = FakeStore()
    ax = plot_question_graph(store, "A pie in Paris?", namespace="alice")  # type: ignore[arg-type]
    assert store.calls == [
        ("concepts_for", "A pie in Paris?", "alice"),
        ("concept_graph", ("pari",), "alice", 2),
        ("relationships", "alice", ("pari", "busi", "trip")),
    ]
    (nodes,) = by_gid(ax, "concepts")
    (inferred,) = by_gid(ax, "inferred")
    assert len(inferred.get_segments()) == 1
    assert len(nodes.get_offsets()) == 3
    assert ax.get_title() == "Concepts around 'A pie in Paris?'"


def test_without_matplotlib_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ConfigurationError, match=r"bitemporal-memory\[plot\]"):
        plot_timeline(APPLES)
