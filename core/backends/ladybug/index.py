"""The embedded engine's recall index: the read model of recall, kept in the process.

LadybugDB answers a statement in 0.2-1 ms plus its scan, and a recall at 100k facts ran about
fifteen of them (concept neighbourhoods, term postings, candidate rows): 40-80 ms. This index
holds, per namespace, what those statements computed from: each version's times, kind, t_index,
length and archiving as numpy columns (a basis is one vectorised mask), term postings, concepts
and their RELATED edges, each concept's mentions, inferred edges, and the embeddings (read on the
first vector search, kept as int8 rows: `vectors`). A read at a `known_at` before the
namespace's latest write is computed as of then: each concept's t_index from the t_indexes its
mentions moved it to (`touches`), each pair's strength from its RELATED increments up to then
(`steps`), BM25 statistics from the versions recorded by then; reads at or after the latest
write use the running totals.

A namespace is read from the database on its first recall (about a second at 100k facts), or
from the index `close` saved (`saved`: its mappings read one key at a time, `lazy`), and
then changed by each committed write with the rows that write stored; writes it does not follow
(forget, archive, inferred edges) drop it, to be read again. Fact rows still come from the
database, by id. The process is the database's only writer (LadybugDB locks the
file), as the namespace clocks cached by the engine already assume.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, MutableMapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from bitemporal_core.backends.base import Run
from bitemporal_core.backends.ladybug import cypher as q
from bitemporal_core.backends.ladybug.lazy import LazyMap, packed
from bitemporal_core.backends.ladybug.vectors import UnitRows
from bitemporal_core.backends.port import RecallFilter, WriteBatch, WriteResult
from bitemporal_core.backends.rows import scoped
from bitemporal_core.common.times import END_OF_TIME
from bitemporal_core.model import Fact
from bitemporal_core.ranking import bm25

Steps = Sequence[tuple[WriteBatch, WriteResult]]

__all__ = ["NamespaceIndex", "Steps"]

_EPOCH = datetime(1970, 1, 1)
_US = timedelta(microseconds=1)
_NEVER = np.iinfo(np.int64).max  # an archived_at that is not set
_NEVER_KNOWN = np.iinfo(np.int64).min  # the latest recorded_at of an empty index
_NEIGHBOURS_MAX = 800  # per hop, as the engine's neighbourhood statement limits it
_FACTS_MAX = 20_000  # fact rows kept per namespace (about 1 KB each), oldest read dropped
LAZY = ("postings", "concepts", "adjacent", "out", "steps", "touches", "mentions")
"""The mappings a saved index packs (`lazy`): a recall reads only its keys' values."""


def _us(value: datetime | None, default: int = _NEVER) -> int:
    """Microseconds since 1970 of a UTC time (aware or as the engine returns it)."""
    if value is None:
        return default
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return (value - _EPOCH) // _US


_EOT = _us(END_OF_TIME)


