"""Readings added in stop 48 (docs/design.md, "Memory formation"): a value ends at a full
stop, a shouted adverb is no name, a denied ending ends nothing, a framing phrase names no
subject, a value known by its shape, a name after "this guy", whom a clause opening with
its phrasing is for; in Chinese a verb's denied complement, a causee,
a brand in use, a name said before a pronoun, 朋友圈, an ID by its shape, 出差."""

from __future__ import annotations

import pytest

from bitemporal_core.language.people_zh import zh_subject

from ._readings import drafts as _drafts
from ._readings import zh_drafts as _zh


def test_a_value_ends_at_a_full_stop_the_parser_ran_on_past() -> None:
    (moved,) = _drafts(
        "honestly with my dad's surgery coming up we've pushed the wedding to 17 april next"
        " year. less stress for everyone"
    )
    assert (moved.slot, moved.value) == ("event_date", "17 April next year")
    assert moved.subject_kind == "speaker"  # "with my dad's surgery ...": not dad


def test_a_shouted_adverb_is_no_value() -> None:
    assert _drafts("the 7:42 from woking was cancelled AGAIN, third time this week") == []


@pytest.mark.parametrize(
    "text", ["not giving up the guitar, just adding", "i'm never quitting my job"]
)
def test_a_denied_ending_ends_nothing(text: str) -> None:
    assert not [d for d in _drafts(text) if not d.positive]


def test_an_ending_said_with_a_negation_still_ends() -> None:
    (sober,) = _drafts("dad hasn't touched a drink in 2 months!!")
    assert (sober.slot, sober.positive, sober.subject) == ("alcohol", False, "dad")


def test_a_network_is_read_by_its_name_only() -> None:
    assert [(d.slot, d.value) for d in _drafts("i'm on giffgaff now, way cheaper")] == [
        ("phone_contract", "giffgaff")
    ]
    assert not [d for d in _drafts("i'm on my own now") if d.slot == "phone_contract"]


def test_a_medicine_someone_is_on_and_one_they_were_switched_to() -> None:
    assert [(d.slot, d.value) for d in _drafts("she's on ramipril instead")] == [
        ("medication", "ramipril")
    ]
    (switched,) = _drafts("they've switched her to losartan")
    assert (switched.slot, switched.subject_kind, switched.subject) == (
        "medication",
        "pronoun",
        "she",
    )


def test_a_person_after_this_guy_is_the_value() -> None:
    (seeing,) = _drafts("i've been seeing this guy ben for a few weeks")
    assert (seeing.slot, seeing.value) == ("relationship", "Ben")  # truecased


def test_a_clause_that_opens_with_its_phrasing_is_for_whom_it_names() -> None:
    (school,) = _drafts("started at oakfield primary for mia")
    assert (school.slot, school.subject_kind, school.subject) == ("school", "person", "mia")


def test_a_role_is_no_passing_state_for_a_time_frame_said_of_something_else() -> None:
    (role,) = _drafts("my girlfriend maya is dragging me to a wedding this weekend")
    assert (role.slot, role.tentative) == ("relationship", False)


def test_zh_a_denied_complement_is_no_value() -> None:
    assert [(d.slot, d.value) for d in _zh("钢琴实在学不下去，改学架子鼓了")] == [
        ("hobby", "架子鼓")
    ]


def test_zh_the_one_sent_to_do_it_is_the_subject() -> None:
    assert zh_subject("现在送他去") == ("pronoun", "他")
    assert zh_subject("小雅又在朋友圈") != ("relation", "朋友")  # 朋友圈 names no friend


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("华为mate40用了快四年了，电池一天三充", ("phone_model", "华为mate40")),
        ("我那辆老朗逸又趴窝了", ("car", "朗逸")),
        ("提车啦🚗比亚迪海豹，落地二十万出头", ("car", "比亚迪海豹")),
    ],
)
def test_zh_a_brand_in_use_or_just_got(text: str, expected: tuple[str, str]) -> None:
    assert [(d.slot, d.value) for d in _zh(text)] == [expected]


