"""`CypherBackend`: the port methods both engines implement the same way, over their Cypher.

An engine supplies its connection (`_in_read`, `_in_write`: run a unit of work in one read or
write transaction), how its values read back (`_when`, `_until`), its `Statements`, and the
methods that really differ: the clock and batch writes, recall reads, forgetting a namespace.
The shared reads, message log, lifecycle metadata and forgetting of one lineage live here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from bitemporal_core.backends import cypher as c
from bitemporal_core.backends.merge import check_dim
from bitemporal_core.backends.port import WriteBatch, WriteResult
from bitemporal_core.backends.rows import WIDTH, fact_from_row, scoped
from bitemporal_core.backends.tails import TAIL, read_tails
from bitemporal_core.common.times import END_OF_TIME
from bitemporal_core.errors import BackendError, ReadOnlyStore
from bitemporal_core.model import (
    Change,
    Claim,
    Concept,
    Fact,
    InferredEdge,
    Lineage,
    Message,
    Usage,
)

__all__ = [
    "CypherBackend",
    "Rows",
    "Run",
    "fix_dim",
    "formation_writes",
    "inferred_rows",
]

R = TypeVar("R")
Rows = list[list[Any]]
Run = Callable[[str, dict[str, Any]], Rows]
_FILED = 5_000  # claim key rows per statement when an older namespace's claims are filed


def fix_dim(run: Run, namespace: str, dim: int | None) -> None:
    """Inside a write transaction holding the namespace: refuse embeddings of another
    dimension than the namespace's, or fix it at this first embedded write."""
    if dim is None:
        return
    rows = run(c.NAMESPACE_DIM, {"ns": namespace})
    stored = rows[0][0] if rows else None
    check_dim(namespace, None if stored is None else int(stored), dim, "write")
    if stored is None:
        run(c.SET_NAMESPACE_DIM, {"ns": namespace, "dim": dim})


def inferred_rows(namespace: str, edges: Sequence[InferredEdge]) -> list[dict[str, Any]]:
    """Inferred relationships as statement rows (concept ids scoped to the namespace)."""
    return [
        {
            "a": scoped(namespace, e.src),
            "b": scoped(namespace, e.dst),
            "type": e.type,
            "confidence": float(e.confidence),
            "provenance": e.provenance,
        }
        for e in edges
    ]


def _claim(row: Sequence[Any]) -> Claim:
    """A claim from the columns every engine's claim reads return, in order."""
    subject, slot, value, keys, positive, single, mode, context, rule = row[:9]
    return Claim(
        subject=subject,
        slot=slot,
        value=value or "",
        keys=tuple((keys or "").split()),
        positive=bool(positive),
        single=bool(single),
        mode=mode or "state",
        context=tuple((context or "").split()),
        rule=rule or "",
    )


def _change_order(change: Change) -> tuple[float, str, str]:
    return (change.at.timestamp() if change.at else 0.0, change.fact, change.replaced)


def _id_groups(s: c.Statements, ids: list[str]) -> list[dict[str, Any]]:
    """The parameters that run a `Statements._from_ids` statement over `ids`: `$ids` once, or
    `$id` once per id on an engine that plans only that as a lookup."""
    if not ids:
        return []
    return [{"id": i} for i in ids] if s.ONE_START else [{"ids": ids}]


def _forget_mentions(run: Run, namespace: str, entities: set[str], texts: Sequence[str]) -> None:
    """The people a forgotten lineage named leave the namespace's recent mentions too."""
    rows = run(c.RECENT, {"ns": namespace})
    held = list(rows[0][0] or ()) if rows else []
    said = " ".join(t.lower() for t in texts if t)
    kept = [
        k for k in held if scoped(namespace, k) not in entities and k.split(":")[-1] not in said
    ]
    if kept == held:
        return
    if kept:
        run(c.SET_RECENT, {"ns": namespace, "recent": kept})
    else:
        run(c.CLEAR_RECENT, {"ns": namespace})


