"""`BitemporalStore`: LangGraph's long-term memory store (`BaseStore`) over a `MemoryStore`.

Agents keep long-term memory in a LangGraph store: `create_agent(store=...)`, `runtime.store` in
tools and middleware, LangMem's memory tools. This one keeps every value it was ever given, and
when: an update supersedes the previous value, a delete retracts it, and `as_of(basis)` reads the
store as it was valid and known at that `Basis`. Only the core's public API is used.

How items map onto the memory:

- **Namespaces.** A namespace tuple is one memory namespace: the root (`"lg"` by default), then
  `"/" + label` for each label, where `%`, `/`, control characters and lone surrogates are
  percent-escaped (UTF-8 bytes as `%XX`). So `("users", "a/b")` is `"lg/users/a%2Fb"` and `()` is
  `"lg"`. Any tuple of strings encodes, and decodes back exactly, which `list_namespaces` does for
  the memory's namespaces under the root (others are not the store's). The core limits a
  namespace to 256 characters; a longer encoding is refused with `InvalidInput`.
- **Keys.** Each key gets a session of its own in its namespace, `"lgkey-"` + 32 hex digits of
  its SHA-256 (keys may be any text; the record keeps the key itself).
- **Values.** A put remembers the item's text as facts: the texts at the store's `fields` (or the
  put's `index` paths, LangGraph's path syntax), else the first of `text`, `content`, `memory`
  that the value has, else the value as JSON; at most 10,000 characters. The facts are valid from
  the put, and carry the key's session and a fresh message id per put as `source`. Then a
  *record* is added to the key's session: a raw message (role `"lg-item"`, `add_message`) with
  the exact value as JSON, `created_at`/`updated_at` (the facts' transaction time) and the ids of
  the put's facts. `get` reads the key's latest record: one indexed read, the value exactly as
  put (JSON data: a tuple comes back as a list). A value's JSON is limited to 90,000 characters.
- **Updates and deletes.** A put on a live key supersedes the previous put's first fact with the
  new text (`MemoryStore.supersede`; any further facts of that put, when `remember` split its
  text into several statements, are retracted), so `MemoryStore.history` of the new fact links
  to the old value's. A delete retracts the facts and adds a tombstone record. Nothing is
  physically removed: `MemoryStore.forget` does that.
- **As of a basis.** An item is visible at a basis when one of its put's facts has a version valid
  and known then; its value is that put's record. `get` checks the key's records newest first
  (`history` of their facts); `search` takes the namespace's `snapshot` at the basis.
- **Search.** Without a query: the live items under the prefix that pass the filter (LangGraph's
  operators), most recently updated first. With a query: the items whose facts `recall` ranks
  (score in `SearchItem.score`, best first), then the other matching items by recency with score
  None, as LangGraph's `InMemoryStore` appends the items it cannot score (`index=False` puts are
  never ranked).
- **Batches** behave as `InMemoryStore`'s: every read sees the store as it was before the batch,
  then the puts are applied, the last put of a key winning. Every operation is checked first (a
  bad one writes nothing); the puts are then separate writes, so an engine failure midway leaves
  the earlier puts written. `abatch` runs the same plan on the store's async twins, so the event
  loop never blocks.

Why records in raw messages, and facts before records: a fact cannot hold a dict, and the core has
no lookup of facts by source, while a session's latest message is one indexed read. A put writes
its facts first and its record last, so a put that stops halfway leaves the previous record in
place (`get` returns the old value) and facts that no record names (never returned by `search`);
the next put of that key follows the supersession links from the record's fact to the fact still
believed and supersedes it, so the orphan is closed and the history stays one lineage. Two
writers racing on one key do the same: the loser follows the winner's fact.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import attrs
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from bitemporal_core import (
    Basis,
    BitemporalError,
    ConfigurationError,
    Fact,
    Hit,
    InvalidInput,
    Lineage,
    MemoryStore,
    Message,
    NotCurrent,
    NotFound,
)

from ._kv import (
    ROLE,
    Call,
    Plan,
    Record,
    check_value,
    decode_namespace,
    encode_namespace,
    encode_record,
    item_text,
    key_session,
    matches,
    matches_condition,
    parse_record,
    run_async,
    run_sync,
)

__all__ = ["BitemporalStore", "ReadOnlyStoreError"]

_CHAIN = 16  # supersession links followed to find a key's fact still believed
_SLACK = 8  # recall hits asked for beyond those needed (facts no record names)
_RETRIES = 3  # supersede attempts when another writer closes the fact first
_MAX_NAMESPACE = 256  # characters in a memory namespace (the core's limit)


class ReadOnlyStoreError(BitemporalError):
    """A put or delete on a `BitemporalStore` opened `as_of` a basis (it only reads)."""

    kind = "read_only"


@attrs.frozen
class _Put:
    """A checked put: the value (None: delete), the text to remember, whether it is ranked."""

    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any] | None
    text: str
    indexed: bool


@attrs.frozen(eq=False)
class _Entry:
    """A live item found by a search: its namespace and record."""

    namespace: tuple[str, ...]
    record: Record

    def item(self, score: float | None) -> SearchItem:
        r = self.record
        return SearchItem(
            namespace=self.namespace,
            key=r.key,
            value=dict(r.value or {}),
            created_at=r.created_at,
            updated_at=r.updated_at,
            score=score,
        )

    def recency(self) -> tuple[float, tuple[str, ...], str]:
        return (-self.record.updated_at.timestamp(), self.namespace, self.record.key)


def _item(namespace: tuple[str, ...], record: Record) -> Item:
    return Item(
        value=dict(record.value or {}),
        key=record.key,
        namespace=namespace,
        created_at=record.created_at,
        updated_at=record.updated_at,
    )


def _call(name: str, **kwargs: Any) -> Call:
    return Call(name=name, kwargs=kwargs)


def _count(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidInput(f"{what} must be a non-negative integer, not {value!r}")
    return value


def _check_root(root: object) -> str:
    if not isinstance(root, str) or not root.strip() or any(c in root for c in "/%"):
        raise ConfigurationError(
            f"namespace_root must be a short word without '/' or '%': {root!r}"
        )
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in root):
        raise ConfigurationError("namespace_root contains control characters")
    return root


def _check_fields(fields: Sequence[str] | None) -> tuple[str, ...] | None:
    if fields is None:
        return None
    if isinstance(fields, str) or not all(isinstance(f, str) and f for f in fields):
        raise ConfigurationError(f"fields must be a list of field paths, not {fields!r}")
    return tuple(fields) or None


class BitemporalStore(BaseStore):
    """A LangGraph `BaseStore` whose items are bitemporal memories (see the module docstring).

    Args:
        store: the memory; the same `MemoryStore` may serve other adapters (namespaces not
            under `namespace_root` are not this store's).
        namespace_root: first part of every memory namespace this store uses.
        fields: paths of the value whose texts are remembered and ranked (LangGraph's
            `IndexConfig["fields"]` syntax, e.g. `["content", "notes[*].text"]`); default the
            first of `text`, `content`, `memory`, else the whole value as JSON.

    Example:
        >>> from bitemporal_core import MemoryStore
        >>> store = BitemporalStore(MemoryStore.embedded())
        >>> store.put(("alice", "memories"), "diet", {"content": "Alice is vegetarian."})
        >>> store.get(("alice", "memories"), "diet").value
        {'content': 'Alice is vegetarian.'}
    """

    supports_ttl = False

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace_root: str = "lg",
        fields: Sequence[str] | None = None,
    ) -> None:
        if not isinstance(store, MemoryStore):
            raise ConfigurationError(f"store must be a MemoryStore, not {type(store).__name__}")
        self._store = store
        self._root = _check_root(namespace_root)
        self._fields = _check_fields(fields)
        self._basis: Basis | None = None

    def __repr__(self) -> str:
        at = "" if self._basis is None else f", as_of={self._basis.describe()!r}"
        return f"BitemporalStore({self._store!r}, namespace_root={self._root!r}{at})"

    @property
    def memory(self) -> MemoryStore:
        """The `MemoryStore` behind this store."""
        return self._store

    @property
    def basis(self) -> Basis | None:
        """The basis this store reads at; None for the live, writable store."""
        return self._basis

    @property
    def read_only(self) -> bool:
        """True for a store opened `as_of` a basis."""
        return self._basis is not None

    def as_of(self, basis: Basis) -> BitemporalStore:
        """A read-only view of this store at `basis`: what was valid at `basis.valid_at` as
        known at `basis.known_at` (either None: now, at each batch). Puts and deletes on it raise
        `ReadOnlyStoreError`."""
        if not isinstance(basis, Basis):
            raise InvalidInput(f"basis must be a Basis, not {type(basis).__name__}")
        view = BitemporalStore(self._store, namespace_root=self._root, fields=self._fields)
        view._basis = basis
        return view

    def memory_namespace(self, namespace: tuple[str, ...]) -> str:
        """The memory namespace that holds a LangGraph namespace's items."""
        return encode_namespace(self._root, tuple(namespace))

    # --- BaseStore ------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run operations in order (reads see the store before the batch's puts)."""
        return run_sync(self._store, self._execute(self._checked(ops)))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async `batch`, on the store's async twins."""
        return await run_async(self._store, self._execute(self._checked(ops)))

    # --- beyond BaseStore -----------------------------------------------------------------
    def history(self, namespace: tuple[str, ...], key: str) -> list[Item]:
        """Every value a key was put with, oldest first (deletes leave no entry)."""
        return run_sync(self._store, self._history(tuple(namespace), key))

    async def ahistory(self, namespace: tuple[str, ...], key: str) -> list[Item]:
        """Async `history`."""
        return await run_async(self._store, self._history(tuple(namespace), key))

    def fact_ids(self, namespace: tuple[str, ...], key: str) -> list[str]:
        """The ids of the facts of a key's latest put (none once deleted), for
        `MemoryStore.history` and the other fact-level calls."""
        return run_sync(self._store, self._fact_ids(tuple(namespace), key))

    async def afact_ids(self, namespace: tuple[str, ...], key: str) -> list[str]:
        """Async `fact_ids`."""
        return await run_async(self._store, self._fact_ids(tuple(namespace), key))

    # --- checking -------------------------------------------------------------------------
    def _checked(self, ops: Iterable[Op]) -> list[tuple[Op, _Put | None]]:
        """Every operation checked before anything runs: a bad one writes nothing."""
        checked: list[tuple[Op, _Put | None]] = []
        for op in ops:
            if isinstance(op, PutOp):
                checked.append((op, self._checked_put(op)))
            elif isinstance(op, GetOp):
                self._key(op.key)
                self.memory_namespace(op.namespace)
                checked.append((op, None))
            elif isinstance(op, SearchOp):
                self._checked_search(op)
                checked.append((op, None))
            elif isinstance(op, ListNamespacesOp):
                _count(op.limit, "limit")
                _count(op.offset, "offset")
                if op.max_depth is not None:
                    _count(op.max_depth, "max_depth")
                checked.append((op, None))
            else:
                raise InvalidInput(f"unknown store operation: {type(op).__name__}")
        return checked

    def _checked_put(self, op: PutOp) -> _Put:
        if self.read_only:
            assert self._basis is not None
            raise ReadOnlyStoreError(
                f"this store reads as of {self._basis.describe()}; put and delete on the live "
                "store (the one as_of was called on)"
            )
        namespace = tuple(op.namespace)
        encoded = self.memory_namespace(namespace)
        if len(encoded) > _MAX_NAMESPACE:  # refused here, so no put of the batch is written
            raise InvalidInput(
                f"namespace {namespace!r} is too long once encoded ({len(encoded)} characters; "
                f"the memory's limit is {_MAX_NAMESPACE})"
            )
        key = self._key(op.key)
        if op.value is None:
            return _Put(namespace=namespace, key=key, value=None, text="", indexed=False)
        value = check_value(op.value)
        index = op.index
        if index is not None and index is not False and not isinstance(index, list):
            raise InvalidInput(f"index must be None, False or a list of paths, not {index!r}")
        paths = index if isinstance(index, list) else self._fields
        text = item_text(value, paths)
        return _Put(
            namespace=namespace, key=key, value=value, text=text, indexed=index is not False
        )

    def _checked_search(self, op: SearchOp) -> None:
        self.memory_namespace(op.namespace_prefix)
        _count(op.limit, "limit")
        _count(op.offset, "offset")
        if op.filter is not None and not isinstance(op.filter, dict):
            raise InvalidInput(f"filter must be a dict, not {type(op.filter).__name__}")
        if op.query is not None and not isinstance(op.query, str):
            raise InvalidInput(f"query must be a string, not {type(op.query).__name__}")

    @staticmethod
    def _key(key: object) -> str:
        if not isinstance(key, str):
            raise InvalidInput(f"key must be a string, not {type(key).__name__}")
        return key

    # --- plans ----------------------------------------------------------------------------
    def _execute(self, ops: list[tuple[Op, _Put | None]]) -> Plan[list[Result]]:
        basis = None if self._basis is None else self._basis.resolved()
        results: list[Result] = []
        puts: dict[tuple[tuple[str, ...], str], _Put] = {}
        for op, put in ops:
            if put is not None:
                puts[(put.namespace, put.key)] = put
                results.append(None)
            elif isinstance(op, GetOp):
                results.append((yield from self._get(tuple(op.namespace), op.key, basis)))
            elif isinstance(op, SearchOp):
                results.append((yield from self._search(op, basis)))
            else:
                assert isinstance(op, ListNamespacesOp)
                results.append((yield from self._list(op, basis)))
        for put in puts.values():
            yield from self._put(put)
        return results

    def _records(self, ns: str, key: str) -> Plan[list[Record]]:
        """A key's records, oldest first."""
        messages: list[Message] = yield _call("messages", namespace=ns, session=key_session(key))
        return [r for m in messages if (r := parse_record(m, key)) is not None]

    def _latest(self, ns: str, key: str) -> Plan[Record | None]:
        """A key's latest record (one read, unless the last put stopped before its record)."""
        last: list[Message] = yield _call(
            "messages", namespace=ns, session=key_session(key), limit=1
        )
        if not last:
            return None
        record = parse_record(last[-1], key)
        if record is None:
            records = yield from self._records(ns, key)
            record = records[-1] if records else None
        return record

    def _visible_at(self, record: Record, basis: Basis) -> Plan[bool]:
        """True if one of the record's facts has a version valid and known at the basis."""
        assert basis.valid_at is not None and basis.known_at is not None
        for fact_id in record.facts:
            try:
                lineage: Lineage = yield _call("history", fact=fact_id)
            except NotFound:  # forgotten
                continue
            if any(v.valid_at(basis.valid_at) and v.known_at(basis.known_at) for v in lineage):
                return True
        return False

    def _get(self, namespace: tuple[str, ...], key: str, basis: Basis | None) -> Plan[Item | None]:
        ns = self.memory_namespace(namespace)
        if basis is None:
            record = yield from self._latest(ns, key)
            return None if record is None or record.deleted else _item(namespace, record)
        for record in reversed((yield from self._records(ns, key))):
            if not record.deleted and (yield from self._visible_at(record, basis)):
                return _item(namespace, record)
        return None

    def _history(self, namespace: tuple[str, ...], key: str) -> Plan[list[Item]]:
        records = yield from self._records(self.memory_namespace(namespace), self._key(key))
        return [_item(namespace, r) for r in records if not r.deleted]

    def _fact_ids(self, namespace: tuple[str, ...], key: str) -> Plan[list[str]]:
        record = yield from self._latest(self.memory_namespace(namespace), self._key(key))
        return [] if record is None else list(record.facts)

    def _namespaces(self) -> Plan[list[tuple[tuple[str, ...], str]]]:
        """This store's namespaces, decoded, with their memory namespaces."""
        names: list[str] = yield _call("namespaces")
        found = [(decode_namespace(self._root, n), n) for n in names]
        return sorted((t, n) for t, n in found if t is not None)

    def _live(self, namespace: tuple[str, ...], ns: str, basis: Basis | None) -> Plan[list[_Entry]]:
        """The items of one namespace: the latest records, or those visible at the basis."""
        messages: list[Message] = yield _call("messages", namespace=ns)
        records = [r for m in messages if (r := parse_record(m)) is not None]
        chosen: dict[str, Record] = {}
        if basis is None:
            for record in records:
                chosen[record.key] = record
        else:
            visible: list[Fact] = yield _call("snapshot", namespace=ns, basis=basis)
            ids = {f.id for f in visible}
            for record in records:
                if not ids.isdisjoint(record.facts):
                    chosen[record.key] = record
        return [_Entry(namespace, r) for r in chosen.values() if not r.deleted]

    def _search(self, op: SearchOp, basis: Basis | None) -> Plan[list[SearchItem]]:
        prefix = tuple(op.namespace_prefix)
        by_ns: dict[str, list[_Entry]] = {}
        for namespace, ns in (yield from self._namespaces()):
            if namespace[: len(prefix)] == prefix:
                by_ns[ns] = yield from self._live(namespace, ns, basis)
        candidates = [
            e for es in by_ns.values() for e in es if matches(e.record.value or {}, op.filter)
        ]
        candidates.sort(key=_Entry.recency)
        ranked: list[tuple[float, _Entry]] = []
        if op.query and op.query.strip():
            ranked = yield from self._ranked(op, by_ns, candidates, basis)
        scored = {e for _, e in ranked}
        ordered: list[tuple[float | None, _Entry]] = [*ranked]
        ordered.extend((None, e) for e in candidates if e not in scored)
        return [e.item(score) for score, e in ordered[op.offset : op.offset + op.limit]]

    def _ranked(
        self,
        op: SearchOp,
        by_ns: dict[str, list[_Entry]],
        candidates: list[_Entry],
        basis: Basis | None,
    ) -> Plan[list[tuple[float, _Entry]]]:
        """The candidates that recall ranks for the query, best first (an item's best fact)."""
        wanted = {e for e in candidates if e.record.indexed}
        best: dict[_Entry, float] = {}
        for ns, entries in by_ns.items():
            if wanted.isdisjoint(entries):
                continue
            owner = {f: e for e in entries for f in e.record.facts}
            # Enough hits for the page even when other items' facts rank above the wanted ones.
            others = len(owner) - sum(1 for e in entries if e in wanted)
            k = max(1, min(len(owner), op.offset + op.limit + others) + _SLACK)
            hits: list[Hit] = yield _call("recall", query=op.query, namespace=ns, basis=basis, k=k)
            for hit in hits:
                entry = owner.get(hit.fact.id)
                if entry in wanted and hit.score > best.get(entry, float("-inf")):
                    best[entry] = hit.score
        # Fused scores of equal ranks may differ in the last bits: ties go to the newer item.
        order = sorted(best.items(), key=lambda es: (-round(es[1], 9), es[0].recency()))
        return [(score, entry) for entry, score in order]

    def _list(self, op: ListNamespacesOp, basis: Basis | None) -> Plan[list[tuple[str, ...]]]:
        found = yield from self._namespaces()
        if basis is not None:  # only namespaces that held an item by then
            assert basis.known_at is not None
            known = basis.known_at
            kept = []
            for namespace, ns in found:
                messages: list[Message] = yield _call("messages", namespace=ns)
                records = (parse_record(m) for m in messages if m.role == ROLE)
                if any(r is not None and r.updated_at <= known for r in records):
                    kept.append((namespace, ns))
            found = kept
        conditions = op.match_conditions or ()
        spaces = [t for t, _ in found if all(matches_condition(c, t) for c in conditions)]
        if op.max_depth is not None:
            spaces = sorted({t[: op.max_depth] for t in spaces})
        return spaces[op.offset : op.offset + op.limit]

    # --- writes ---------------------------------------------------------------------------
    def _put(self, put: _Put) -> Plan[None]:
        ns = self.memory_namespace(put.namespace)
        session = key_session(put.key)
        previous = yield from self._latest(ns, put.key)
        live = previous if previous is not None and not previous.deleted else None
        put_id = "lgput-" + uuid.uuid4().hex
        if put.value is None:
            if live is None:  # deleting what is not there writes nothing
                return
            closed = yield from self._retract(live.facts)
            when = closed or datetime.now(UTC)
            record = Record(key=put.key, value=None, created_at=live.created_at, updated_at=when)
        else:
            facts = yield from self._write_facts(ns, session, put, live, put_id)
            when = facts[0].recorded_at if facts else datetime.now(UTC)
            record = Record(
                key=put.key,
                value=put.value,
                created_at=live.created_at if live is not None else when,
                updated_at=when,
                facts=tuple(f.id for f in facts),
                indexed=put.indexed,
            )
        yield _call(
            "add_message",
            text=encode_record(record),
            namespace=ns,
            session=session,
            role=ROLE,
            id=put_id + ":item",
        )

    def _write_facts(
        self, ns: str, session: str, put: _Put, live: Record | None, put_id: str
    ) -> Plan[list[Fact]]:
        """The facts of a put: the previous value's fact superseded, or new ones remembered."""
        options = {
            "valid_from": datetime.now(UTC),
            "valid_to": None,
            "source": put_id,
            "session": session,
        }
        if live is not None and live.facts:
            for _ in range(_RETRIES):
                target = yield from self._believed(live.facts[0])
                if target is None:
                    break
                try:
                    new: Fact = yield _call("supersede", fact=target, text=put.text, **options)
                except NotCurrent:  # another writer superseded it first: follow its fact
                    continue
                yield from self._retract(live.facts[1:])
                return [new]
            yield from self._retract(live.facts[1:])
        facts: list[Fact] = yield _call("remember", text=put.text, namespace=ns, **options)
        return facts

    def _believed(self, fact_id: str) -> Plan[str | None]:
        """The fact still believed at the end of a fact's supersession chain, if any."""
        for _ in range(_CHAIN):
            try:
                lineage: Lineage = yield _call("history", fact=fact_id)
            except NotFound:
                return None
            if not lineage.superseded_by:
                return fact_id if lineage.current is not None else None
            fact_id = lineage.superseded_by[-1]
        return None

    def _retract(self, fact_ids: Sequence[str]) -> Plan[datetime | None]:
        """Retract facts still believed; the time of the last retraction, if any."""
        when = None
        for fact_id in fact_ids:
            try:
                closed: Fact = yield _call("retract", fact=fact_id)
            except (NotCurrent, NotFound):  # already closed, or forgotten
                continue
            when = closed.superseded_at
        return when
