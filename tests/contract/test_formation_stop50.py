"""Memory formation on every engine, stop 50's rules (docs/design.md, "Memory formation"):
a person named for the first time is the one relative who held what they end; an ending of
what two hold together ends the other's part; an ending the speaker says of what only a
relative it names (or points back to) holds is theirs; a brand's ending reaches whoever's
it was; two named together are one subject; "mum and dad" are the parents; a denied state
ends only that state; and the readings added (a salary by its money, shifts, a lowercase
school's name, an "it" that moved, 晨跑停了, 携号转网去, 跟*黄了, 到手...)."""

from __future__ import annotations

import pytest

from bitemporal_core import MemoryStore

from ._said import say, texts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a first name that ends what exactly one unnamed relative held is that relative
        ("My husband works at Amazon in logistics", "Tom got laid off from Amazon last month"),
        ("My son has a peanut allergy", "great news, Noah's outgrown his peanut allergy!!"),
        # an ending of what two hold together: the other's part ends too
        (
            "tom booked the thai place for valentine's, been together 8 months now",
            "so me and tom are done, as of about an hour ago",
        ),
        # the speaker's ending of what only the relative the statement names holds
        ("女儿周末在学而思上数学课", "学而思那个班退了，给女儿找了个一对一的数学老师"),
        # a brand's ending reaches whoever's it was
        (
            "dad's picking us up in his old volvo v70, the one that smells of dog",
            "the volvo finally died on the m4. dad's gone and bought a second hand skoda",
        ),
        (
            "My parents have a golden retriever called Biscuit",
            "mum and dad had to put Biscuit down",
        ),
        ("Me and Jake have been together 3 years now", "Jake and I broke up. it's for the best"),
        ("I'm on EE, signal's fine where I live", "ported my number over to Vodafone"),
        (
            "on 38k a year in london and it doesn't go far",
            "annual review done, they bumped me to £42.5k",
        ),
        (
            "my wife kate's on nights at the royal free",
            "kate's moved to earlies on the cardiac ward",
        ),
        ("my husband rob drives to the reading office every day", "rob's doing the 7:12 train now"),
        ("barclays app is down again, can't even see my balance", "closed the barclays account"),
        ("my son alfie forgot his pe kit again at maple primary", "we pulled our son out of maple"),
        ("i play 5-a-side every wednesday with the lads", "packed in the 5-a-side, knee's done"),
        (
            "my brother brought his girlfriend sophie to lunch",
            "my brother's seeing someone called nadia",
        ),
        ("晨跑打卡第30天，沿着江边跑5公里", "晨跑停了，膝盖老疼"),
        ("我用的移动的号，套餐一个月128", "携号转网去联通了，便宜一半不止"),
        ("表弟过年带女朋友小雅回来了", "表弟跟小雅黄了"),
        ("到手一万二，扣完房贷剩不下几个钱", "调薪结果出来了，税前涨到一万八"),
        ("我爸还在用那台华为Mate40", "618给我爸下单了一台iPhone 15"),
        ("我弟在读高三，天天刷题", "我弟高考完了，被南大录取了"),
        ("阿杰还在那家电商公司当产品经理", "阿杰升了！现在是产品总监，说请我们吃烤肉"),
        ("又去找Tony老师剪头了", "Tony老师跳槽了，以后改找楼下那家的Kevin"),
        # day shifts are shifts, no date moved
        ("My wife works nights at the hospital", "Wife's finally on day shifts, 8 to 4"),
        # an ending of only a slot's own words ends the slot; a state begun is no event
        ("signed up to puregym on the high street, £24.99 a month", "cancelled the membership"),
        ("won 7-4 at five-a-side tonight", "told the lads I'm done with five-a-side"),
        ("my flatmate chloe has started making sourdough", "chloe moved out this morning"),
        (
            "gp put me on sertraline 50mg for the anxiety",
            "switched to citalopram 20mg, fingers crossed",
        ),
        (
            "my son alfie forgot his pe kit again at maple primary",
            "alfie's first day at st anne's",
        ),
        (
            "priya (my manager) is pushing me to lead the migration",
            "I'm reporting to mark from platform",
        ),
    ],
)
def test_stop_50_a_later_statement_retires_the_earlier(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "u", old, new)
    assert texts(store, "u", days=0.5) == {old}
    now = texts(store, "u")
    assert old not in now
    assert any(part in new for part in now)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a new value of a first-named person is no evidence they are the relative
        ("My sister lives in Madrid", "Emma moved to Paris last week"),
        # the gender a statement says rules a relative out
        ("My wife works at Amazon in logistics", "Tom got laid off from Amazon, he's job hunting"),
        # a denied state ends that state only
        (
            "me and my boyfriend Sam have been together 3 years",
            "if sam snores once more i'm filing for divorce and we're not even married",
        ),
        # a video membership is no gym
        ("爱奇艺会员又自动续费了，算了就当为了看狂飙", "开了B站大会员，为了看番，一年148还行"),
        # a trip that moved is no move of house
        ("I live in Leeds", "booked krakow for march and it's moved again, now april"),
        # a second car said with the first one named: the first goes on
        (
            "our corsa needs new tyres before the mot",
            "picked up a used fiat 500 for when james has the corsa",
        ),
    ],
)
def test_stop_50_what_only_looks_like_a_change_retires_nothing(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "a", old, new)
    assert old in texts(store, "a")


def test_stop_50_a_relative_named_by_an_ending_is_that_name_later(store: MemoryStore) -> None:
    say(
        store,
        "k",
        "My husband works at Amazon in logistics",
        "Tom got laid off from Amazon last month",
        "my husband plays golf every sunday",
        "Tom has given up golf, his knee",
    )
    assert "my husband plays golf every sunday" not in texts(store, "k")
