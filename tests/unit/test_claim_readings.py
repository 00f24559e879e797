"""Readings added in stops 42 and 43 (docs/design.md, "Memory formation"): whose thing a
phrasing names, what a value may be, where a statement ends, and the Chinese clause and cue
rules."""

from __future__ import annotations

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.claims import asked_words, claims_of
from bitemporal_core.language.claims_zh import claims_zh
from bitemporal_core.language.families import category_words
from bitemporal_core.language.slots import ClaimDraft
from bitemporal_core.language.worthiness import category


def _drafts(text: str) -> list[ClaimDraft]:
    (sentence,) = default_extractor().sentences(text)
    return list(claims_of(sentence.text, sentence.tokens))


def _of(text: str, slot: str) -> list[tuple[str, str, str, bool]]:
    return [
        (d.value, d.subject_kind, d.subject, d.positive) for d in _drafts(text) if d.slot == slot
    ]


def test_a_verb_in_the_past_is_no_value() -> None:
    """ "the team I follow lost": "follow {v}" finds no team in the verb after it."""
    assert _of("The hockey team I follow lost again on Sunday.", "team") == []
    assert _of("I follow Leeds United.", "team") == [("Leeds United", "speaker", "", True)]


@pytest.mark.parametrize(
    "text",
    [
        "Good news, Marta Lind is taking over as my manager next month.",
        "Marta Lind is my new manager.",
        "My brother says Marta Lind is my manager now.",  # the speaker's manager all the same
    ],
)
def test_a_manager_named_before_the_phrasing_is_the_speakers(text: str) -> None:
    assert _of(text, "manager") == [("Marta Lind", "speaker", "", True)]


def test_an_impersonal_they_leaves_the_thing_to_its_owner() -> None:
    """ "they've moved his op": the date is his, "they moved my appointment": mine."""
    assert _of("they've pushed his surgery back to the 30th", "event_date") == [
        ("30th", "pronoun", "he", True)
    ]
    assert _of("they pushed my scan back to the 4th", "event_date") == [
        ("4th", "speaker", "", True)
    ]


def test_a_clause_cut_after_an_unclosed_sentence_stays_in_its_statement() -> None:
    analysed = Analyser().analyse("my number's 07700 900456 if anyone needs it for the form")
    assert [a.text for a in analysed] == [
        "my number's 07700 900456 if anyone needs it for the form"
    ]
    apart = Analyser().analyse("I moved to York. If you visit, call me.")
    assert len(apart) == 2  # a closed sentence keeps its own


def test_a_brand_after_my_is_the_speakers_unless_it_was_or_is_someone_elses() -> None:
    assert _of("my new Honda Jazz is brilliant", "car") == [("Honda Jazz", "speaker", "", True)]
    assert _of("my old Honda Jazz finally died", "car") == []
    assert _of("had a spin in my cousin's Porsche Cayman today", "car") == []
    assert _of("my dad's iPhone is cracked", "phone_model") == [("iPhone", "relation", "dad", True)]


def test_a_go_to_place_is_no_trip_and_is_a_favourite() -> None:
    drafts = _drafts("Sakura Bar is my new go-to spot for lunch.")
    assert not [d for d in drafts if d.slot == "trip"]
    assert [(d.slot, d.value) for d in drafts if d.slot.startswith("favourite")] == [
        ("favourite:goto", "Sakura Bar")
    ]
    assert _of("I'm going to Oslo for a week.", "trip") == [("Oslo", "speaker", "", True)]


def test_a_pet_put_to_sleep_or_mourned_by_name_ends() -> None:
    assert ("pepper", "speaker", "", False) in _of("rip pepper, so sad today", "pet")
    assert [p for *_, p in _of("we had to have her put to sleep", "pet")] == [False]


def test_a_present_tense_last_is_no_ending() -> None:
    """ "{v} lasted like a week" ends a diet; "the battery lasts like a day" ends nothing."""
    assert not [d for d in _drafts("my battery lasts like a day now") if not d.positive]


def test_a_space_between_chinese_characters_ends_a_clause() -> None:
    found = [
        d
        for d in claims_zh("以前那个号不用了哈 新号139 1234 5678 存一下")
        if d.slot == "phone_number"
    ]
    assert [(d.value, d.past) for d in found] == [("139 1234 5678", False)]


