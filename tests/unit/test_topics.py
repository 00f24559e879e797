"""The topic rule of memory formation: a change said about the same thing as an earlier fact
retires it, for kinds of fact the slot table does not name; additions, wishes, past and
temporary states and other people's changes retire nothing (docs/design.md, "Memory
formation")."""

from __future__ import annotations

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.claims import claims_of
from bitemporal_core.language.topics import TOPIC, topic_terms
from bitemporal_core.services.claims import Candidate, Mentions, resolve, retired_by


def retired(*lines: str) -> list[int]:
    """Which earlier lines the last line retires (by index), replayed as formation does."""
    extractor = default_extractor()
    mentions, facts = Mentions(), []
    out: list[int] = []
    for n, text in enumerate(lines):
        claims = []
        for s in extractor.sentences(text):
            context = [c.key for c in s.concepts]
            drafts = claims_of(s.text, s.tokens)
            claims += [resolve(d, speaker=None, mentions=mentions, context=context) for d in drafts]
        if n == len(lines) - 1:
            for claim in claims:
                candidates = [
                    Candidate(fact_id=str(i), claim=old, recorded=float(i))
                    for i, olds in enumerate(facts)
                    for old in olds
                    if old.subject == claim.subject
                ]
                out += [int(f) for f in retired_by(claim, candidates) if int(f) not in out]
        facts.append(claims)
    return sorted(out)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My hairdresser is Sam at Cutting Edge.", "I've switched hairdressers, I go to Lena now."),
        ("Our vet is Greenway Vets.", "We took the cat to a new vet, Parkside Animal Clinic."),
        ("I read The Guardian every morning.", "I cancelled The Guardian, I read The Times now."),
        ("My piano teacher is Mrs Patel.", "My new piano teacher is Daniel."),
        ("My usual barber is Mo.", "These days a hairdresser in town does my hair."),
        (
            "I do yoga at Triyoga.",
            "I've moved my yoga to a studio in Leyton, Triyoga got too pricey.",
        ),
        ("我的理发师是楼下的小王。", "我换了个理发师，现在找的是商场里的Tony。"),
        ("我常去的咖啡店是楼下的星巴克。", "我现在常去的咖啡店是瑞幸。"),
    ],
)
def test_a_change_about_the_same_thing_retires_it(old: str, new: str) -> None:
    assert retired(old, new) == [0]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My hairdresser is Sam at Cutting Edge.", "I also see a barber, Mo, for quick trims."),
        ("I read The Guardian every morning.", "On Sundays I read The Observer as well."),
        ("Our vet is Greenway Vets.", "My sister has switched to a new vet, Parkside."),
        ("I use a ThinkPad for work.", "I'm thinking of getting a new laptop, maybe a MacBook."),
        ("I go to a book club at the library.", "I joined a second book club, an online one."),
        (
            "I do yoga at Triyoga.",
            "This week I'm doing yoga at the hotel because I'm away for work.",
        ),
        ("My piano teacher is Mrs Patel.", "I used to have a piano teacher called Mr Green."),
        ("My local café is Blue Door.", "There's a new café opening on our street."),
        ("My hairdresser is Sam.", "I still go to Sam, he's great now."),
        ("I prefer oolong tea.", "Tea lot 3 sold."),  # a thing changed, no one's fact
        ("The stall sold out of buns.", "The stall sold out of buns again."),
        ("My sister Anna moved to Berlin.", "My sister Anna moved to Berlin."),  # said again
        ("我的理发师是楼下的小王。", "我姐姐换了个理发师，说新的那个剪得特别好。"),
        ("我常去的咖啡店是楼下的星巴克。", "公司附近也有一家咖啡店，我偶尔也去。"),
        ("我早餐一般吃包子和豆浆。", "这周出差，早餐现在都在酒店吃。"),
    ],
)
def test_additions_wishes_past_temporary_and_others_retire_nothing(old: str, new: str) -> None:
    assert retired(old, new) == []


def test_a_topic_claim_names_the_things_of_its_clause() -> None:
    (sentence,) = default_extractor().sentences("I've switched hairdressers.")
    topics = [c for c in claims_of(sentence.text, sentence.tokens) if c.slot == TOPIC]
    assert [c.keys for c in topics] == [("hairdress",)]
    assert topics[0].replacing and topics[0].rule == "topic: 'switched'"


def test_topic_words_of_one_family_meet_and_stop_words_do_not() -> None:
    assert topic_terms(["barber"]) == topic_terms(["hairdress"])
    assert topic_terms(["week", "thing"]) == set()
    assert "理发" in topic_terms(["我的理发师是小王"])


def test_a_chinese_subject_is_a_name_only_when_it_starts_like_one() -> None:
    from bitemporal_core.language.claims_zh import claims_zh

    subjects = lambda text: {(c.subject_kind, c.subject) for c in claims_zh(text)}  # noqa: E731
    assert subjects("婚礼改到十一月十八号了") == {("speaker", "")}
    assert subjects("李强跳槽去阿里了") == {("person", "李强")}
    assert subjects("我姐搬到上海了") == {("relation", "姐姐")}
