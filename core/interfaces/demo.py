"""The demo conversation: a preference that changes, a planned trip, a corrected date."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bitemporal_core.model import Basis
from bitemporal_core.store import MemoryStore
from bitemporal_core.views.prompt import format_line

__all__ = ["run_demo"]

NS = "demo"


def _t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def replay(store: MemoryStore) -> dict[str, str]:
    """Write the demo conversation into `store` (namespace "demo"); return the fact ids."""
    store.forget(namespace=NS)
    like = store.remember(
        "I enjoy eating apples.",
        namespace=NS,
        at=_t("2023-10-26T10:00"),
        valid_from=_t("2023-10-26T00:00"),
        speaker="user",
    )[0]
    store.remember(
        "My sister Anna lives in Lyon.", namespace=NS, at=_t("2023-10-26T10:05"), speaker="user"
    )
    allergy = store.supersede(
        like.id, "I am allergic to apples.", at=_t("2023-10-27T09:00"), speaker="user"
    )
    trip = store.remember(
        "I will be on a business trip in Paris.",
        namespace=NS,
        at=_t("2024-05-10T08:00"),
        valid_from=_t("2024-06-03T00:00"),
        valid_to=_t("2024-06-10T00:00"),
        speaker="user",
    )[0]
    # The user later says the trip starts two days later: the same fact, a corrected version.
    store.correct(trip.id, valid_from=_t("2024-06-05T00:00"), at=_t("2024-05-20T12:00"))
    return {"like": like.id, "allergy": allergy.id, "trip": trip.id}


BASES = (
    ("What is true now (as known now)", Basis()),
    ("On 2023-10-26, as we now know it", Basis(valid_at=_t("2023-10-26T12:00"))),
    ("On 2024-06-07, during the trip, as we now know it", Basis(valid_at=_t("2024-06-07T12:00"))),
    (
        "On 2024-06-04, as we knew it on 2024-05-15 (before the start date was corrected)",
        Basis(valid_at=_t("2024-06-04T12:00"), known_at=_t("2024-05-15T00:00")),
    ),
)


def run_demo(store: MemoryStore, echo: Callable[[str], None] = print) -> None:
    """Replay the demo conversation and print recall at several bases, a history, a timeline."""
    ids = replay(store)
    echo(f"store: {store.describe()}")
    question = "Can I bake an apple pie for my trip to Paris?"
    for title, basis in BASES:
        echo(f"\n== {title}\n   recall({question!r})")
        hits = store.recall(question, namespace=NS, basis=basis, k=5)
        for hit in hits:
            echo("   " + format_line(hit.fact))
        if not hits:
            echo("   (nothing valid at this basis)")
    echo("\n== Prompt block, now")
    echo(store.context(question, namespace=NS, max_tokens=200))
    echo("\n== History of the trip (every version, both time axes)")
    for v in store.history(ids["trip"]):
        echo(
            f"   v{v.version}: valid [{_d(v.valid_from)}, {_d(v.valid_to)})  "
            f"recorded [{_d(v.recorded_at)}, {_d(v.superseded_at)})  {v.text}"
        )
    echo("\n== Timeline (valid intervals of every version ever recorded)")
    for v in store.timeline(NS):
        mark = "" if v.is_current else "  (superseded " + _d(v.superseded_at) + ")"
        echo(f"   [{_d(v.valid_from)} -> {_d(v.valid_to)})  {v.text}{mark}")


def _d(value: datetime | None) -> str:
    return "open" if value is None else value.strftime("%Y-%m-%d %H:%M")
