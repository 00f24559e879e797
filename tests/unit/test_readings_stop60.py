"""Readings added in stop 60 (docs/design.md, "Memory formation"): a home named by a place
before the word for it ("this york flat", "our Didsbury house"), typed by the place list
(`language/places.py`) so that "this cramped flat" names none; a habit ended by a frame of
abstinence over its words ("two weeks with no cigarettes", "off the booze"); a partner
called "my other half"; a quantity after "on about" is no wish; a value named after its
kind at any depth ("a small design studio called X"); a gym by its membership; a salary
said with "making" or "starting this month"; a promotion or a role taken; "died" only in
the past tense; "rn"; in Chinese a salary before tax (税前), a phone kept for years
(用了三年的小米12)."""

from __future__ import annotations

import pytest

from bitemporal_core.language.places import is_place

from ._readings import drafts as _drafts
from ._readings import rows
from ._readings import zh_drafts as _zh


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the boiler in this york flat is on its last legs", ("speaker", "", "residence", "york")),
        ("our Didsbury house needs a new roof", ("speaker", "", "residence", "didsbury")),
        ("the Jesmond flat is cheap but cold", ("speaker", "", "residence", "jesmond")),
        ("the new Bath house is freezing", ("speaker", "", "residence", "bath")),
        ("I'm living in truro rn, it's quiet", ("speaker", "", "residence", "truro")),
        (
            "she joined a small design studio called Inkwell",
            ("pronoun", "she", "employer", "inkwell"),
        ),
        ("renewed my pure gym membership for another year", ("speaker", "", "gym", "pure gym")),
        ("making 48k at the moment", ("speaker", "", "salary", "48k")),
        ("got the raise, 55k starting this month", ("speaker", "", "salary", "55k")),
        ("they promoted me to head of design", ("speaker", "", "job_title", "head of design")),
        ("I took the team lead role in the end", ("speaker", "", "job_title", "team lead")),
        ("my other half smokes in the garden", ("relation", "partner", "smoking", "smoker")),
        ("I'm on about twenty roll-ups a week", ("speaker", "", "smoking", "smoker")),
    ],
)
def test_reads(text: str, expected: tuple[str, str, str, str]) -> None:
    assert (*expected, True) in rows(_drafts(text), lower=True)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("two weeks with no cigarettes now", "smoking"),
        ("dad's been off the booze since new year", "alcohol"),
        ("a whole month without a single rollie", "smoking"),
    ],
)
def test_a_habit_ended_by_abstinence(text: str, slot: str) -> None:
    assert any(d.slot == slot and not d.positive for d in _drafts(text))


@pytest.mark.parametrize(
    "text",
    [
        "the boiler in this cramped flat keeps failing",
        "this nice flat has a balcony",
        "my cousin's flat has a lift",
        "the new flat is bigger",
    ],
)
def test_no_home_without_a_place(text: str) -> None:
    assert "residence" not in {d.slot for d in _drafts(text)}


def test_a_phone_that_dies_is_no_pet_ending() -> None:
    assert "pet" not in {d.slot for d in _drafts("my phone dies by lunchtime every day")}


def test_places() -> None:
    assert is_place("Leeds") and is_place("leeds") and is_place("new york")
    assert is_place("Hyde Park")  # capitalised words are taken as a place
    assert is_place("Reading") and not is_place("reading")  # an English word: capitalised only
    assert not is_place("cramped") and not is_place("Mum's") and not is_place("")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("税前15k，在成都还行", ("speaker", "", "salary", "15k")),
        ("我哥用了三年的小米12，电池不行了", ("relation", "哥哥", "phone_model", "小米12")),
    ],
)
def test_reads_zh(text: str, expected: tuple[str, str, str, str]) -> None:
    assert (*expected, True) in rows(_zh(text))


def test_a_relative_with_the_apostrophe_dropped() -> None:
    found = rows(_drafts("mums moving to Filey, she loves the sea"), lower=True)
    assert ("relation", "mum", "residence", "filey", True) in found
    assert not [d for d in _drafts("moms are great") if d.subject_kind == "relation"]
