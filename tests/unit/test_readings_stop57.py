"""Readings added in stop 57 (docs/design.md, "Memory formation"): a team at work is a slot of
its own, read only for a department's name ("on the finance team", not "the netball team");
"X got stolen" ends X; "signed up at" reads a gym by its head ("leisure centre"); "back on
days", "been with X two years", "registered at X health centre" and "I'm with X surgery" are
read; a relative named before "she" in the same statement is who "she" is; and in Chinese a
friend's pet name (小胖) is a name, 一直待在 and 在...租了个 read a home only for a place name,
想当年 frames a past state, and a medicine said with what it is for (氨氯地平降压) is the
medicine."""

from __future__ import annotations

import pytest

from bitemporal_core.language.people_zh import zh_subject
from bitemporal_core.services.mentions import Mentions

from ._readings import drafts as _drafts
from ._readings import rows
from ._readings import zh_drafts as _zh


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I've moved to the finance team as of Monday",
            ("speaker", "", "work_team", "finance", True),
        ),
        ("I'm in the design department", ("speaker", "", "work_team", "design", True)),
        ("my bike got stolen outside the gym", ("speaker", "", "any", "bike", False)),
        ("Amir's back on days, thank god", ("person", "amir", "work_schedule", "days", True)),
        ("been with Tomas two years this month", ("speaker", "", "relationship", "tomas", True)),
        (
            "I'm registered at the Elm Road health centre",
            ("speaker", "", "doctor:gp", "elm road", True),
        ),
        (
            "I'm with the Castle Street surgery now",
            ("speaker", "", "doctor:gp", "castle street", True),
        ),
        (
            "so I signed up at the Kingsway leisure centre",
            ("speaker", "", "gym", "kingsway leisure centre", True),
        ),
    ],
)
def test_reads(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in rows(_drafts(text), lower=True)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm on the netball team at work", "work_team"),  # no department
        ("I joined the pub quiz team", "work_team"),
        ("I joined the design team in May", "gym"),  # a team at work is no gym
        ("I've transferred to Glasgow for my master's", "work_team"),
        ("I signed up at a pottery studio", "gym"),  # a gym only by its head
    ],
)
def test_does_not_read(text: str, slot: str) -> None:
    assert slot not in {d.slot for d in _drafts(text)}


def test_a_relative_named_before_she_is_her() -> None:
    mentions = Mentions()
    mentions.add("person:jo")
    mentions.lead("Gran sold up and she's moved to Penzance", ["gran"], {"she"})
    assert mentions.pronoun("she") == "relation:gran"
    after = Mentions(recent=["person:jo"])
    after.lead("She told gran she's moving", ["gran"], {"she"})  # named after "she"
    assert after.pronoun("she") == "person:jo"
    other = Mentions(recent=["person:jo"])
    other.lead("Dad sold up and she's moved", ["dad"], {"she"})  # not her gender
    assert other.pronoun("she") == "person:jo"
    known = Mentions(recent=["person:jo", "relation:gran=person:edna"])
    known.lead("Gran sold up and she's moved", ["gran"], {"she"})  # as she is known
    assert known.pronoun("she") == "person:edna"


@pytest.mark.parametrize("head", ["小美", "小胖"])
def test_a_pet_name_is_a_name_zh(head: str) -> None:
    assert zh_subject(head + "在医院上夜班") == ("person", head)


@pytest.mark.parametrize("head", ["小区", "小学"])
def test_a_small_thing_is_no_name_zh(head: str) -> None:
    assert zh_subject(head + "搬到东门了") is None


def test_a_home_by_its_place_zh() -> None:
    assert ("relation", "表哥", "residence", "西安", True) in rows(_zh("我表哥一直待在西安"))
    assert ("speaker", "", "residence", "望京", True) in rows(_zh("刚在望京租了个一居室"))
    assert "residence" not in {d.slot for d in _zh("周末一直待在家里追剧")}
    assert "residence" not in {d.slot for d in _zh("我在公司附近租了个车位")}


def test_back_then_is_past_zh() -> None:
    assert all(d.past for d in _zh("想当年我可是无肉不欢") if d.slot == "diet")
    assert any(d.slot == "diet" for d in _zh("想当年我可是无肉不欢"))


def test_a_medicine_then_what_it_is_for_zh() -> None:
    assert ("speaker", "", "medication", "氨氯地平", True) in rows(_zh("我在吃氨氯地平降压"))
    assert "medication" not in {d.slot for d in _zh("我在吃火锅")}
