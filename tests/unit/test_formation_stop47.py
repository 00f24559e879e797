"""Readings added in stop 47 (docs/design.md, "Memory formation"): a statement said with a
question mark, a slot's own word opening a clause, a value named before "is my favourite",
an ending used as an adjective, a Chinese name of stop characters, a day word inside another
word."""

from __future__ import annotations

from datetime import UTC, datetime

import attrs
import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.claims import claims_of
from bitemporal_core.language.slots import ClaimDraft
from bitemporal_core.language.topics import topic_terms
from bitemporal_core.language.worthiness import MEMORY, category
from bitemporal_core.services.claims import (
    Candidate,
    Mentions,
    held_keys,
    resolve,
    retired_by,
    wanted_keys,
)


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
        ("Radiohead is my favourite band", "favourite:band", "Radiohead"),
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


def test_a_chinese_name_of_stop_characters_is_a_topic() -> None:
    """吉他 (他 is a stop character) names the guitar; a key of stop characters only does not."""
    assert topic_terms(["吉他"]) == {"吉他"}
    assert topic_terms(["现在"]) == set()
    assert "学吉" in topic_terms(["学吉他"])


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("换到新项目组之后天天凌晨两点才睡", 2),
        ("以前天天加班", 2),
        ("如今天天在家", 2),
        ("后天去北京", 4),
        ("所以前天我去了医院", 31),  # 以 before 前天 and no 天 after it: a day
        ("比如今天我就没去健身房", 2),
    ],
)
def test_a_day_word_inside_another_word_is_no_date(text: str, day: int) -> None:
    said = datetime(2024, 1, 2, 9, 0, tzinfo=UTC)
    start, _ = Analyser().valid_time(text, said, None, None)
    assert start.day == day


def test_a_statement_no_slot_reads_is_found_by_the_slot_of_the_one_before() -> None:
    """ "I moved to Leeds last week! The flat is tiny": "Where do I live?" finds the second
    statement too; one with a slot of its own keeps its own words."""
    moved, flat = Analyser().analyse("I moved to Leeds last week! The flat is tiny but I love it.")
    assert "live" in dict(moved.terms) and "live" in dict(flat.terms)
    _, work = Analyser().analyse("I moved to Leeds last week! I work at Asda now.")
    assert "live" not in dict(work.terms)


def test_a_role_keyed_claim_meets_one_held_before_roles_were_kept_apart() -> None:
    """A store written before `role_keys` holds "my gp is ..." under the plain slot; "my new
    gp is ..." (doctor:gp) still replaces it, and asks for it by that slot's key."""
    (sentence,) = default_extractor().sentences("my new gp is Dr Whitfield")
    (draft,) = [d for d in claims_of(sentence.text, sentence.tokens) if d.slot.startswith("doc")]
    new = resolve(draft, speaker=None, mentions=Mentions(), context=[])
    old = attrs.evolve(new, slot="doctor", value="Dr Okafor", keys=("okafor",))
    assert new.slot == "doctor:gp"
    assert retired_by(new, [Candidate(fact_id="1", claim=old, recorded=1.0)]) == ["1"]
    assert set(held_keys(old)) & set(wanted_keys(new))
    dentist = attrs.evolve(old, slot="doctor:dentist")
    assert retired_by(new, [Candidate(fact_id="2", claim=dentist, recorded=1.0)]) == []


def test_a_claim_held_before_roles_keeps_the_role_its_phrasing_named() -> None:
    """A GP stored under the plain slot is not replaced by a new dentist, and a topic that
    names doctors finds a role's claim by its slot."""
    (sentence,) = default_extractor().sentences("my new dentist is Dr Shah")
    (draft,) = [d for d in claims_of(sentence.text, sentence.tokens) if d.slot.startswith("doc")]
    dentist = resolve(draft, speaker=None, mentions=Mentions(), context=[])
    gp = attrs.evolve(dentist, slot="doctor", rule="slot:doctor 'gp is {v}'", keys=("okafor",))
    assert dentist.slot == "doctor:dentist"
    assert retired_by(dentist, [Candidate(fact_id="1", claim=gp, recorded=1.0)]) == []
    keyed = attrs.evolve(dentist, slot="doctor:gp")
    assert any(k.endswith("s:doctor") for k in held_keys(keyed))


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("I registered with a new dentist, Dr Shah", "doctor:dentist"),
        ("我的牙医是黄医生", "doctor:dentist"),
        ("换了个心理医生", "doctor:therapist"),
        ("保洁阿姨是张阿姨", "dog_walker:cleaner"),
    ],
)
def test_a_role_is_read_from_the_phrasing_and_the_value(text: str, slot: str) -> None:
    (sentence,) = default_extractor().sentences(text)
    slots = [d.slot for d in claims_of(sentence.text, sentence.tokens)]
    assert slot in slots and not [
        s for s in slots if s.startswith(slot.partition(":")[0] + ":") and s != slot
    ]


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("I've just resigned today", True),  # "today" is no noun an ending describes
        ("我的狗前天突然死了", True),  # an adverb before 死了 is no degree
        ("纠结死了", False),
    ],
)
def test_an_ending_after_an_adverb(text: str, ends: bool) -> None:
    (sentence,) = default_extractor().sentences(text)
    drafts = claims_of(sentence.text, sentence.tokens)
    assert any(not d.positive and d.slot not in ("about", "topic") for d in drafts) == ends


def test_a_question_after_a_filler_word_is_a_question() -> None:
    assert category("so has my dentist retired?") == "question"
    assert category("and is my sister still living in Berlin?") == "question"


def test_a_verb_with_a_place_suffix_is_no_thing() -> None:
    """出院 (discharged) ends in 院 but is the speaker's doing; 救助站 is a thing."""
    for text in ("我出院以后搬到了苏州", "出院以后搬到了苏州"):
        (sentence,) = default_extractor().sentences(text)
        assert [d.slot for d in claims_of(sentence.text, sentence.tokens)].count("residence") == 1
    (sentence,) = default_extractor().sentences("救助站搬到了公园东门那边")
    assert "residence" not in [d.slot for d in claims_of(sentence.text, sentence.tokens)]
