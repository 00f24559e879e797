"""Memory formation on every engine, stop 49's rules (docs/design.md, "Memory formation"):
an ending said of someone by name reaches a fact of the speaker's that names both; a value
before a time frame; a gym or a carrier by its family; a number said under a condition; a
break-up said with "n"; a state stopped right after it (生酮我不搞了); the one moved by 把;
and what a message says goes on as it was retires nothing it names."""

from __future__ import annotations

import pytest

from bitemporal_core import MemoryStore

from ._said import say, texts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "at the fleece watching ravi drum for the spitting images",
            "ravi's quit the spitting images",
        ),
        (
            "my old lab biscuit wakes me at 6am every sunday",
            "we had to say goodbye to biscuit this morning",
        ),
        ("puregym is always rammed at 6pm", "i'm all in on the bouldering place on cable st now"),
        ("me n tom are dating", "me n tom have called it off"),
        (
            "if the buzzer's dead tell the courier to text 07700 900412",
            "ee couldnt port the old number over so the new one is 07700 900873",
        ),
        ("我最近在搞生酮，早饭就是黄油咖啡", "生酮我不搞了，现在正常吃饭"),
        ("电信宽带又掉线了，打游戏延迟四百多", "换移动了，师傅刚装完"),
        ("朵朵在街道那个公办幼儿园上中班", "私立那家暴雷了，只好把朵朵转到小区里那家普惠园"),
    ],
)
def test_stop_49_a_later_statement_of_the_same_thing_retires_the_earlier(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "u", old, new)
    assert texts(store, "u", days=0.5) == {old}
    assert new in texts(store, "u")
    assert old not in texts(store, "u")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "my pixel 7 has a cracked screen",
            "work gave me an iphone 15 for on-call, the pixel stays my personal one",
        ),
        (
            "use marco.bellini@gmail.com for the booking",
            "set up orders@bellinibakes.co.uk for the cake business! gmail stays my personal one",
        ),
    ],
)
def test_stop_49_what_a_message_says_goes_on_is_not_retired(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "a", old, new)
    assert old in texts(store, "a")
