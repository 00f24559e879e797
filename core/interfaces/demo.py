"""The demo conversation: a preference that changes, a planned trip, a corrected date; in
English or in Chinese (`bitemporal-memory demo --lang zh`), the write-ups' own story."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import attrs

from bitemporal_core.model import UNSET, Basis
from bitemporal_core.store import MemoryStore
from bitemporal_core.views.prompt import format_line

__all__ = ["LANGUAGES", "run_demo"]

NS = "demo"


def _t(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@attrs.frozen(kw_only=True)
class Story:
    """One language's telling of the demo: the statements, the question, the headings."""

    like: str
    sister: str
    allergy: str
    trip: str
    trip_from: datetime | None  # None: read from the text (下个月三号到十号: June 3 to 10)
    question: str
    bases: tuple[tuple[str, Basis], ...]
    headings: tuple[str, str, str, str]  # prompt block, history, timeline, nothing valid


ENGLISH = Story(
    like="I enjoy eating apples.",
    sister="My sister Anna lives in Lyon.",
    allergy="I am allergic to apples.",
    trip="I will be on a business trip in Paris.",
    trip_from=_t("2024-06-03T00:00"),
    question="Can I bake an apple pie for my trip to Paris?",
    bases=(
        ("What is true now (as known now)", Basis()),
        ("On 2023-10-26, as we now know it", Basis(valid_at=_t("2023-10-26T12:00"))),
        (
            "On 2024-06-07, during the trip, as we now know it",
            Basis(valid_at=_t("2024-06-07T12:00")),
        ),
        (
            "On 2024-06-04, as we knew it on 2024-05-15 (before the start date was corrected)",
            Basis(valid_at=_t("2024-06-04T12:00"), known_at=_t("2024-05-15T00:00")),
        ),
    ),
    headings=(
        "Prompt block, now",
        "History of the trip (every version, both time axes)",
        "Timeline (valid intervals of every version ever recorded)",
        "(nothing valid at this basis)",
    ),
)
CHINESE = Story(
    like="我喜欢吃苹果。",
    sister="我妹妹安娜住在里昂。",
    allergy="我对苹果过敏。",
    trip="下个月三号到十号我要去巴黎出差。",
    trip_from=None,
    question="去巴黎出差的时候我能带个苹果派吗？",
    bases=(
        ("现在为真的（按现在所知）", Basis()),
        ("2023-10-26 那天为真的（按现在所知）", Basis(valid_at=_t("2023-10-26T12:00"))),
        ("2024-06-07 出差期间（按现在所知）", Basis(valid_at=_t("2024-06-07T12:00"))),
        (
            "2024-06-04，按 2024-05-15 时所知（出差日期更正之前）",
            Basis(valid_at=_t("2024-06-04T12:00"), known_at=_t("2024-05-15T00:00")),
        ),
    ),
    headings=(
        "提示词中的记忆块（现在）",
        "出差这条事实的历史（每个版本，两条时间轴）",
        "时间线（记录过的每个版本的有效区间）",
        "（这个时间点没有有效的记忆）",
    ),
)
LANGUAGES = {"en": ENGLISH, "zh": CHINESE}
"""The demo's languages."""


def replay(store: MemoryStore, story: Story = ENGLISH) -> dict[str, str]:
    """Write the demo conversation into `store` (namespace "demo"); return the fact ids."""
    store.forget(namespace=NS)
    like = store.remember(
        story.like,
        namespace=NS,
        at=_t("2023-10-26T10:00"),
        valid_from=_t("2023-10-26T00:00"),
        speaker="user",
    )[0]
    store.remember(story.sister, namespace=NS, at=_t("2023-10-26T10:05"), speaker="user")
    allergy = store.supersede(like.id, story.allergy, at=_t("2023-10-27T09:00"), speaker="user")
    trip = store.remember(
        story.trip,
        namespace=NS,
        at=_t("2024-05-10T08:00"),
        valid_from=story.trip_from,
        valid_to=UNSET if story.trip_from is None else _t("2024-06-10T00:00"),
        speaker="user",
    )[0]
    # The user later says the trip starts on the 5th: the same fact, a corrected version.
    store.correct(trip.id, valid_from=_t("2024-06-05T00:00"), at=_t("2024-05-20T12:00"))
    return {"like": like.id, "allergy": allergy.id, "trip": trip.id}


def run_demo(
    store: MemoryStore, echo: Callable[[str], None] = print, *, language: str = "en"
) -> None:
    """Replay the demo conversation in `language` ("en", "zh") and print recall at several
    bases, the prompt block, a history and a timeline."""
    story = LANGUAGES[language]
    ids = replay(store, story)
    echo(f"store: {store.describe()}")
    for title, basis in story.bases:
        echo(f"\n== {title}\n   recall({story.question!r})")
        hits = store.recall(story.question, namespace=NS, basis=basis, k=5)
        for hit in hits:
            echo("   " + format_line(hit.fact) + f"  [{hit.fact.language}]")
        if not hits:
            echo("   " + story.headings[3])
    echo(f"\n== {story.headings[0]}")
    echo(store.context(story.question, namespace=NS, max_tokens=200))
    echo(f"\n== {story.headings[1]}")
    for v in store.history(ids["trip"]):
        echo(
            f"   v{v.version}: valid [{_d(v.valid_from)}, {_d(v.valid_to)})  "
            f"recorded [{_d(v.recorded_at)}, {_d(v.superseded_at)})  {v.text}"
        )
    echo(f"\n== {story.headings[2]}")
    for v in store.timeline(NS):
        mark = "" if v.is_current else "  (superseded " + _d(v.superseded_at) + ")"
        echo(f"   [{_d(v.valid_from)} -> {_d(v.valid_to)})  {v.text}{mark}")


def _d(value: datetime | None) -> str:
    return "open" if value is None else value.strftime("%Y-%m-%d %H:%M")
