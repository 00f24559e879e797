"""Readings added in stop 49 (docs/design.md, "Memory formation"): "couldn't" is no wish, a
contact said under a condition is still theirs, a brand is no owner of a number, broad
phrasings want their value's shape (a salary money, a title a word, an ending no count of
times, a hobby "into" after a verb of being), a time frame ends a value, a break-up said
with "n", being officially together, a wedding's date, someone dropped off (no ending), a
single letter (no name); in Chinese a one-character phrasing inside a word (开学, 干练), the
one moved by 把, a state stopped right after it (生酮我不搞了); what a message says goes on
as it was."""

from __future__ import annotations

import pytest

from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.clauses import timed_text
from bitemporal_core.language.continued import continued, names_any
from bitemporal_core.language.people_zh import zh_subject

from ._readings import drafts as _drafts
from ._readings import zh_drafts as _zh


@pytest.mark.parametrize(
    "text",
    [
        "lost my phone and ee couldnt port the old number over so the new one is 07700 900873",
        "if the buzzer's dead tell the courier to text 07700 900412",
        "if you need anything call me on 07700 900111",
    ],
)
def test_a_number_said_with_could_not_or_under_a_condition_is_theirs(text: str) -> None:
    (number,) = _drafts(text)
    assert number.slot == "phone_number"
    assert (number.subject_kind, number.tentative) == ("speaker", False)


def test_a_number_said_with_a_wish_stays_tentative() -> None:
    (number,) = _drafts("if I move I would get a new number 07700 900333")
    assert number.tentative


@pytest.mark.parametrize(
    "text",
    [
        "we're tapering now, down to 25mg on the sertraline from monday",  # no salary
        "gp bumped me up to 100 on the sertraline",  # no job title
        "bt broadband dropped 4 times during one episode",  # no ending
        "i'm going to scream into a pillow",  # no hobby
    ],
)
def test_a_broad_phrasing_wants_its_values_shape(text: str) -> None:
    assert _drafts(text) == []


def test_a_hobby_one_is_into() -> None:
    (hobby,) = _drafts("my son is into dinosaurs")
    assert (hobby.slot, hobby.value, hobby.subject) == ("hobby", "dinosaurs", "son")


def test_a_time_frame_ends_a_value() -> None:
    (ended,) = _drafts("we had to say goodbye to biscuit this morning")
    assert (ended.value, ended.positive) == ("biscuit", False)


def test_a_break_up_said_with_n_and_being_officially_together() -> None:
    (ended,) = _drafts("so me n tom have called it off")
    assert (ended.slot, ended.value, ended.positive) == ("relationship", "Tom", False)
    (together,) = _drafts("we're officially together as of sunday")
    assert (together.slot, together.value) == ("relationship", "in a relationship")


def test_a_weddings_date() -> None:
    (date,) = _drafts("my wedding is next saturday")
    assert (date.slot, date.value) == ("event_date", "next saturday")


@pytest.mark.parametrize("text", ["九月开学", "她是小学老师", "看着挺干练的"])
def test_zh_a_one_character_phrasing_inside_a_word_is_none(text: str) -> None:
    assert [d for d in _zh(text) if d.slot == "hobby"] == []


def test_zh_the_one_moved_by_ba() -> None:
    assert zh_subject("只好把朵朵") == ("person", "朵朵")
    assert zh_subject("把奶奶") == ("relation", "奶奶")
    assert zh_subject("第一天就把周会") != ("person", "周会")  # a meeting
    assert zh_subject("开学我们给豆豆") == ("person", "豆豆")
    assert zh_subject("我给老板发了") != ("relation", "老板")  # not the boss's letter


def test_zh_a_state_stopped_right_after_it() -> None:
    (diet,) = _zh("生酮我不搞了")
    assert (diet.slot, diet.positive) == ("diet", False)


def test_what_a_message_says_goes_on() -> None:
    said = "work handed me an iphone 15. the pixel stays my personal one"
    assert continued(said, "en") == {"pixel"}
    assert continued("the ma carries on as normal", "en") == {"ma"}
    assert continued("新买了个手机 旧手机还留着当备用机", "zh") == {"手机"}
    assert names_any("use marco@gmail.com for it", frozenset({"gmail"}))
    assert not names_any("heritage management", frozenset({"ma"}))


@pytest.mark.parametrize(
    "text", ["dropped ollie at little acorns and he didnt cry", "dropped the car off at the garage"]
)
def test_dropping_someone_off_ends_nothing(text: str) -> None:
    assert [d for d in _drafts(text) if not d.positive] == []


def test_dropping_a_thing_still_ends_it() -> None:
    (ended,) = _drafts("dropped the gym membership")
    assert (ended.value, ended.positive) == ("gym membership", False)


def test_a_single_letter_is_no_ones_name() -> None:
    text = (
        "smile studio's gone private only so i jumped ship. registered w the nhs dentist by"
        " the library, hollybank dental, first appt is next month"
    )
    subjects = {d.subject for st in Analyser().analyse(text, "en") for d in st.claims}
    assert "w" not in subjects


def test_a_stay_is_nothing_going_on_as_it_was() -> None:
    assert continued("my sister stays with us now", "en") == frozenset()


@pytest.mark.parametrize(
    ("text", "chinese", "dated"),
    [
        ("using the new number now, the old one stops next month", False, False),
        ("现在用199 2176 8830这个 老号下个月停机", True, False),
        ("I am at Google now, starting at Meta next month", False, True),
    ],
)
def test_a_clause_that_says_now_keeps_a_later_ending_from_dating_it(
    text: str, chinese: bool, dated: bool
) -> None:
    timed = timed_text(text, chinese=chinese)
    assert len(timed) == len(text)
    assert (("next month" in timed) or ("下个月" in timed)) == dated


@pytest.mark.parametrize(
    ("text", "slot", "value", "positive"),
    [
        ("I don't have any pets.", "pet", "pets", False),
        ("My son is at Oakwood Primary.", "school", "Oakwood Primary", True),
        ("My dad's phone is with O2.", "phone_contract", "O2", True),
        ("got dad onto Giffgaff, saves him 20 quid a month", "phone_contract", "Giffgaff", True),
        ("Keto is dead to me.", "any", "Keto", False),
    ],
)
def test_short_first_statements_and_endings(
    text: str, slot: str, value: str, positive: bool
) -> None:
    found = [d for d in _drafts(text) if d.slot == slot]
    assert [(d.value, d.positive) for d in found] == [(value, positive)]


def test_zh_a_negation_the_segmenter_joins_to_the_verb() -> None:
    (pets,) = _zh("我没养宠物。")
    assert (pets.slot, pets.positive) == ("pet", False)


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [("我最爱吃火锅。", "favourite:", "火锅"), ("终于在苏州安顿下来了", "residence", "苏州")],
)
def test_zh_short_first_statements(text: str, slot: str, value: str) -> None:
    assert [(d.slot, d.value) for d in _zh(text)] == [(slot, value)]
