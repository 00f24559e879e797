"""Readings added in stop 47 (docs/design.md, "Memory formation"): a statement said with a
question mark, a slot's own word opening a clause, a value named before "is my favourite",
an ending used as an adjective, and a Chinese statement whose subject is the one before."""

from __future__ import annotations

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.claims import claims_of
from bitemporal_core.language.slots import ClaimDraft
from bitemporal_core.language.worthiness import MEMORY, category


def _drafts(text: str) -> list[ClaimDraft]:
    (sentence,) = default_extractor().sentences(text)
    return list(claims_of(sentence.text, sentence.tokens))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("i've been veggie since first year of uni so like 9 years?", MEMORY),
        ("so hanna is a ward manager now??", MEMORY),
        ("turns out im also allergic to kiwi??", MEMORY),
        ("HE'S ENGAGED?!?", MEMORY),
        ("you're coming tonight?", "question"),  # asks the one spoken to
        ("so would I have to relocate for it?", "question"),  # "would I"
        ("anyone used giffgaff?", "question"),
        ("Is it raining in Leeds?", "question"),
        ("my sister moved to berlin or bonn?", "question"),  # "or": a choice asked
    ],
)
def test_a_statement_said_with_a_question_mark_is_still_one(text: str, kind: str) -> None:
    assert category(text) == kind


def test_a_slots_own_word_opening_a_clause_is_no_ones_name() -> None:
    """ "gym is the puregym" (truecased "Gym") is the speaker's gym, not a person's."""
    (gym,) = [d for d in _drafts("gym is the puregym on london road") if d.slot == "gym"]
    assert (gym.subject_kind, gym.subject, gym.value) == ("speaker", "", "puregym")
    (job,) = [d for d in _drafts("Jake works at Google") if d.slot == "employer"]
    assert (job.subject_kind, job.subject) == ("person", "jake")


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        (
            "the secret history is my favourite book, i reread it every autumn",
            "favourite:book",
            "secret history",
        ),
        ("Radiohead is my fave band", "favourite:band", "Radiohead"),
        ("my fave band is Radiohead", "favourite:band", "Radiohead"),
    ],
)
def test_a_favourite_named_before_its_phrasing_is_keyed_by_the_noun_after(
    text: str, slot: str, value: str
) -> None:
    assert [(d.slot, d.value) for d in _drafts(text) if d.slot.startswith("favourite")] == [
        (slot, value)
    ]


def test_an_ending_used_as_an_adjective_ends_nothing() -> None:
    assert not [d for d in _drafts("it's mostly retired men and me lol") if not d.positive]
    assert not [d for d in _drafts("my divorced parents live apart") if not d.positive]
    (ended,) = [d for d in _drafts("dad retired in may") if d.slot == "employer"]
    assert not ended.positive


def test_a_chinese_statement_naming_no_one_is_about_the_one_before() -> None:
    """我姐搬家了！现在住在上海: the second statement drops its subject, the sister."""
    _, second = Analyser().analyse("我姐又搬家了！现在住在上海")
    (moved,) = [d for d in second.claims if d.slot == "residence"]
    assert (moved.subject_kind, moved.subject) == ("relation", "姐姐")
    (own,) = [
        d for d in Analyser().analyse("我住在杭州，离公司近")[0].claims if d.slot == "residence"
    ]
    assert own.subject_kind == "speaker"
