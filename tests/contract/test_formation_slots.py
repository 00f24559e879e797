"""Memory formation on every engine, stop 45's and 46's slots and rules (docs/design.md,
"Memory formation"): medication, a teacher, a hairdresser, a phone number by its last digits,
a diet cut down, an amount changed, an ending that names another value; a change done to the
speaker, a relative named through a preposition, a first name after a relative, a role
opening a change, the one medicine swapped, a hair colour."""

from __future__ import annotations

import pytest

from bitemporal_core import MemoryStore

from ._said import say, texts


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I take 50mg of sertraline every morning.", "stopped taking the sertraline last month"),
        ("我每天早上空腹吃一片优甲乐，50微克的", "复查完医生说指标正常了，优甲乐停了"),
        (  # a pronoun named by the phrasing ("moved her to") is the one it points back to
            "My daughter has piano lessons with Mrs Patel on Wednesdays.",
            "we've moved her to a new piano teacher, Mr Kowalski",
        ),
        ("我剪头一直找楼下发廊的Kevin", "Kevin回老家了，现在换成店里的小周给我剪"),
        ("我手机号是138开头那个，尾号6621", "换号了，新号码尾号0937"),
        ("I'll eat pretty much anything, not fussy at all.", "I've cut out dairy completely"),
        ("my usual weekday run is 5k round the park", "upped my run to 10k, legs are dead"),
        ("房租一个月4500，押一付三", "房东又涨房租了，涨到5200"),
        # a value named after what it is ("a guy called"); a role word opening a statement
        # in lowercase is no one's name
        (
            "landlord's a guy called Mr Patel, v chill tbh.",
            "rent now goes to some company called Harbour Lettings",
        ),
        ("my PT at PureGym is a guy called Kyle", "stopped doing sessions with kyle"),
        (  # a relative a phrasing names ("took Dad off")
            "My dad takes amlodipine for his blood pressure.",
            "The GP took Dad off amlodipine because of the ankle swelling.",
        ),
        ("I run about 20k a week, mostly along the river.", "Physio has banned running."),
        # a phrasing that says "my" is the speaker's, whoever acts
        ("physio appointment is thursday 3pm", "Physio moved my appointment to Monday at 10am."),
        ("Harriet's moved down to Manchester.", "hattie's moved AGAIN"),  # a nickname
        ("我办了乐刻的卡，一般晚上下班去练", "健身卡退了，太远了根本不去"),
    ],
)
def test_a_later_statement_of_the_same_thing_retires_the_earlier(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "u", old, new)
    assert texts(store, "u") == {new}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I take 50mg of sertraline every morning.", "I'm also on 5mg of ramipril for my heart"),
        # an ending that names another value ends only that one, not the only value held
        ("I'm allergic to peanuts.", "I'm not allergic to cats anymore"),
        ("我在吃火锅", "雨停了"),  # no medication: neither is a medicine's name
        ("我办了乐刻的卡", "公交卡退了"),  # a bus card is no gym's
    ],
)
def test_a_statement_of_another_value_leaves_the_first(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "a", old, new)
    assert texts(store, "a") == {old, new}


def test_a_price_that_rises_changes_nothing_of_the_speakers(store: MemoryStore) -> None:
    """涨到 is a change of what the speaker holds only where the speaker holds it."""
    say(store, "p", "我的车一直停在公司对面的停车场。", "博物馆的停车费涨了一倍。")
    assert "我的车一直停在公司对面的停车场。" in texts(store, "p")


