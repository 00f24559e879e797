"""Readings added in stop 54 (docs/design.md, "Memory formation"): a job said as what someone
is (`occupations`: "my uncle's a plumber", 我舅舅是厨师), never a former one; a "'s" before a
determiner is "is", so the words before it are the subject; a wish holds from when it is said,
whatever time it names; a value ending in a slot's `not_heads` is none of its values (a rota
is no medicine); a denied retirement ends nothing; a booked date must name a time; a noun
"drop" is no ending; one who retires leaves their job title too, and a relative's ending is
not the speaker's; the segmenter's split of 小 + surname still names a person; the relative
said first is the subject; a Chinese dose (医生让加到75了); a lunch slot and an insurer's (kept
apart by what is insured); and new phrasings (a dentist at a practice, money with a bank, a
nights rota, back in the office, 回老家*了, 接去*住, a gym card's brand)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.claims import names_a_date
from bitemporal_core.language.people_zh import zh_subject
from bitemporal_core.language.slots import ClaimDraft, dose_only
from bitemporal_core.language.topics import topic_claims_en

from ._readings import drafts as _drafts
from ._readings import rows
from ._readings import zh_drafts as _zh


def _read(drafts: list[ClaimDraft]) -> list[tuple[str, str, str, str, bool]]:
    return rows(drafts, lower=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my uncle's a plumber", ("relation", "uncle", "job_title", "plumber", True)),
        ("I'm a paramedic", ("speaker", "", "job_title", "paramedic", True)),
        ("she was made a sergeant in June", ("pronoun", "she", "job_title", "sergeant", True)),
        ("I'm not a teacher anymore", ("speaker", "", "job_title", "teacher", False)),
        ("my brother's a Wolves fan", ("relation", "brother", "team", "wolves", True)),
        ("Grandad retired at Christmas", ("relation", "grandad", "job_title", "", False)),
        (
            "my dentist is at Bright Smiles in town",
            ("speaker", "", "doctor:dentist", "bright smiles", True),
        ),
        ("my money's with Nationwide", ("speaker", "", "bank", "nationwide", True)),
        ("they've put me on the nights rota", ("speaker", "", "work_schedule", "nights", True)),
        ("back in the office two days a week", ("speaker", "", "commute", "hybrid", True)),
        ("I've started bringing my own lunch", ("speaker", "", "lunch", "packed lunch", True)),
        ("Ruby's nursery is Honeybees", ("person", "ruby", "school", "honeybees", True)),
        ("our home insurance is with Aviva", ("speaker", "", "insurer:home", "aviva", True)),
        ("I moved my car insurance to LV", ("speaker", "", "insurer:car", "lv", True)),
        ("my GP retired in May", ("speaker", "", "doctor:gp", "", False)),  # the place is empty
        ("my therapist moved to Bristol", ("relation", "therapist", "residence", "bristol", True)),
        ("Anna cycles to work", ("person", "anna", "commute", "bike", True)),
        ("I think my sister's a nurse", ("relation", "sister", "job_title", "nurse", True)),
        ("my manager gave me a raise to 40k", ("speaker", "", "salary", "40k", True)),
        (
            "moved to the Leeds office in May",
            ("speaker", "", "work_location", "leeds office", True),
        ),
        (
            "I'm an actuary at Aviva's Norwich office",
            ("speaker", "", "employer", "aviva's norwich office", True),
        ),
        ("Mochi is our cat", ("speaker", "", "pet", "mochi", True)),
        ("Leeds is where I live now", ("speaker", "", "residence", "leeds", True)),
    ],
)
def test_reads(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_drafts(text))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm a retired teacher", "job_title"),  # a former job, not one held now
        ("I'm a big fan of audiobooks", "team"),
        ("they put me on the weekend rota", "medication"),
        ("he says he'll never retire", "employer"),  # a denied ending ends nothing
        ("we moved the piano to the back room", "event_date"),  # no time named
        ("the school drop off was chaos today", "any"),  # a noun "drop", nothing dropped
        ("my husband retired last year", "relationship"),  # a relative holds no role
        ("my GP is lovely", "doctor"),
        ("started a new job at the council", "job_title"),
        ("there's a plumber coming tomorrow", "job_title"),  # no one is said to be one
        ("it's a doctor's appointment", "job_title"),
        ("she is a good cook", "job_title"),  # a judgement, no job
        ("lunch is ready", "lunch"),
        ("the black one is our cat", "pet"),
        ("we moved the sofa to the new flat", "event_date"),
    ],
)
def test_does_not_read(text: str, slot: str) -> None:
    assert slot not in {d.slot for d in _drafts(text)}


def test_a_booked_date_still_reads_a_holiday() -> None:
    found = _read(_drafts("we moved the christening to Easter"))
    assert ("speaker", "", "event_date", "easter", True) in found


def test_a_wish_holds_from_when_it_is_said() -> None:
    said = datetime(2024, 5, 2, 9, tzinfo=UTC)
    analyser = Analyser()
    (wish,) = analyser.analyse("I might switch to a dentist nearer work next spring")
    assert names_a_date(wish.claims)
    assert analyser.valid_time(wish.text, said, None, None, dated=True) == (said, None)
    (plan,) = analyser.analyse("I start at the bakery next Monday.")
    assert not names_a_date(plan.claims)  # a plan said for sure is still dated


def test_a_relatives_ending_is_not_the_speakers() -> None:
    (said,) = default_extractor().sentences("my aunt quit the choir")
    whose = {(c.subject_kind, c.subject) for c in topic_claims_en(said.tokens)}
    assert ("speaker", "") not in whose


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我舅舅是厨师", ("relation", "舅舅", "job_title", "厨师", True)),
        ("他又回老家西安了", ("pronoun", "他", "residence", "西安", True)),
        ("奶奶被我爸接去城里住了", ("relation", "奶奶", "residence", "城里", True)),
        ("办了张超级猩猩的年卡", ("speaker", "", "gym", "超级猩猩", True)),
        ("我爸一天抽一包", ("relation", "爸爸", "smoking", "抽烟", True)),
        ("午饭一般吃食堂", ("speaker", "", "lunch", "食堂", True)),
        ("上周复查医生让减到25了", ("speaker", "", "medication", "25", True)),
    ],
)
def test_reads_zh(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_zh(text))


def test_a_named_doctor_is_no_job_title() -> None:
    assert "job_title" not in {d.slot for d in _zh("我的主治医生是李医生")}


def test_the_relative_said_first_is_the_subject() -> None:
    assert zh_subject("我堂哥跟他老婆") == ("relation", "堂哥")
    assert zh_subject("室友小周在超市") == ("person", "小周")  # the segmenter splits 小 | 周在


def test_a_chinese_dose_is_read_only_after_a_dose_phrasing() -> None:
    (dose,) = [d for d in _zh("医生让加到两片") if d.slot == "medication"]
    assert dose_only(dose.value, dose.rule)
    assert not dose_only("两片")  # said alone, with no dose phrasing: no dose
    assert "medication" not in {d.slot for d in _zh("工资加到九千了")}


def test_a_word_before_a_phrasing_is_a_name_only_if_it_is_a_first_name() -> None:
    found = _read(_drafts("leg day at the gym wrecked me"))
    assert all(kind != "person" for kind, *_ in found)


def test_a_named_persons_own_ending_is_not_the_speakers() -> None:
    (said,) = default_extractor().sentences("Tom and Mia split up last month")
    assert ("speaker", "") not in {
        (c.subject_kind, c.subject) for c in topic_claims_en(said.tokens)
    }
    (pet,) = default_extractor().sentences("Pickle died last night")  # may be the speaker's pet
    assert ("speaker", "") in {(c.subject_kind, c.subject) for c in topic_claims_en(pet.tokens)}


def test_a_name_split_by_the_segmenter_is_read_only_when_it_runs_into_a_verb() -> None:
    assert zh_subject("小钱包丢了") is None  # a small wallet, no one called 小钱