def test_an_adverb_after_a_surname_character_makes_no_name() -> None:
    """秦也卖掉了: the car 秦 was sold too, not a person 秦也."""
    drafts = claims_zh("秦也卖掉了，现在开的是小鹏P7")
    assert {(d.subject_kind, d.subject) for d in drafts} == {("speaker", "")}
    assert ("car", "小鹏P7", True) in [(d.slot, d.value, d.positive) for d in drafts]


def test_a_state_taken_up_again_replaces_but_another_one_adds() -> None:
    (diet,) = [d for d in claims_zh("医生让我补铁，下周开始又吃肉了") if d.slot == "diet"]
    assert (diet.value, diet.replacing, diet.additive) == ("吃肉", True, False)
    (car,) = [d for d in claims_zh("我又买了一辆车") if d.slot == "car"]
    assert car.additive


def test_working_somewhere_as_something_in_chinese_names_the_employer() -> None:
    found = [(d.slot, d.value, d.subject) for d in claims_zh("我姐在儿童医院当医生")]
    assert ("employer", "儿童医院", "姐姐") in found
    assert not [d for d in claims_zh("我在家当全职妈妈") if d.slot == "employer"]


def test_a_chinese_topic_names_no_time_of_day() -> None:
    topics = [d for d in claims_zh("开了一上午关于新的考勤系统的会") if d.slot == "topic"]
    assert topics
    assert all("上午" not in d.keys for d in topics)


def test_chinese_endings_of_a_gym_card_and_of_smoking() -> None:
    (gym,) = [d for d in claims_zh("健身卡转让出去了 以后去游泳") if d.slot == "gym"]
    assert (gym.value, gym.positive) == ("健身卡", False)
    smoking = [d for d in claims_zh("我爸出院到现在一根都没抽") if d.slot == "smoking"]
    assert [(d.subject, d.positive) for d in smoking] == [("爸爸", False)]


def test_a_chinese_relative_named_once_is_mentioned_with_the_name() -> None:
    (statement,) = Analyser().analyse("我家女儿果果在彩虹幼儿园上中班", speaker="user")
    assert statement.people == ("person:果果", "relation:女儿=person:果果")
    (plain,) = Analyser().analyse("我在杭州上班", speaker="user")
    assert plain.people == ()


def test_a_school_reported_at_is_a_school_and_a_university_worked_at_an_employer() -> None:
    found = [(d.slot, d.value) for d in claims_zh("小家伙今天去育英小学报到了")]
    assert ("school", "育英小学") in found
    assert ("employer", "北京大学") in [(d.slot, d.value) for d in claims_zh("我在北京大学工作")]
    assert [d.slot for d in claims_zh("下周一去字节报到") if d.value == "字节"] == ["employer"]


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("我升产品经理了", "产品经理"),
        ("姐妹们我升领班啦", "领班"),
        ("转正了，现在是设计师了", "设计师"),
        ("我现在是运营助理，天天打杂", "运营助理"),
        ("我在一家外企做财务专员", "财务专员"),
        ("我在超市当店员", "店员"),
    ],
)
def test_a_chinese_title_is_read_where_it_has_a_titles_shape(text: str, title: str) -> None:
    assert [d.value for d in claims_zh(text) if d.slot == "job_title"] == [title]


@pytest.mark.parametrize("text", ["我升级了系统", "我是个急性子", "现在是晚上了", "我在家做饭"])
def test_no_chinese_title_without_a_titles_shape(text: str) -> None:
    assert not [d for d in claims_zh(text) if d.slot == "job_title"]


def test_a_promotion_told_casually_names_the_title_but_redundancy_does_not() -> None:
    assert _of("got bumped to senior engineer after my review", "job_title") == [
        ("senior engineer", "speaker", "", True)
    ]
    assert _of("I've been made head chef", "job_title") == [("head chef", "speaker", "", True)]
    assert _of("I've been made redundant", "job_title") == []
    assert _of("my train got bumped to Friday", "job_title") == []


