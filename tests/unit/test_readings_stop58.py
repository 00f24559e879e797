"""Readings added in stop 58 (docs/design.md, "Memory formation"): a perfect that lasts till
now ("I've lived here for ten years") is no past state; a title said with capitals ("I'm
Support Lead", "Officially Account Manager") is read; "as" is not stemmed to "a" ("start a
band" is no "started as"); a relative who owns the value said before an ending is its owner
("my brother's gig is off"), and one who owns what "for" names is no subject ("for my dad's
birthday"); "working long hours as", "I'm on £X", "handed the X role over", "walked out
of X", "on 1 till 9 lates" and "X is on hold" are read, and the club someone plays for is a
slot of its own. In Chinese 又 before 转到 is "again", 转到X去了 is X, 第三年 is no part of
a value, 组长是 and 阿姨是 are the speaker's unless the clause names someone, a card not
renewed ends a gym, 在X看牙 reads a dentist, and a time after 一到 ("whenever it is") dates
nothing. A change said with 现在 of a thing a fact holds (花卷现在天天追着它跑) leaves the
fact that holds it."""

from __future__ import annotations

from datetime import UTC, datetime

import attrs
import pytest

from bitemporal_core.language.temporal import chinese_hits
from bitemporal_core.model import Claim
from bitemporal_core.services.claims import Candidate, retired_by

from ._readings import drafts as _drafts
from ._readings import rows
from ._readings import zh_drafts as _zh


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm on £41k as a team lead", ("speaker", "", "salary", "£ 41k", True)),
        (
            "Priya is working crazy hours as head of sales at Finch",
            ("person", "priya", "job_title", "head of sales", True),
        ),
        ("handed the secretary role over to Gwen", ("speaker", "", "any", "secretary", False)),
        ("Spanish is on hold till the summer", ("speaker", "", "any", "spanish", False)),
        ("my brother's gig is off", ("relation", "brother", "any", "gig", False)),
        ("Doing the keto diet again", ("speaker", "", "diet", "keto", True)),
        ("Officially Account Manager!", ("speaker", "", "job_title", "account manager", True)),
        (
            "from Monday I'm Customer Success Lead",
            ("speaker", "", "job_title", "customer success lead", True),
        ),
        ("we signed a two year lease in Bilbao", ("speaker", "", "residence", "bilbao", True)),
        (
            "my niece plays for Hartley Rovers",
            ("relation", "niece", "plays_for", "hartley rovers", True),
        ),
        ("Sol walked out of Greggs on Friday", ("person", "sol", "any", "greggs", False)),
        ("I'm on 1 till 9 lates next month", ("speaker", "", "work_schedule", "lates", True)),
    ],
)
def test_reads(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in rows(_drafts(text), lower=True)


def test_a_lasting_perfect_is_no_past_state() -> None:
    now = [d for d in _drafts("I've lived in Derby for about nine years") if d.slot == "residence"]
    assert now and not any(d.past for d in now)
    then = [d for d in _drafts("I lived in Derby for about nine years") if d.slot == "residence"]
    assert then and all(d.past for d in then)


def test_as_is_no_article() -> None:
    assert "job_title" not in {d.slot for d in _drafts("Ollie wants to start a choir at work")}
    assert ("speaker", "", "job_title", "junior editor", True) in rows(
        _drafts("I started as a junior editor"), lower=True
    )


def test_for_whom_skips_an_owner() -> None:
    learning = [d for d in _drafts("Learning Italian for my wife's family") if d.slot == "hobby"]
    assert [(d.subject_kind, d.value) for d in learning] == [("speaker", "Italian")]


def test_again_is_no_addition_zh() -> None:
    moved = [d for d in _zh("我表妹又转到法学去了") if d.slot == "school"]
    assert [(d.value, d.additive) for d in moved] == [("法学", False)]


def test_a_year_count_is_no_value_zh() -> None:
    assert ("speaker", "", "hobby", "韩语", True) in rows(_zh("我学韩语第二年了"))


def test_a_role_of_the_speaker_zh() -> None:
    assert ("speaker", "", "manager", "老陆", True) in rows(_zh("老郑调走了，现在组长是老陆"))
    assert ("relation", "姐姐", "manager", "老陆", True) in rows(_zh("我姐的组长是老陆"))


def test_a_dentist_where_teeth_are_seen_to_zh() -> None:
    assert ("speaker", "", "doctor:dentist", "市口腔医院", True) in rows(
        _zh("我一直在市口腔医院看牙")
    )


def test_a_club_played_for_is_named() -> None:
    assert "plays_for" not in {d.slot for d in _drafts("I mostly play for fun")}


def test_a_card_not_renewed_ends_a_gym_zh() -> None:
    assert any(d.slot == "gym" and not d.positive for d in _zh("那家的卡我没续，太远了"))


def test_a_points_scheme_is_no_gym_zh() -> None:
    assert "gym" not in {d.slot for d in _zh("我在做商城的会员积分系统")}


def test_a_time_that_comes_round_is_no_date_zh() -> None:
    at = datetime(2024, 5, 1, tzinfo=UTC)
    assert chinese_hits("一到十月景区全是人", at) == []
    assert chinese_hits("我请假到十月", at)  # "until October" still dates the leave


def _claim(slot: str, value: str, keys: tuple[str, ...], rule: str) -> Claim:
    return Claim(subject="speaker:", slot=slot, value=value, keys=keys, single=False, rule=rule)


def test_a_change_said_of_a_held_thing_leaves_its_holding_zh() -> None:
    """花卷现在天天追着它跑 says what the cat does now: the cat goes on, so 我家有只猫叫花卷
    stands; 花卷送人了 ends it."""
    held = [
        Candidate(fact_id="1", claim=_claim("pet", "花卷", ("花卷",), "slot:pet"), recorded=1),
        Candidate(fact_id="1", claim=_claim("about", "", ("花卷", "猫叫"), "about"), recorded=1),
    ]
    now = _claim("topic", "花卷现在天天追着它跑", ("花卷", "天天"), "topic: '现在'")
    now = attrs.evolve(now, mode="replace")
    assert retired_by(now, held) == []
    assert retired_by(attrs.evolve(now, rule="topic: '送人'"), held) == ["1"]
