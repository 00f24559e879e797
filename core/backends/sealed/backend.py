"""A storage engine whose namespaces are sealed: every string the memory derives from what
was said (statements, messages, speakers, sessions, concepts, terms, claims, summaries,
reasons) reaches the engine encrypted with the namespace's key, and `forget_namespace`
destroys that key (crypto-shredding: copies the engine keeps on disk become unreadable).

Encryption is deterministic (AES-SIV), so the engine's equality lookups, merges and joins
work unchanged on sealed values; identifiers the library makes (fact and version ids),
times, numbers, embeddings and namespace names stay as they are. See docs/design.md,
"Sealed namespaces".
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

import attrs

from bitemporal_core.backends.port import (
    Backend,
    Clock,
    NewClaim,
    NewMessage,
    NewVersion,
    RecallScope,
    WriteBatch,
    WriteResult,
)
from bitemporal_core.backends.sealed.cipher import Seal
from bitemporal_core.backends.sealed.keys import KEY_BYTES, KeyStore
from bitemporal_core.errors import KeyStoreError
from bitemporal_core.model import (
    Claim,
    Concept,
    ConceptEdge,
    Fact,
    InferredEdge,
    Lineage,
    Message,
    Usage,
)

__all__ = ["SealedBackend"]


class SealedBackend:
    """Wraps an engine so that it only ever holds a namespace's strings encrypted.

    Args:
        inner: the engine (usually `Neo4jBackend`); closed with this one.
        keys: where the namespaces' keys live (never in the engine).
    """

    def __init__(self, inner: Backend, keys: KeyStore) -> None:
        self.inner = inner
        self.keys = keys
        self.name = inner.name
        self.read_only = inner.read_only
        self._nobody = os.urandom(KEY_BYTES)  # seals reads of a keyless namespace: no match
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}

    def __repr__(self) -> str:
        return f"SealedBackend({self.inner!r}, keys={self.keys!r})"

    def close(self) -> None:
        self.inner.close()

    def __getattr__(self, name: str) -> Any:
        """What the port does not name (an engine's diagnostics) is the inner engine's, on
        sealed values."""
        if name.startswith("__") or name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def _seal(self, namespace: str, *, create: bool = False) -> Seal:
        """The namespace's seal, read from the key store at every call (another process may
        have destroyed or created the key since). A namespace without a key reads as empty
        if the engine holds nothing of it; if it holds writes, the key is missing from this
        key store (another one, or destroyed): `KeyStoreError`, not an empty answer."""
        key = self.keys.key(namespace, create=create)
        if key is None and self.inner.clock(namespace).last_tx is not None:
            key = self.keys.key(namespace, create=False)  # a writer made it since the read
            if key is None:
                raise KeyStoreError(
                    f"namespace {namespace!r} holds data and {self.keys!r} has no key for it"
                    " (written unsealed, or its key was destroyed or is kept in another key"
                    " store)"
                )
        if key is not None:
            return Seal(namespace, key)
        return Seal(namespace, self._nobody, later=lambda: self.keys.key(namespace, create=False))

    # --- transaction log ------------------------------------------------------------------
    def clock(self, namespace: str) -> Clock:
        return self.inner.clock(namespace)

    def apply_many(self, batches: Sequence[WriteBatch]) -> list[WriteResult]:
        """Seal and apply, never across a `forget` of the same namespace: this process's
        forgets wait (a lock per namespace); a write that another process's forget
        overtook (the key changed meanwhile) is deleted again and refused."""
        names = sorted({b.namespace for b in batches})
        with self._locked(names):
            used = {ns: self.keys.key(ns, create=not self.inner.read_only) for ns in names}
            seals = {ns: Seal(ns, key or self._nobody) for ns, key in used.items()}
            results = self.inner.apply_many([_seal_batch(seals[b.namespace], b) for b in batches])
            lost = [ns for ns in names if self.keys.key(ns, create=False) != used[ns]]
        if lost:
            for b in batches:
                if b.namespace in lost:
                    for fact_id in dict.fromkeys(v.fact_id for v in b.versions):
                        self.inner.forget_fact(fact_id)
            raise KeyStoreError(f"namespace {lost[0]!r} was forgotten while this write ran")
        return results

    @contextlib.contextmanager
    def _locked(self, names: Sequence[str]) -> Iterator[None]:
        with self._guard:
            locks = [self._locks.setdefault(ns, threading.Lock()) for ns in names]
        with contextlib.ExitStack() as stack:
            for lock in locks:  # in name order: no two writers wait on each other
                stack.enter_context(lock)
            yield

    # --- fact reads -----------------------------------------------------------------------
    def lineage(self, fact_id: str) -> Lineage | None:
        found = self.inner.lineage(fact_id)
        if found is None:
            return None
        s = self._seal(found.namespace)
        return attrs.evolve(
            found,
            versions=tuple(_open_fact(s, f) for f in found.versions),
            changes=tuple(attrs.evolve(c, reason=s.dec(c.reason)) for c in found.changes),
            claims={v: tuple(_open_claim(s, c) for c in cs) for v, cs in found.claims.items()},
        )

    def snapshot(self, namespace: str, valid_at: datetime, known_at: datetime) -> list[Fact]:
        s = self._seal(namespace)
        return [_open_fact(s, f) for f in self.inner.snapshot(namespace, valid_at, known_at)]

    def versions(self, namespace: str, known_at: datetime | None) -> list[Fact]:
        s = self._seal(namespace)
        return [_open_fact(s, f) for f in self.inner.versions(namespace, known_at)]

    def namespaces(self) -> list[str]:
        return self.inner.namespaces()

    def claims(
        self, namespace: str, subjects: Sequence[str], at: datetime
    ) -> list[tuple[Fact, Claim]]:
        s = self._seal(namespace)
        rows = self.inner.claims(namespace, s.enc_all(subjects), at)
        return [(_open_fact(s, f), _open_claim(s, c)) for f, c in rows]

    def keyed_claims(
        self, namespace: str, lookups: Sequence[str], at: datetime
    ) -> list[tuple[Fact, Claim]] | None:
        s = self._seal(namespace)
        rows = self.inner.keyed_claims(namespace, s.enc_all(lookups), at)
        return None if rows is None else [(_open_fact(s, f), _open_claim(s, c)) for f, c in rows]

    def version_claims(
        self, namespace: str, version_ids: Sequence[str]
    ) -> dict[str, tuple[Claim, ...]]:
        s = self._seal(namespace)
        found = self.inner.version_claims(namespace, version_ids)
        return {v: tuple(_open_claim(s, c) for c in cs) for v, cs in found.items()}

    def recent(self, namespace: str) -> tuple[str, ...]:
        return self._seal(namespace).dec_all(self.inner.recent(namespace))

    # --- recall reads ---------------------------------------------------------------------
    def concept_graph(
        self,
        namespace: str,
        keys: Sequence[str],
        *,
        hops: int,
        window: int,
        known_at: datetime | None = None,
    ) -> tuple[list[Concept], list[ConceptEdge]]:
        s = self._seal(namespace)
        concepts, edges = self.inner.concept_graph(
            namespace, s.enc_all(keys), hops=hops, window=window, known_at=known_at
        )
        return [_open_concept(s, c) for c in concepts], [_open_edge(s, e) for e in edges]

    def mentions(
        self, scope: RecallScope, keys: Sequence[str], per_concept: int
    ) -> list[tuple[str, Fact]]:
        s = self._seal(scope.namespace)
        rows = self.inner.mentions(scope, s.enc_all(keys), per_concept)
        return [(s.dec(k), _open_fact(s, f)) for k, f in rows]

    def keyword_search(
        self, scope: RecallScope, terms: Sequence[str], k: int
    ) -> list[tuple[Fact, float]]:
        s = self._seal(scope.namespace)
        rows = self.inner.keyword_search(scope, s.enc_all(terms), k)
        return [(_open_fact(s, f), score) for f, score in rows]

    def vector_search(
        self, scope: RecallScope, vector: Sequence[float], k: int
    ) -> list[tuple[Fact, float]]:
        s = self._seal(scope.namespace)
        rows = self.inner.vector_search(scope, vector, k)
        return [(_open_fact(s, f), score) for f, score in rows]

    def concepts(self, namespace: str, limit: int) -> list[Concept]:
        s = self._seal(namespace)
        return [_open_concept(s, c) for c in self.inner.concepts(namespace, limit)]

    def mention_counts(self, namespace: str, keys: Sequence[str]) -> dict[str, int]:
        s = self._seal(namespace)
        found = self.inner.mention_counts(namespace, s.enc_all(keys))
        return {s.dec(k): n for k, n in found.items()}

    def summaries(self, namespace: str, keys: Sequence[str], known_at: datetime) -> dict[str, str]:
        s = self._seal(namespace)
        found = self.inner.summaries(namespace, s.enc_all(keys), known_at)
        return {s.dec(k): s.dec(text) for k, text in found.items()}

    def inferred(
        self, namespace: str, keys: Sequence[str] | None, known_at: datetime | None = None
    ) -> list[InferredEdge]:
        s = self._seal(namespace)
        sealed = None if keys is None else s.enc_all(keys)
        edges = [
            attrs.evolve(e, src=s.dec(e.src), dst=s.dec(e.dst))
            for e in self.inner.inferred(namespace, sealed, known_at)
        ]
        return sorted(edges, key=lambda e: (-e.confidence, e.src, e.dst, e.type))

    # --- message log ----------------------------------------------------------------------
    def message(self, namespace: str, msg_id: str) -> Message | None:
        s = self._seal(namespace)
        found = self.inner.message(namespace, s.enc(msg_id))
        return None if found is None else _open_message(s, found)

    def messages(self, namespace: str, session: str | None, limit: int | None) -> list[Message]:
        s = self._seal(namespace)
        found = self.inner.messages(namespace, s.enc_opt(session), limit)
        return [_open_message(s, m) for m in found]

    def last_messages(
        self, namespace: str, sessions: Sequence[str], limit: int
    ) -> dict[str, list[Message]]:
        s = self._seal(namespace)
        found = self.inner.last_messages(namespace, s.enc_all(sessions), limit)
        return {s.dec(k): [_open_message(s, m) for m in ms] for k, ms in found.items()}

    def remembered(self, namespace: str, ids: Sequence[str]) -> list[tuple[str, str, Fact | None]]:
        s = self._seal(namespace)
        rows = self.inner.remembered(namespace, s.enc_all(ids))
        return [
            (s.dec(i), s.dec(text), None if f is None else _open_fact(s, f)) for i, text, f in rows
        ]

    def sessions(self, namespace: str) -> list[str]:
        return list(self._seal(namespace).dec_all(self.inner.sessions(namespace)))

    def delete_messages(
        self, namespace: str, session: str | None, ids: Sequence[str] | None
    ) -> int:
        s = self._seal(namespace)
        sealed = None if ids is None else s.enc_all(ids)
        return self.inner.delete_messages(namespace, s.enc_opt(session), sealed)

    # --- erasure --------------------------------------------------------------------------
    def forget_namespace(self, namespace: str) -> int:
        """Destroy the key first: a deletion that fails midway leaves nothing readable, and
        repeating it removes the rest."""
        with self._locked([namespace]):
            if not self.inner.read_only:
                self.keys.destroy(namespace)
            return self.inner.forget_namespace(namespace)

    def forget_fact(self, fact_id: str) -> int:
        return self.inner.forget_fact(fact_id)

    def compact(self) -> bool:
        return self.inner.compact()

    # --- upkeep ---------------------------------------------------------------------------
    def record_use(self, namespace: str, counts: Mapping[str, int], at: datetime) -> None:
        self.inner.record_use(namespace, counts, at)

    def usage(self, namespace: str, fact_ids: Sequence[str]) -> dict[str, Usage]:
        return self.inner.usage(namespace, fact_ids)

    def archive(self, namespace: str, fact_ids: Sequence[str], at: datetime) -> int:
        return self.inner.archive(namespace, fact_ids, at)

    def abstraction_members(self, version_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        return self.inner.abstraction_members(version_ids)

    def citing(self, fact_id: str) -> list[str]:
        return self.inner.citing(fact_id)

    def citing_current(self, fact_ids: Sequence[str]) -> list[str]:
        return self.inner.citing_current(fact_ids)

    def unkeyed_claims(self, namespace: str) -> list[tuple[str, Claim]] | None:
        s = self._seal(namespace)
        found = self.inner.unkeyed_claims(namespace)
        return None if found is None else [(i, _open_claim(s, c)) for i, c in found]

    def file_claims(self, namespace: str, keys: Mapping[str, Sequence[str]]) -> None:
        with self._locked([namespace]):
            s = self._seal(namespace)
            self.inner.file_claims(namespace, {i: s.enc_all(held) for i, held in keys.items()})

    def write_inferred(self, namespace: str, edges: Sequence[InferredEdge], at: datetime) -> int:
        with self._locked([namespace]):
            s = self._seal(namespace, create=not self.inner.read_only)
            sealed = [attrs.evolve(e, src=s.enc(e.src), dst=s.enc(e.dst)) for e in edges]
            return self.inner.write_inferred(namespace, sealed, at)


def _seal_batch(s: Seal, b: WriteBatch) -> WriteBatch:
    return attrs.evolve(
        b,
        versions=tuple(_seal_version(s, v) for v in b.versions),
        messages=tuple(_seal_message(s, m) for m in b.messages),
        concepts=tuple((s.enc(k), s.enc(d)) for k, d in b.concepts),
        relate=tuple((s.enc(a), s.enc(c)) for a, c in b.relate),
        summaries=tuple((s.enc(k), s.enc(t)) for k, t in b.summaries),
        claims=tuple(_seal_new_claim(s, c) for c in b.claims),
        links=tuple(attrs.evolve(lk, reason=s.enc(lk.reason)) for lk in b.links),
        recent=s.enc_all(b.recent),
    )


def _seal_version(s: Seal, v: NewVersion) -> NewVersion:
    return attrs.evolve(
        v,
        text=s.enc(v.text),
        source=s.enc_opt(v.source),
        speaker=s.enc_opt(v.speaker),
        session=s.enc_opt(v.session),
        concepts=tuple((s.enc(k), s.enc(d)) for k, d in v.concepts),
        terms=tuple((s.enc(t), n) for t, n in v.terms),
    )


def _seal_message(s: Seal, m: NewMessage) -> NewMessage:
    return NewMessage(
        id=s.enc(m.id), session=s.enc_opt(m.session), role=s.enc_opt(m.role), text=s.enc(m.text)
    )


def _seal_new_claim(s: Seal, n: NewClaim) -> NewClaim:
    return attrs.evolve(
        n,
        claim=_seal_claim(s, n.claim),
        entity_name=s.enc(n.entity_name),
        lookups=s.enc_all(n.lookups),
    )


def _seal_claim(s: Seal, c: Claim) -> Claim:
    return _claim_through(c, s.enc)


def _open_claim(s: Seal, c: Claim) -> Claim:
    return _claim_through(c, s.dec)


def _claim_through(c: Claim, f: Callable[[str], str]) -> Claim:
    """A claim with `f` (sealing or opening) applied to each of its strings."""
    return attrs.evolve(
        c,
        subject=f(c.subject),
        slot=f(c.slot),
        value=f(c.value),
        keys=tuple(map(f, c.keys)),
        context=tuple(map(f, c.context)),
    )


def _open_fact(s: Seal, f: Fact) -> Fact:
    return attrs.evolve(
        f,
        text=s.dec(f.text),
        source=s.dec_opt(f.source),
        speaker=s.dec_opt(f.speaker),
        session=s.dec_opt(f.session),
    )


def _open_message(s: Seal, m: Message) -> Message:
    return attrs.evolve(
        m, id=s.dec(m.id), session=s.dec_opt(m.session), role=s.dec_opt(m.role), text=s.dec(m.text)
    )


def _open_concept(s: Seal, c: Concept) -> Concept:
    return attrs.evolve(c, key=s.dec(c.key), display=s.dec(c.display))


def _open_edge(s: Seal, e: ConceptEdge) -> ConceptEdge:
    src, dst = sorted((s.dec(e.src), s.dec(e.dst)))
    return attrs.evolve(e, src=src, dst=dst)
