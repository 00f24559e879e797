"""Readings added in stop 51 (docs/design.md, "Memory formation"): a child dropped at a
place with a two-word name is at that school, a coffee said by its kind, endings of
therapy ("last session with"), of smoking ("without a ciggie") and of a couple said name
first ("sam and i called it off"), a salary moved to a bank, a medicine swapped onto, a
shouted word and a name after a title and a preposition are no subject; in Chinese a bank
card is a bank, 改打 and 改吃 replace, 最后一次咨询 ends therapy, and the speaker's
unnamed relatives are mentioned."""

from __future__ import annotations

import pytest

from bitemporal_core.language.people_zh import zh_mentioned
from bitemporal_core.language.slots import ClaimDraft

from ._readings import all_drafts, rows
from ._readings import drafts as _drafts
from ._readings import zh_drafts as _zh


def _read(drafts: list[ClaimDraft]) -> list[tuple[str, str, str, str, bool]]:
    return rows(drafts)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "dropped my daughter mia at sunny hill this morning, no tears",
            ("person", "mia", "school", "Sunny hill", True),
        ),
        (
            "first day at Oak Tree Montessori for Ben",
            ("person", "ben", "school", "Oak Tree Montessori", True),
        ),
        ("last session with Dr Reid today", ("speaker", "", "doctor:therapist", "Dr Reid", False)),
        ("day 12 without a ciggie", ("speaker", "", "smoking", "", False)),
        ("no more commuting from monday", ("speaker", "", "commute", "", False)),
        ("jo and i called it off", ("speaker", "", "relationship", "Jo", False)),
        ("moved my salary over to starling", ("speaker", "", "bank", "starling", True)),
        (
            "dad's gp swapped him onto bisoprolol",
            ("relation", "dad", "medication", "bisoprolol", True),
        ),
        ("a flat white to start the day", ("speaker", "", "drink", "flat white", True)),
        (
            "helped jo move all her boxes up to york",
            ("person", "jo", "residence", "York", True),
        ),
        (
            "my brother's still on vodafone",
            ("relation", "brother", "phone_contract", "Vodafone", True),
        ),
        ("they hired Nina to manage our team", ("speaker", "", "manager", "Nina", True)),
        ("she's team lead now", ("pronoun", "she", "job_title", "team lead", True)),
        ("Ines and Rafael split up", ("person", "ines", "relationship", "Rafael", False)),
    ],
)
def test_stop_51_english_readings(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_drafts(text))


@pytest.mark.parametrize(
    "text",
    [
        "dropped Tom at Heathrow this morning",  # a drop-off at an airport: no school
        "dropped mum at the station",
        "dropped Raj at Gatwick Airport",
        "sourdough to start the day",  # no coffee
    ],
)
def test_what_reads_no_school_or_drink(text: str) -> None:
    assert not [d for d in _drafts(text) if d.slot in ("school", "drink")]


def test_a_name_after_a_title_and_a_preposition_is_no_subject() -> None:
    found = all_drafts("dentist tmrw with Dr Shah, dreading it")
    assert all(d.subject_kind == "speaker" for d in found)


def test_a_shouted_word_is_no_name() -> None:
    found = all_drafts("mr jones STILL hasn't fixed the heating")
    assert all(d.subject != "jones still" for d in found)


def test_a_statement_with_one_clause_that_says_a_state_is_no_wish() -> None:
    (about,) = [d for d in all_drafts("I pay for Netflix, it's the one thing I'd never cancel")]
    assert not about.tentative


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我老公的工资卡是农行的", ("relation", "老公", "bank", "农行", True)),
        ("今天是最后一次咨询了", ("speaker", "", "doctor:therapist", "", False)),
        ("他从腾讯出来了", ("pronoun", "他", "employer", "腾讯", False)),
        ("我每天早上一片阿司匹林", ("speaker", "", "medication", "阿司匹林", True)),
        ("医生让我改打胰岛素", ("speaker", "", "medication", "胰岛素", True)),
        ("咖啡停了，胃受不了", ("speaker", "", "drink", "", False)),
        ("老公当副经理三年了", ("relation", "老公", "job_title", "副经理", True)),
        ("舅舅把外婆接到县城住了", ("relation", "外婆", "residence", "县城", True)),
    ],
)
def test_stop_51_chinese_readings(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_zh(text))


def test_a_switch_of_medicine_in_chinese_replaces() -> None:
    (claim,) = [d for d in _zh("医生让我改打胰岛素") if d.slot == "medication"]
    assert claim.replacing


def test_the_speakers_unnamed_relatives_are_mentioned() -> None:
    assert zh_mentioned("我爸血压高，医生让他少吃盐") == ["relation:爸爸"]
    assert zh_mentioned("我哥李强换工作了") == ["person:李强", "relation:哥哥=person:李强"]


def test_changed_again_is_no_second_one() -> None:
    (car,) = [d for d in _zh("我哥又换了辆理想L8") if d.slot == "car"]
    assert not car.additive


def test_a_lowercase_past_tense_the_tagger_took_for_a_name_is_a_statement() -> None:
    from bitemporal_core import default_extractor
    from bitemporal_core.language.worthiness import MEMORY, category

    (sentence,) = default_extractor().sentences("ditched portuguese.")
    assert category(sentence.text, sentence.tokens) == MEMORY


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("救助站搬到了公园东门那边", "救助"),  # the shelter moved: no one's change
        ("回来念叨了一晚上，但是没钱换", "念叨"),  # can't afford it: no change
    ],
)
def test_what_names_no_topic_of_a_change(text: str, absent: str) -> None:
    drafts = all_drafts(text) if text.isascii() else list(_zh_all(text))
    topics = [d for d in drafts if d.slot == "topic"]
    assert not any(absent in k for d in topics for k in d.keys)


def _zh_all(text: str) -> list[ClaimDraft]:
    from bitemporal_core.language.claims_zh import claims_zh

    return list(claims_zh(text))
