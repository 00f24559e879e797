"""The message said before a new one: the `before` keyword field of its statements.

A statement in a conversation usually answers the message before it, and a question about it is
often worded like that message (see `language.fields`). Only a statement with a session has
one: without a session, the message before may be any earlier statement, hours or days away.
`Dialogue` keeps the last two messages of each (namespace, session) this store wrote, so that
remembering needs no extra read; on a miss (the first message of a session since the process
started) it reads them from the message log. It is dropped for a namespace whenever messages
are deleted there (`forget`, `delete_messages`), so a deleted message never becomes another
statement's field. With several processes writing one session (Neo4j), a message another
process wrote in between may be missed: the field is then the message before that one (ranking
only; facts are unaffected).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from bitemporal_core.backends.port import MessageLog
from bitemporal_core.services.items import Item

__all__ = ["Dialogue"]

Said = tuple[str, str]  # (message id, text)
_SESSIONS_MAX = 4096  # (namespace, session) pairs held, least recently used dropped


class Dialogue:
    """The last two messages of each session this store wrote or read (see the module)."""

    def __init__(self, messages: MessageLog, size: int = _SESSIONS_MAX) -> None:
        self._messages = messages
        self._size = size
        self._tails: OrderedDict[tuple[str, str | None], list[Said]] = OrderedDict()
        self._lock = threading.Lock()

    def before(self, namespace: str, session: str | None, message_id: str) -> str | None:
        """The text of the latest message of the session that is not `message_id` itself
        (None without a session)."""
        if session is None:
            return None
        for mid, text in reversed(self._tail(namespace, session)):
            if mid != message_id:
                return text
        return None

    def befores(self, namespace: str, items: Sequence[Item]) -> list[str | None]:
        """`before` for each of many items remembered in order (earlier items count); the
        sessions not held are read in one statement, not one each."""
        self._read_missing(namespace, [item.meta["session"] for item in items])
        out: list[str | None] = []
        latest: dict[str | None, Said] = {}
        for item in items:
            session = item.meta["session"]
            previous = latest.get(session)
            if session is None:
                out.append(None)
            elif previous is not None and previous[0] != item.message_id:
                out.append(previous[1])
            else:
                out.append(self.before(namespace, session, item.message_id))
            latest[session] = (item.message_id, item.text)
        return out

    def said(self, namespace: str, session: str | None, message_id: str, text: str) -> None:
        """A message was written: it is now the latest of its session."""
        if session is None:
            return
        with self._lock:
            tail = self._tails.get((namespace, session))
            if tail is None:
                return  # read on the next miss (this write is in the log by then)
            if not tail or tail[-1][0] != message_id:
                tail[:] = [*tail[-1:], (message_id, text)]

    def said_many(self, namespace: str, items: Sequence[Item]) -> None:
        for item in items:
            self.said(namespace, item.meta["session"], item.message_id, item.text)

    def drop(self, namespace: str | None) -> None:
        """Messages of the namespace (None: of any) are deleted: read again when needed."""
        with self._lock:
            for key in [k for k in self._tails if namespace in (None, k[0])]:
                del self._tails[key]

    def _read_missing(self, namespace: str, sessions: Sequence[str | None]) -> None:
        with self._lock:
            wanted = [s for s in dict.fromkeys(sessions) if s is not None]
            missing = [s for s in wanted if (namespace, s) not in self._tails]
        if not missing:
            return
        found = self._messages.last_messages(namespace, missing, 2)
        with self._lock:
            for session in missing[-self._size :]:
                held = found.get(session, [])
                self._tails.setdefault((namespace, session), [(m.id, m.text) for m in held])
                self._tails.move_to_end((namespace, session))
            while len(self._tails) > self._size:
                self._tails.popitem(last=False)

    def _tail(self, namespace: str, session: str) -> list[Said]:
        key = (namespace, session)
        with self._lock:
            found = self._tails.get(key)
            if found is not None:
                self._tails.move_to_end(key)
                return list(found)
        read = [(m.id, m.text) for m in self._messages.messages(namespace, session, 2)]
        with self._lock:
            self._tails[key] = read
            while len(self._tails) > self._size:
                self._tails.popitem(last=False)
        return list(read)
