"""Chinese claims and the Chinese topic rule: negation as a word, the object before a
phrasing as its value, a relative named once (我哥李强) as that person, what one now does as a
topic (改喝), change verbs as data; and the Chinese keyword terms recall finds facts by."""

from __future__ import annotations

import pytest

from bitemporal_core.language.claims import slot_words
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.extract.multilingual import content_terms
from bitemporal_core.language.people_zh import zh_subject
from tests.unit.test_topics import retired


def _slot(text: str, slot: str) -> tuple[str, str, str, bool]:
    (claim,) = [c for c in claims_zh(text) if c.slot == slot]
    return claim.subject_kind, claim.subject, claim.value, claim.positive


def test_negation_counts_only_as_a_word_of_its_own() -> None:
    assert _slot("我一天抽差不多半包烟。", "smoking")[3] is True
    assert _slot("我现在不抽烟了。", "smoking")[3] is False


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("我上周从字节辞职了。", "employer", "字节"),
        ("我跟小美分手了。", "relationship", "小美"),
    ],
)
def test_the_object_before_a_phrasing_is_its_value(text: str, slot: str, value: str) -> None:
    assert _slot(text, slot) == ("speaker", "", value, False)


@pytest.mark.parametrize(
    ("head", "who"),
    [
        ("我哥李强", ("person", "李强")),
        ("我同事小张", ("person", "小张")),
        ("我哥", ("relation", "哥哥")),
        ("现在我的领导", ("speaker", "")),
        ("李强的老婆", ("relation", "老婆")),
        ("婚礼", None),
        ("小王被阿里挖", ("person", "小王")),  # a clause that starts with a name
        ("啊啊啊小王今天领", ("person", "小王")),  # after an interjection
        ("卡罗拉卖", None),  # a car the segmenter tags as a name: no surname
        ("张磊爱奇艺会员我退", ("speaker", "")),  # 我 in the clause: a topic said first
    ],
)
def test_chinese_subjects(head: str, who: tuple[str, str] | None) -> None:
    assert zh_subject(head) == who


def test_a_relative_named_once_is_that_person_later() -> None:
    assert _slot("我哥李强住在南京。", "residence")[:2] == ("person", "李强")
    assert retired("我哥李强住在南京。", "今天好冷。", "李强搬到苏州了。") == [0]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (("我每天晚上喝一杯红酒。", "我现在晚上改喝牛奶了。"), [0]),  # 喝 is the topic
        (("我一般凌晨一点才睡。", "我调了作息，现在十一点就睡。"), [0]),
        (("我追剧用的是优酷。", "优酷我退订了。"), [0]),  # a change verb, the object first
        (("我爸每天吃一片阿司匹林。", "医生给我爸换了药，现在吃别的。"), [0]),  # same subject
        (("我每天晚上喝一杯红酒。", "我周末也喝点啤酒。"), []),  # an addition
        (("我每天晚上喝一杯红酒。", "我老公现在改喝牛奶了。"), []),  # someone else
        (("我每天晚上喝一杯红酒。", "如果医生不让，我可能就改喝茶了。"), []),  # a wish
    ],
)
def test_chinese_topic_changes(lines: tuple[str, ...], expected: list[int]) -> None:
    assert retired(*lines) == expected


def test_a_two_character_word_gives_the_noun_it_is_built_on() -> None:
    assert "猫" in content_terms("我养了一只橘猫。")
    assert "猫" in content_terms("我的猫叫什么名字？")
    assert "司" not in content_terms("我在哪家公司上班？")


def test_slot_query_words_by_language() -> None:
    assert {"上班", "公司"} <= set(slot_words(["employer"], "zh"))
    assert "work" in slot_words(["employer"]) and "上班" not in slot_words(["employer"])


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (("我们组长是孙姐，人很好。", "孙姐调去总部了。"), [0]),  # ends a named person's part
        (("我在华为上班。", "我对象从华为离职了。"), []),  # by the name only: not 华为
        (("我开的是一辆卡罗拉。", "卡罗拉出掉了，换了台小鹏。"), [0]),  # the head is the value
        (("国庆打算跟我妈去厦门玩。", "厦门不去了，改去桂林。"), [0]),  # 厦门, a name, is a topic
        (("我手机号是135 0000 1111。", "我另外办了张副卡，号码是188 2222 3333。"), []),
        (("我们小区物业是绿城的。", "业主大会投票把绿城炒了，新来的是安居乐。"), [0]),  # fired
        (("通勤路上我一直在听《忽左忽右》。", "忽左忽右已经好久没点开了。"), [0]),  # not for long
        (("我现在大一，读的土木。", "这学期开始我就是计算机系的人了，土木拜拜。"), [0]),  # bye to
        (("我开始生酮了，米饭全戒。", "生酮坚持不下去了，以后还是正常吃饭吧。"), [0]),  # 还是 later
        (("我周末在市图书馆做志愿者。", "现在周末还是去图书馆做志愿者。"), []),  # 还是 in it
    ],
)
def test_chinese_changes_of_this_round(lines: tuple[str, ...], expected: list[int]) -> None:
    assert retired(*lines) == expected


def test_those_addressed_first_are_not_the_subject() -> None:
    assert zh_subject("姐妹们我升店长啦") == ("speaker", "")
    assert zh_subject("我姐妹升店长了") == ("relation", "姐妹")


def test_a_companion_is_not_the_subject() -> None:
    assert zh_subject("五一打算跟老公去") is None
    assert zh_subject("国庆打算跟我妈去") in (None, ("speaker", ""))
    assert zh_subject("我妈跟我爸") == ("relation", "妈妈")


def test_a_cue_counts_only_as_words_of_its_own() -> None:
    """要是 (if) inside 主要是 (mainly) makes nothing tentative; 要是 on its own does."""
    assert not any(c.tentative for c in claims_zh("家里有台Switch，主要是跟老婆一起玩马车。"))
    assert all(c.tentative for c in claims_zh("要是搬到成都，我就养只猫。") if c.slot == "about")


def test_a_block_cue_of_the_topic_rule_counts_only_as_words_of_its_own() -> None:
    """主要是 (mainly) holds no wish: the change is a topic claim; 要是 (if) blocks it."""
    said = "通勤的播客换成《知行小酒馆》了，{}。"
    assert "topic" in [c.slot for c in claims_zh(said.format("主要是讲得有意思"))]
    assert "topic" not in [c.slot for c in claims_zh(said.format("要是不好听再换"))]


def test_a_statement_without_claims_is_about_its_first_clause_subject() -> None:
    """A relative in a later clause (朋友都喊我咸鱼) is not who 我微信昵称叫... is about."""
    (about,) = [
        c for c in claims_zh("我微信昵称叫一只咸鱼，朋友都直接喊我咸鱼。") if c.slot == "about"
    ]
    assert (about.subject_kind, about.subject) == ("speaker", "")


def test_a_subject_named_in_a_clause_without_claims_holds_for_the_next() -> None:
    assert _slot("同事小李脾气超大，天天抽电子烟", "smoking")[:2] == ("person", "小李")
