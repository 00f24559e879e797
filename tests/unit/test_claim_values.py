"""Where a claim's value ends, which slot a shared phrasing fills, and who a clause is about
(docs/design.md, "Memory formation": the stop 40 additions)."""

from __future__ import annotations

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.claims import claims_of
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.people import mentioned
from bitemporal_core.language.slots import ClaimDraft


def _claims(text: str) -> list[ClaimDraft]:
    (sentence,) = default_extractor().sentences(text)
    return [d for d in claims_of(sentence.text, sentence.tokens) if d.rule.startswith("slot:")]


def _slots(text: str) -> list[tuple[str, str, str, str, bool, bool]]:
    return [(d.slot, d.value, d.subject_kind, d.subject, d.positive, d.past) for d in _claims(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a time word after the value ends it
        ("I started at Google today.", ("employer", "Google", "speaker", "", True, False)),
        # "today was" is no past state
        (
            "Served my notice and today was day one at Ocado.",
            ("employer", "Ocado", "speaker", "", True, False),
        ),
        # a particle between the verb and its place
        (
            "My sister lives up in Glasgow with her two cats.",
            ("residence", "Glasgow", "relation", "sister", True, False),
        ),
        # a phrasing three slots share takes a brand for the brand's own slot
        (
            "Current account switch to Starling went through this week.",
            ("bank", "Starling", "speaker", "", True, False),
        ),
        ("I switched to the Pixel 8.", ("phone_model", "Pixel 8", "speaker", "", True, False)),
        (
            "I switched to Greenfield Academy.",
            ("school", "Greenfield Academy", "speaker", "", True, False),
        ),
        ("The Barclays account is closed now.", ("bank", "Barclays", "speaker", "", False, False)),
    ],
)
def test_english_values_slots_and_tense(
    text: str, expected: tuple[str, str, str, str, bool, bool]
) -> None:
    assert _slots(text) == [expected]


def test_a_value_inside_a_phrasing_ends_at_its_next_word_unless_a_name_goes_on() -> None:
    assert [d.value for d in _claims("Sam's flogged all his fishing gear on eBay")] == ["fishing"]
    assert [d.value for d in _claims("Tom goes to Greenfield Academy")] == ["Greenfield Academy"]


@pytest.mark.parametrize(
    ("text", "mentions"),
    [
        ("Big news: sis finally moved down south.", ["relation:sister"]),
        ("mum's retiring next year", ["relation:mum"]),
        ("My sister moved down south.", ["relation:sister"]),
        ("Jake's mum is a nurse.", ["person:jake"]),  # someone else's
        ("His dad moved to Spain.", []),
        ("Thanks bro", []),
        ("I love a dad joke.", []),
    ],
)
def test_a_word_only_a_relative_is_called_is_a_relative_as_a_subject(
    text: str, mentions: list[str]
) -> None:
    (sentence,) = default_extractor().sentences(text)
    assert mentioned(sentence.tokens) == mentions


def test_a_chinese_negation_that_says_what_goes_wrong_without_it_is_a_habit() -> None:
    (habit, *_) = claims_zh("我每天晚上不喝两瓶啤酒睡不着")
    assert (habit.slot, habit.positive) == ("alcohol", True)
    (quit, *_) = claims_zh("我不喝酒")
    assert (quit.slot, quit.positive) == ("alcohol", False)
    (reason, *_) = claims_zh("我晚上不喝啤酒因为喝了睡不着")  # a reason: the negation stands
    assert (reason.slot, reason.positive) == ("alcohol", False)


def test_a_chinese_phrasing_marked_for_the_speaker_is_not_the_clause_befores() -> None:
    manager = [d for d in claims_zh("老周调去深圳分公司了，新来的领导姓孙") if d.slot == "manager"]
    assert [(d.value, d.subject_kind) for d in manager] == [("孙", "speaker")]
    commute = [d for d in claims_zh("现在每天骑电驴上下班了") if d.slot == "commute"]
    assert [d.value for d in commute] == ["电驴"]


def test_a_lowercase_run_that_opens_with_an_adjective_names_no_one() -> None:
    """The tagger reads "new sim" as a name; the number after it is the speaker's."""
    (sentence,) = default_extractor().sentences("new sim arrived, it's 07700 900877 from today")
    drafts = [d for d in claims_of(sentence.text, sentence.tokens) if d.slot == "phone_number"]
    assert [(d.subject_kind, d.value) for d in drafts] == [("speaker", "07700 900877")]
    assert _slots("amy's moved to leeds")[0][2:4] == ("person", "amy")  # still a name


def test_a_date_moved_by_an_everyday_verb() -> None:
    assert _slots("the surgery rang, they've shoved me back to the 21st") == [
        ("event_date", "21st", "speaker", "", True, False)
    ]


def test_a_chinese_value_known_by_its_shape() -> None:
    """A phone number with no phrasing before it, and one after a phrasing, whole."""
    new = claims_zh("换号了啊，新的是199 2803 6617，之前那个过几天就停机了")
    assert [(d.slot, d.value, d.rule) for d in new if d.slot == "phone_number"] == [
        ("phone_number", "199 2803 6617", "shape:phone_number")
    ]
    old = claims_zh("我手机号138 0571 2246，快递啥的填这个就行")
    assert [d.value for d in old if d.slot == "phone_number"] == ["138 0571 2246"]
    for text in ("会议改到2024-05-01", "首付交了1200000", "订单号是20240501123"):
        assert not [d for d in claims_zh(text) if d.slot == "phone_number"]
    assert [d.value for d in claims_zh("座机换成了021-64381234") if d.slot == "phone_number"] == [
        "021-64381234"
    ]
    again = claims_zh("再发一遍我号码哈，138 0571 2246，别记错了")  # the same number: one key
    assert [d.keys for d in (*old, *again) if d.slot == "phone_number"] == [("13805712246",)] * 2


def test_reporting_at_a_new_employer_in_chinese() -> None:
    found = claims_zh("跳槽成功 下周一去字节报到")
    assert [(d.slot, d.value) for d in found if d.slot == "employer"] == [("employer", "字节")]
    assert not [d for d in claims_zh("明天去学校报到") if d.slot == "employer"]