def test_not_a_single_cigarette_ends_smoking_for_the_one_said_of() -> None:
    assert _of("he hasn't had a single cigarette since March", "smoking") == [
        ("", "pronoun", "he", False)
    ]


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("principal engineer as of Monday!!", "principal engineer"),
        ("Officially lead data scientist from this week", "lead data scientist"),
        ("the boss called me in and made it official: head chef.", "head chef"),
    ],
)
def test_a_new_title_said_without_a_verb_is_the_speakers(text: str, title: str) -> None:
    assert [(d.value, d.subject_kind) for d in _drafts(text) if d.slot == "job_title"] == [
        (title, "speaker")
    ]


def test_a_title_inside_a_sentence_or_made_official_by_a_couple_is_not_a_new_title() -> None:
    assert not [
        d for d in _drafts("I asked the senior developer about it") if d.slot == "job_title"
    ]
    assert not [
        d for d in _drafts("my boss made it official: pay rises in May") if d.slot == "relationship"
    ]
    assert [d.value for d in _drafts("Sam and I made it official") if d.slot == "relationship"] == [
        "in a relationship"
    ]


def test_chinese_homes_bought_and_a_new_city_called_home() -> None:
    assert [d.value for d in claims_zh("我们在无锡新区买了套房") if d.slot == "residence"] == [
        "无锡新区"
    ]
    assert [d.value for d in claims_zh("以后就是厦门人了") if d.slot == "residence"] == ["厦门"]


def test_an_adjective_opening_a_sentence_in_capitals_names_no_one() -> None:
    """ "New SIM, new number: ..." is the speaker's number, not a person called New SIM's."""
    assert _of("New SIM, new number: it's 07700 900654 from today", "phone_number") == [
        ("07700 900654", "speaker", "", True)
    ]
    assert _of("Big Tom moved to Leeds", "residence")[0][1:3] == ("person", "tom")


def test_a_team_at_a_company_and_the_keys_to_a_new_place() -> None:
    assert _of("I work in the data team at Copperleaf Bank", "employer") == [
        ("Copperleaf Bank", "speaker", "", True)
    ]
    assert _of("got the keys to the Leith flat today!!", "residence") == [
        ("Leith", "speaker", "", True)
    ]
    assert _of("picked up the kids from school", "hobby") == []


def test_a_part_time_degree_is_a_course_not_part_time_work() -> None:
    drafts = _drafts("I'm doing a part-time MSc in Ecology with the Open University")
    assert [(d.slot, d.value) for d in drafts if d.slot in ("school", "work_schedule")] == [
        ("school", "msc")
    ]
    assert _of("I work part-time at the library", "work_schedule") == [
        ("part-time", "speaker", "", True)
    ]


def test_thinking_about_quitting_quits_nothing() -> None:
    (draft,) = [d for d in _drafts("some days I think about quitting the choir") if d.slot == "any"]
    assert (draft.positive, draft.tentative) == (False, True)


# --- stop 43 -------------------------------------------------------------------------------
def test_a_lowercase_name_the_tagger_reads_as_an_adjective_is_a_noun() -> None:
    """ "sparrow" is no adjective any dictionary knows: a provider's name, so a concept."""
    (sentence,) = default_extractor().sentences("our broadband is sparrow fibre and it is slow")
    pos = {t.text: t.pos for t in sentence.tokens}
    assert (pos["sparrow"], pos["slow"]) == ("NOUN", "ADJ")
    assert "sparrow" in [c.key for c in sentence.concepts]


def test_a_chinese_employer_worked_at_as_something_has_an_employers_shape() -> None:
    assert [(d.slot, d.value) for d in claims_zh("在星河科技做测试") if d.slot == "employer"] == [
        ("employer", "星河科技")
    ]
    assert not [d for d in claims_zh("我今天在医院做了个检查") if d.slot == "employer"]
    (left,) = [d for d in claims_zh("终于从星河跑路了") if d.slot == "employer"]
    assert (left.value, left.positive) == ("星河", False)


