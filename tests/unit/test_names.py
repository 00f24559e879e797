"""Who a short name or a general relation word stands for, and what a passing state or a talk
of a move is, in memory formation (docs/design.md, "Memory formation")."""

from __future__ import annotations

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.claims import claim_words, claims_of
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.clauses import timed_text
from bitemporal_core.language.people import nickname_of
from bitemporal_core.language.people_zh import zh_alias_opening, zh_aliases
from bitemporal_core.language.slots import slot_table
from bitemporal_core.language.worthiness import category
from bitemporal_core.services.mentions import Mentions
from tests.unit.test_topics import retired


@pytest.mark.parametrize(
    ("short", "name", "same"),
    [
        ("rach", "rachel", True),  # the start of the name
        ("jonno", "jonathan", True),  # a pet form of its start: jon + n + o
        ("ollie", "oliver", True),
        ("katie", "katherine", True),
        ("mike", "michael", True),  # a usual nickname (the slot table's list)
        ("bill", "william", True),
        ("millie", "amelia", True),  # the nicknames package's list
        ("becs", "rebecca", True),
        ("emily", "amelia", False),  # two names of their own, though the package pairs them
        ("lisa", "alice", False),
        ("mark", "marta", False),
        ("jo", "jonathan", False),  # two letters say too little
        ("jonathan", "jon", False),  # longer than the name is not a short form
        ("tommy", "tom", True),  # unless people call them so
        ("oliver", "oliver", False),  # the same name is no alias
        ("洋子", "刘洋", True),
        ("建国", "李建国", True),
        ("老李", "李建国", True),
        ("小张", "刘洋", False),
    ],
)
def test_a_short_name_stands_for_a_full_one(short: str, name: str, same: bool) -> None:
    assert nickname_of(short, name) is same


def test_chinese_short_forms_follow_the_name() -> None:
    assert {"建国", "老李", "小李", "阿国"} == zh_aliases("李建国")
    assert {"洋洋", "洋子", "阿洋", "老刘"} <= zh_aliases("刘洋")
    assert zh_aliases("豆豆") == frozenset()  # no surname: not a full name


def test_a_chinese_statement_opens_with_the_person_it_is_about() -> None:
    assert zh_alias_opening("洋子辞职回老家了", ["刘洋", "李建国"]) == "刘洋"
    assert zh_alias_opening("啊啊建国同志退休啦", ["李建国"]) == "李建国"
    assert zh_alias_opening("我跟洋子说了我辞职的事", ["刘洋"]) is None  # speaks of 我
    assert zh_alias_opening("小李和小李", ["李建国", "李强"]) is None  # two people: no one


def test_mentions_alias_a_short_name_and_a_general_relation() -> None:
    mentions = Mentions(recent=["person:jonathan", "relation:son", "relation:儿子"])
    assert mentions.alias("person:jonno") == "person:jonathan"
    assert mentions.alias("relation:kid") == "relation:son"
    assert mentions.alias("relation:孩子") == "relation:儿子"
    assert mentions.alias("relation:partner") == "relation:partner"  # nobody it may be
    both = Mentions(recent=["relation:son", "relation:daughter"])
    assert both.alias("relation:kid") == "relation:kid"  # which one is not said
    named = Mentions(recent=["person:oliver", "relation:son=person:oliver"])
    assert named.alias("relation:kid") == "person:oliver"
    assert Mentions(recent=["relation:partner"]).alias("relation:husband") == "relation:partner"


@pytest.mark.parametrize(
    ("text", "tentative"),
    [
        ("this week I'm working from my parents' place in Norfolk", True),
        ("I moved to Leeds this week.", False),  # told in the past: a change
        ("I've started at Monzo this week.", False),
        ("I'm a Customer Success Manager as of this week", False),  # "as of": since
        ("Traded the Civic in for a Kia Niro EV this weekend!", False),
        ("Tom's been talking about moving to Glasgow.", True),
    ],
)
def test_a_passing_state_or_talk_of_a_change_is_never_applied(text: str, tentative: bool) -> None:
    (sentence,) = default_extractor().sentences(text)
    slots = [d for d in claims_of(sentence.text, sentence.tokens) if d.slot not in ("about",)]
    assert slots and (slots[0].tentative or slots[0].passing) is tentative


def test_a_chinese_stopgap_is_never_applied() -> None:
    (commute, *_) = claims_zh("这周地铁施工，只能先打车上班了")
    assert commute.slot == "commute" and commute.passing and not commute.tentative
    (plain, *_) = claims_zh("我现在打车上班了")
    assert plain.slot == "commute" and not plain.passing and not plain.tentative


def test_too_before_now_is_an_addition() -> None:
    """ "a work phone too now": no degree "too" (as in "too pricey"), so the topic rule reads
    an addition and makes no topic claim."""
    text = "I've got a work phone too now, 07911 654321."
    (sentence,) = default_extractor().sentences(text)
    assert not [d for d in claims_of(sentence.text, sentence.tokens) if d.slot == "topic"]


