"""Building blocks of writes: validated metadata, new versions, and the facts they become."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from bitemporal_core.backends.port import NewVersion, WriteResult
from bitemporal_core.common.times import check_interval
from bitemporal_core.common.validate import check_kind, check_optional_name
from bitemporal_core.language.analysis import Analysed
from bitemporal_core.model import Fact

__all__ = ["check_meta", "new_version", "to_fact"]


def check_meta(**values: str | None) -> dict[str, Any]:
    """Speaker, source and session as short labels; kind as a short word (None: classify)."""
    out: dict[str, Any] = {}
    for key in ("speaker", "source", "session"):
        out[key] = check_optional_name(values[key], key)
    out["kind"] = None if values["kind"] is None else check_kind(values["kind"])
    return out


def new_version(
    fact_id: str,
    st: Analysed,
    start: datetime,
    end: datetime | None,
    number: int,
    meta: dict[str, Any],
    message_id: str | None,
) -> NewVersion:
    """A version of a statement, checked: its valid interval must not be empty."""
    check_interval(start, end)
    return NewVersion(
        fact_id=fact_id,
        version_id=uuid.uuid4().hex,
        text=st.text,
        valid_from=start,
        valid_to=end,
        version=number,
        said_at=meta.get("said_at"),
        source=message_id or meta["source"],
        speaker=meta["speaker"],
        session=meta["session"],
        kind=meta["kind"] or st.kind,
        language=st.language,
        concepts=st.concepts,
        terms=st.terms,
        length=st.length,
        embedding=st.embedding,
        category=st.category,
    )


def to_fact(namespace: str, v: NewVersion, result: WriteResult) -> Fact:
    """The public view of a version the engine just wrote."""
    return Fact(
        id=v.fact_id,
        version_id=v.version_id,
        namespace=namespace,
        text=v.text,
        valid_from=v.valid_from,
        valid_to=v.valid_to,
        recorded_at=result.at,
        superseded_at=None,
        version=v.version,
        said_at=v.said_at or result.at,
        source=v.source,
        speaker=v.speaker,
        session=v.session,
        kind=v.kind,
        supersedes=v.supersedes,
        t_index=result.t_index,
        language=v.language,
        category=v.category,
    )
