"""Recall over a conversation, on every engine: speakers and the message before as keyword
fields, one hit per message first, query-side time, explained scores in 0..1."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import MemoryStore, RecallParams, Weights

T0 = datetime(2023, 5, 6, 18, 0, tzinfo=UTC)
FILLER = [
    ("Ben", "The band played at The Crown last night and the crowd was great."),
    ("Aria", "I baked forty cardamom buns for the market this morning."),
    ("Ben", "My dad is doing his walking targets every day now."),
    ("Aria", "Jess and I ran ten kilometres along the river on Sunday."),
    ("Ben", "Marking season is nearly over, thank goodness."),
    ("Aria", "The sourdough starter is bubbling nicely again."),
]


def say(store: MemoryStore, turns: list[tuple[str, str]], start: datetime, session: str) -> None:
    for i, (speaker, text) in enumerate(turns):
        store.remember(
            text,
            namespace="c",
            at=start + timedelta(seconds=5 * i),
            speaker=speaker,
            source=f"{session}:{i + 1}",
            session=session,
        )


def sources(hits: list[object]) -> list[str | None]:
    return [h.fact.source for h in hits]  # type: ignore[attr-defined]


def test_the_speakers_name_finds_their_statements(store: MemoryStore) -> None:
    say(store, [*FILLER, ("Aria", "I adopted a dog from the rescue."), ("Ben", "A dog!")], T0, "s1")
    hits = store.recall("What did Aria adopt?", namespace="c", k=3)
    assert hits[0].fact.source == "s1:7"
    assert "keyword" in hits[0].ranks and hits[0].ranks["keyword"].position == 1


def test_the_message_before_finds_an_answer(store: MemoryStore) -> None:
    asked = [("Ben", "How did the half marathon go?"), ("Aria", "Two hours!")]
    say(store, [*FILLER, *asked], T0, "s1")
    hits = store.recall("How long did the half marathon take Aria?", namespace="c", k=3)
    assert "s1:8" in sources(hits)  # "Two hours!" shares no word with the question


def test_a_new_session_does_not_follow_another_sessions_message(store: MemoryStore) -> None:
    say(store, [("Ben", "I ran the half marathon on Sunday.")], T0, "s1")
    say(store, [("Aria", "Two hours!")], T0 + timedelta(days=3), "s2")
    hits = store.recall("How did the half marathon go?", namespace="c", k=5)
    assert sources(hits) == ["s1:1"]


def test_deleted_messages_never_become_a_field(store: MemoryStore) -> None:
    say(store, [("Ben", "We should visit the zeppelin museum.")], T0, "s1")
    store.delete_messages("c", session="s1")
    later = T0 + timedelta(minutes=1)
    store.remember("Two hours!", namespace="c", at=later, session="s1", source="s1:2")
    assert sources(store.recall("zeppelin museum", namespace="c", k=5)) == ["s1:1"]
    store.forget(namespace="c")
    say(store, [("Ben", "We should visit the zeppelin museum.")], T0 + timedelta(hours=1), "s1")
    store.forget(namespace="c")
    store.remember("Two hours!", namespace="c", at=T0 + timedelta(hours=2), session="s1")
    assert store.recall("zeppelin museum", namespace="c", k=5) == []


def test_one_hit_per_message_first(store: MemoryStore) -> None:
    say(
        store,
        [
            *FILLER,
            ("Aria", "The Riverside Half was hard. The Riverside Half hills hurt. I loved it."),
            ("Ben", "I watched the Riverside Half on TV."),
        ],
        T0,
        "s1",
    )
    hits = store.recall("Riverside Half", namespace="c", k=3)
    assert sources(hits)[:2] in (["s1:7", "s1:8"], ["s1:8", "s1:7"])
    assert hits[2].fact.source == "s1:7" and hits[2].boosts.get("sibling") == 0.5
    flat = MemoryStore.embedded(None, params=RecallParams(weights=Weights(sibling=1.0)))
    with flat:
        told = [("Aria", "The Riverside Half was hard. The Riverside Half hills hurt.")]
        say(flat, told, T0, "s")
        say(flat, [("Ben", "I watched it on TV, the Riverside Half.")], T0 + timedelta(1), "t")
        assert not any("sibling" in h.boosts for h in flat.recall("Riverside Half", namespace="c"))


def test_a_when_question_favours_the_statement_with_its_time(store: MemoryStore) -> None:
    say(
        store,
        [
            *FILLER,
            ("Aria", "I got the educator job! They rang me on Thursday."),
            ("Ben", "Congratulations on the educator job!"),
        ],
        T0,
        "s1",
    )
    hits = store.recall("When was Aria told she got the educator job?", namespace="c", k=3)
    timed = next(h for h in hits if h.fact.text == "They rang me on Thursday.")
    assert timed.boosts.get("time") == 2.0
    assert timed.fact.valid_from.date() == datetime(2023, 5, 4).date()
    assert hits.index(timed) <= 1


def test_a_named_period_favours_what_was_said_in_it(store: MemoryStore) -> None:
    say(store, [("Aria", "The stall sold out of buns.")], T0, "s1")
    say(store, [("Aria", "The stall sold out of buns again.")], T0 + timedelta(days=60), "s2")
    hits = store.recall("What did the stall sell out of in July 2023?", namespace="c", k=2)
    assert hits[0].fact.source == "s2:1" and hits[0].boosts.get("window") == 1.5
    assert "window" not in hits[1].boosts


def test_scores_are_0_to_1_and_their_shares_add_up(store: MemoryStore) -> None:
    say(store, [*FILLER, ("Aria", "Biscuit chewed my new running shoes.")], T0, "s1")
    hits = store.recall("Which shoes did Biscuit chew?", namespace="c", k=5)
    assert hits and all(0 < h.score <= 1 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    for h in hits:
        assert sum(r.share for r in h.ranks.values()) == pytest.approx(h.score)
        assert tuple(h.ranks) == h.sources and h.text == h.fact.text
    assert hits[0].text == "Biscuit chewed my new running shoes."


def test_messages_limit_reads_the_last_ones(store: MemoryStore) -> None:
    say(store, FILLER, T0, "s1")
    say(store, FILLER[:2], T0 + timedelta(days=1), "s2")
    assert [m.id for m in store.messages("c", session="s1", limit=2)] == ["s1:5", "s1:6"]
    assert [m.id for m in store.messages("c", limit=3)] == ["s1:6", "s2:1", "s2:2"]
    assert store.messages("c", limit=0) == []
