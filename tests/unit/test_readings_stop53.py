"""Readings added in stop 53 (docs/design.md, "Memory formation"): a dose, read only as a
medicine's and never as a job title or a salary; a medicine named after a verb the tagger
took it for; "seeing" a partner only as "seeing", not "I see"; a verb said of a third person
is no value ("the contract runs out"); a future clause after one that says now dates nothing; a
lead-in without a verb joins the sentence after it; a relative's name is no brand; a
relative named without "my" is that person; "when" opening a statement asks nothing; a
Chinese phrasing does not run on into a longer word; and new phrasings (a resident of a
city, a mobile moved to a carrier, a gym or a therapist called by name, a house that belongs
to a landlord, a salary paid into a bank, never going back to a place, 新房东是 the speaker's,
工资打到 a bank, 婚不结了 an ending)."""

from __future__ import annotations

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.analysis import statement_spans
from bitemporal_core.language.clauses import timed_text
from bitemporal_core.language.slots import ClaimDraft, dose_only
from bitemporal_core.language.worthiness import MEMORY, category

from ._readings import drafts as _drafts
from ._readings import rows
from ._readings import zh_drafts as _zh


def _read(drafts: list[ClaimDraft]) -> list[tuple[str, str, str, str, bool]]:
    return rows(drafts, lower=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the consultant bumped me up to 150mg", ("speaker", "", "medication", "150 mg", True)),
        (
            "started citalopram 10mg on monday",
            ("speaker", "", "medication", "citalopram 10 mg", True),
        ),
        ("I'm taking 25mg now", ("speaker", "", "medication", "25 mg", True)),
        ("I'm a Cardiff resident now", ("speaker", "", "residence", "cardiff", True)),
        ("moved my mobile to Sky last week", ("speaker", "", "phone_contract", "sky", True)),
        ("trying a gym called Crux near work", ("speaker", "", "gym", "crux", True)),
        ("found a therapist called Omar", ("speaker", "", "doctor:therapist", "omar", True)),
        (
            "the flat belongs to Tenfold Estates",
            ("speaker", "", "landlord", "tenfold estates", True),
        ),
        ("my salary goes into Revolut from this month", ("speaker", "", "bank", "revolut", True)),
        ("I'm not renewing judo", ("speaker", "", "hobby", "judo", False)),
        ("I'm seeing Kofi now", ("speaker", "", "relationship", "kofi", True)),
        ("never going back to Sharp Cuts", ("speaker", "", "any", "sharp cuts", False)),
        ("we leased a Kia in March", ("speaker", "", "car", "kia", True)),
    ],
)
def test_reads(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_drafts(text))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("they bumped me up to 200mg", "job_title"),  # a dose, no job title
        ("they bumped me up to 200mg", "salary"),
        ("we started online classes", "medication"),  # no dose, no medicine
        ("I see my nan most sundays", "relationship"),  # "see", not "seeing"
        ("our lease runs out at Easter", "car"),  # a noun "lease", a verb "runs"
    ],
)
def test_does_not_read(text: str, slot: str) -> None:
    assert slot not in {d.slot for d in _drafts(text)}


def test_a_job_title_is_still_read_after_bumped_up() -> None:
    assert ("speaker", "", "job_title", "senior nurse", True) in _read(
        _drafts("they bumped me up to senior nurse")
    )


def test_a_dose_alone() -> None:
    assert dose_only("75 mg") and dose_only("2.5mg")
    assert not dose_only("sertraline 50 mg") and not dose_only("75")


def test_a_future_clause_after_now_dates_nothing() -> None:
    said = "I'm on the 20mg dose now and we'll check again in March"
    assert "March" not in timed_text(said, chinese=False)
    assert "March" in timed_text("I moved in March and we'll paint in May", chinese=False)
    kept = "at the bank now, starting at the council next month"
    assert timed_text(kept, chinese=False) == kept  # no 'will': still dated


def test_a_lead_in_without_a_verb_joins_the_next_sentence() -> None:
    text = "funnily enough back in sixth form i worked weekends at a garden centre"
    sentences = default_extractor().sentences(text)
    assert [t for t, _ in statement_spans(text, sentences)] == [text]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("老张把房子卖了，新房东是个退休老师", ("speaker", "", "landlord", "个退休老师", True)),
        ("上个月起工资打到建行了", ("speaker", "", "bank", "建行", True)),
        ("表姐的婚不结了", ("relation", "表姐", "relationship", "", False)),
    ],
)
def test_reads_zh(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in _read(_zh(text))


def test_a_relatives_name_is_no_brand() -> None:
    assert "car" not in {d.slot for d in _drafts("my best mate Zoe lives round the corner")}
    assert ("speaker", "", "car", "honda jazz", True) in _read(
        _drafts("my new Honda Jazz is great")
    )


def test_a_relative_said_without_my_and_named_is_that_person() -> None:
    found = _read(_drafts("cousin Amira's party is on the 3rd of May"))
    assert [(kind, who) for kind, who, *_ in found] == [("person", "amira")]


def test_when_opening_a_statement_asks_nothing() -> None:
    said = "when the contract ends I might switch to a tablet"
    sentence = default_extractor().sentences(said)[0]
    assert category(sentence.text, sentence.tokens) == MEMORY
    asked = default_extractor().sentences("where do i renew my passport")[0]
    assert category(asked.text, asked.tokens) == "question"


def test_a_chinese_phrasing_does_not_run_on_into_a_longer_word() -> None:
    found = [(d.slot, d.value) for d in _zh("周末在楼下的陶艺工作室学拉坯")]
    assert not [slot for slot, _ in found if slot == "employer"]  # 工作室, not 在*工作
    assert ("employer", "字节") in [(d.slot, d.value) for d in _zh("我在字节工作")]


def test_an_exclamation_before_news_asks_nothing() -> None:
    said = default_extractor().sentences("did it 😅 the mortgage is with Nationwide now")[0]
    assert category(said.text, said.tokens) == MEMORY
    alone = default_extractor().sentences("did it 😅")[0]
    assert category(alone.text, alone.tokens) != MEMORY
