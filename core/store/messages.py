"""The message-log methods of `MemoryStore`: raw messages stored, listed and deleted."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from bitemporal_core.common.twins import twin
from bitemporal_core.common.validate import (
    check_count,
    check_id,
    check_ids,
    check_namespace,
    check_optional_name,
    check_text,
)
from bitemporal_core.errors import InvalidInput
from bitemporal_core.model import Message
from bitemporal_core.services import writes
from bitemporal_core.services.context import Services

__all__ = ["MessageMethods"]


class MessageMethods:
    """Raw messages: stored, listed by session, deleted (a part of `MemoryStore`)."""

    @property
    def services(self) -> Services:
        raise NotImplementedError

    def add_message(
        self,
        text: str,
        *,
        namespace: str = "default",
        session: str | None = None,
        role: str | None = None,
        id: str | None = None,
        at: datetime | None = None,
    ) -> Message:
        """Store a raw message (no facts extracted); messages keep their order per session."""
        text = check_text(text, "message")
        ns = check_namespace(namespace)
        msg_id = check_id(id, "message id") if id is not None else "msg-" + uuid.uuid4().hex
        session = check_optional_name(session, "session")
        role = check_optional_name(role, "role")
        return writes.add_message(
            self.services, ns, text, msg_id=msg_id, session=session, role=role, at=at
        )

    def messages(
        self, namespace: str = "default", *, session: str | None = None, limit: int | None = None
    ) -> list[Message]:
        """Stored raw messages, oldest first (the last `limit` if given)."""
        ns = check_namespace(namespace)
        limit = None if limit is None else check_count(limit, "limit", minimum=0)
        return self.services.messages.messages(ns, check_optional_name(session, "session"), limit)

    def sessions(self, namespace: str = "default") -> list[str]:
        """Sessions with stored messages in a namespace, in order of their first message."""
        return self.services.messages.sessions(check_namespace(namespace))

    def delete_messages(
        self,
        namespace: str = "default",
        *,
        session: str | None = None,
        ids: Sequence[str] | None = None,
    ) -> int:
        """Physically delete raw messages: a whole session's, or those with the given ids.

        Facts extracted from them stay (they keep the message id as `source`); use `forget`
        to remove facts. Like `forget`, on the embedded engine the file is rewritten without
        the deleted texts when the store closes. Returns the number of messages deleted.
        """
        ns = check_namespace(namespace)
        if (session is None) == (ids is None):
            raise InvalidInput("delete_messages needs exactly one of session= or ids=")
        checked = None if ids is None else check_ids(ids, "message id")
        session = check_optional_name(session, "session")
        deleted = self.services.messages.delete_messages(ns, session, checked)
        self.services.dialogue.drop(ns)
        return deleted

    aadd_message = twin(add_message)
    amessages = twin(messages)
    asessions = twin(sessions)
    adelete_messages = twin(delete_messages)
