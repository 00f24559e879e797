"""Readings added in stop 55 (docs/design.md, "Memory formation"): a "{s}" of a phrasing is
someone (a noun or pronoun, past a possessive: "helped my cousin move to"), not a particle; a
value inside a phrasing ends where the phrasing's next word matched, a wildcard too ("been at
Lidl six years now"); "is in X now" holds a home, not a situation ("in a meeting now"); a
when-clause tells its own tense; words a tagger takes for verbs are kept in a value ("head
chef"); "the kids" are the speaker's; a shift is no job title; "did it, ..." is news, not a
question; and in Chinese an idiom such as 没办法 negates nothing, a count of days after
到今天 bounds nothing, 跟她老公 names a companion, a phone's line names the phone (nova9),
调走了 or 卷死了 is no death, 南大 or 一中 is a school, looking for work names no employer,
and what someone reports of a third person (胖虎说他们...) is theirs, not the speaker's
change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.people import mentioned
from bitemporal_core.language.people_zh import zh_subject
from bitemporal_core.language.temporal import default_resolver
from bitemporal_core.language.topics import topic_claims_en
from bitemporal_core.language.worthiness import MEMORY, category

from ._readings import all_drafts, rows
from ._readings import drafts as _drafts
from ._readings import zh_drafts as _zh


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I helped my cousin move to Derby", ("relation", "cousin", "residence", "derby", True)),
        ("I've been at Lidl six years now", ("speaker", "", "employer", "lidl", True)),
        ("he's in Lisbon now, loving it", ("pronoun", "he", "residence", "lisbon", True)),
        ("we're in kings heath now", ("speaker", "", "residence", "kings heath", True)),
        ("Omar packed up Dundee last week", ("person", "omar", "residence", "dundee", False)),
        ("Ola got promoted to head chef", ("person", "ola", "job_title", "head chef", True)),
        ("I got promoted to team lead", ("speaker", "", "job_title", "team lead", True)),
        ("Priya's doing nights at the depot", ("person", "priya", "work_schedule", "nights", True)),
        ("my wife moved to permanent lates", ("relation", "wife", "work_schedule", "lates", True)),
        ("the doctor said I'm going up to 40mg", ("speaker", "", "medication", "40 mg", True)),
        ("we moved Dad from Elm Court to a flat", ("relation", "dad", "any", "elm court", False)),
        ("I've deferred Keele for a year", ("speaker", "", "any", "keele", False)),
        ("the skin test says I'm not allergic after all", ("speaker", "", "allergy", "", False)),
    ],
)
def test_reads(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in rows(_drafts(text), lower=True)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm in a meeting now", "residence"),  # no name: no home
        ("we're in the car now", "residence"),
        ("he's in hospital now", "residence"),
        ("Ben's moved across to the sales team", "school"),  # "across" is no one
        ("Kate's doing nights at the hospital now", "job_title"),
        ("Kate's doing nights at the hospital now", "school"),  # a hospital is no school
        ("my car is in the garage now", "residence"),  # a thing's place is no home
        ("the baby's feeds went up to 150ml", "medication"),
        ("packed up the tent and headed home", "residence"),
        ("we've been at this house two years", "employer"),
    ],
)
def test_does_not_read(text: str, slot: str) -> None:
    assert slot not in {d.slot for d in _drafts(text)}


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("moved my savings out of Nationwide", ("person", "savings")),  # savings are no one
    ],
)
def test_names_no_one(text: str, who: tuple[str, str]) -> None:
    assert who not in {(d.subject_kind, d.subject) for d in all_drafts(text)}


def test_the_kids_next_door_are_not_the_speakers() -> None:
    (said,) = default_extractor().sentences("we took the kids next door to the park")
    assert "relation:kids" not in mentioned(said.tokens)
    (own,) = default_extractor().sentences("we moved the kids' piano lessons to Friday")
    assert "relation:kids" in mentioned(own.tokens)


def test_a_when_clause_tells_its_own_tense() -> None:
    (then,) = [
        d for d in _drafts("a photo from 2019 when I lived in Oslo") if d.slot == "residence"
    ]
    assert then.past
    (now,) = [d for d in _drafts("from March I live in Oslo") if d.slot == "residence"]
    assert not now.past


def test_the_kids_are_the_speakers() -> None:
    found = {
        (d.subject_kind, d.subject)
        for d in all_drafts("we've moved the kids' piano lessons to Fridays")
    }
    assert ("relation", "kids") in found


def test_a_title_names_no_topic() -> None:
    (said,) = default_extractor().sentences("Dr Lee retired today")
    assert all("dr" not in c.keys for c in topic_claims_en(said.tokens))


def test_did_it_opens_news_not_a_question() -> None:
    def said(text: str) -> str:
        (sentence,) = default_extractor().sentences(text)
        return category(text, sentence.tokens)

    assert said("did it, my pension now goes to Aviva") == MEMORY
    assert said("did it rain at yours") == "question"
    assert said("did it, in the end, go through ok?") == "question"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("没办法又买了台nova9", ("speaker", "", "phone_model", "nova9", True)),
        ("我堂弟去川大报到了", ("relation", "堂弟", "school", "川大", True)),
        ("我侄子去市二中报到了", ("relation", "侄子", "school", "市二中", True)),
        ("在苏州待了快五年了", ("speaker", "", "residence", "苏州", True)),
        ("阿玲辞职回长沙了", ("person", "阿玲", "residence", "长沙", True)),
    ],
)
def test_reads_zh(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in rows(_zh(text), lower=True)


@pytest.mark.parametrize("text", ["老周被调走了", "同事小林天天加班，卷死了", "老板把小李叫走了"])
def test_no_death_zh(text: str) -> None:
    assert "pet" not in {d.slot for d in _zh(text)}


@pytest.mark.parametrize("text", ["我现在在找工作", "我在找一份新工作"])
def test_looking_for_work_names_no_employer(text: str) -> None:
    assert "employer" not in {d.slot for d in _zh(text)}


def test_what_someone_reports_is_not_the_speakers_change() -> None:
    found = [c for c in claims_zh("大壮说他们厂要搬，现在人心惶惶") if c.slot == "topic"]
    assert found
    assert all(c.subject_kind != "speaker" for c in found)


def test_a_companion_after_a_name_is_not_the_subject() -> None:
    assert zh_subject("阿梅跟她老公") == ("person", "阿梅")


def test_a_count_of_days_up_to_today_bounds_nothing() -> None:
    said = datetime(2024, 6, 3, 20, tzinfo=UTC)
    counted = default_resolver().resolve("我戒酒了，到今天整整五十天", said)
    assert counted is None or counted.valid_to is None
    for text in ("我休假到下周五", "我请假到周三，两天后回来"):
        until = default_resolver().resolve(text, said)
        assert until is not None and until.valid_to is not None
