"""Memory formation on every engine, stop 59's rules (docs/design.md, "Memory formation"):
what was said of a relative before they were named is theirs once named ("my brother" then
"my brother Callum"); a colleague after the speaker's group (我们组小吴) is who a clause is
about; a name followed by 那边 is where something happens, not who does it; a clause told
in a past frame said with 时 (大学时) is a past state; a stop said with no subject (芭蕾课停了)
reaches the one relative the statement names; 没换 changes nothing; and the readings added."""

from __future__ import annotations

import pytest

from bitemporal_core import MemoryStore

from ._said import say, texts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # said of "my brother" before he was named: his, once he is named
        (
            "my brother has been going out with Priya since the spring",
            "my brother Callum is with Sofia now, they met on a ski trip",
        ),
        # a colleague after the speaker's group is the subject, not the speaker
        ("我们部门老刘一直住在顺义，每天开车两个小时", "老刘搬到望京了，说再也不想堵车了"),
        # what stopped at someone's (周医生那边) is the speaker's
        ("这个月约了和睦家的周医生做康复", "周医生那边停了，现在去社区医院做康复"),
        # the readings added
        ("been on lisinopril 10mg since march", "the GP bumped the lisinopril up to 20mg"),
        ("my daughter goes to bed at 8 on school nights", "we've moved her bedtime to 8:30"),
        ("usual order at the kiosk: a small cappuccino", "I'm on oat lattes these days"),
        ("我爸一直在五中教书，住在学校旁边", "我爸还在城南"),
        # a stop said with no subject reaches the one relative the statement names
        ("女儿每周三上芭蕾课，回来腿都是酸的", "芭蕾课停了，女儿说太累，换成了画画"),
        # a salary said as an amount after 现在
        ("每个月工资七千五", "涨薪了，现在九千"),
        # a name of two glued to 在 by the segmenter
        ("我室友筱筱在厦门上班", "筱筱辞职去福州了"),
    ],
)
def test_a_later_statement_retires_the_earlier(store: MemoryStore, old: str, new: str) -> None:
    say(store, "u", old, new)
    current = texts(store, "u")
    assert old not in current and current


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a job recalled from student days (大学时) is a past state: the job now stands
        ("我在一家物流公司做调度", "想起大学时在麦当劳打工，一小时九块钱"),
        # 老刘 is the colleague, so the speaker's home stands
        ("我住在通州", "我们组老刘搬到大兴了"),
        # 没换: no change
        ("我的手机卡是联通的", "我妈的手机卡也是联通的，她一直没换"),
    ],
)
def test_a_later_statement_leaves_the_earlier(store: MemoryStore, old: str, new: str) -> None:
    say(store, "u", old, new)
    assert old in texts(store, "u")