class NamespaceIndex:
    """One namespace's read model (see the module docstring)."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self._row: dict[str, int] | None = {}  # version id -> row; None: built when needed
        self._cols = {
            name: np.empty(0, np.int64)
            for name in ("vf", "vt", "rec", "sup", "arch", "kind", "tix", "len")
        }
        self.last_rec = _NEVER_KNOWN  # the latest recorded_at (a read known after it is "now")
        self.length: list[int] = []
        self.kinds: dict[str, int] = {}
        self.postings: MutableMapping[str, tuple[list[int], list[int]]] = {}  # term -> rows, tfs
        self.n_docs = 0
        self.total_length = 0
        self.summaries = 0  # concept summaries written (an LLM's); none: nothing to read
        self.concepts: MutableMapping[str, list[Any]] = {}  # concept id -> [key, display, t]
        self.adjacent: MutableMapping[str, set[str]] = {}  # RELATED, either direction
        self.out: MutableMapping[str, dict[str, list[int]]] = {}  # a -> b -> [strength, t]
        self.steps: MutableMapping[str, dict[str, list[tuple[int, int]]]] = {}  # a->b->[(t, n)]
        self.touches: MutableMapping[str, list[int]] = {}  # concept -> t_indexes, ascending
        self.mentions: MutableMapping[str, list[int]] = {}  # concept -> rows, oldest first
        self._unsorted: set[str] = set()
        self.inferred: list[list[Any]] | None = None  # INFERRED_ALL rows; None: read again
        self.vectors: UnitRows | None = None  # unit rows (zero where a version has none)
        self.embedded = np.zeros(0, bool)  # which rows have an embedding
        self.facts: dict[str, Fact] = {}  # rows read by id; dropped when a version closes
        self._mask_key: tuple[Any, ...] | None = None
        self._mask = np.empty(0, bool)
        self.generation = 0
        self.from_saved = False  # loaded from a saved index whose embeddings are not read yet

    def __getstate__(self) -> dict[str, Any]:
        """What a saved index keeps: everything but the fact rows, the last mask, the id ->
        row map (rebuilt from `ids` by the first write) and the embeddings (saved apart, see
        `saved`); each mapping of `LAZY` packed, to be read one key at a time."""
        state = dict(self.__dict__)
        state.update(facts={}, _mask_key=None, _mask=np.empty(0, bool), _row=None, from_saved=False)
        state.update(vectors=None, embedded=np.zeros(0, bool))
        state.update({name: packed(getattr(self, name)) for name in LAZY})
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in LAZY:
            setattr(self, name, LazyMap(state[name]))

    def saved_vectors(self) -> dict[str, np.ndarray] | None:
        """The embeddings to save beside the index (one row per version) and which versions
        have one, as named arrays, if read."""
        if self.vectors is None:
            return None
        n = len(self.ids)
        return {**self.vectors.arrays(n), "embedded": self.embedded[:n]}

    def restore_vectors(self, vectors: UnitRows, embedded: np.ndarray) -> None:
        """Embeddings read from a saved file (one row per version, zero where none); grown
        like the columns by the next write."""
        self.vectors, self.embedded = vectors, embedded

    @property
    def row(self) -> dict[str, int]:
        """Version id -> row (built from `ids` on first use after a load: writes need it)."""
        if self._row is None:
            self._row = {vid: i for i, vid in enumerate(self.ids)}
        return self._row

    # --- building --------------------------------------------------------------------------
    def col(self, name: str) -> np.ndarray:
        return self._cols[name][: len(self.ids)]

    def add_versions(self, rows: Iterable[Sequence[Any]]) -> None:
        """Rows (id, valid_from, valid_to, recorded_at, superseded_at, archived_at, kind,
        length, t_index), as INDEX_VERSIONS returns them."""
        new = [list(r) for r in rows if r[0] not in self.row]
        if not new:
            return
        start = len(self.ids)
        need = start + len(new)
        if need > len(self._cols["vf"]):
            capacity = max(need, 2 * len(self._cols["vf"]), 1024)
            for name, old in self._cols.items():
                grown = np.empty(capacity, np.int64)
                grown[:start] = old[:start]
                self._cols[name] = grown
        if self.vectors is not None and need > len(self.vectors):
            capacity = len(self._cols["vf"])
            embedded = np.zeros(capacity, bool)
            embedded[:start] = self.embedded[:start]
            self.vectors, self.embedded = self.vectors.grown(capacity, start), embedded
        for i, (vid, vf, vt, rec, sup, arch, kind, length, tix) in enumerate(new, start):
            self.row[vid] = i
            self.ids.append(vid)
            self.length.append(int(length or 0))
            c = self._cols
            c["vf"][i], c["vt"][i] = _us(vf), _us(vt, _EOT)
            c["rec"][i], c["sup"][i], c["arch"][i] = _us(rec), _us(sup, _EOT), _us(arch)
            c["kind"][i] = self.kinds.setdefault(kind or "said", len(self.kinds))
            c["tix"][i], c["len"][i] = int(tix or 0), int(length or 0)
            self.last_rec = max(self.last_rec, int(c["rec"][i]))
        self.changed()

    def set_time(self, column: str, vids: Iterable[str], at: datetime) -> None:
        for vid in vids:
            if (i := self.row.get(vid)) is not None:
                self._cols[column][i] = _us(at)
            self.facts.pop(vid, None)
        self.changed()

    def read_facts(
        self, run: Run, to_fact: Callable[[Sequence[Any]], Fact], ids: Sequence[str]
    ) -> dict[str, Fact]:
        """The facts of these version ids, from the rows already read or in one statement."""
        missing = [vid for vid in dict.fromkeys(ids) if vid not in self.facts]
        if missing:
            for fact in map(to_fact, run(q.SHARED.VERSIONS_BY_ID, {"ids": missing})):
                self.facts[fact.version_id] = fact
            while len(self.facts) > _FACTS_MAX:
                del self.facts[next(iter(self.facts))]
        return {vid: self.facts[vid] for vid in ids if vid in self.facts}

    def add_postings(self, rows: Iterable[Sequence[Any]]) -> None:
        """Rows (term id, version id, tf)."""
        for tid, vid, tf in rows:
            if (i := self.row.get(vid)) is not None:
                rows_tfs = self.postings.setdefault(tid, ([], []))
                rows_tfs[0].append(i)
                rows_tfs[1].append(int(tf or 0))

    def add_mentions(self, rows: Iterable[Sequence[Any]], *, check_order: bool = True) -> None:
        """Rows (concept id, version id, touch); a concept's list stays sorted while rows come
        in order (as new statements mostly do), else it is sorted on its next read."""
        for cid, vid, touch in rows:
            if touch is not None and touch >= 0:
                self._touch(cid, int(touch))
            if (i := self.row.get(vid)) is not None:
                held = self.mentions.setdefault(cid, [])
                late = bool(held) and (not check_order or self._order(held[-1]) > self._order(i))
                if late:
                    self._unsorted.add(cid)
                held.append(i)

    def _touch(self, cid: str, t: int) -> None:
        held = self.touches.setdefault(cid, [])
        if not held or held[-1] < t:
            held.append(t)
        elif t not in held:  # out of order (a load): kept ascending
            bisect.insort(held, t)

    def _order(self, i: int) -> tuple[int, int, str]:
        return int(self._cols["vf"][i]), int(self._cols["rec"][i]), self.ids[i]

    def set_concepts(self, rows: Iterable[Sequence[Any]]) -> None:
        """Rows (id, key, display, t_index): new concepts, or a known one's new t_index."""
        for cid, key, display, t in rows:
            found = self.concepts.get(cid)
            if found is None:
                self.concepts[cid] = [key, display, int(t)]
            else:
                found[2] = int(t)

    def relate(self, rows: Iterable[Sequence[Any]]) -> None:
        """RELATED rows (a, b, strength, t_index), each added to the pair's strength (the engine
        keeps one edge per write of a pair); the pair's t_index is the largest."""
        for a, b, n, t in rows:
            edge = self.out.setdefault(a, {}).get(b)
            if edge is None:
                self.out[a][b] = [int(n), int(t)]
            else:
                edge[0] += int(n)
                edge[1] = max(edge[1], int(t))
            steps = self.steps.setdefault(a, {}).setdefault(b, [])
            steps.append((int(t), int(n)))
            if len(steps) > 1 and steps[-2][0] > steps[-1][0]:
                steps.sort()
            self.adjacent.setdefault(a, set()).add(b)
            self.adjacent.setdefault(b, set()).add(a)

    def set_vectors(self, rows: Iterable[Sequence[Any]], dim: int) -> None:
        """Rows (version id, embedding) of one dimension, stored compactly as unit vectors
        (`UnitRows`)."""
        if self.vectors is None:
            capacity = len(self._cols["vf"])
            self.vectors = UnitRows.empty(capacity, dim)
            self.embedded = np.zeros(capacity, bool)
        at, kept = [], []
        for vid, vector in rows:
            i = self.row.get(vid)
            if i is not None and vector is not None and len(vector) == dim:
                at.append(i)
                kept.append(vector)
        self.vectors.set_many(at, kept)
        self.embedded[at] = True

    def changed(self) -> None:
        self.generation += 1

    # --- reading ---------------------------------------------------------------------------
    def visible(self, valid_at: datetime, known_at: datetime, where: RecallFilter) -> np.ndarray:
        """Which versions a recall at this basis may return (the engine's `_RECALLABLE`)."""
        va, ka = _us(valid_at), _us(known_at)
        key = (self.generation, len(self.ids), va, ka, where.kinds, where.include_archived)
        if key != self._mask_key:
            c = self.col
            mask = (c("rec") <= ka) & (c("sup") > ka) & (c("vf") <= va) & (c("vt") > va)
            if not where.include_archived:
                mask &= c("arch") > ka
            if where.kinds is not None:
                codes = [self.kinds[k] for k in where.kinds if k in self.kinds]
                mask &= np.isin(c("kind"), codes)
            elif "talk" in self.kinds:  # small talk kept as facts stays out of default recall
                mask &= c("kind") != self.kinds["talk"]
            self._mask, self._mask_key = mask, key
        return self._mask

    def known_top(self, known_at: datetime | None) -> int | None:
        """The namespace's t_index as known at `known_at` (0 before anything), or None when
        everything held was recorded by then: the running totals are that graph."""
        if known_at is None or (ka := _us(known_at)) >= self.last_rec:
            return None
        tix = self.col("tix")[self.col("rec") <= ka]
        return int(tix.max()) if len(tix) else 0

    def _concept_at(self, top: int | None, cid: str) -> list[Any] | None:
        """A concept as [key, display, t_index] at t_index `top` (now if None); None if it did
        not exist then."""
        concept = self.concepts.get(cid)
        if top is None or concept is None:
            return concept
        touches = self.touches.get(cid, ())
        at = bisect.bisect_right(touches, top)
        return [concept[0], concept[1], touches[at - 1]] if at else None

    def _edges(self, a: str, top: int | None) -> Iterable[tuple[str, int, int]]:
        """RELATED edges from `a`: (b, strength, t_index) now, or from the increments up to
        `top`."""
        if top is None:
            return ((b, s, t) for b, (s, t) in self.out.get(a, {}).items())
        out = []
        for b, steps in self.steps.get(a, {}).items():
            known = [(t, n) for t, n in steps if t <= top]
            if known:
                out.append((b, sum(n for _, n in known), known[-1][0]))
        return out

    def _near(self, cid: str, top: int | None) -> Iterable[str]:
        """RELATED neighbours of a concept (at t_index `top`, if given)."""
        near = self.adjacent.get(cid, ())
        if top is None:
            return near
        steps = self.steps
        return [
            n
            for n in near
            if (s := steps.get(cid, {}).get(n) or steps.get(n, {}).get(cid)) and s[0][0] <= top
        ]

    def neighbourhood(
        self, keys: Sequence[str], namespace: str, hops: int, window: int, top: int | None = None
    ) -> tuple[dict[str, list[Any]], list[tuple[str, str, int, int]]]:
        """The concepts within `hops` RELATED steps of each key's concept whose t_index lies
        in the key's window (newest 800 per hop), and the edges among them; as the graph was
        at t_index `top` (`known_top`), or now if None."""
        found: dict[str, list[Any]] = {}
        for cid in (scoped(namespace, k) for k in keys):
            if (concept := self._concept_at(top, cid)) is not None:
                found[cid] = concept
        for cid in list(found):
            high = found[cid][2]
            low, frontier = high - window, [cid]
            for _ in range(hops):
                near = {n for f in frontier for n in self._near(f, top)}
                inside = [
                    (n, c)
                    for n in near
                    if (c := self._concept_at(top, n)) is not None and low <= c[2] <= high
                ]
                inside.sort(key=lambda nc: (-nc[1][2], nc[0]))
                inside = inside[:_NEIGHBOURS_MAX]
                frontier = [n for n, _ in inside if n not in found]
                for n, c in inside:
                    found.setdefault(n, c)
                if not frontier:
                    break
        edges = [
            (found[a][0], found[b][0], s, t)
            for a in found
            for b, s, t in self._edges(a, top)
            if b in found
        ]
        return found, edges

    def newest_mentions(self, cid: str, mask: np.ndarray, per_concept: int) -> list[int]:
        """A concept's `per_concept` newest visible versions (by valid_from, recorded_at)."""
        rows = self.mentions.get(cid)
        if not rows:
            return []
        if cid in self._unsorted:
            rows.sort(key=self._order)
            self._unsorted.discard(cid)
        out: list[int] = []
        for i in reversed(rows):
            if mask[i]:
                out.append(i)
                if len(out) == per_concept:
                    break
        return out

    def keyword(
        self,
        namespace: str,
        terms: Sequence[str],
        mask: np.ndarray,
        k: int,
        known_at: datetime | None = None,
    ) -> list[tuple[str, float]]:
        """BM25 over the rarest query terms' postings (`_bm25`), best `k` visible versions;
        the statistics count the versions recorded by `known_at` (see `_stats`)."""
        known, n_docs, total = self._stats(known_at)
        df = {}
        for t in dict.fromkeys(terms):
            found = self.postings.get(scoped(namespace, t))
            if found and found[0]:
                df[t] = len(found[0]) if known is None else int(known[found[0]].sum())
        rows: list[tuple[str, int, str, int]] = []
        for t in bm25.choose_terms(df):
            at, tfs = self.postings[scoped(namespace, t)]
            for i, tf in zip(at, tfs, strict=True):
                if mask[i]:
                    rows.append((self.ids[i], self.length[i], t, tf))
        if not rows:
            return []
        avg = total / n_docs if n_docs else 0.0
        scores = bm25.score(rows, df, n_docs, avg)
        best = sorted(scores, key=lambda vid: (-scores[vid], vid))[:k]
        return [(vid, scores[vid]) for vid in best]

    def _stats(self, known_at: datetime | None) -> tuple[np.ndarray | None, int, int]:
        """Which versions were recorded by `known_at` (None: all held), and the number and
        total length of the namespace's documents then: its running totals less what was
        recorded later, as every engine counts them."""
        if known_at is None or (ka := _us(known_at)) >= self.last_rec:
            return None, self.n_docs, self.total_length
        known = self.col("rec") <= ka
        late = ~known
        n_docs = self.n_docs - int(np.count_nonzero(late))
        return known, n_docs, self.total_length - int(self.col("len")[late].sum())

    def nearest(self, vector: Sequence[float], mask: np.ndarray, k: int) -> list[tuple[str, float]]:
        """Cosine (of the compact rows) against every visible version with an embedding,
        best `k`."""
        assert self.vectors is not None
        n = len(self.ids)
        has = mask & self.embedded[:n]
        scores = self.vectors.scores(vector, n)
        candidates = np.flatnonzero(has)
        if not len(candidates):
            return []
        chosen = candidates
        if len(candidates) > k:
            part = np.argpartition(-scores[candidates], k - 1)[:k]
            chosen = candidates[part]
        ordered = sorted(chosen.tolist(), key=lambda i: (-scores[i], self.ids[i]))
        return [(self.ids[i], float(scores[i])) for i in ordered]