def formation_writes(
    run: Run, s: c.Statements, namespace: str, batches: Sequence[WriteBatch]
) -> None:
    """Undone links, archived facts and the namespace's recent mentions (claims and entities
    are written by the engine, whose existence checks differ); `s` the engine's statements."""
    for b in batches:
        for ids in _id_groups(s, list(dict.fromkeys(b.archive))):
            run(s.ARCHIVE, {"ns": namespace, **ids, "at": b.at})
    undo = [{"fact": f, "replaced": r, "at": b.at} for b in batches for f, r in b.undo]
    if undo:
        run(c.UNDO_LINKS, {"rows": undo})
        run(c.UNDO_FACT_LINKS, {"rows": undo})
    recent = next((list(b.recent) for b in reversed(batches) if b.recent), None)
    if recent:
        run(c.SET_RECENT, {"ns": namespace, "recent": recent})


class CypherBackend:
    """The shared half of a Cypher engine (see the module docstring)."""

    name: str
    read_only: bool = False
    _s: c.Statements

    # --- what an engine supplies ------------------------------------------------------------
    def _in_read(self, work: Callable[[Run], R]) -> R:
        """Run `work(run)` in one read transaction."""
        raise NotImplementedError

    def _in_write(self, work: Callable[[Run], R]) -> R:
        """Run `work(run)` in one write transaction: all of it or nothing."""
        raise NotImplementedError

    @staticmethod
    def _when(value: Any) -> datetime:
        """An engine time value as an aware UTC datetime."""
        raise NotImplementedError

    @staticmethod
    def _until(value: Any) -> datetime | None:
        """An interval end: None for NULL or the END_OF_TIME sentinel (an open interval)."""
        raise NotImplementedError

    @staticmethod
    def _plain(node: Any) -> dict[str, Any]:
        """A node as the engine returns it, as a dict of plain Python values."""
        return dict(node)

    def _writable(self) -> None:
        """Refuse a write on a read-only store, before anything reaches the engine."""
        if self.read_only:
            raise ReadOnlyStore(f"{self!r} was opened read-only; open it writable to change it")

    def _forgetting(self, run: Run, fact_id: str, namespace: str) -> None:
        """Called inside `forget_fact`'s transaction before the lineage goes."""

    def _may_have_summaries(self, namespace: str) -> bool:
        """False when the namespace surely has no concept summary (no read needed)."""
        return True

    # --- transaction log --------------------------------------------------------------------
    def apply_many(self, batches: Sequence[WriteBatch]) -> list[WriteResult]:
        """Apply batches of one namespace, in order, in one transaction.

        Rows of all batches are merged into the same few statements, each row carrying its
        own batch's transaction time and t_index, so a bulk import costs a handful of
        statements per chunk rather than per message.
        """
        self._writable()
        if not batches:
            return []
        if len({b.namespace for b in batches}) != 1:
            raise BackendError("apply_many takes batches of one namespace")
        return self._apply(batches)

    def _apply(self, batches: Sequence[WriteBatch]) -> list[WriteResult]:
        """`apply_many` of a non-empty list of one namespace's batches."""
        raise NotImplementedError

    # --- helpers ----------------------------------------------------------------------------
    def _read(self, query: str, params: dict[str, Any]) -> Rows:
        return self._in_read(lambda run: run(query, params))

    def _write(self, query: str, params: dict[str, Any]) -> Rows:
        return self._in_write(lambda run: run(query, params))

    def _fact(self, row: Sequence[Any]) -> Fact:
        return fact_from_row(row, self._when, self._until)

    def _from_ids(
        self, run: Run, query: str, ids: Sequence[str], params: dict[str, Any] | None = None
    ) -> Rows:
        """Run a statement of `Statements._from_ids` from each of the given (distinct) ids:
        once with `$ids`, or once per `$id` on an engine that plans only that as a lookup."""
        chosen, extra = list(dict.fromkeys(ids)), params or {}
        if not self._s.ONE_START:
            return run(query, {**extra, "ids": chosen}) if chosen else []
        rows: Rows = []
        for one in chosen:
            rows.extend(run(query, {**extra, "id": one}))
        return rows

    # --- fact reads -------------------------------------------------------------------------
    def lineage(self, fact_id: str) -> Lineage | None:
        def work(run: Run) -> tuple[Rows, Rows, Rows, Rows]:
            rows = run(self._s.LINEAGE, {"id": fact_id})
            if not rows:
                return rows, [], [], []
            ids = [r[0] for r in rows]
            return (
                rows,
                run(self._s.SUPERSEDED_BY, {"id": fact_id}),
                run(self._s.CHANGES, {"id": fact_id}),
                self._from_ids(run, self._s.CLAIMS_OF, ids),
            )

        rows, successors, changes, claims = self._in_read(work)
        if not rows:
            return None
        by_version: dict[str, list[Claim]] = {}
        for row in claims:
            by_version.setdefault(row[0], []).append(_claim(row[1:]))
        return Lineage(
            fact_id=fact_id,
            namespace=rows[0][WIDTH],
            versions=tuple(self._fact(r) for r in rows),
            supersedes=rows[0][WIDTH + 1],
            superseded_by=tuple(sorted(r[0] for r in successors if r[1])),
            changes=tuple(sorted(map(self._change, changes), key=_change_order)),
            claims={v: tuple(cs) for v, cs in by_version.items()},
        )

    def _change(self, row: Sequence[Any]) -> Change:
        return Change(
            fact=row[0],
            replaced=row[1],
            reason=row[2] or "explicit",
            confidence=1.0 if row[3] is None else float(row[3]),
            at=self._until(row[4]),
            undone_at=self._until(row[5]),
        )

    def claims(
        self, namespace: str, subjects: Sequence[str], at: datetime
    ) -> list[tuple[Fact, Claim]]:
        if not subjects:
            return []
        ids = [scoped(namespace, s) for s in dict.fromkeys(subjects)]
        found = self._in_read(lambda run: self._current_claims(run, self._s.CLAIMS_ABOUT, ids, at))
        return found or []

    def keyed_claims(
        self, namespace: str, lookups: Sequence[str], at: datetime
    ) -> list[tuple[Fact, Claim]] | None:
        ids = [scoped(namespace, k) for k in dict.fromkeys(lookups)]

        def work(run: Run) -> list[tuple[Fact, Claim]] | None:
            keyed = run(c.CLAIM_KEYED, {"ns": namespace})
            if keyed and keyed[0][0] is not True:
                return None  # written before claims had keys
            return self._current_claims(run, self._s.KEYED_CLAIMS, ids, at) if ids else []

        return self._in_read(work)

    def unkeyed_claims(self, namespace: str) -> list[tuple[str, Claim]] | None:
        def work(run: Run) -> list[tuple[str, Claim]] | None:
            keyed = run(c.CLAIM_KEYED, {"ns": namespace})
            if not keyed or keyed[0][0] is True:
                return None
            return [(r[0], _claim(r[1:])) for r in run(self._s.NAMESPACE_CLAIMS, {"ns": namespace})]

        return self._in_read(work)

    def file_claims(self, namespace: str, keys: Mapping[str, Sequence[str]]) -> None:
        self._writable()
        rows = [
            {"k": scoped(namespace, k), "c": claim}
            for claim, held in keys.items()
            for k in dict.fromkeys(held)
        ]

        def work(run: Run) -> None:
            keyed = run(c.CLAIM_KEYED, {"ns": namespace})
            if not keyed or keyed[0][0] is True:
                return  # filed by another call meanwhile, or forgotten
            for start in range(0, len(rows), _FILED):
                self._file_claim_keys(run, namespace, rows[start : start + _FILED])
            run(c.SET_CLAIM_KEYED, {"ns": namespace})

        self._in_write(work)

    def _file_claim_keys(self, run: Run, namespace: str, rows: list[dict[str, Any]]) -> None:
        """Create the lookup keys of rows `{k: key id, c: claim id}` and link them."""
        raise NotImplementedError

    def _current_claims(
        self, run: Run, statement: str, ids: list[str], at: datetime
    ) -> list[tuple[Fact, Claim]]:
        """The claims `statement` finds from each id whose versions are current at `at`."""
        claims = self._from_ids(run, statement, ids)
        versions = list(dict.fromkeys(r[0] for r in claims))
        params = {"ids": versions, "at": at, "eot": END_OF_TIME}
        rows = run(self._s.CURRENT_VERSIONS, params) if versions else []
        current = {r[0]: self._fact(r) for r in rows}
        seen: set[tuple[Any, ...]] = set()
        out = []
        for r in claims:  # a claim stored under several of the keys is found once
            if r[0] in current and tuple(r) not in seen:
                seen.add(tuple(r))
                out.append((current[r[0]], _claim(r[1:])))
        return out

    def version_claims(
        self, namespace: str, version_ids: Sequence[str]
    ) -> dict[str, tuple[Claim, ...]]:
        if not version_ids:
            return {}
        out: dict[str, list[Claim]] = {}
        rows = self._in_read(lambda run: self._from_ids(run, self._s.CLAIMS_OF, version_ids))
        for row in rows:
            out.setdefault(row[0], []).append(_claim(row[1:]))
        return {v: tuple(cs) for v, cs in out.items()}

    def recent(self, namespace: str) -> tuple[str, ...]:
        rows = self._read(c.RECENT, {"ns": namespace})
        return tuple(rows[0][0] or ()) if rows else ()

    def snapshot(self, namespace: str, valid_at: datetime, known_at: datetime) -> list[Fact]:
        params = {"ns": namespace, "valid_at": valid_at, "known_at": known_at}
        return [self._fact(r) for r in self._read(self._s.SNAPSHOT, params)]

    def versions(self, namespace: str, known_at: datetime | None) -> list[Fact]:
        if known_at is None:
            return [self._fact(r) for r in self._read(self._s.VERSIONS_ALL, {"ns": namespace})]
        params = {"ns": namespace, "known_at": known_at}
        return [self._fact(r) for r in self._read(self._s.VERSIONS_KNOWN, params)]

    def namespaces(self) -> list[str]:
        return [r[0] for r in self._read(c.LIST_NAMESPACES, {})]

    # --- recall reads that need no engine-specific index -------------------------------------
    def concepts(self, namespace: str, limit: int) -> list[Concept]:
        rows = self._read(c.CONCEPTS_OF_NAMESPACE, {"ns": namespace, "limit": limit})
        return [Concept(key=r[0], display=r[1], t_index=int(r[2])) for r in rows]

    def mention_counts(self, namespace: str, keys: Sequence[str]) -> dict[str, int]:
        ids = [scoped(namespace, k) for k in keys]
        rows = self._in_read(lambda run: self._from_ids(run, self._s.MENTION_COUNTS, ids))
        return {r[0]: int(r[1]) for r in rows}

    def summaries(self, namespace: str, keys: Sequence[str], known_at: datetime) -> dict[str, str]:
        ids = [scoped(namespace, k) for k in keys]
        if not ids or not self._may_have_summaries(namespace):
            return {}
        params = {"known_at": known_at}
        rows = self._in_read(lambda run: self._from_ids(run, self._s.SUMMARIES_KNOWN, ids, params))
        return {r[0]: r[1] for r in rows if r[2]}

    def _inferred_rows(self, namespace: str, keys: Sequence[str] | None) -> Rows:
        """Rows (a key, b key, type, confidence, provenance, recorded_at, superseded_at)
        touching `keys`, every version."""
        if keys is None:
            return self._read(self._s.INFERRED_ALL, {"ns": namespace})
        ids = [scoped(namespace, k) for k in keys]
        rows = self._read(self._s.INFERRED_FROM, {"ids": ids})
        return rows + self._read(self._s.INFERRED_TO, {"ids": ids})

    def inferred(
        self, namespace: str, keys: Sequence[str] | None, known_at: datetime | None = None
    ) -> list[InferredEdge]:
        if keys is not None and not keys:
            return []
        seen: dict[tuple[str, str, str], InferredEdge] = {}
        for a, b, kind, confidence, provenance, at, until in self._inferred_rows(namespace, keys):
            recorded, closed = self._until(at), self._until(until)
            if known_at is None:
                if closed is not None:
                    continue
            elif (recorded is not None and recorded > known_at) or (
                closed is not None and closed <= known_at
            ):
                continue
            seen[(a, b, kind)] = InferredEdge(
                src=a,
                dst=b,
                type=kind,
                confidence=float(confidence),
                provenance=provenance,
                recorded_at=recorded,
            )
        return sorted(seen.values(), key=lambda e: (-e.confidence, e.src, e.dst, e.type))

    # --- message log ------------------------------------------------------------------------
    def message(self, namespace: str, msg_id: str) -> Message | None:
        rows = self._read(self._s.MESSAGE_BY_ID, {"id": scoped(namespace, msg_id)})
        return self._message(rows[0]) if rows else None

    def messages(self, namespace: str, session: str | None, limit: int | None) -> list[Message]:
        params: dict[str, Any] = {"ns": namespace}
        if session is not None:
            params["session"] = session
        if limit is None:
            chosen = self._s.MESSAGES_ALL if session is None else self._s.MESSAGES_SESSION
            rows = self._read(chosen, params)
        elif limit <= 0:
            rows = []
        elif session is not None and limit <= TAIL:
            return self.last_messages(namespace, [session], limit).get(session, [])
        else:  # the last `limit`, read newest first without reading the others
            chosen = self._s.MESSAGES_LAST_ALL if session is None else self._s.MESSAGES_LAST_SESSION
            rows = self._read(chosen, {**params, "limit": limit})[::-1]
        return [self._message(r) for r in rows]

    def last_messages(
        self, namespace: str, sessions: Sequence[str], limit: int
    ) -> dict[str, list[Message]]:
        if not sessions or limit <= 0:
            return {}
        wanted = list(dict.fromkeys(sessions))
        tails = self._in_read(lambda run: read_tails(run, self._s, namespace, wanted, limit))
        return {s: [self._message(r) for r in rows[-limit:]] for s, rows in tails.items() if rows}

    def _message(self, r: Sequence[Any]) -> Message:
        at = self._when(r[5])
        return Message(
            id=r[0], namespace=r[1], session=r[2], role=r[3], text=r[4], at=at, seq=int(r[6])
        )

    def remembered(self, namespace: str, ids: Sequence[str]) -> list[tuple[str, str, Fact | None]]:
        engine_ids = [scoped(namespace, i) for i in ids]

        def work(run: Run) -> tuple[Rows, Rows]:
            found = run(self._s.MESSAGES_FOUND, {"ids": engine_ids}) if engine_ids else []
            return found, self._from_ids(run, self._s.REMEMBERED, [r[0] for r in found])

        found, rows = self._in_read(work)
        out: list[tuple[str, str, Fact | None]] = [
            (r[WIDTH], r[WIDTH + 1], self._fact(r)) for r in rows
        ]
        with_facts = {r[WIDTH] for r in rows}
        return out + [(r[1], r[2], None) for r in found if r[1] not in with_facts]

    def sessions(self, namespace: str) -> list[str]:
        return [r[0] for r in self._read(self._s.SESSIONS, {"ns": namespace})]

    def delete_messages(
        self, namespace: str, session: str | None, ids: Sequence[str] | None
    ) -> int:
        if ids is not None:
            if not ids:
                return 0
            scoped_ids = list(dict.fromkeys(scoped(namespace, i) for i in ids))
            rows = self._write(c.DELETE_MESSAGES_BY_ID, {"ids": scoped_ids})
        else:
            params = {"ns": namespace, "session": session}

            def work(run: Run) -> Rows:
                if session is not None:
                    run(c.FORGET_TAIL, {"id": scoped(namespace, session)})
                return run(self._s.DELETE_SESSION_MESSAGES, params)

            rows = self._in_write(work)
        return int(rows[0][0]) if rows else 0

    # --- erasure of one lineage -------------------------------------------------------------
    def compact(self) -> bool:
        """A server's files are its own to reclaim: nothing to rewrite from here."""
        return False

    def forget_fact(self, fact_id: str) -> int:
        return self._in_write(lambda run: self._forget_fact(run, fact_id))

    def _forget_fact(self, run: Run, fact_id: str) -> int:
        """Delete a lineage and whatever only it used (concepts, terms, its message)."""
        rows = run(self._s.FACT_TOUCHES, {"id": fact_id})
        if not rows or not rows[0][0]:
            return 0
        versions, concepts, terms, messages, namespace, claims, entities, texts, keys = rows[0]
        self._forgetting(run, fact_id, namespace)
        (n, length), *_ = run(c.FACT_SIZE, {"id": fact_id})
        run(c.UNCOUNT_VERSIONS, {"ns": namespace, "n": int(n), "length": int(length or 0)})
        if live_claims := [i for i in claims if i is not None]:
            run(c.FORGET_CLAIMS, {"ids": live_claims})
        live = [i for i in concepts if i is not None]
        self._from_ids(run, self._s.FORGET_SUMMARIES_OF, live)
        run(self._s.UNLINK_SUPERSEDES, {"id": fact_id})
        run(c.FORGET_VERSIONS, {"ids": versions})
        run(c.FORGET_FACT, {"id": fact_id})
        for label, ids in (
            ("Concept", concepts),
            ("Term", terms),
            ("Message", messages),
            ("Entity", entities),
            ("ClaimKey", keys),
        ):
            chosen = [i for i in ids if i is not None]
            self._from_ids(run, self._s.FORGET_ORPHANS[label], chosen)
        _forget_mentions(run, namespace, {i for i in entities if i is not None}, texts)
        return len(versions) + 1

    # --- upkeep: operational metadata, never part of what a basis sees ----------------------
    def record_use(self, namespace: str, counts: Mapping[str, int], at: datetime) -> None:
        rows = [{"id": k, "n": int(n)} for k, n in counts.items()]
        if rows and not self.read_only:  # use counts are upkeep: a reader keeps none
            self._write(c.RECORD_USE, {"ns": namespace, "rows": rows, "at": at})

    def usage(self, namespace: str, fact_ids: Sequence[str]) -> dict[str, Usage]:
        if not fact_ids:
            return {}
        rows = self._read(self._s.USAGE, {"ns": namespace, "ids": list(dict.fromkeys(fact_ids))})
        return {r[0]: Usage(uses=int(r[1] or 0), last_used=self._until(r[2])) for r in rows}

    def archive(self, namespace: str, fact_ids: Sequence[str], at: datetime) -> int:
        if not fact_ids:
            return 0
        params = {"ns": namespace, "at": at}
        rows = self._in_write(lambda run: self._from_ids(run, self._s.ARCHIVE, fact_ids, params))
        return len({r[0] for r in rows})

    def abstraction_members(self, version_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        if not version_ids:
            return {}
        out: dict[str, list[str]] = {}
        statement = self._s.ABSTRACTION_MEMBERS
        for a, b in self._in_read(lambda run: self._from_ids(run, statement, version_ids)):
            out.setdefault(a, []).append(b)
        return {a: tuple(sorted(bs)) for a, bs in out.items()}

    def citing(self, fact_id: str) -> list[str]:
        return sorted({r[1] for r in self._citing([fact_id])})

    def citing_current(self, fact_ids: Sequence[str]) -> list[str]:
        return sorted({r[0] for r in self._citing(fact_ids) if r[2]})

    def _citing(self, fact_ids: Sequence[str]) -> Rows:
        """The abstractions quoting some version of the facts: id, fact id, current."""
        if not fact_ids:
            return []
        return self._in_read(
            lambda run: self._from_ids(
                run, self._s.CITING, self._citable(run, fact_ids), {"eot": END_OF_TIME}
            )
        )

    def _citable(self, run: Run, fact_ids: Sequence[str]) -> list[str]:
        """Which of the facts may be quoted (an engine that can tell cheaply narrows them)."""
        return list(fact_ids)

    # --- tests ------------------------------------------------------------------------------
    def raw_dump(self) -> list[dict[str, Any]]:
        """Every node's properties (tests scan this to prove `forget` leaves no trace)."""

        def work(run: Run) -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = []
            for statement in self._s.RAW_SCAN.values():
                out.extend(self._plain(node) for (node,) in run(statement, {}))
            return out

        return self._in_read(work)
