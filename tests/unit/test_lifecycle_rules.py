"""Lifecycle rules without an engine: kind classification, weights, inference, digests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import ConceptEdge, Fact, InvalidInput, Lifecycle, Usage
from bitemporal_core.language.extract import ConceptExtractor
from bitemporal_core.language.extract.simple import SimpleExtractor
from bitemporal_core.language.kinds import KINDS, classify
from bitemporal_core.services.inference import DIGEST_WORDS, digest, rule_relations
from bitemporal_core.services.lifecycle import recall_filter

T0 = datetime(2024, 3, 1, tzinfo=UTC)

CASES = {
    "I love hiking in the Alps.": "preference",
    "My favourite colour is green.": "preference",
    "It looks like rain.": "said",
    "I think the museum closes early.": "belief",
    "Maybe the train is late.": "belief",
    "I want to learn the piano.": "intent",
    "I'd like to see Lisbon one day.": "intent",
    "I'm going to buy a new bike.": "plan",
    "I will call my mother tomorrow.": "plan",
    "We are planning a trip to Oslo.": "plan",
    "I went to Rome last year.": "event",
    "We celebrated her birthday.": "event",
    "The sky is blue.": "said",
}


@pytest.mark.parametrize("which", ["simple", "default"])
def test_kinds_follow_the_parsed_sentence(which: str, extractor: ConceptExtractor) -> None:
    ex = SimpleExtractor() if which == "simple" else extractor
    got = {text: classify(ex.sentences(text)[0].tokens) for text in CASES}
    assert got == CASES
    assert set(got.values()) == set(KINDS)


def _fact(text: str, said: datetime) -> Fact:
    return Fact(
        id="f",
        version_id="v",
        namespace="a",
        text=text,
        valid_from=said,
        valid_to=None,
        recorded_at=said,
        superseded_at=None,
        version=1,
        said_at=said,
    )


def test_weight_halves_per_half_life_and_grows_with_use() -> None:
    policy = Lifecycle(half_life=timedelta(days=10), use_weight=0.5, min_weight=0.2)
    fact = _fact("x", T0)
    assert policy.strength(fact, None, T0) == 1.0
    assert policy.strength(fact, None, T0 + timedelta(days=10)) == pytest.approx(0.5)
    assert policy.strength(fact, None, T0 + timedelta(days=100)) < 0.001
    assert policy.rank_weight(fact, None, T0 + timedelta(days=100)) == 0.2, "floored in ranking"
    used = Usage(uses=3, last_used=T0 + timedelta(days=90))
    assert policy.strength(fact, used, T0 + timedelta(days=100)) == pytest.approx(
        0.5 * (1 + 0.5 * 1.3862943611198906)
    ), "a use refreshes the age and adds weight"
    assert Lifecycle().strength(fact, None, T0 + timedelta(days=1000)) == 1.0, "no decay by default"
    assert not Lifecycle().weighs and Lifecycle(reinforce=True).weighs


@pytest.mark.parametrize(
    "options",
    [
        {"half_life": 3},
        {"half_life": timedelta(seconds=-1)},
        {"min_weight": -0.1},
        {"use_weight": "a"},
        {"inferred_weight": 1.5},
        {"inferred_weight": True},
    ],
)
def test_bad_lifecycle_settings_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        Lifecycle(**options)  # type: ignore[arg-type]


def test_rules_prefer_specific_shared_neighbours_over_hubs() -> None:
    edges = [
        ConceptEdge(src="lyon", dst="river", strength=4, t_index=1),
        ConceptEdge(src="lyon", dst="museum", strength=1, t_index=2),
        ConceptEdge(src="museum", dst="turin", strength=1, t_index=3),
        ConceptEdge(src="river", dst="turin", strength=1, t_index=4),
    ]
    hub = [ConceptEdge(src=f"n{i}", dst="note", strength=1, t_index=5) for i in range(9)]
    hub += [ConceptEdge(src=f"n{i}", dst="weather", strength=1, t_index=5) for i in range(9)]
    found = rule_relations(edges + hub, min_strength=3, min_shared=2)
    assoc = [e for e in found if e.type == "ASSOCIATED_WITH"]
    assert [(e.src, e.dst, e.confidence) for e in assoc] == [("lyon", "river", round(4 / 7, 4))]
    similar = {(e.src, e.dst): e.confidence for e in found if e.type == "SIMILAR_TO"}
    through_hubs = [c for (a, _), c in similar.items() if a[1:].isdigit()]
    assert through_hubs and max(through_hubs) < similar[("lyon", "turin")]
    assert similar[("note", "weather")] > similar[("lyon", "turin")], "9 specific neighbours"
    assert len(similar) <= len({c for e in edges + hub for c in (e.src, e.dst)})


def test_digest_keeps_facts_in_order_within_its_budget() -> None:
    facts = [_fact("I like tea.", T0), _fact("Tea calms me", T0)]
    assert digest("tea", facts) == "tea: I like tea. Tea calms me."
    long = [_fact("word " * 25 + "end.", T0)] * 5
    text = digest("tea", long)
    assert text.endswith("end. ...") and text.count("end.") == 2, "whole sentences only"
    assert len(text.split()) <= DIGEST_WORDS + 1
    assert digest("tea", [_fact("word " * 99, T0)]).count("word") == 99, "at least one fact"


def test_recall_filters_are_checked() -> None:
    assert recall_filter(None, False).params() == {
        "any_kind": True,
        "kinds": [],
        "with_archived": False,
    }
    assert recall_filter(["plan", "plan", "event"], True).kinds == ("plan", "event")
    for bad in ("plan", [""], [None], 3, []):
        with pytest.raises(InvalidInput):
            recall_filter(bad, False)
