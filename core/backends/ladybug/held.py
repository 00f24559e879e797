"""The embedded engine's recall indexes of all namespaces (`index.NamespaceIndex` each): which
are held in the process, read from the database or from a saved index, kept by writes, and
saved; least recently used ones dropped beyond a bound (see `index`'s docstring)."""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from bitemporal_core.backends import cypher as c
from bitemporal_core.backends.base import Run
from bitemporal_core.backends.ladybug import cypher as q
from bitemporal_core.backends.ladybug.index import NamespaceIndex, Steps
from bitemporal_core.backends.ladybug.saved import SavedIndexes
from bitemporal_core.backends.merge import mention_rows
from bitemporal_core.backends.rows import scoped

__all__ = ["RecallIndex"]

_ROWS_MAX = 2_000_000  # versions held over all namespaces; least recently used ones dropped
_WRITTEN_MAX = 250_000  # versions held for namespaces only written (saved, then dropped)


class RecallIndex:
    """Namespace indexes of one engine, least recently used dropped beyond `rows_max`."""

    def __init__(
        self,
        rows_max: int = _ROWS_MAX,
        saved: SavedIndexes | None = None,
        *,
        written_max: int = _WRITTEN_MAX,
    ) -> None:
        self._spaces: OrderedDict[str, NamespaceIndex] = OrderedDict()
        self._max = rows_max
        self._saved = saved
        self._written: OrderedDict[str, None] = OrderedDict()  # held by `keep`, not recalled
        self._written_max = written_max
        self.loads = 0  # namespaces read from the database (not from a saved index)

    def get(self, run: Run, namespace: str) -> NamespaceIndex:
        """The namespace's index: held, else saved and still exact, else read from the
        database."""
        self._written.pop(namespace, None)
        found = self._spaces.get(namespace)
        if found is not None:
            self._spaces.move_to_end(namespace)
            return found
        if self._saved is not None:
            restored = self._saved.load(namespace, self._stamp(run, namespace))
            found = restored if isinstance(restored, NamespaceIndex) else None
            if found is not None:
                found.from_saved = True
        if found is None:
            found = self._load(run, namespace)
            self.loads += 1
        return self._hold(run, namespace, found)

    def _hold(self, run: Run, namespace: str, index: NamespaceIndex) -> NamespaceIndex:
        """Hold `index` as the namespace's newest, dropping the least recently used beyond
        `rows_max` versions (saved first: a write may have deleted its file)."""
        self._spaces[namespace] = index
        self._spaces.move_to_end(namespace)
        held = sum(len(s.ids) for s in self._spaces.values())
        while held > self._max and len(self._spaces) > 1:
            dropped = next(iter(self._spaces))
            held -= len(self._release(run, dropped).ids)
        return index

    def _release(self, run: Run, namespace: str) -> NamespaceIndex:
        """Stop holding a namespace's index, saved first where indexes are saved."""
        index = self._spaces.pop(namespace)
        self._written.pop(namespace, None)
        if self._saved is not None and (stamp := self._stamp(run, namespace)):
            with contextlib.suppress(OSError):  # a full disk: its first recall reads it again
                self._saved.save(namespace, stamp, index)
        return index

    @staticmethod
    def _stamp(run: Run, namespace: str) -> tuple[str, ...]:
        """The namespace's counters: a saved index is exact while they have not moved."""
        rows = run(c.READ_NAMESPACE, {"ns": namespace})
        return tuple(str(x) for x in rows[0]) if rows else ()

    def writing(self, namespace: str) -> None:
        """Before any write to the namespace (its saved index, if any, stops being exact;
        saved embeddings not read yet are read now, as the write will keep them)."""
        if self._saved is not None:
            if (index := self._spaces.get(namespace)) is not None:
                self._saved_vectors(namespace, index)
            self._saved.invalidate(namespace)

    def keep(self, run: Run, namespace: str, *, new: bool) -> None:
        """Before a write the index follows: hold the namespace's index from now on, so that
        the write updates it and `close` saves it and the next process still finds one (after
        a `remember` from the command line, a bulk import): an empty one for a `new`
        namespace, else the saved one while it is exact; a namespace never recalled is left
        to its first recall. Only where indexes are saved (an on-disk store)."""
        if self._saved is None or namespace in self._spaces:
            return
        stamp = () if new else self._stamp(run, namespace)
        index = NamespaceIndex() if new else self._saved.load(namespace, stamp)
        if not isinstance(index, NamespaceIndex):
            return
        index.from_saved = not new
        self._hold(run, namespace, index)
        self._written[namespace] = None
        sizes = {ns: len(self._spaces[ns].ids) for ns in self._written}
        total = sum(sizes.values())
        for older in list(self._written)[:-1]:  # a bulk import into many namespaces
            if total <= self._written_max:
                break
            total -= sizes[older]
            self._release(run, older)

    def _saved_vectors(self, namespace: str, index: NamespaceIndex) -> None:
        if index.vectors is None and index.from_saved and self._saved is not None:
            found = self._saved.load_vectors(namespace, len(index.ids))
            if found is not None:
                index.restore_vectors(*found)
        index.from_saved = False

    def save_all(self, run: Run) -> None:
        """Save the index of every namespace held (see `saved`)."""
        if self._saved is None:
            return
        for namespace, index in self._spaces.items():
            stamp = self._stamp(run, namespace)
            if stamp:
                self._saved.save(namespace, stamp, index)

    @staticmethod
    def _load(run: Run, namespace: str) -> NamespaceIndex:
        index = NamespaceIndex()
        params = {"ns": namespace}
        index.add_versions(run(q.INDEX_VERSIONS, params))
        index.add_postings(run(q.INDEX_POSTINGS, params))
        index.add_mentions(run(q.INDEX_MENTIONS, params), check_order=False)
        index.set_concepts(run(q.INDEX_CONCEPTS, params))
        index.relate(run(q.INDEX_RELATED, params))
        index.summaries = int(run(q.COUNT_SUMMARIES, params)[0][0])
        stats = run(c.READ_NAMESPACE, params)
        if stats:
            index.n_docs, index.total_length = int(stats[0][3] or 0), int(stats[0][4] or 0)
        return index

    def inferred(self, run: Run, namespace: str) -> list[list[Any]]:
        index = self.get(run, namespace)
        if index.inferred is None:
            index.inferred = run(q.SHARED.INFERRED_ALL, {"ns": namespace})
        return index.inferred

    def vectors(self, run: Run, namespace: str, dim: int) -> NamespaceIndex | None:
        """The namespace's index with its embeddings of `dim` dimensions read (None when the
        namespace holds embeddings of another size: the engine then searches itself)."""
        index = self.get(run, namespace)
        self._saved_vectors(namespace, index)
        if index.vectors is None:
            rows = run(q.INDEX_VECTORS, {"ns": namespace})
            if any(len(r[1]) != dim for r in rows):
                return None
            index.set_vectors(rows, dim)
        return index if index.vectors is not None and index.vectors.dim == dim else None

    def written(
        self,
        namespace: str,
        steps: Steps,
        concepts: Sequence[Sequence[Any]],
        related: Sequence[Sequence[Any]],
    ) -> None:
        """A committed `apply_many`: the rows it stored (concepts and RELATED rows as written)."""
        index = self._spaces.get(namespace)
        if index is None:
            return
        index.add_versions(
            (v.version_id, v.valid_from, v.valid_to, b.at, None, None, v.kind, v.length, r.t_index)
            for b, r in steps
            for v in b.versions
        )
        for b, _ in steps:
            index.set_time("sup", b.close, b.at)
        versions = [v for b, _ in steps for v in b.versions]
        index.add_postings(
            (scoped(namespace, stem), v.version_id, tf) for v in versions for stem, tf in v.terms
        )
        index.add_mentions((m["c"], m["v"], m["touch"]) for m in mention_rows(namespace, steps))
        index.set_concepts(concepts)
        index.relate(related)
        index.summaries += sum(len(b.summaries) for b, _ in steps)
        index.n_docs += len(versions)
        index.total_length += sum(v.length for v in versions)
        if index.vectors is not None:
            embedded = [(v.version_id, v.embedding) for v in versions if v.embedding is not None]
            if any(len(e) != index.vectors.dim for _, e in embedded):
                index.vectors = None  # another size: read again on the next vector search
            else:
                index.set_vectors(embedded, index.vectors.dim)

    def drop(self, namespace: str) -> None:
        self._spaces.pop(namespace, None)
        self._written.pop(namespace, None)

    def drop_inferred(self, namespace: str) -> None:
        if (index := self._spaces.get(namespace)) is not None:
            index.inferred = None

    def clear(self) -> None:
        self._spaces.clear()
        self._written.clear()
