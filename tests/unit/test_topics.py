"""The topic rule of memory formation: a change said about the same thing as an earlier fact
retires it, for kinds of fact the slot table does not name; additions, wishes, past and
temporary states and other people's changes retire nothing (docs/design.md, "Memory
formation")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bitemporal_core import default_extractor
from bitemporal_core.language.claims import change_cue, claim_words, claims_of, truecased
from bitemporal_core.language.extract import Token
from bitemporal_core.language.topics import TOPIC, topic_terms
from bitemporal_core.model import Fact
from bitemporal_core.services.claims import Candidate, resolve, restated, retired_by
from bitemporal_core.services.formation import _remark
from bitemporal_core.services.mentions import Mentions


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
            of = lambda claim: [  # noqa: E731
                Candidate(fact_id=str(i), claim=old, recorded=float(i))
                for i, olds in enumerate(facts)
                for old in olds
                if old.subject == claim.subject
            ]
            kept = {f for c in claims for f in restated(c, of(c))}
            for claim in claims:
                found = retired_by(claim, of(claim))
                found = [f for f in found if claim.slot != TOPIC or f not in kept]
                out += [n for n in dict.fromkeys(map(int, found)) if n not in out]
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


# --- changes that share no word with the old fact, told as events, ended habits ----------
@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the category of a brand ("families" of data/topics.json)
        ("I bank with Barclays.", "moved all my money over to Monzo, the app is so much better"),
        ("Our broadband is Virgin Media.", "we've switched to BT, the engineer came on monday"),
        ("We do our weekly shop at Tesco.", "we've been doing the weekly shop at aldi since march"),
        ("I'm on EE for my phone.", "ported my number to giffgaff, half the price"),
        ("I play a lot of Fortnite.", "totally over fortnite, it's all elden ring now"),
        ("i drink like 4 coffees a day lol", "cut out caffeine completely, only herbal tea now"),
        ("I'm studying economics at uni.", "I changed my course to computer science"),
        # change events
        ("We get a HelloFresh box every week.", "hellofresh is off, we went with gousto"),
        ("We've got two goldfish, Bubbles and Nemo.", "nemo died over the weekend"),
        ("Sam plays for the Rovers under-10s.", "sam signed for the Town juniors, no more rovers"),
        ("I work weekends at the garden centre.", "handed my notice in at the garden centre"),
        # a habit ended for a while
        ("I smoke about ten a day.", "three months without a cigarette today!"),
        ("I vape a lot.", "six weeks vape free now"),
        ("I have a glass of wine most nights.", "dry since new year, not had a drop"),
        # roles named before or after "is", lowercase names
        ("My manager is Karen.", "karen got promoted, Dev is my boss now"),
        ("My boyfriend is called Jake.", "jake and i broke up."),
        ("Lucy is my fiancée.", "lucy and i got married in june! she's my wife now"),
        ("My brother Tom lives in Manchester.", "tom's moved down to bristol for his new job"),
        # an addition's 也 blocks only its own clause; 再也不 is no addition
        ("我每天坐公交上班，单程一个小时", "入手了一台小电驴，现在骑车上班，再也不用挤公交了"),
        ("我开始生酮了，每天就是肉和蛋", "生酮坚持不下去了，整个人没力气"),
        ("我基本每晚都得来两瓶啤酒", "现在酒是一滴都不敢碰了"),  # a one-character topic
        ("our wedding's on 14 September 2024 at the castle", "the wedding's now 5th october"),
        ("fav band is arctic monkeys", "fav band is fontaines dc these days"),
        # a change someone makes to the speaker's things
        ("I take sertraline daily", "doc upped my sertraline to 100mg since last tuesday"),
        # a clause led by "so now" has its own subject
        ("My boss is Priya Shah.", "Priya left for another company, so now I report to Tom Reed."),
        ("I'm a junior designer, mostly doing banners.", "I work as a product manager now."),
        ("I go running every evening.", "haven't run since I hurt my ankle"),
        # a named person's move ends the speaker's fact naming them, by a name no topic
        # reads (老刘: 老 is a stop character); 暂时 after the change blocks only its clause
        ("我们主管是老刘，人很好", "老刘调去北京总部了，部门暂时由小陈管"),
        ("我在京东做运营，每天挺忙", "我跳槽了，现在在一家创业公司"),
        ("我吃素很多年了", "最近开始吃点鱼，身体好多了"),
        ("我住在成都高新区", "搬完家了，累得不想动"),
        ("国庆去西安的机票买好了", "西安去不成了，机票退了"),
        ("I drive a Ford Fiesta.", "Traded the Fiesta in for a Honda Jazz yesterday."),
        ("My husband takes the train to his office in Leeds.", "He drives to work now."),
        ("My sister is vegan.", "My sister eats cheese again, she missed pizza too much."),
        ("I never run, I can't stand it.", "running twice a week now, who am I"),
        ("We have a tabby cat called Pudding.", "We had to put Pudding down last week."),
        ("I rent a room in Hackney.", "moved into my girlfriend's place in Camden, finally"),
        # a rescheduling done to the speaker names what the clause before it names
        (
            "Dentist on Monday the 8th at 9:30, need to floss.",
            "The dentist rang, they've moved me to Wednesday the 17th at 2pm.",
        ),
        ("我现在住成都武侯区", "终于搬完了，今晚睡在重庆的新房子里"),
        ("我开的是一辆朗逸，开了三年", "朗逸出手了，这阵子骑电动车"),
        ("我对花生过敏", "医生说我其实不是花生过敏，之前是误诊"),
        ("我女朋友叫小林", "我跟小林分了，不想多说"),
        ("我哥住在广州天河", "我哥调回老家武汉了"),
        ("我们组长是老李", "现在我们组归老陈管"),
        # a statement in capitals is read in lowercase ("GOT" is no name)
        ("My job title is Junior Designer.", "GOT PROMOTED TO SENIOR DESIGNER TODAY"),
    ],
)
def test_a_change_in_other_words_retires_the_old_fact(old: str, new: str) -> None:
    assert retired(old, new) == [0]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I bank with Barclays.", "opened a savings account with Marcus, better interest"),
        ("My brother Tom lives in Manchester.", "Tom's new flat in Manchester has a balcony"),
        ("I smoke about ten a day.", "my dad quit smoking last year, good for him"),
        ("I drive a Ford Focus.", "my wife just got a tesla"),
        ("We pay for Netflix every month.", "we got disney+ too for the kids"),
        ("I work nights at the hospital.", "picked up an extra day shift this week"),
        ("I go running three times a week.", "I ran a marathon in three hours without stopping"),
        ("I'm learning Spanish on Duolingo.", "I have two days free a week for Spanish"),
        ("I work as a physio in Bath.", "started doing bar shifts at the Crown for extra cash"),
        ("我每天早上跑五公里", "这几天重感冒，暂时先不跑了"),
        ("我每天坐公交上班", "我同事也不坐公交了，现在骑车"),
        ("My physio is Dan at Active Health.", "Dan switched me to new exercises for my knee"),
        ("I work at Siemens as an engineer.", "My wife joined Bosch, so now we're both engineers."),
    ],
)
def test_restatements_additions_and_free_time_retire_nothing(old: str, new: str) -> None:
    assert retired(old, new) == []


def test_lowercase_names_get_their_capital_for_the_rules() -> None:
    tokens = [Token("amy", "PROPN"), Token("and", "CCONJ"), Token("i", "PRON"), Token("go", "VERB")]
    assert [t.text for t in truecased(tokens)] == ["Amy", "and", "I", "go"]


def test_a_brand_adds_its_category_to_the_keyword_terms() -> None:
    (sentence,) = default_extractor().sentences("We're with Monzo and Netflix now.")
    words = claim_words(claims_of(sentence.text, sentence.tokens))
    assert {"bank", "stream"} <= set(words)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Sold my violin and bought a cello.", "instrument"),
        ("Traded the PS4 for an Xbox.", "consol"),
    ],
)
def test_an_instrument_or_a_console_adds_its_kind(text: str, category: str) -> None:
    """ "What instrument do I play?" finds the cello, "What console ..." the Xbox."""
    (sentence,) = default_extractor().sentences(text)
    assert category in claim_words(claims_of(sentence.text, sentence.tokens))


def test_a_relative_named_once_stands_for_that_person() -> None:
    mentions = Mentions()
    for key in ("person:pete", "relation:dad=person:pete", "person:ana"):
        mentions.add(key)
    assert mentions.alias("relation:dad") == "person:pete"
    assert mentions.alias("relation:mum") == "relation:mum"
    assert mentions.pronoun("he") == "person:ana", "an alias is no one to point back to"
    mentions.add("relation:dad=person:joe")  # a later naming wins, once
    assert [k for k in mentions.recent if "=" in k] == ["relation:dad=person:joe"]


def test_a_pronoun_skips_a_relative_of_the_other_gender() -> None:
    """A pronoun: "she" is not "my dad", 他 not 妈妈; a name says no gender, so it stays."""
    mentions = Mentions()
    for key in ("relation:mum", "relation:dad"):
        mentions.add(key)
    assert (mentions.pronoun("she"), mentions.pronoun("he")) == ("relation:mum", "relation:dad")
    mentions.add("person:sam")
    assert mentions.pronoun("she") == "person:sam"
    zh = Mentions()
    for key in ("relation:爸爸", "relation:妈妈"):
        zh.add(key)
    assert (zh.pronoun("他"), zh.pronoun("她")) == ("relation:爸爸", "relation:妈妈")


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("spin is thursday 7pm from now on", True),  # names nothing the topic rule keeps
        ("I've switched to the viola now.", True),
        ("Nemo died last night.", True),
        ("I've also picked up the viola now.", False),  # an addition
        ("I'd love to switch to the viola one day.", False),  # a wish
        ("I play the cello in an orchestra.", False),
        ("我现在改喝茶了。", True),
        ("我也开始喝茶了。", False),
    ],
)
def test_a_change_is_read_whether_or_not_it_names_what_changed(text: str, change: bool) -> None:
    """`change_cue`: what the nearest-fact rule reads (blocked as the topic rule is)."""
    tokens = [t for s in default_extractor().sentences(text) for t in s.tokens]
    assert bool(change_cue(text, tokens)) is change


@pytest.mark.parametrize(
    ("text", "slot", "subject"),
    [
        ("our eldest Maisie goes to St Mary's primary", "school", ("person", "maisie")),
        ("my lad supports Man City now", "team", ("relation", "lad")),
        ("officially my title is Customer Success Associate", "job_title", ("speaker", "")),
    ],
)
def test_relatives_by_age_or_nickname_and_titles(
    text: str, slot: str, subject: tuple[str, str]
) -> None:
    (sentence,) = default_extractor().sentences(text)
    found = [
        (c.subject_kind, c.subject) for c in claims_of(text, sentence.tokens) if c.slot == slot
    ]
    assert found[:1] == [subject]


def test_an_event_told_in_the_past_is_ended_only_by_name() -> None:
    """A change of topic retires the state, not what happened; an ending that names the
    thing ends both (the fiat's MOT goes with the fiat)."""
    change = "I've switched to pilates now, yoga was hurting my back."
    assert retired("I do yoga every morning.", "Yoga keeps me sane.", change) == [0, 1]
    went = "I went to a lovely yoga class with Mia on Tuesday."
    assert retired("I do yoga every morning.", went, change) == [0]
    ended = "said goodbye to the fiat, got a yaris"
    assert retired("my red fiat failed its MOT again", ended) == [0]


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("I went to my first choir rehearsal on Thursday.", True),
        ("A shelf cracked and fifteen bowls split.", True),  # the tagger's VBN without an AUX
        ("my mum Carol's got type 2 diabetes", False),  # a perfect: has got
        ("We painted the fence yesterday.", True),
        ("I've finally painted the fence.", False),
        ("The fence looks great.", False),
        ("We swapped the old fence for a hedge.", False),  # says something changed
    ],
)
def test_an_event_is_a_statement_told_in_the_simple_past(text: str, event: bool) -> None:
    (sentence,) = default_extractor().sentences(text)
    (about,) = [d for d in claims_of(sentence.text, sentence.tokens) if d.slot == "about"]
    assert about.event is event


