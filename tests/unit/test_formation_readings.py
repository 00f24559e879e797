"""Readings added in stop 44 (docs/design.md, "Memory formation"): phrasings several slots
share, possessives, what a Chinese clause is about, favourites by the thing, question tags,
dated statements and the endings that name no value."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.claims import claims_of, names_a_date
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.people_zh import zh_says_i
from bitemporal_core.language.slots import ClaimDraft
from bitemporal_core.language.temporal import RuleResolver
from bitemporal_core.language.worthiness import category


def _drafts(text: str) -> list[ClaimDraft]:
    (sentence,) = default_extractor().sentences(text)
    return list(claims_of(sentence.text, sentence.tokens))


def _slots(text: str) -> list[tuple[str, str]]:
    found = _drafts(text) if not any("\u4e00" <= c <= "\u9fff" for c in text) else claims_zh(text)
    return [(d.slot, d.value) for d in found if d.slot not in ("about", "topic")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Switched to The Gym Group, it's closer.", [("gym", "Gym Group")]),
        ("I switched to Greenfield Academy.", [("school", "Greenfield Academy")]),
        ("switched to the Pixel 8", [("phone_model", "Pixel 8")]),
        ("switched to oat milk", []),  # no gym, phone, bank or school by its kind
    ],
)
def test_a_phrasing_only_brand_slots_share_takes_a_value_of_its_own_kind(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _slots(text) == expected


def test_a_member_at_a_gym_is_no_job_and_my_pt_at_a_gym_owns_no_gym() -> None:
    assert _slots("I'm a member at PureGym on Deansgate.") == [("gym", "PureGym")]
    assert _slots("my PT at PureGym is a guy called Kyle") == [("trainer", "Kyle")]


def test_a_lowercase_model_and_a_second_hand_phone() -> None:
    assert _slots("typing this on my pixel 6, screen's cracked lol") == [("phone_model", "pixel 6")]
    (phone,) = [
        d for d in _drafts("got a second hand iPhone 13 off my cousin") if d.slot != "about"
    ]
    assert (phone.value, phone.additive) == ("iPhone 13", False)


def test_atm_is_at_the_moment() -> None:
    """ "im at deloitte atm": where one works now (the abbreviation reads as "now")."""
    assert [slot for slot, _ in _slots("im at deloitte atm, audit team lol")] == ["employer"]


def test_a_possessive_is_no_is() -> None:
    assert _slots("the dentist's office called about my filling") == []
    assert _slots("my dentist's Dr Patel") == [("doctor:dentist", "Dr Patel")]


def test_an_ending_without_a_value_ends_the_one_said_before_it() -> None:
    """ "grew out of it" ends the eggs of the statement, and in the past where they were."""
    ended = [d for d in _drafts("I was allergic to eggs until I was 7 and then grew out of it")]
    assert [(d.value, d.positive, d.past) for d in ended if d.slot == "allergy"] == [
        ("eggs", True, True),
        ("eggs", False, True),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我又换成小米14了", [("phone_model", "小米14")]),
        ("公司搬到郊区了", []),  # the company moved, not the speaker
        ("我在公司是做测试的", [("employer", "公司是"), ("job_title", "测试")]),
        ("我姐住南山那边", [("residence", "南山")]),
        ("我奶奶一个人住在老家县城", [("household", "独居"), ("residence", "老家县城")]),
        ("我最喜欢的周杰伦的歌是《晴天》", [("favourite:歌", "《晴天》")]),
        # 程 is a surname, 程序员 no name: her job
        ("我女朋友是程序员", [("relationship", "恋爱"), ("job_title", "程序员")]),
        ("我现在早上改喝豆浆", [("drink", "豆浆")]),
        ("现在都去公司旁边的超级猩猩上团课了", [("gym", "公司旁边的超级猩猩")]),
        ("他被猎头挖去小红书做内容策划了", [("employer", "小红书"), ("job_title", "内容策划")]),
    ],
)
def test_chinese_readings(text: str, expected: list[tuple[str, str]]) -> None:
    assert _slots(text) == expected


def test_a_chinese_relative_a_clause_is_about_carries_to_the_next() -> None:
    found = claims_zh("我男朋友是果粉，一直用iPhone 12")
    assert [(d.subject_kind, d.subject, d.slot) for d in found if d.slot == "phone_model"] == [
        ("relation", "男朋友", "phone_model")
    ]


def test_i_as_the_object_of_a_preposition_is_no_subject() -> None:
    assert not zh_says_i("天天在我面前夸鸿蒙")
    assert zh_says_i("我换了手机")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("想再养只猫，豆豆会不会欺负它啊？", "memory"),  # a wish, then a question tag
        ("我现在住在哪？", "question"),
        ("你好，最近怎么样？", "question"),
        ("He sold the Volvo last week, can you believe it?", "memory"),
        ("Where do you think I should move, Berlin or Paris?", "question"),
        ("I moved, didn't I?", "question"),  # too short a statement before the tag
    ],
)
def test_a_statement_with_a_question_tag_is_a_memory(text: str, kind: str) -> None:
    """One rule per language (`question_tag` of the worthiness lexicon), measured in words
    in English and in characters in Chinese."""
    assert category(text) == kind


def test_a_statement_that_names_a_date_holds_from_when_it_was_said() -> None:
    said = datetime(2024, 3, 8, 9, tzinfo=UTC)
    analyser = Analyser()
    (moved,) = analyser.analyse("牙医改到下周二上午十点了")
    assert names_a_date(moved.claims)
    start, end = analyser.valid_time(moved.text, said, None, None, dated=True)
    assert (start, end) == (said, None)
    (starting,) = analyser.analyse("I start at Google next Monday.")
    assert not names_a_date(starting.claims)


def test_a_date_moved_to_is_no_until_and_a_weekday_picks_the_year() -> None:
    said = datetime(2024, 3, 8, 9, tzinfo=UTC)
    resolver = RuleResolver()
    moved = resolver.resolve("婚礼推到明年五月了", said)
    assert moved is not None and moved.valid_to is None
    leave = resolver.resolve("休假到下周五", said)
    assert leave is not None and leave.valid_to is not None
    tuesday = resolver.resolve("They moved my appointment to Tuesday 19 March.", said)
    assert tuesday is not None and tuesday.valid_from.date() == datetime(2024, 3, 19).date()


# --- stop 45 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("landlord's a guy called Mr Patel", [("landlord", "Mr Patel")]),
        (
            "rent now goes to some company called Harbour Lettings",
            [("landlord", "Harbour Lettings")],
        ),
        ("I take 50mg of sertraline every morning.", [("medication", "50 mg of sertraline")]),
        ("我每天早上空腹吃一片优甲乐", [("medication", "优甲乐")]),
        ("我在吃火锅", []),  # no medicine's name
        ("新号码尾号0937", [("phone_number", "0937")]),
        ("gave up dairy in january", [("diet", "dairy-free")]),
    ],
)
def test_stop_45_slots_read_their_values(text: str, expected: list[tuple[str, str]]) -> None:
    """(An `any` ending beside a slot's claim, as "gave up {v}" makes, is left out.)"""
    assert [found for found in _slots(text) if found[0] != "any"] == expected


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("landlord's a guy called Mr Patel", ("speaker", "")),  # a role word is no name
        ("we've moved her to a new piano teacher, Mr Kowalski", ("pronoun", "her")),
        ("The GP took Dad off amlodipine.", ("relation", "dad")),
        ("Physio moved my appointment to Monday at 10am.", ("speaker", "")),  # "my"
    ],
)
def test_who_a_phrasing_is_about(text: str, subject: tuple[str, str]) -> None:
    (first, *_) = [d for d in _drafts(text) if d.slot not in ("about", "topic")]
    assert (first.subject_kind, first.subject) == subject
