"""Readings added in stop 50 (docs/design.md, "Memory formation"): two named together are
one subject ("me and Jake"), "mum and dad" are the parents, a first name after "called" or
beside the speaker is a name, "his girlfriend sophie" is the one before's, "pulled our son
out of" is the son's, a salary by its money (no date, no job title), shifts, a lowercase
school's name, an "it" that moved is no one's move, a brand's thing is no person; in
Chinese 晨跑停了, an ending's value that is where one went (辞职回长沙了), 携号转网去,
跟*黄了, 到手 with money, a video membership is no gym, 小王升 and 阿杰升 are 小王 and 阿杰,
请我们 does not say the speaker does it, and the relatives a statement names."""

from __future__ import annotations

import pytest

from bitemporal_core.language.people_zh import zh_relatives, zh_says_i, zh_subject
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
            "Me and Jake have been together 3 years now",  # named since stop 52
            ("speaker", "", "relationship", "Jake", True),
        ),
        ("so me and tom are done", ("speaker", "", "relationship", "Tom", False)),
        ("Dan and Sophie are done", ("person", "dan", "relationship", "Sophie", False)),
        ("mum and dad had to put Biscuit down", ("relation", "parents", "pet", "Biscuit", False)),
        (
            "my brother's seeing someone called nadia",
            ("relation", "brother", "relationship", "Nadia", True),
        ),
        (
            "my brother brought his girlfriend sophie to lunch",
            ("relation", "brother", "relationship", "Sophie", True),
        ),
        ("We pulled our son out of Oakwood", ("relation", "son", "school", "Oakwood", False)),
        ("they bumped me to £42.5k", ("speaker", "", "salary", "£ 42.5k", True)),
        ("they bumped me up to 45k", ("speaker", "", "salary", "45k", True)),
        (
            "kate's moved to earlies on the ward",
            ("person", "kate", "work_schedule", "earlies", True),
        ),
        ("I'm on EE, signal's fine", ("speaker", "", "phone_contract", "EE", True)),
        ("Tom got laid off from Amazon", ("person", "tom", "employer", "Amazon", False)),
        ("Noah's outgrown his peanut allergy", ("person", "noah", "allergy", "peanut", False)),
        ("I have porridge for breakfast", ("speaker", "", "breakfast", "porridge", True)),
        ("I've shifted krakow to the 21st", ("speaker", "", "event_date", "21st", True)),
        ("cancelled the membership today", ("speaker", "", "gym", "membership", False)),
        ("I'm done with five-a-side", ("speaker", "", "any", "five", False)),
        (
            "switched to citalopram 20mg as of this week",
            ("speaker", "", "medication", "citalopram 20 mg", True),
        ),
    ],
)
def test_stop_50_english_readings(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_drafts(text))


def test_a_lowercase_school_name_after_at_is_a_school() -> None:
    found = _read(_drafts("my son alfie forgot his pe kit again at maple primary"))
    assert ("person", "alfie", "school", "Maple primary", True) in found


@pytest.mark.parametrize(
    "text",
    [
        "and it's moved again, now going 4th april",  # a trip, no move of house
        "gp bumped me up to 100 on the sertraline",  # a dose: no salary
        "wife's finally on day shifts, 8 to 4",  # shifts, no date moved
    ],
)
def test_what_reads_no_residence_school_or_salary(text: str) -> None:
    assert not [
        d for d in _drafts(text) if d.slot in ("residence", "salary", "school", "event_date")
    ]


def test_it_as_what_someone_has_still_reads() -> None:
    assert ("speaker", "", "diet", "gluten-free", True) in _read(
        _drafts("it was never lactose at all, it's coeliac, so gluten's the enemy now")
    )


def test_the_brand_a_thing_belongs_to_is_no_person() -> None:
    assert all(d.subject_kind == "speaker" for d in all_drafts("barclays app is down again"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("晨跑停了，膝盖老疼", ("speaker", "", "exercise", "跑步", False)),
        ("我姐辞职回长沙了", ("relation", "姐姐", "employer", "", False)),
        ("离职手续办完了", ("speaker", "", "employer", "", False)),
        ("携号转网去联通了", ("speaker", "", "phone_contract", "联通", True)),
        ("我用的移动的号", ("speaker", "", "phone_contract", "移动", True)),
        ("表弟跟小雅黄了", ("relation", "表弟", "relationship", "小雅", False)),
        ("到手一万二，扣完房贷剩不下几个钱", ("speaker", "", "salary", "一万二", True)),
        ("我弟在读高三", ("relation", "弟弟", "school", "高中", True)),
        ("618给我爸下单了一台iPhone 15", ("relation", "爸爸", "phone_model", "iPhone", True)),
        ("以后改找楼下那家的Kevin", ("speaker", "", "hairdresser", "楼下那家的Kevin", True)),
        ("我早餐一般吃包子和豆浆", ("speaker", "", "breakfast", "包子和豆浆", True)),
        ("换了iPhone15，华为给我爸用了", ("speaker", "", "phone_model", "iPhone15", True)),
    ],
)
def test_stop_50_chinese_readings(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_zh(text))


@pytest.mark.parametrize(
    "text",
    [
        "爱奇艺会员又自动续费了",  # a video membership: no gym
        "开了B站大会员，为了看番",
        "快递到手了，挺好",  # 到手 without money: no salary
    ],
)
def test_what_reads_no_gym_or_salary_in_chinese(text: str) -> None:
    assert not [d for d in _zh(text) if d.slot in ("gym", "salary")]


def test_a_prefixed_name_the_segmenter_joined_to_a_verb() -> None:
    assert zh_subject("小王升组长了") == ("person", "小王")
    assert zh_subject("阿杰升了") == ("person", "阿杰")


def test_the_speaker_as_whom_a_verb_treats_does_not_say_i() -> None:
    assert not zh_says_i("现在是产品总监，说请我们吃烤肉")
    assert zh_says_i("我们请他吃烤肉")


def test_the_relatives_a_chinese_statement_names() -> None:
    assert zh_relatives("学而思那个班退了，给女儿找了个老师") == ["relation:女儿"]
    assert zh_relatives("我表哥和我哥") == ["relation:表哥", "relation:哥哥"]
