"""Write-behind use counts: reinforcement without a write in every recall."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from datetime import datetime

from bitemporal_core.backends.port import Upkeep
from bitemporal_core.model import Usage

__all__ = ["UseRecorder"]


class UseRecorder:
    """Buffers the uses recalls count and writes them as one statement per namespace once
    `batch` uses are pending or `interval` seconds have passed, and on `flush` (the store's
    close). Use counts are operational metadata: a crash loses at most one buffer of them."""

    def __init__(self, upkeep: Upkeep, *, batch: int = 64, interval: float = 2.0) -> None:
        self._upkeep = upkeep
        self._batch = batch
        self._interval = interval
        self._lock = threading.Lock()
        self._pending: dict[str, dict[str, tuple[int, datetime]]] = {}
        self._count = 0
        self._since = time.monotonic()

    def add(self, namespace: str, fact_ids: Sequence[str], at: datetime) -> None:
        """Count one use of each lineage, at `at`; flush when the buffer is due."""
        with self._lock:
            uses = self._pending.setdefault(namespace, {})
            for fact_id in fact_ids:
                n, _ = uses.get(fact_id, (0, at))
                uses[fact_id] = (n + 1, at)
            self._count += len(fact_ids)
            due = self._count >= self._batch or time.monotonic() - self._since >= self._interval
        if due:
            self.flush()

    def pending(self, namespace: str) -> dict[str, tuple[int, datetime]]:
        """Uses counted but not yet written, per lineage."""
        with self._lock:
            return dict(self._pending.get(namespace, {}))

    def merged(self, namespace: str, fact_ids: Sequence[str]) -> dict[str, Usage]:
        """The stored use counts of lineages plus those still buffered."""
        stored = self._upkeep.usage(namespace, fact_ids) if fact_ids else {}
        for fact_id, (n, at) in self.pending(namespace).items():
            if fact_id in fact_ids:
                old = stored.get(fact_id, Usage())
                last = at if old.last_used is None else max(old.last_used, at)
                stored[fact_id] = Usage(uses=old.uses + n, last_used=last)
        return stored

    def flush(self) -> None:
        """Write every buffered use (one statement per namespace)."""
        with self._lock:
            pending, self._pending = self._pending, {}
            self._count, self._since = 0, time.monotonic()
        for namespace, uses in pending.items():
            self._upkeep.record_use(
                namespace, {k: n for k, (n, _) in uses.items()}, max(at for _, at in uses.values())
            )