def test_a_weekday_is_no_name_and_who_receives_is_no_subject() -> None:
    """周二刚提的: Tuesday, no 周 named 二; 卖给我同事: the colleague is not the subject."""
    (car,) = [d for d in claims_zh("卡罗拉卖给我同事了，周六刚提的小鹏P7") if d.slot == "car"]
    assert (car.value, car.subject_kind) == ("小鹏P7", "speaker")
    sold = claims_zh("房子被叔叔卖了，新房东是一对年轻夫妻")
    assert [d.subject_kind for d in sold if d.slot == "landlord"] == ["speaker"]
    subjects = {d.subject for d in claims_zh("医生给我爸换了药")}
    assert subjects == {"爸爸"}, "a relation after 给 alone is who it was done for"


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("new landlord is a company called Brightkey Homes", "landlord", "Brightkey Homes"),
        ("got my compressed hours approved", "work_schedule", "compressed hours"),
        ("it's the bus every morning now", "commute", "bus"),
        ("My cousin moved down to Exeter.", "residence", "Exeter"),
    ],
)
def test_landlords_schedules_commutes_and_moves_down(text: str, slot: str, value: str) -> None:
    assert [d.value for d in _drafts(text) if d.slot == slot] == [value]


@pytest.mark.parametrize(
    ("text", "past"),
    [
        ("I was engaged to someone else back then", True),
        ("I was married for ten years", True),
        ("I was promoted to senior analyst", False),  # a passive: an event, not a past state
        ("we got engaged last night", False),
    ],
)
def test_a_state_told_with_was_is_past_but_a_passive_is_not(text: str, past: bool) -> None:
    assert [d.past for d in _drafts(text) if d.slot in ("relationship", "job_title")] == [past]


def test_seeing_someone_called_a_name_is_a_relationship() -> None:
    assert _of("I'm seeing a guy called Rafael", "relationship") == [
        ("Rafael", "speaker", "", True)
    ]


def test_a_language_is_a_kind_of_thing_but_no_topic() -> None:
    assert category_words(["korean"]) == ["language"]
    from bitemporal_core.language.topics import topic_terms

    assert topic_terms(["korean"]) == {"korean"}, "a nationality too: no topic of the topic rule"


def test_a_question_names_the_slot_its_phrasing_reads() -> None:
    sentences = default_extractor().sentences("我现在归谁管？")
    assert "领导" in asked_words(sentences)
    assert asked_words(default_extractor().sentences("What's the weather like?")) == []
    liked = default_extractor().sentences("Do you like horror films?")  # `unasked_slots`
    assert asked_words(liked) == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [("ugh monday again.", "filler"), ("yay friday!!", "filler"), ("ugh, my boss again", "memory")],
)
def test_a_mood_about_the_day_is_filler(text: str, kind: str) -> None:
    assert category(text) == kind


def test_chinese_endings_said_as_a_cure_or_a_break_up_with_someone() -> None:
    (cured,) = [d for d in claims_zh("医生说我花生过敏已经好了") if d.slot == "allergy"]
    assert (cured.value, cured.positive) == ("花生", False)
    (ended,) = [d for d in claims_zh("我跟阿杰结束了") if d.slot == "relationship"]
    assert ended.positive is False
    assert not [d for d in claims_zh("我跟同事的项目结束了") if d.slot == "relationship"]


def test_a_company_by_its_name_and_a_monday_that_starts_something() -> None:
    assert [d.value for d in claims_zh("我在字节做后端开发") if d.slot == "employer"] == ["字节"]
    (new,) = [d for d in claims_zh("这周一开始去腾讯报到") if d.slot == "employer"]
    assert (new.value, new.tentative) == ("腾讯", False), "这周一 is a day, not 这周 (this week)"


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("These days I get up at 6:15, school run", "wake_time", "6:15"),
        ("My alarm goes off at 7am", "wake_time", "7"),
        ("I go to bed at 10:30 most nights", "bedtime", "10:30"),
    ],
)
def test_when_one_gets_up_and_goes_to_bed(text: str, slot: str, value: str) -> None:
    assert [d.value.split()[0] for d in _drafts(text) if d.slot == slot] == [value]


def test_a_clock_time_is_no_place() -> None:
    """ "at {v} now" reads a school ("my son's at Oakfield now"), never a time of day."""
    assert not [d for d in _drafts("i get up at 5:45 now, gym first") if d.slot == "school"]
    assert [d.value for d in _drafts("my son is at Oakfield now") if d.slot == "school"] == [
        "Oakfield"
    ]


def test_chinese_times_of_sleeping_and_waking() -> None:
    assert [d.value for d in claims_zh("我现在十一点就睡") if d.slot == "bedtime"] == ["十一点"]
    assert [d.value for d in claims_zh("我每天早上六点半起床") if d.slot == "wake_time"] == [
        "六点半"
    ]
