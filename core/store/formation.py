"""The memory-formation methods of `MemoryStore`: the updates found, applied or undone
(docs/design.md, "Memory formation")."""

from __future__ import annotations

from datetime import datetime

from bitemporal_core.common.times import require_aware, utcnow
from bitemporal_core.common.twins import twin
from bitemporal_core.common.validate import check_id, check_namespace
from bitemporal_core.errors import InvalidInput
from bitemporal_core.model import Fact, Update
from bitemporal_core.services import updates
from bitemporal_core.services.context import Services

__all__ = ["FormationMethods"]


class FormationMethods:
    """Pending, applied and undone updates (a part of `MemoryStore`)."""

    @property
    def services(self) -> Services:
        raise NotImplementedError

    def pending_updates(
        self, namespace: str = "default", *, at: datetime | None = None
    ) -> list[Update]:
        """The replacements the stored claims call for among the facts current at `at`
        (default now): what `updates="suggest"` leaves for you to review.

        Args:
            namespace: the memory to look at.
            at: the instant whose current facts are compared.

        Returns:
            One `Update` per replacement, the superseding fact first.
        """
        when = utcnow() if at is None else require_aware(at, "at")
        return updates.pending_updates(self.services, check_namespace(namespace), when)

    def apply_update(self, update: Update, *, at: datetime | None = None) -> Fact:
        """Apply an update found by `pending_updates`: its fact supersedes the replaced one,
        with the update's reason in the history. Returns the superseding fact."""
        if not isinstance(update, Update):
            raise InvalidInput(f"update must be an Update, not {type(update).__name__}")
        return updates.apply_update(self.services, update, at=at)

    def undo_update(
        self, fact: str, *, replaced: str | None = None, at: datetime | None = None
    ) -> list[Fact]:
        """Undo what `fact` superseded (only `replaced`, if given), automatic or not: each
        replaced fact is believed again with the valid time it had; nothing is lost (the
        link stays in the history, marked undone). Returns the restored versions."""
        other = None if replaced is None else check_id(replaced)
        return updates.undo_update(self.services, check_id(fact), replaced=other, at=at)

    apending_updates = twin(pending_updates)
    aapply_update = twin(apply_update)
    aundo_update = twin(undo_update)
