"""Memory formation on every engine, stop 47's rules (docs/design.md, "Memory formation"):
a statement said with a question mark, a slot's own word opening a clause, being together,
a favourite named before its phrasing, an ending used as an adjective, a clause opened by a
noun and its verb, a Chinese name of stop characters, 之后天天 (no date), 转园, 在*买了*卡,
roles kept apart, a stay for a fortnight, a thing that moves, 纠结死了, "getting the boot"."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bitemporal_core import Basis, MemoryStore

from ._said import T0, say, texts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a statement said with a question mark is one, and a later diet replaces it
        ("i've been veggie since first year of uni so like 9 years?", "i'm eating fish again."),
        # "gym is ..." is the speaker's gym, which cancelling it ends
        ("gym is the puregym on london road", "cancelled puregym this morning."),
        ("dev and i have been together for three years", "dev and i ended things."),
        ("the secret history is my favourite book", "the goldfinch is my favourite book now"),
        # a name whose characters are stop characters (吉他) is still a topic
        ("我在学吉他", "吉他挂闲鱼出了"),
        ("朵朵在小区里的蓝天幼儿园上小班", "朵朵转园了，去了爱心双语幼儿园"),
        # 之后天天 is no 后天 (the day after tomorrow): the new bedtime holds from now
        ("我一般十一点就睡了", "换到新项目组之后天天凌晨两点才睡"),
        ("在楼下的乐刻办了年卡", "乐刻倒闭了，重新在超级猩猩买了次卡"),
        ("my gp is Dr Okafor", "my new gp is Dr Whitfield"),
        (
            "broadband is virgin media and it drops out",
            "fibre's in, virgin's getting the boot",
        ),
    ],
)
def test_stop_47_a_later_statement_of_the_same_thing_retires_the_earlier(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "u", old, new)
    assert texts(store, "u", days=0.5) == {old}  # a fact until the later one
    assert texts(store, "u") == {new}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I work at Tesco.", "thursdays are chess club, it's mostly retired men and me lol"),
        ("so would I have to move to leeds?", "I live in York."),  # a question is no fact
        # ", the kids only watch bluey" is a clause of its own: the change names no kids
        (
            "we've booked the kids into swimming lessons at the leisure centre",
            "cancelled netflix and got disney+ instead, the kids only watch bluey anyway",
        ),
        # a dentist and a GP are both doctors; one does not replace the other
        ("my dentist is Dr Patel", "my gp is Dr Okafor"),
        ("我的牙医是黄医生", "我的家庭医生是王医生"),
        # away for a fortnight is no move
        ("sam lives in glasgow", "sam's up at his parents' in dundee for a fortnight"),
        ("我住在杭州", "救助站搬到了公园东门那边"),  # the shelter moved, not the speaker
        ("我家猫叫豆豆，三岁了", "新手机到底换不换，纠结死了"),  # 纠结死了: how torn, no death
    ],
)
def test_stop_47_a_statement_of_another_thing_leaves_the_first(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "a", old, new)
    expected = {new} if old.endswith("?") else {old, new}
    assert texts(store, "a") == expected


def test_who_cleans_finds_the_cleaner(store: MemoryStore) -> None:
    """A role slot's question words name what the role does ("Who cleans for us?")."""
    say(store, "c", "Our cleaner Maria comes on Fridays.", "We've got a new cleaner, Tomasz.")
    at = T0 + timedelta(days=5)
    found = store.context(
        "Who cleans for us?", namespace="c", basis=Basis(valid_at=at, known_at=at)
    )
    assert "Tomasz" in found
