"""Whose memory an adapter uses: its `namespace`, else its `user_id`, else "default"; and one
warning when the writes of several sessions land in "default"."""

from __future__ import annotations

import logging
import threading

__all__ = ["DEFAULT_NAMESPACE", "DefaultNamespaceWatch", "resolve_namespace"]

DEFAULT_NAMESPACE = "default"
LOG = logging.getLogger("llamaindex_bitemporal")


def resolve_namespace(namespace: str | None, user_id: str | None) -> tuple[str, bool]:
    """The namespace of an adapter and whether nothing named it (so "default" is used).

    LlamaIndex has no run context to carry a user, so the user is an adapter option, as in
    LlamaIndex's own memory integrations (`user_id`): an explicit `namespace` wins over it.
    """
    chosen = namespace if namespace is not None else user_id
    return (DEFAULT_NAMESPACE, True) if chosen is None else (chosen, False)


class DefaultNamespaceWatch:
    """Logs one warning when the writes of several sessions land in the "default" namespace
    because nothing named one: every user then shares one memory.

    A log record (logger `llamaindex_bitemporal`, level WARNING) rather than a Python warning:
    it reports a configuration, and must not fail the chat turn it is noticed in.
    """

    def __init__(self, adapter: str, *, defaulted: bool) -> None:
        self._adapter = adapter
        self._active = defaulted
        self._sessions: set[str | None] = set()
        self._lock = threading.Lock()

    def wrote(self, session: str | None) -> None:
        """Note a write of `session`; warn (once) at the second session."""
        if not self._active:
            return
        with self._lock:
            self._sessions.add(session)
            if len(self._sessions) < 2 or not self._active:
                return
            self._active = False
        LOG.warning(
            "%s: writes of several sessions land in the shared namespace %r, so all users "
            "share one memory. Give the adapter namespace=... or user_id=....",
            self._adapter,
            DEFAULT_NAMESPACE,
        )
