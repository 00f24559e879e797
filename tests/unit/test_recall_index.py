"""The embedded engine's recall index against brute-force answers (no engine: pure reads)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core.backends.ladybug.index import NamespaceIndex
from bitemporal_core.backends.port import ALL, RecallFilter
from bitemporal_core.ranking import bm25

T0 = datetime(2024, 1, 1, tzinfo=UTC)
KINDS = ("said", "preference", "plan")


def _versions(rng: random.Random, n: int) -> list[tuple]:
    rows = []
    for i in range(n):
        vf = T0 + timedelta(hours=rng.randint(0, 400))
        vt = None if rng.random() < 0.6 else vf + timedelta(hours=rng.randint(1, 100))
        rec = T0 + timedelta(hours=rng.randint(0, 400))
        sup = None if rng.random() < 0.7 else rec + timedelta(hours=rng.randint(1, 50))
        arch = None if rng.random() < 0.9 else rec + timedelta(hours=rng.randint(1, 50))
        kind, length = rng.choice(KINDS), rng.randint(1, 9)
        rows.append((f"v{i:03d}", vf, vt, rec, sup, arch, kind, length, i + 1))
    return rows


def _visible(row: tuple, valid_at: datetime, known_at: datetime, where: RecallFilter) -> bool:
    _, vf, vt, rec, sup, arch, kind, _, _ = row
    return (
        rec <= known_at
        and (sup is None or sup > known_at)
        and vf <= valid_at
        and (vt is None or vt > valid_at)
        and (where.include_archived or arch is None or arch > known_at)
        and (where.kinds is None or kind in where.kinds)
    )


BASES = [(T0 + timedelta(hours=h), T0 + timedelta(hours=k)) for h, k in ((50, 300), (200, 200))]
FILTERS = [ALL, RecallFilter(kinds=("plan",)), RecallFilter(include_archived=True)]


@pytest.mark.parametrize("seed", range(4))
def test_mentions_come_newest_first_whatever_order_they_were_added(seed: int) -> None:
    rng = random.Random(seed)
    rows = _versions(rng, 120)
    index = NamespaceIndex()
    index.add_versions(rows[:60])
    pairs = [(f"c{rng.randint(0, 3)}", r[0], -1) for r in rows]
    index.add_mentions(pairs[:60], check_order=False)  # as read from the database
    index.add_versions(rows[60:])
    for pair in pairs[60:]:  # written one by one, some out of (valid_from, recorded_at) order
        index.add_mentions([pair])
    by_id = {r[0]: r for r in rows}
    for valid_at, known_at in BASES:
        for where in FILTERS:
            mask = index.visible(valid_at, known_at, where)
            for cid in ("c0", "c1", "c2", "c3"):
                expected = sorted(
                    (by_id[v] for c, v, _ in pairs if c == cid),
                    key=lambda r: (r[1], r[3], r[0]),
                    reverse=True,
                )
                expected_ids = [r[0] for r in expected if _visible(r, valid_at, known_at, where)]
                got = [index.ids[i] for i in index.newest_mentions(cid, mask, 5)]
                assert got == expected_ids[:5]


def test_closing_and_archiving_change_what_a_basis_sees() -> None:
    index = NamespaceIndex()
    index.add_versions([("a", T0, None, T0, None, None, "said", 3, 1)])
    later = T0 + timedelta(days=2)
    assert index.visible(later, later, ALL).tolist() == [True]
    index.set_time("sup", ["a"], T0 + timedelta(days=1))
    assert index.visible(later, later, ALL).tolist() == [False]
    assert index.visible(later, T0 + timedelta(hours=1), ALL).tolist() == [True]
    index.set_time("sup", ["a"], datetime(9999, 12, 31, tzinfo=UTC))
    index.set_time("arch", ["a"], T0 + timedelta(days=1))
    assert index.visible(later, later, ALL).tolist() == [False]
    assert index.visible(later, later, RecallFilter(include_archived=True)).tolist() == [True]


def test_keyword_scores_equal_bm25_over_the_visible_postings() -> None:
    rng = random.Random(7)
    rows = _versions(rng, 200)
    index = NamespaceIndex()
    index.add_versions(rows)
    postings = [
        (f"ns\x1f{t}", r[0], rng.randint(1, 3)) for r in rows for t in rng.sample("abcdefg", 3)
    ]
    index.add_postings(postings)
    index.n_docs, index.total_length = len(rows), sum(r[7] for r in rows)
    valid_at, known_at = BASES[1]
    mask = index.visible(valid_at, known_at, ALL)
    got = index.keyword("ns", ["a", "c", "zz"], mask, 10)
    by_id = {r[0]: r for r in rows}
    df = {t: sum(1 for tid, _, _ in postings if tid == f"ns\x1f{t}") for t in ("a", "c")}
    chosen = bm25.choose_terms(df)
    rows_read = [
        (vid, by_id[vid][7], tid.split("\x1f")[1], tf)
        for tid, vid, tf in postings
        if tid.split("\x1f")[1] in chosen and _visible(by_id[vid], valid_at, known_at, ALL)
    ]
    scores = bm25.score(rows_read, df, index.n_docs, index.total_length / index.n_docs)
    expected = sorted(scores, key=lambda v: (-scores[v], v))[:10]
    assert [vid for vid, _ in got] == expected
    assert [s for _, s in got] == pytest.approx([scores[v] for v in expected])


def test_keyword_statistics_as_known_at_count_only_versions_recorded_by_then() -> None:
    rng = random.Random(8)
    rows = _versions(rng, 200)
    index = NamespaceIndex()
    index.add_versions(rows)
    postings = [
        (f"ns\x1f{t}", r[0], rng.randint(1, 3)) for r in rows for t in rng.sample("abcdefg", 3)
    ]
    index.add_postings(postings)
    index.n_docs, index.total_length = len(rows), sum(r[7] for r in rows)
    valid_at, known_at = BASES[1]
    mask = index.visible(valid_at, known_at, ALL)
    got = index.keyword("ns", ["a", "c"], mask, 10, known_at)
    by_id = {r[0]: r for r in rows}
    known = {r[0] for r in rows if r[3] <= known_at}
    df = {t: sum(1 for tid, v, _ in postings if tid == f"ns\x1f{t}" and v in known) for t in "ac"}
    n_docs, total = len(known), sum(by_id[v][7] for v in known)
    rows_read = [
        (vid, by_id[vid][7], tid.split("\x1f")[1], tf)
        for tid, vid, tf in postings
        if tid.split("\x1f")[1] in df and _visible(by_id[vid], valid_at, known_at, ALL)
    ]
    scores = bm25.score(rows_read, df, n_docs, total / n_docs)
    expected = sorted(scores, key=lambda v: (-scores[v], v))[:10]
    assert [vid for vid, _ in got] == expected
    assert [s for _, s in got] == pytest.approx([scores[v] for v in expected])
    # Known after everything: the running totals, as before.
    assert index.keyword("ns", ["a"], mask, 10, T0 + timedelta(days=100)) == index.keyword(
        "ns", ["a"], mask, 10
    )


@pytest.mark.parametrize("seed", range(3))
def test_the_neighbourhood_at_an_earlier_t_index_is_what_it_was_then(seed: int) -> None:
    """Writes one by one (each touching concepts and relating pairs, some of a write's mentions
    not touching); the graph read at each write's t_index later equals what it was then."""
    rng = random.Random(seed)
    index = NamespaceIndex()
    keys = [f"k{i}" for i in range(8)]
    seen: list[tuple[int, object]] = []
    for t in range(1, 25):
        vid = f"v{t}"
        index.add_versions([(vid, T0, None, T0 + timedelta(minutes=t), None, None, "said", 2, t)])
        named = rng.sample(keys, rng.randint(1, 3))
        touched = [k for k in named if rng.random() < 0.8] or named[:1]
        concepts = [
            (f"ns\x1f{k}", k, k.upper(), t) for k in touched if f"ns\x1f{k}" not in index.concepts
        ]
        concepts += [(f"ns\x1f{k}", None, None, t) for k in touched]
        index.set_concepts([c for c in concepts if c[1] is not None or c[0] in index.concepts])
        index.add_mentions([(f"ns\x1f{k}", vid, t if k in touched else -1) for k in named])
        pairs = sorted({tuple(sorted(rng.sample(touched + named, 2))) for _ in range(2)})
        index.relate((f"ns\x1f{a}", f"ns\x1f{b}", 1, t) for a, b in pairs if a != b)
        seen.append((t, [index.neighbourhood(keys[:3], "ns", 2, w, None) for w in (3, 15)]))
        index.concepts = {c: list(v) for c, v in index.concepts.items()}  # no aliasing of "then"
    for t, graphs in seen:
        assert [index.neighbourhood(keys[:3], "ns", 2, w, t) for w in (3, 15)] == graphs, t


