"""Recall's pure rules: keyword fields, the time a question asks about, fusion and diversity."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bitemporal_core import InvalidInput, RecallParams, Weights
from bitemporal_core.language.fields import FIELD_WEIGHTS, Utterance, embedding_text, field_terms
from bitemporal_core.language.query import query_time
from bitemporal_core.language.temporal import RuleResolver
from bitemporal_core.ranking.fusion import diversify, fuse

NOW = datetime(2024, 6, 15, 12, 0, tzinfo=UTC)


# --- keyword fields ---------------------------------------------------------------------------
def test_field_terms_add_message_before_and_speaker() -> None:
    said = Utterance(
        text="A lurcher! He is called Biscuit.",
        speaker="Aria",
        before="What breed is the new dog?",
    )
    first, second = field_terms(["A lurcher!", "He is called Biscuit."], said)
    w = FIELD_WEIGHTS
    assert first["lurcher"] == w["message"] + w["statement"]  # its own word counts more
    assert second["lurcher"] == w["message"]  # a sibling's word, through the message
    assert first["breed"] == second["breed"] == w["before"]
    assert first["aria"] == w["speaker"]
    assert "biscuit" in first and second["biscuit"] > first["biscuit"]


def test_field_terms_without_context_are_the_statement_and_message() -> None:
    (terms,) = field_terms(["I like green tea."], Utterance(text="I like green tea."))
    assert set(terms) == {"like", "green", "tea"}
    assert set(terms.values()) == {FIELD_WEIGHTS["statement"] + FIELD_WEIGHTS["message"]}


def test_field_weights_are_integers_and_zero_turns_a_field_off() -> None:
    assert all(isinstance(v, int) and v >= 0 for v in FIELD_WEIGHTS.values())
    said = Utterance(text="Yes.", speaker="Ben", before="Did the gig go well?")
    (terms,) = field_terms(["Yes."], said, {"statement": 1, "message": 1})
    assert "ben" not in terms and "gig" not in terms


def test_embedding_text_names_the_speaker() -> None:
    assert embedding_text("I got the job!", "Aria") == "Aria: I got the job!"
    assert embedding_text("I got the job!", None) == "I got the job!"


# --- the time a question asks about ---------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("When did Ben move into his new house?", True),
        ("Roughly when did Aria first meet Biscuit?", True),
        ("On what day did Lena give her talk?", True),
        ("Which month was the wedding moved to?", True),
        ("本恩什么时候搬家的？", True),
        ("What was Ben marking when the friends caught up?", False),
        ("What breed of dog did Aria adopt?", False),
    ],
)
def test_asks_when(question: str, asks: bool) -> None:
    assert query_time(question, RuleResolver(), NOW).asks_when is asks


def test_a_named_period_is_a_window_of_its_unit() -> None:
    month = query_time("What did Aria bake in May 2023?", RuleResolver(), NOW).window
    assert month == (datetime(2023, 5, 1, tzinfo=UTC), datetime(2023, 6, 1, tzinfo=UTC))
    day = query_time("How did Omar spend Christmas 2023?", RuleResolver(), NOW).window
    assert day == (datetime(2023, 12, 25, tzinfo=UTC), datetime(2023, 12, 26, tzinfo=UTC))
    year = query_time("Which projects did Mei lead in 2023?", RuleResolver(), NOW).window
    assert year == (datetime(2023, 1, 1, tzinfo=UTC), datetime(2024, 1, 1, tzinfo=UTC))
    assert query_time("What did Aria bake?", RuleResolver(), NOW).window is None
    assert query_time("What did Aria bake in May 2023?", None, NOW).window is None


# --- fusion -----------------------------------------------------------------------------------
def test_fused_scores_lie_in_0_1_and_are_explained() -> None:
    fused = fuse(
        {"keyword": [("a", 9.0), ("b", 5.0)], "vector": [("a", 0.8), ("c", 0.7)]},
        {"keyword": 1.0, "vector": 1.0},
    )
    assert fused["a"].score == pytest.approx(1.0)  # first in every rank
    assert fused["b"].score == pytest.approx(fused["c"].score)  # second in one rank each
    assert 0 < fused["b"].score < fused["a"].score
    assert fused["a"].ranks["keyword"][:2] == (1, 9.0)
    assert sum(share for _, _, share in fused["b"].ranks.values()) == fused["b"].score


def test_weights_change_the_fusion_and_a_zero_weight_rank_counts_nothing() -> None:
    rankings = {"keyword": [("a", 2.0), ("b", 1.0)], "vector": [("b", 0.9), ("a", 0.1)]}
    even = fuse(rankings, {"keyword": 1.0, "vector": 1.0})
    assert even["a"].score == pytest.approx(even["b"].score)
    leaning = fuse(rankings, {"keyword": 1.0, "vector": 3.0})
    assert leaning["b"].score > leaning["a"].score
    muted = fuse(rankings, {"keyword": 1.0, "vector": 0.0})
    assert muted["a"].score == pytest.approx(1.0) and muted["b"].ranks["vector"][2] == 0.0


def test_diversify_puts_other_messages_first_unless_exempt() -> None:
    fused = fuse({"keyword": [("m1-a", 3.0), ("m1-b", 2.9), ("m2-a", 1.0)]}, {"keyword": 1.0})
    group = {"m1-a": "m1", "m1-b": "m1", "m2-a": "m2"}.get
    assert diversify(fused, group, 0.5) == ["m1-a", "m2-a", "m1-b"]
    assert fused["m1-b"].boosts == {"sibling": 0.5}
    again = fuse({"keyword": [("m1-a", 3.0), ("m1-b", 2.9), ("m2-a", 1.0)]}, {"keyword": 1.0})
    assert diversify(again, group, 0.5, exempt=lambda k: k == "m1-b") == ["m1-a", "m1-b", "m2-a"]
    assert diversify(fuse({"keyword": [("x", 1.0)]}, {"keyword": 1.0}), group, 1.0) == ["x"]


@pytest.mark.parametrize(
    "bad",
    [{"keyword": -1.0}, {"vector": "1"}, {"sibling": 1.5}, {"time": True}, {"rrf_k": 0}],
)
def test_bad_weights_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        Weights(**bad)  # type: ignore[arg-type]


def test_recall_params_carry_the_weights() -> None:
    assert RecallParams().weights == Weights()
    assert RecallParams(weights=Weights(concepts=0.0)).weights.concepts == 0.0
    with pytest.raises(InvalidInput):
        RecallParams(weights={"concepts": 0.0})  # type: ignore[arg-type]