@pytest.mark.parametrize(
    ("text", "car"),
    [
        ("My husband smokes like a chimney, it drives me mad.", None),  # a person as object
        ("I lost my car keys again.", None),  # "my car keys" names no car
        ("I drive her car on weekends.", "car"),  # "her" a possessive
        ("I drive a Golf.", "Golf"),
    ],
)
def test_a_verb_with_a_person_as_its_object_names_no_value(text: str, car: str | None) -> None:
    (sentence,) = default_extractor().sentences(text)
    found = [d.value for d in claims_of(sentence.text, sentence.tokens) if d.slot == "car"]
    assert found == ([car] if car else [])


@pytest.mark.parametrize(
    ("text", "slot", "value", "subject"),
    [
        ("Picked up a used Kia Niro this morning!", "car", "Kia Niro", ("speaker", "")),
        ("My brother got a BMW.", "car", "BMW", ("relation", "brother")),
        (
            "Bought my dad an iPhone 15 for his birthday.",
            "phone_model",
            "iPhone 15",
            ("relation", "dad"),
        ),
        ("I got a new car.", None, None, None),  # the kind, not a brand: no value
    ],
)
def test_a_brand_got_is_a_value_of_its_kinds_slot(
    text: str, slot: str | None, value: str | None, subject: tuple[str, str] | None
) -> None:
    (sentence,) = default_extractor().sentences(text)
    found = [
        (d.slot, d.value, (d.subject_kind, d.subject))
        for d in claims_of(sentence.text, sentence.tokens)
        if d.rule.startswith("brand:")
    ]
    assert found == ([(slot, value, subject)] if slot else [])


def test_a_chinese_brand_got_is_a_value_of_its_kinds_slot() -> None:
    (mine, *_) = claims_zh("新入了小米14，华为给我妈用了")
    assert (mine.slot, mine.value, mine.subject_kind) == ("phone_model", "小米14", "speaker")
    (hers, *_) = claims_zh("给我妈买了个vivo，她现在天天刷抖音")
    assert (hers.slot, hers.subject) == ("phone_model", "妈妈")
    assert not [d for d in claims_zh("今天买了个新锅") if d.rule.startswith("brand:")]
    laptop = claims_zh("新入了一台macbook")  # a kind of thing no slot holds
    assert not [d for d in laptop if d.rule.startswith("brand:")]


def test_a_statement_that_calls_something_off_is_dated_when_said() -> None:
    """The time of a later clause ("五一要值班") dates what replaces the plan, not the
    statement that calls it off (`clauses.timed_text`)."""
    assert timed_text("云南黄了，五一要值班", chinese=True).strip("， ") == "云南黄了"
    assert "May" not in timed_text("Rome's off, work won't let me go in May", chinese=False)
    kept = "I moved to Berlin, starting at Google next month"
    assert timed_text(kept, chinese=False) == kept


def test_a_category_brings_the_words_of_its_slot() -> None:
    """ "Kia Niro" is a car and 新车 too: a question about driving finds them."""
    assert {"car", "drive"} <= set(claim_words([], "en", named=["kia"]))
    assert "车" in claim_words([], "zh", named=["新车"])


@pytest.mark.parametrize(
    ("text", "slot", "mode"),
    [
        ("Ines just got a job at a bike shop in Seville.", "employer", "person:ines"),
        ("In college I was vegan for like two years.", "diet", "past"),
        ("I was promoted to senior analyst.", "job_title", "now"),  # a passive, no past state
        ("We've been toying with the idea of relocating to Lisbon.", "residence", "tentative"),
        ("Got a courtesy Fiat 500 from the garage while mine's fixed.", "car", "tentative"),
        ("It feels like driving a roller skate.", "car", None),  # a comparison
    ],
)
def test_what_another_past_or_passing_state_says_is_never_the_speakers_now(
    text: str, slot: str, mode: str | None
) -> None:
    """Claims that must retire nothing of the speaker's: someone else's (a name the tagger
    does not know), a past state, a daydream, a stopgap, a simile."""
    (sentence,) = default_extractor().sentences(text)
    found = [d for d in claims_of(sentence.text, sentence.tokens) if d.slot == slot]
    if mode is None:
        assert not found
        return
    (claim,) = found
    seen = {
        "past": claim.past,
        "tentative": claim.tentative,
        "now": not (claim.past or claim.tentative) and claim.subject_kind == "speaker",
        "person:ines": (claim.subject_kind, claim.subject) == ("person", "ines"),
    }
    assert seen[mode]


