"""A statement to remember, validated before anything is written."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import attrs

from bitemporal_core.common.times import check_interval, require_aware, require_tx_time
from bitemporal_core.common.validate import check_text
from bitemporal_core.model import UNSET, Unset

__all__ = ["Item", "prepare_item"]


@attrs.frozen(kw_only=True)
class Item:
    """One validated statement to remember."""

    text: str
    at: datetime | None
    valid_from: datetime | None
    valid_to: datetime | Unset | None
    meta: dict[str, Any]
    message_id: str
    said_at: datetime | None = None  # when said, if before the transaction time

    @property
    def key(self) -> tuple[str, str] | None:
        """What makes a repeat: a caller's message id with the same text (None without id)."""
        return None if self.meta["source"] is None else (self.message_id, self.text)


def prepare_item(
    text: object,
    *,
    at: object = None,
    valid_from: object = None,
    valid_to: object = UNSET,
    meta: dict[str, Any],
) -> Item:
    """Validate one statement's text and times (before anything is written)."""
    checked = check_text(text)
    vf = None if valid_from is None else require_aware(valid_from, "valid_from")
    vt: datetime | Unset | None
    if isinstance(valid_to, Unset) or valid_to is None:
        vt = valid_to
    else:
        vt = require_aware(valid_to, "valid_to")
    if vf is not None and not isinstance(vt, Unset):
        check_interval(vf, vt)
    return Item(
        text=checked,
        at=None if at is None else require_tx_time(at),
        valid_from=vf,
        valid_to=vt,
        meta=meta,
        message_id=meta["source"] or "msg-" + uuid.uuid4().hex,
    )
