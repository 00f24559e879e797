"""Memory formation on the kinds of fact users mention most (where one lives, a job, a diet, a
car, a phone number, a manager, a school, an allergy, a partner), told the way people type
them: contractions without an apostrophe, a brand at the start of a clause, a value named
before the verb that ends it, a name after "spoke to", a child's doubled name in Chinese
and a short name for someone named in full before ("rach" for Rachel), a phone number however it
is spaced, an ended habit said by its kind ("stopped drinking" for a glass of wine), a time that
is no place, Chinese phrasings after 现在 and 了 (docs/design.md, "Memory formation")."""

from __future__ import annotations

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.claims import claims_of
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.people import mentioned
from bitemporal_core.language.people_zh import zh_subject
from tests.unit.test_topics import retired


def _claims(text: str) -> list[tuple[str, str, str, bool]]:
    (sentence,) = default_extractor().sentences(text)
    return [
        (c.subject_kind, c.slot, c.value, c.positive)
        for c in claims_of(sentence.text, sentence.tokens)
    ]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (("im a junior designer at a small studio", "they bumped me up to senior designer"), [0]),
        (("I'm a pharmacist at Boots.", "First day at Lloyds Pharmacy tomorrow!"), [0]),
        (("we're with british gas for the electric", "Octopus took over our supply."), [0]),
        (("I've been doing keto since January.", "keto lasted about a month haha"), [0]),
        (("I'm allergic to ibuprofen.", "the ibuprofen thing was a false alarm"), [0]),
        (("My sister Kate lives in Derby.", "Talked to Kate, she's moved to Nottingham."), [0]),
        (("Jen is engaged to Marco.", "Jen and Marco tied the knot on Saturday!"), [0]),
        (("I report to Aisha.", "After the restructure we've been moved under Tom Reid."), [0]),
        (("I'm lactose intolerant.", "Turns out I'm not lactose intolerant at all."), [0]),
        (("My sister Rachel is married to Ian.", "rach's divorce came through last week."), [0]),
        (("My manager Priya is brilliant.", "Priya's last day was friday, cake all round."), [0]),
        (("I'm a data analyst at Ocado.", "HR walked me out today, badge handed in."), [0]),
        (("My daughter Isla has no allergies.", "The GP says she's allergic to cashews."), [0]),
        (
            (
                "dentist check up is tuesday at 9:40",
                "dentist rang, tuesday's off, moved to the 26th",
            ),
            [0],
        ),
        (("my mobile's 07700 900246", "gave the surgery my number again, 07700900246"), []),
        (("I drive a Skoda Octavia.", "Dad's gone electric, traded his Jaguar for a Tesla."), []),
        (("I drive a Skoda Octavia.", "Dad's car finally died and he won't shut up about it."), []),
        (("I usually have a glass or two of wine most evenings.", "I've stopped drinking."), [0]),
        (("My daughter Maisie is allergic to eggs.", "She's outgrown the egg allergy!"), [0]),
        (("My manager is Priya.", "priya got moved to dublin 😭 new manager is Martin"), [0]),
        (("My manager is Helen.", "My old manager Craig used to check my calendar."), []),
        (("I live in Leeds.", "the salon moved me to 2pm on sat instead"), []),
        (("I smoke about ten a day.", "It has been three weeks since my last cigarette."), [0]),
        (("We have an old tabby called Biscuit.", "Biscuit passed away on Sunday."), [0]),
    ],
)
def test_core_kinds_in_the_words_people_type(lines: tuple[str, ...], expected: list[int]) -> None:
    assert retired(*lines) == expected


@pytest.mark.parametrize(
    ("old", "new"),
    [  # everyday words the phrasings of the core kinds must not read as a change
        ("I don't run anymore.", "I was running late this morning."),
        ("My phone is a Pixel 8.", "My phone battery lasted all day."),
        ("I work at Tesco.", "I finished at 6 today."),
        ("I'm at Leeds uni.", "The wifi keeps dropping out."),
        ("My cat Tom is 12.", "Just let it go."),
        ("I'm allergic to penicillin.", "I've outgrown it, the coat goes to my sister."),
        ("I'm married to Sam.", "I'm not married anymore."),
        ("We're going to Spain on holiday in June.", "Not had a holiday since 2019 before this."),
    ],
)
def test_everyday_words_are_no_change(old: str, new: str) -> None:
    assert retired(old, new) == ([0] if "married" in new else [])


