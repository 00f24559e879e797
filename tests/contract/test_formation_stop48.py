"""Memory formation on every engine, stop 48's rules (docs/design.md, "Memory formation"):
a medicine someone is on, switched by others; a broadband provider; a brand the speaker has
used or just got (Chinese); a causee's hobby (送他去学); a name said before a pronoun in a
Chinese statement; a doctor who sees a relative; a commute by its daily ride; an ending
denied ("not giving up"); a role with a time frame of its own; a stay on a business trip."""

from __future__ import annotations

import pytest

from bitemporal_core import MemoryStore

from ._said import say, texts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("mum's on ramipril for her blood pressure", "they've switched her to losartan"),
        ("our broadband is with virgin, it drops every evening", "switched to bt broadband"),
        ("家里宽带是电信的，三百兆", "电信宽带到期没续，办了移动的套餐"),
        ("华为mate40用了快四年了，卡得不行", "前两天终于换了小米14"),
        ("我那辆老朗逸又趴窝了", "提车啦🚗比亚迪海豹，落地二十万出头"),
        ("儿子在学钢琴，每周六上午一节课", "现在送他去学围棋了，安静多了"),
        ("小雅又在朋友圈秀恩爱了，她跟阿杰在一起都快五年了", "小雅跟阿杰分手了"),
        ("我爸的糖尿病一直是市一院的王主任在看", "我爸现在转到李医生那儿复查"),
        ("每天挤地铁十号线，包都能被挤变形", "买了辆雅迪电动车，每天骑四十分钟"),
        ("我妈那个尾号2301的号码用了十几年了", "我妈干脆换了个新号，尾号8866"),
        ("试用期工资一万二", "转正了，工资调到一万四"),
        ("上周花八百烫了个大波浪", "卷发打理太麻烦了，今天去拉直了"),
        ("mia's bedtime is 6:30 on the dot", "we've pushed mia's bedtime to 7:15"),
        ("I drive a Vauxhall Corsa.", "picked up a secondhand mg4 today"),
        ("our letting agent is foxtons", "we now rent from keystone lettings"),
    ],
)
def test_stop_48_a_later_statement_of_the_same_thing_retires_the_earlier(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "u", old, new)
    assert texts(store, "u", days=0.5) == {old}  # a fact until the later one
    assert new in texts(store, "u")
    assert old not in texts(store, "u")


def test_a_role_with_a_time_frame_of_its_own_is_no_passing_state(store: MemoryStore) -> None:
    """The weekend is when the wedding is, not how long she is a girlfriend: the break-up
    ends the relationship the role names."""
    old = "my girlfriend maya is dragging me to a wedding this weekend"
    say(store, "r", old, "maya and i broke up")
    assert texts(store, "r") == {"maya and i broke up"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("been playing guitar since i was 14", "not giving up the guitar, just adding piano"),
        ("在成都定居第五年了", "这个月被公司派到上海出差，住在静安的酒店"),
        ("with my sister moving out, i'm on my own now", "i'm on giffgaff now, way cheaper"),
    ],
)
def test_stop_48_a_statement_of_another_thing_leaves_the_first(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "a", old, new)
    assert old in texts(store, "a")
