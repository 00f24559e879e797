"""Each session's last two messages, kept on a `SessionTail` node by primary key: the message
a new one is said after (its `before` field) is found without reading the namespace's message
log, which LadybugDB reads as a scan of every namespace's messages. Namespaces created before
tails (no `session_tails` mark) read the log."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bitemporal_core.backends import cypher as c
from bitemporal_core.backends.rows import scoped
from bitemporal_core.errors import BackendError

__all__ = ["TAIL", "read_tails", "tail_rows"]

TAIL = 2  # the messages a tail keeps
_Rows = list[list[Any]]


def tail_rows(ns: str, messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last two of a chunk's new messages (`message_row`s, in order) in each session it
    wrote to: `prev` is '' when the chunk holds one (the tail's old `last` becomes it)."""
    tails: dict[str, list[dict[str, Any]]] = {}
    for r in messages:
        if r.get("session"):
            tails.setdefault(r["session"], []).append(r)
    return [
        {
            "id": scoped(ns, session),
            "last": held[-1]["id"],
            "prev": held[-2]["id"] if len(held) > 1 else "",
            "seq": held[-1]["seq"],
        }
        for session, held in tails.items()
    ]


def read_tails(
    run: Callable[[str, dict[str, Any]], _Rows],
    s: c.Statements,
    namespace: str,
    sessions: Sequence[str],
    limit: int,
) -> dict[str, _Rows]:
    """The message rows of each session's last messages, oldest first: from the tails
    (`limit` up to `TAIL`, in a namespace that keeps them), else from the log."""
    found: dict[str, _Rows] = {}
    if limit <= TAIL and _tailed(run, namespace):
        for session in sessions:
            if (rows := _tail(run, s, namespace, session)) is not None:
                found[session] = rows
    rest = [x for x in sessions if x not in found]
    if rest:
        for r in run(s.MESSAGES_OF_SESSIONS, {"ns": namespace, "sessions": rest}):
            found.setdefault(r[2], []).append(r)
    return found


def _tailed(run: Callable[[str, dict[str, Any]], _Rows], namespace: str) -> bool:
    """Whether the namespace keeps tails (a file of an earlier version opened read-only has
    no such property yet: it does not)."""
    try:
        flag = run(c.TAILED, {"ns": namespace})
    except BackendError:
        return False
    return bool(flag and flag[0][0])


def _tail(
    run: Callable[[str, dict[str, Any]], _Rows], s: c.Statements, namespace: str, session: str
) -> _Rows | None:
    """A session's tail, oldest first; None when a message it points to was deleted since."""
    held = run(c.SESSION_TAIL, {"id": scoped(namespace, session)})
    if not held:
        return []  # the namespace keeps tails: this session has no messages
    rows = []
    for engine_id in (i for i in held[0][::-1] if i):
        message = run(s.MESSAGE_BY_ID, {"id": engine_id})
        if not message:
            return None
        rows.append(message[0])
    return rows
