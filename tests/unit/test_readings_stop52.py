"""Readings added in stop 52 (docs/design.md, "Memory formation"): a couple's years together,
a wedding called off, a move out helped with, a contract with a carrier or an employer, an
apprenticeship, driving for a firm, a hairdresser called by name, a hair colour gone to,
endings by stepping back, deferring, shaving off or a pet put down, and a place whose value
ends with a gym; in Chinese a manager or a pet said by name (组长叫, 猫叫), a home bought
(在*买房), a works bus, a pet ended by its name (金宝走了), 老板 no one's name, a brand of
another kind no value of a car, a past frame carried to the clauses after it, a statement
ending in 呢, and a holiday said of every year dated at no time; in both languages a change
that completes a state names it ("gave birth": pregnant; 出院: 住院)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.slots import ClaimDraft
from bitemporal_core.language.temporal import default_resolver
from bitemporal_core.language.worthiness import MEMORY, category

from ._readings import all_drafts, rows
from ._readings import drafts as _drafts
from ._readings import zh_drafts as _zh


def _read(drafts: list[ClaimDraft]) -> list[tuple[str, str, str, str, bool]]:
    return rows(drafts)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("me and Priya have been together 3 years", ("speaker", "", "relationship", "Priya", True)),
        ("she's called the wedding off", ("pronoun", "she", "relationship", "", False)),
        (
            "helped sam move out of peckham on sunday",
            ("person", "sam", "residence", "Peckham", False),
        ),
        (
            "took a 3 month contract with the council's digital team",
            ("speaker", "", "employer", "council", True),
        ),
        (
            "he's doing a plumbing apprenticeship with a firm in derby",
            ("pronoun", "he", "job_title", "plumbing", True),
        ),
        ("jay's driving for deliveroo now", ("person", "jay", "employer", "deliveroo", True)),
        (
            "found a new hairdresser called marta near the station",
            ("speaker", "", "hairdresser", "Marta", True),
        ),
        ("went full ginger last month", ("speaker", "", "hair_colour", "ginger", True)),
        ("had to step back from the choir", ("speaker", "", "any", "choir", False)),
        ("i've deferred my masters", ("speaker", "", "any", "masters", False)),
        ("shaved the moustache off last night", ("speaker", "", "any", "moustache", False)),
        ("we had to have bramble put down", ("speaker", "", "any", "bramble", False)),
        (
            "moved over to the sports centre by the park",
            ("speaker", "", "gym", "sports centre", True),
        ),
    ],
)
def test_stop_52_english_readings(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_drafts(text))


@pytest.mark.parametrize(
    "text",
    [
        "my contract with the agency ends in june",  # no carrier: no phone contract
        "the lights went red",  # no hair colour
    ],
)
def test_what_reads_no_phone_contract_or_hair_colour(text: str) -> None:
    assert not [d for d in _drafts(text) if d.slot in ("phone_contract", "hair_colour")]


def test_a_place_that_ends_with_a_gym_is_no_home() -> None:
    slots = {d.slot for d in _drafts("moved over to the sports centre by the park")}
    assert "residence" not in slots


def test_years_together_this_week_is_no_passing_state() -> None:
    (claim,) = [d for d in _drafts("me and Priya have been together 3 years this week")]
    assert not claim.passing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我们组长叫老孙，人很好", ("speaker", "", "manager", "老孙", True)),
        ("我家的狗叫豆包，三岁了", ("speaker", "", "pet", "豆包", True)),
        ("表姐在南湖买房了", ("relation", "表姐", "residence", "南湖", True)),
        ("现在每天坐班车上班", ("speaker", "", "commute", "班车", True)),
        ("金宝昨天晚上走了", ("speaker", "", "pet", "金宝", False)),
        ("老板走了，新老板是从上海调来的", ("speaker", "", "manager", "从上海调来", True)),
    ],
)
def test_stop_52_chinese_readings(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_zh(text))


def test_a_pet_ending_said_without_a_name_ends_no_pet() -> None:
    assert not [d for d in _zh("他走了，我很难过") if d.slot == "pet"]


def test_a_phone_is_no_value_of_a_car() -> None:
    slots = {d.slot for d in _zh("买了台华为mate60")}
    assert "phone_model" in slots
    assert "car" not in slots


def test_a_carrier_is_read_after_hao_shi_only_by_its_name() -> None:
    assert ("speaker", "", "phone_contract", "联通", True) in _read(_zh("我的号是联通的"))
    assert not [d for d in _zh("信号是真的差") if d.slot == "phone_contract"]


def test_a_past_frame_reaches_the_clauses_after_it_until_now() -> None:
    (then,) = [d for d in _zh("高中的时候我在成都读书，住在外婆家") if d.slot == "residence"]
    assert then.past
    (now,) = [d for d in claims_zh("小时候住在乡下，现在住在杭州") if "杭州" in d.value]
    assert not now.past


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("有时候真想换个城市，不过报告还没写完呢", MEMORY),
        ("他还在上班呢？", "question"),
        ("你在哪呢", "question"),
    ],
)
def test_a_statement_may_end_in_ne(text: str, expected: str) -> None:
    assert category(text) == expected


def test_a_holiday_of_every_year_is_no_date() -> None:
    said = datetime(2025, 3, 12, 10, tzinfo=UTC)
    assert default_resolver().resolve("过年去哪儿每年都要吵一架", said) is None
    found = default_resolver().resolve("过年回老家", said)
    assert found is not None


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("my sister got discharged yesterday", "hospit"),
        ("Tess gave birth last night", "pregnant"),
        ("finally paid off the kitchen loan", "loan"),
    ],
)
def test_a_completion_names_the_state_it_completes(text: str, named: str) -> None:
    topics = [d for d in all_drafts(text) if d.slot == "topic"]
    assert any(named in d.keys for d in topics)


@pytest.mark.parametrize(("text", "named"), [("表哥出院了", "住院"), ("考公上岸了", "考公")])
def test_a_chinese_completion_names_the_state_it_completes(text: str, named: str) -> None:
    topics = [d for d in claims_zh(text) if d.slot == "topic"]
    assert any(named in d.keys for d in topics)


def test_work_that_paid_off_completes_nothing() -> None:
    assert not [d for d in all_drafts("all that hard work paid off") if d.slot == "topic"]


def test_an_ending_said_today_is_no_passing_state() -> None:
    topics = [d for d in claims_zh("小王今天离职了，组里乱成一锅粥") if d.slot == "topic"]
    assert ("speaker", ("小王",)) in [(d.subject_kind, d.keys) for d in topics]