@pytest.mark.parametrize(
    "new",
    [
        "跟客户的会议结束了。",
        "昨天做了核酸，结果是阴性。",
        "我今天在医院做了个检查。",
        "听说隔壁公司裁员给了n+1。",
    ],
)
def test_chinese_everyday_words_are_no_change(new: str) -> None:
    assert retired("我男朋友叫小凯，我在京东做运营，我对芒果过敏。", new) == []


def test_a_job_at_a_place_is_a_job_title_and_an_employer() -> None:
    slots = {(slot, value) for _, slot, value, _ in _claims("I'm a nurse at St Mary's.")}
    assert {("job_title", "nurse"), ("employer", "St Mary")} <= slots


def test_a_phrasing_about_me_is_the_speakers() -> None:
    assert ("speaker", "job_title") in {
        (kind, slot) for kind, slot, _, _ in _claims("They promoted me, bumped me up to lead.")
    }


def test_a_date_range_is_no_phone_number() -> None:
    assert all(slot != "phone_number" for _, slot, _, _ in _claims("booked lisbon for 14-18 may"))


def test_a_chinese_clause_holds_the_claims_of_phrasings_apart() -> None:
    found = {(c.subject_kind, c.subject, c.slot) for c in claims_zh("我男朋友阿杰在广州工作")}
    assert {("speaker", "", "relationship"), ("person", "阿杰", "employer")} <= found


def test_a_chinese_phrasing_may_take_the_word_before_it_as_its_value() -> None:
    (home,) = [c for c in claims_zh("苏州新家的第一晚，隔音太差了") if c.slot == "residence"]
    (allergy,) = [c for c in claims_zh("我海鲜过敏") if c.slot == "allergy"]
    assert (home.value, allergy.value) == ("苏州", "海鲜")


def test_an_intensifier_inside_a_phrasing_is_skipped() -> None:
    assert ("relation", "relationship", "single", True) in _claims("my brother is so single")


def test_a_value_that_opens_its_clause_is_nobodys_name() -> None:
    assert ("speaker", "any", "Keto", False) in _claims("Keto lasted about three weeks.")
    assert ("person", "trip") in {(k, s) for k, s, _, _ in _claims("Tom's trip is off.")}


def test_a_name_after_a_verb_of_talking_is_a_person() -> None:
    (spoke,) = default_extractor().sentences("I spoke to Jo last night.")
    (went,) = default_extractor().sentences("I went to Leeds last night.")
    assert "person:jo" in mentioned(spoke.tokens)
    assert mentioned(went.tokens) == []


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (("我在京东做运营。", "家人们我被裁了，上周签的字。"), [0]),
        (("我儿子豆豆在光明小学读三年级。", "豆豆下学期转到实验学校了。"), [0]),
        (("我手机号13800001111。", "换号了，新号码13911112222。"), [0]),
        (("我老婆开一台红色的思域。", "她那台思域卖了，新提了辆小米SU7。"), [0]),
        (("我在新东方教雅思。", "今天被约谈了，n+1，工牌当场收走。"), [0]),
        (("我在京东做运营。", "我在家做饭呢。"), []),
        (("我在京东上班。", "我现在在腾讯上班。"), [0]),
        (("我在沈阳住，浑南这边。", "搬到了北京。"), [0]),
        (("跟我对象谈了两年了。", "分了。"), [0]),
        (("我从来不运动的。", "最近开始夜跑了！"), [0]),
        (("我住在广州天河。", "我堂弟刚搬去深圳了。"), []),
        (("我住在广州天河。", "我大学的时候在西安住了四年。"), []),
        (("我家养了只猫。", "烦死了，天天加班。"), []),
        (("我在京东上班。", "我想辞职。"), []),
        (("我家豆豆在实验小学上二年级。", "豆豆转学了，转到育才小学。"), [0]),
        (("我男朋友阿杰在广州工作。", "我跟阿杰分手了。"), [0]),
        (("卡罗拉卖了，换了辆特斯拉Model Y。", "特斯拉也卖了，现在天天坐地铁。"), [0]),
        (("五一准备去云南玩！", "云南去不成了。"), [0]),
    ],
)
def test_chinese_core_kinds(lines: tuple[str, ...], expected: list[int]) -> None:
    assert retired(*lines) == expected


def test_those_addressed_are_no_value() -> None:
    (claim,) = [c for c in claims_zh("家人们我被裁了") if c.slot == "employer"]
    assert (claim.subject_kind, claim.value, claim.positive) == ("speaker", "", False)


def test_a_doubled_name_is_a_name_and_a_doubled_word_is_not() -> None:
    assert zh_subject("我女儿朵朵") == ("person", "朵朵")
    assert zh_subject("朵朵这学期") == ("person", "朵朵")
    assert zh_subject("天天") is None
