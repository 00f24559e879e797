"""Readings added in stop 56 (docs/design.md, "Memory formation"): a phrasing word written as
a past form is not a noun or an adjective of the same stem ("booked" is not "on the books",
"separated" not "separate"); "ported across", "X is disconnected", "last day with X" and
"we're officially X residents" are read; a verbless fragment that says something holds on
("Still at the Crown.") is a statement of its own; and in Chinese a value that starts with an
adverb (也没续) is none, and a common noun that opens with a surname (王者, 高铁) is no one."""

from __future__ import annotations

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.analysis import statement_spans
from bitemporal_core.language.people_zh import zh_subject

from ._readings import drafts as _drafts
from ._readings import rows
from ._readings import zh_drafts as _zh


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I ported my number across to EE", ("speaker", "", "phone_contract", "ee", True)),
        ("we're finally Leith residents", ("speaker", "", "residence", "leith", True)),
        ("we are Leith residents now", ("speaker", "", "residence", "leith", True)),
        ("Sky is disconnected at last", ("speaker", "", "any", "sky", False)),
        ("last day with Rosa was Monday", ("speaker", "", "any", "rosa", False)),
        ("we separated in May", ("speaker", "", "relationship", "", False)),
        ("I booked a cottage in Skye", ("speaker", "", "trip", "cottage", True)),
    ],
)
def test_reads(text: str, expected: tuple[str, str, str, str, bool]) -> None:
    assert expected in rows(_drafts(text), lower=True)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I'm on the books at a temp agency in Leeds", "trip"),  # "books" is no "booked"
        ("our bank accounts are separate", "relationship"),  # "separate" is no "separated"
    ],
)
def test_does_not_read(text: str, slot: str) -> None:
    assert slot not in {d.slot for d in _drafts(text)}


def test_a_fragment_that_holds_on_is_its_own_statement() -> None:
    text = "We moved pub quiz to Fridays. Still at the Crown."
    spans = statement_spans(text, default_extractor().sentences(text))
    assert [t for t, _ in spans] == ["We moved pub quiz to Fridays.", "Still at the Crown."]
    plain = "Seeing a physio on Mondays. Knee stuff mostly."
    assert len(statement_spans(plain, default_extractor().sentences(plain))) == 1


def test_an_adverb_is_no_value_zh() -> None:
    assert all(not d.value.startswith("也") for d in _zh("听书会员也没续"))
    assert ("speaker", "", "gym", "乐刻", True) in rows(_zh("我在乐刻办了张月卡"), lower=True)


@pytest.mark.parametrize("head", ["王者", "高铁", "周会"])
def test_a_common_noun_is_no_name_zh(head: str) -> None:
    assert zh_subject(head) is None


@pytest.mark.parametrize("head", ["王芳", "陈浩", "刘洋"])
def test_a_name_is_one_zh(head: str) -> None:
    assert zh_subject(head) == ("person", head)