def test_nearest_is_cosine_among_visible_versions_with_a_vector() -> None:
    rng = random.Random(3)
    rows = _versions(rng, 50)
    index = NamespaceIndex()
    index.add_versions(rows)
    vectors = {r[0]: [rng.uniform(-1, 1) for _ in range(8)] for r in rows[::2]}
    index.set_vectors(vectors.items(), 8)
    index.add_versions(_versions(random.Random(4), 1))  # a row without a vector, after them
    query = [rng.uniform(-1, 1) for _ in range(8)]
    valid_at, known_at = BASES[1]

    def cos(a: list[float], b: list[float]) -> float:
        dot = sum(x * y for x, y in zip(a, b, strict=True))
        return dot / (sum(x * x for x in a) ** 0.5 * sum(y * y for y in b) ** 0.5)

    by_id = {r[0]: r for r in rows}
    visible = [v for v in vectors if _visible(by_id[v], valid_at, known_at, ALL)]
    expected = sorted(visible, key=lambda v: -cos(vectors[v], query))[:4]
    got = index.nearest(query, index.visible(valid_at, known_at, ALL), 4)
    assert [vid for vid, _ in got] == expected
    # int8 rows: each component of a unit vector is off by at most 1/254
    assert [s for _, s in got] == pytest.approx(
        [cos(vectors[v], query) for v in expected], abs=8**0.5 / 254
    )