def test_zh_not_a_brand_in_use() -> None:
    assert _zh("小米出了新款手机") == []


def test_zh_a_pronoun_after_a_name_in_one_statement_is_that_person() -> None:
    (together,) = _zh("小雅又在朋友圈秀恩爱了，她跟阿杰在一起都快五年了吧")
    assert (together.slot, together.subject, together.value) == ("relationship", "小雅", "阿杰")
    assert _zh("周末跟同事在一起加班") == []  # a colleague is no partner


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("家里宽带是电信的，三百兆", [("broadband", "电信", True)]),
        ("电信宽带到期没续", [("broadband", "电信", False)]),
        ("微信号 xiaomo_1997，头像是只柴犬", [("messenger_id", "xiaomo_1997", True)]),
        ("现在是 mo_draws，以前那个搜不到了", [("messenger_id", "mo_draws", True)]),
        ("我爸的糖尿病一直是市一院的王主任在看", [("doctor:gp", "市一院的王主任", True)]),
        ("每天挤地铁十号线", [("commute", "地铁", True)]),
        ("在成都定居第五年了", [("residence", "成都", True)]),
    ],
)
def test_zh_slots_read_their_values(text: str, expected: list[tuple[str, str, bool]]) -> None:
    assert [(d.slot, d.value, d.positive) for d in _zh(text)] == expected


def test_zh_a_doctor_phrasing_wants_a_doctor() -> None:
    assert _zh("这个是我在看的剧") == []


def test_zh_a_stay_on_a_business_trip_is_passing() -> None:
    (stay,) = _zh("这个月被公司派到上海出差，住在静安的酒店")
    assert (stay.slot, stay.passing) == ("residence", True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("picked up a secondhand mg4 today, first electric car ever", [("car", "mg4")]),
        ("picked up knitting over lockdown", [("hobby", "knitting")]),
        (
            "enrolled on a 12-week data analytics bootcamp",
            [("school", "12 week data analytics bootcamp")],
        ),
        ("so we've pushed mia's bedtime to 7:15", [("bedtime", "7:15")]),
        ("survived week one at monzo", [("employer", "monzo")]),
        ("we now rent from keystone lettings", [("landlord", "keystone lettings")]),
        ("got allocated dr whitfield at the riverside practice", [("doctor:gp", "Dr Whitfield")]),
        ("therapy with ruth on thursdays is really helping", [("doctor:therapist", "ruth")]),
        ("she's on a hydrolysed prescription diet now", [("diet", "hydrolysed prescription")]),
        ("the party is on the 14th", [("event_date", "14th")]),
        ("bonnie's on the lily's kitchen kibble", [("diet", "lily")]),  # a pet's food, no date
    ],
)
def test_stop_48_slots_read_their_values(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(d.slot, d.value) for d in _drafts(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我妈那个尾号2301的号码用了十几年了", [("phone_number", "2301")]),
        ("转正了！工资调到一万四", [("salary", "一万四")]),
        ("上周花八百烫了个大波浪", [("hairstyle", "卷发")]),
        ("今天去拉直了，清爽", [("hairstyle", "直发")]),
        ("被开水烫了一下", []),  # a scald, no perm
        ("又转到电信了", [("phone_contract", "电信")]),
        ("孩子转到实验小学了", [("school", "实验小学")]),
    ],
)
def test_stop_48_zh_slots_read_their_values(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(d.slot, d.value) for d in _zh(text)] == expected


@pytest.mark.parametrize(
    "text", ["got allocated a new desk by the window", "he's on instagram all day instead"]
)
def test_broad_phrasings_want_the_shape_of_their_slot(text: str) -> None:
    assert [d.slot for d in _drafts(text) if d.slot in ("doctor:gp", "medication")] == []


@pytest.mark.parametrize(
    ("text", "medicine"),
    [("doc switched me to citalopram", "citalopram"), ("she's on ramipril instead", "ramipril")],
)
def test_the_medicine_shape_still_takes_medicines(text: str, medicine: str) -> None:
    assert [(d.slot, d.value) for d in _drafts(text)] == [("medication", medicine)]