def test_chinese_repairs_and_indefinites_are_no_change_nor_question() -> None:
    assert not [d for d in claims_zh("电动车送去修了，这两天先挤地铁") if d.slot == "pet"]
    assert [d for d in claims_zh("狗狗送去我爸妈家了") if d.slot == "pet"]
    assert category("我什么都吃，不挑食。") == "memory"
    assert category("你吃什么") == "question"


def test_a_move_of_a_date_replaces_the_one_date_held() -> None:
    """ "They moved me to Thursday" names nothing of "Dentist appointment is Tuesday", yet
    moves it when it is the one date the speaker holds; 洗牙改到 names what it moves."""
    assert retired(
        "Dentist appointment is Tuesday the 12th at 3pm.",
        "Dentist's office called, they moved me to Thursday the 14th at 10am.",
    ) == [0]
    two = ("My haircut is on the 9th.", "Dentist appointment is on the 12th.")
    assert retired(*two, "They moved me to Thursday the 14th.") == []  # which one: unsaid
    (moved, *_) = claims_zh("诊所说医生临时有手术，洗牙改到下周一上午十点了")
    assert moved.slot == "event_date" and "洗牙" in moved.keys and not moved.tentative


def test_a_thing_that_ended_is_the_speakers_and_a_power_cut_no_exercise() -> None:
    assert retired(
        "my pixel 6 is getting so slow",
        "caved and got an iphone 15, the pixel finally gave up the ghost",
    ) == [0]
    assert not [d for d in claims_zh("昨晚小区停电停了五个小时") if d.slot == "exercise"]


def test_what_the_review_found_retires_nothing() -> None:
    """Everyday sentences that share a word with a rule of this round: none ends a fact."""
    appointment = "My dentist appointment is on Tuesday."
    assert retired(appointment, "We moved the sofa to the other wall.") == []
    assert retired(appointment, "They moved me to the night shift.") == []  # no date
    assert retired("I live in Leeds.", "This week I've been living at my mum's in York.") == []
    assert retired("I drive a Honda Civic.", "I packed up the car and drove to Cornwall.") == []
    laptop = "My laptop is a MacBook Air."
    assert retired(laptop, "The laptop charger gave up the ghost.") == []  # the charger
    iphone = "I'm on an iPhone 13."
    for text in ("I bought a Samsung TV.", "Got a new iPhone charger today."):
        assert retired(iphone, text) == []
    assert not nickname_of("mary", "mark")  # a name of its own
    assert "刚刚" not in zh_aliases("王刚")  # "just now"
    assert zh_alias_opening("刚刚换了新手机", ["王刚"]) is None


def test_chinese_brand_and_frame_readings() -> None:
    (gift, *_) = claims_zh("买了个vivo给我妈")
    assert (gift.value, gift.subject) == ("vivo", "妈妈")
    (one, *_) = [d for d in claims_zh("我换了一加12") if d.slot == "phone_model"]
    assert one.value == "一加12"
    assert not [d for d in claims_zh("我买了个华为手表") if d.rule.startswith("brand:")]
    (moved, *_) = [d for d in claims_zh("我这周搬到苏州了") if d.slot == "residence"]
    assert not moved.tentative  # told as done: a move, not a stay


def test_called_off_dates_and_moves_stay_data() -> None:
    assert "Google" not in timed_text("The trip’s off, I start at Google on Monday.", chinese=False)
    kept = "My son's off to uni, we moved to Bristol in May."
    assert timed_text(kept, chinese=False) == kept
    spec = slot_table()["slots"]["event_date"]
    phrasings = {*spec["en"]["claim"], *spec["zh"]["claim"]}
    assert set(spec["moves"]) <= phrasings and set(spec["moves_nameless"]) <= set(spec["moves"])


def test_a_full_name_after_its_short_form_is_the_same_person() -> None:
    """ "Dev" told first, "Devendra" later; "Joe", then "Joseph": one person, so the later
    statement changes what the first said of them."""
    assert retired("My colleague Dev lives in Bath.", "Devendra moved to Leeds last month.") == [0]
    assert retired("My brother Joe lives in Manchester.", "Joseph moved to Bristol.") == [0]
    assert retired("My brother Joe lives in Manchester.", "Mark moved to Bristol.") == []


def test_someone_back_in_a_place_is_no_past_state() -> None:
    """ "Joseph's back in the UK, renting in Bristol now" is where he lives now; "back in
    2019 I lived in Rome" is the past."""
    assert retired(
        "My brother Joe lives in Lisbon.", "Joseph's back in the UK, renting in Bristol now."
    ) == [0]
    assert retired("I live in Leeds.", "Back in 2019 I lived in Rome.") == []


def test_a_brand_someone_uses_is_theirs() -> None:
    """ "still uses an iPhone 8" holds the phone as "got a Pixel" later replaces it."""
    assert retired(
        "My sister Harriet still uses an ancient iPhone 8.", "Harriet finally got a Pixel 8."
    ) == [0]
