"""Readings added in stop 59 (docs/design.md, "Memory formation"): "been on X since", a dose
changed by a doctor ("bumped the X up to 40mg", "reduced my X to 5mg"), a salary "on £X at the
moment" or "salary's £X", a bedtime ("goes to bed at", "moved her bedtime to"), a first
therapy session with someone, a usual coffee order, "is with X now" of a named partner, "X
has had to go", going back to work at a place; in Chinese 还在 + a place, a home rented in a
place (在X租的房子) or new over here (X这边的新房子), 转进 and 在读 a school, 移动这个套餐, a
drink every afternoon, the colleague after the speaker's group (我们组小吴), a name before
那边 (a place, not who does it), a past frame said with 时 (大学时), an ending by how long
it has not been done (好几个月没), the verb of a verb-object word said apart (爬山: 山好久没
爬了), a salary said as an amount of 万 or 千 after 现在 or 这个月开始, a change not made (没换)
as no change, a city where someone works (在X上班), and a name of two the segmenter glued to
the word after it (筱筱在)."""

from __future__ import annotations

import pytest

from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.extract.chinese import tag_words
from bitemporal_core.language.topics import verb_keys

from ._readings import drafts as _drafts
from ._readings import rows
from ._readings import zh_drafts as _zh


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "been on ramipril 5mg since the summer",
            ("speaker", "", "medication", "ramipril 5 mg", True),
        ),
        (
            "the consultant bumped the ramipril up to 10mg",
            ("speaker", "", "medication", "10 mg", True),
        ),
        ("my GP reduced my sertraline to 25mg", ("speaker", "", "medication", "25 mg", True)),
        ("on 38k at the moment, not bad for a first job", ("speaker", "", "salary", "38k", True)),
        ("good news, salary's 52k now", ("speaker", "", "salary", "52k", True)),
        ("Freddie goes to bed at 7, he is four", ("person", "freddie", "bedtime", "7", True)),
        (
            "had my first session with Dr Amari today",
            ("speaker", "", "doctor:therapist", "dr amari", True),
        ),
        (
            "usual order at the cafe: a large flat white",
            ("speaker", "", "drink", "large flat white", True),
        ),
        ("I'm on green tea these days", ("speaker", "", "drink", "green tea", True)),
        ("my cousin Ruth is with Imran now", ("person", "ruth", "relationship", "imran", True)),
        ("the allotment has had to go", ("speaker", "", "any", "allotment", False)),
        (
            "mum went back to work part time at Boots",
            ("relation", "mum", "employer", "boots", True),
        ),
    ],
)
def test_reads(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in rows(_drafts(text), lower=True)


@pytest.mark.parametrize(
    "text",
    [
        "she is with her nan now",
        "I'm on the night bus these days",
        "we moved the bedtime story to 7",
    ],
)
def test_no_reading(text: str) -> None:
    assert not {"relationship", "drink", "bedtime"} & {d.slot for d in _drafts(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("表哥还在苏州，说明年可能回来", ("relation", "表哥", "residence", "苏州", True)),
        ("我在武汉光谷租的房子快到期了", ("speaker", "", "residence", "武汉光谷", True)),
        ("终于住进来了，南山这边的新房子采光特别好", ("speaker", "", "residence", "南山", True)),
        ("侄子转进了育英中学", ("relation", "侄子", "school", "育英中学", True)),
        ("我女儿在读幼儿园中班", ("relation", "女儿", "school", "幼儿园中班", True)),
        ("电信这个套餐一个月九十九", ("speaker", "", "phone_contract", "电信", True)),
        ("每天下午一杯茉莉奶绿", ("speaker", "", "drink", "茉莉奶绿", True)),
        ("我们组老陈一直住在昌平", ("person", "老陈", "residence", "昌平", True)),
        ("老陈一直住在昌平", ("person", "老陈", "residence", "昌平", True)),
        ("每个月工资九千", ("speaker", "", "salary", "九千", True)),
        ("年后调薪了，现在1.5万", ("speaker", "", "salary", "1.5万", True)),
        ("从这个月开始一万一", ("speaker", "", "salary", "一万一", True)),
        ("朵朵在青岛上班", ("person", "朵朵", "residence", "青岛", True)),
    ],
)
def test_reads_zh(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in rows(_zh(text))


@pytest.mark.parametrize("text", ["我爸昨天转进了ICU", "钱已经转进余额宝了", "我在读一本推理小说"])
def test_no_school_zh(text: str) -> None:
    assert "school" not in {d.slot for d in _zh(text)}


@pytest.mark.parametrize("text", ["现在两万多步了", "现在三点半"])
def test_no_salary_zh(text: str) -> None:
    assert "salary" not in {d.slot for d in _zh(text)}


def test_a_change_not_made_is_no_change_zh() -> None:
    assert not [d for d in claims_zh("她们医院一直没换，还是那家") if d.slot == "topic"]


def test_a_name_glued_to_the_word_after_it_zh() -> None:
    assert [w.norm for w in tag_words("我室友筱筱在厦门上班")][2:4] == ["筱筱", "在"]


def test_a_name_before_a_place_word_is_no_subject_zh() -> None:
    topics = [d for d in claims_zh("刘老师那边停了，换了个线上的") if d.slot == "topic"]
    assert topics and all(d.subject_kind == "speaker" for d in topics)


def test_a_past_frame_said_with_shi_zh() -> None:
    jobs = [d for d in _zh("想起高中时在奶茶店打工，一小时八块") if d.slot == "employer"]
    assert jobs and all(d.past for d in jobs)


def test_an_ending_by_how_long_it_was_not_done_zh() -> None:
    assert any(d.slot == "topic" for d in claims_zh("吉他已经好几个月没碰了"))


def test_the_verb_of_a_verb_object_word_zh() -> None:
    assert "v:钓" in verb_keys(tag_words("钓鱼"))
    assert "v:喜" not in verb_keys(tag_words("喜欢"))