def test_a_change_of_topic_reaches_the_three_latest_facts_naming_it() -> None:
    lines = (
        "I climb at the Arch twice a week.",
        "Climbing is my therapy.",
        "My climbing shoes are falling apart.",
        "I love climbing with Tess.",
        "I've switched from climbing to swimming now.",
    )
    assert retired(*lines) == [1, 2, 3]


@pytest.mark.parametrize(
    ("text", "remark"),
    [
        ("Going well.", True),
        ("A strange one.", True),
        ("It breaks my heart a bit.", False),  # says "my"
        ("on nights at the amazon warehouse, 10pm to 6am", False),  # names two things
        ("fav band is arctic monkeys", False),  # a slot reads it
    ],
)
def test_a_remark_is_no_state_of_the_speakers(text: str, remark: bool) -> None:
    """What the nearest-fact rule will not reach past (`formation._remark`)."""
    mentions, claims = Mentions(), []
    for s in default_extractor().sentences(text):
        context = [c.key for c in s.concepts]
        drafts = claims_of(s.text, s.tokens)
        claims += [resolve(d, speaker=None, mentions=mentions, context=context) for d in drafts]
    at = datetime(2024, 1, 1, tzinfo=UTC)
    fact = Fact(
        id="f", version_id="v", namespace="n", text=text, valid_from=at, valid_to=None,
        recorded_at=at, superseded_at=None,
    )  # fmt: skip
    assert _remark(fact, claims) is remark