def test_a_dose_raised_replaces_the_dose_of_the_relative_a_pronoun_points_to(
    store: MemoryStore,
) -> None:
    """ "Took mum to the GP": a word only a relative is called, as a verb's object, is who
    "she" points back to; "upped mum's ramipril to 10mg" replaces her 5mg."""
    say(
        store,
        "m",
        "Took mum to the GP this morning. She's on 5mg of ramipril for her blood pressure.",
        "GP upped mum's ramipril to 10mg, her readings were still high",
    )
    current = texts(store, "m")
    assert "She's on 5mg of ramipril for her blood pressure." not in current
    assert "GP upped mum's ramipril to 10mg, her readings were still high" in current


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a change done to the speaker is the speaker's; the one medicine held is swapped
        ("i'm on sertraline 50mg, been about a year", "doc switched me to citalopram"),
        ("降压药一直吃的是氨氯地平，一天一片", "复查完医生给我换成缬沙坦了"),
        # a first name after a relative ("my gf emma") is that relative
        ("my gf emma is vegan so i'm learning to cook with tofu", "emma's eating fish again"),
        ("just dyed my hair pink lol", "went back to brown before the new job"),
        ("刚染了个奶茶色的头发", "头发染回黑色了，有点舍不得"),
        ("on early shifts rn, 6 til 2", "they've put me on nights from next month"),
        ("i bike to work every day", "finally got a car so i'm driving in to work now"),
        ("5-a-side every tuesday with the work lot", "no more football for me, my knee's done"),
        ("在北京漂了五年了，冬天真的干", "搬到天津了，房租便宜一半"),
        ("每天下午一杯奶茶，真的戒不掉", "彻底戒奶茶了！！"),
        ("兜兜转转还是住在长沙", "搬到武汉了"),  # a doubled pair before another is no name
        ("我同事老李被派去西安驻场了", "老李调回上海总部了"),
        # a word the tagger made no concept of still names the thing ("serpentine")
        ("i run with serpentine running club on thursday nights", "left serpentine last week"),
        # a place the tagger reads as a verb ("to leeds"); "way too big" adds nothing
        (
            "my little brother's at manchester doing chemistry",
            "bro transferred to leeds uni, the old campus was way too big for him",
        ),
        ("我姐刚搬去杭州了", "哈哈哈我姐又跑了，现在在成都"),  # a place's name after 现在在
        # a passing state is ended by the slot's next value
        ("老王调走了，现在暂时是张姐带我们组", "新领导今天到岗了，叫刘洋"),
    ],
)
def test_stop_46_a_later_statement_of_the_same_thing_retires_the_earlier(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "u", old, new)
    assert texts(store, "u") == {new}


def test_a_relative_named_through_a_preposition_is_who_she_points_back_to(
    store: MemoryStore,
) -> None:
    """ "talked to sis": the "she" after it is the sister, not a woman named earlier."""
    say(
        store,
        "s",
        "my sister just moved to leeds for her new job",
        "Siobhan ran a half marathon in Glasgow and didn't even train.",
        "talked to sis on the phone for 2 hrs lol. she's in glasgow now, said leeds never felt"
        " like home",
    )
    assert "my sister just moved to leeds for her new job" not in texts(store, "s")


def test_a_role_opening_a_change_ends_the_speakers_one(store: MemoryStore) -> None:
    """ "new boss started today" (a start, though dated by "today") ends the manager the
    speaker reports to, which a slot read, though its words name no boss."""
    say(
        store,
        "b",
        "for now i'm reporting to mike from the sales side",
        "new boss started today, her name's priya.",
    )
    assert texts(store, "b") == {"new boss started today, her name's priya."}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # what is done to the speaker is named after the verb: not the physio's name
        ("My physio is Dan at Active Health.", "Dan switched me to new exercises for my knee"),
        # a brand's thing that died is no pet
        ("my dog rex is the best boy", "the pixel died so i'm using my brother's old samsung"),
        ("I take 50mg of sertraline every morning.", "they've put me on nights from next week"),
        ("doing an evening course in ux design", "i'm a glutton for punishment lol"),
        # a family's word ("mobile") or a slot's ("allergic") names no thing by itself
        ("My mobile number is 07911 123456.", "Got a new phone, the Pixel 8!"),
        ("I'm allergic to peanuts.", "I'm not allergic to cats anymore"),
        ("我住在苏州", "我现在在公司加班"),  # 公司 is no place's name
        ("我们组长是老王", "这周老王休假，暂时是张姐带我们组"),  # a passing state ends nothing
    ],
)
def test_stop_46_a_statement_of_another_thing_leaves_the_first(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "a", old, new)
    assert texts(store, "a") == {old, new}
