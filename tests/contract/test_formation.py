"""Memory formation on every engine: what becomes a memory, claims, and the updates they make
with no explicit call (docs/design.md, "Memory formation")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import Basis, Formation, InvalidInput, MemoryStore, NotFound, Turn, Update

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def now(n: float) -> Basis:
    return Basis(valid_at=day(n), known_at=day(n))


def texts(store: MemoryStore, ns: str, n: float = 100) -> set[str]:
    return {f.text for f in store.snapshot(ns, basis=now(n))}


def say(store: MemoryStore, ns: str, *lines: str) -> None:
    for i, line in enumerate(lines):
        store.remember(line, namespace=ns, at=day(i))


# --- what becomes a memory ----------------------------------------------------------------
def test_questions_and_small_talk_stay_messages(store: MemoryStore) -> None:
    say(store, "t", "Hi!", "I live in Lyon.", "What's the weather like where I live?", "Nice!")
    assert texts(store, "t") == {"I live in Lyon."}
    assert [m.text for m in store.messages("t")] == [
        "Hi!",
        "I live in Lyon.",
        "What's the weather like where I live?",
        "Nice!",
    ]
    assert store.remember("Thanks, Ben!", namespace="t", at=day(9)) == []
    assert "formation=keep:memories,updates:auto" in store.describe()


def test_keep_all_makes_talk_facts_left_out_of_recall(store: MemoryStore) -> None:
    keep = MemoryStore(store.backend, formation=Formation(keep="all"), owns_backend=False)
    (question,) = keep.remember("Is Lyon nice in spring?", namespace="k", at=T0)
    lyon = keep.remember("I live in Lyon.", namespace="k", at=day(1))[0]
    assert (question.kind, question.category, lyon.category) == ("talk", "question", "memory")
    assert [h.fact.id for h in keep.recall("Lyon", namespace="k", basis=now(2))] == [lyon.id]
    talk = keep.recall("Lyon", namespace="k", basis=now(2), kinds=["talk"])
    assert [h.fact.id for h in talk] == [question.id]


def test_each_fact_shows_its_language_and_category(store: MemoryStore) -> None:
    (fact,) = store.remember("I live in Lyon.", namespace="m", at=T0)
    assert (fact.language, fact.category) == ("en", "memory")
    assert store.history(fact.id).versions[0].category == "memory"


# --- automatic updates, by rule family -----------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Lyon with my partner.", "Big news: I moved to Berlin for a new job."),
        ("I work at Finch Labs as a designer.", "I started at Corvid Health last week."),
        ("I'm vegetarian, no meat for me.", "I've gone vegan as of this month."),
        ("I drive an old Honda Civic.", "I'm driving a Tesla now."),
        ("My number is 07700 900318.", "I got a new number: 07700 900742."),
        ("My manager is Priya Shah.", "I report to Tomasz Nowak now."),
    ],
)
def test_a_new_value_of_a_single_valued_slot_replaces_the_old(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "u", old, "The weather has been awful all week.", new)
    current = texts(store, "u")
    assert old not in current and new in current
    (first,) = [f for f in store.timeline("u").versions if f.text == old and f.version == 1]
    history = store.history(first.id)
    assert len(history.superseded_by) == 1
    change = history.changes[0]
    assert change.reason.startswith("rule:slot:") and 0 < change.confidence <= 1
    assert old in texts(store, "u", n=1), "what was true then stays true then"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I smoke about ten a day.", "I quit smoking last month."),
        ("I'm allergic to peanuts.", "Turns out I'm not allergic to peanuts any more."),
        ("We're going to Lisbon in June.", "We called off the Lisbon trip."),
        ("I play the cello in an orchestra.", "I gave up the cello."),
    ],
)
def test_a_negated_or_stopped_claim_ends_the_old_one(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "n", old, new)
    assert old not in texts(store, "n") and new in texts(store, "n")


def test_a_plan_cancelled_before_it_began_is_never_valid(store: MemoryStore) -> None:
    """The later clause's "next year" dates the new fact, not the cancellation: the trip ends
    when the change was said (`ends_at`), so it is valid at no time; so too when an update
    is applied by hand."""
    trip = "I'm flying to Lisbon on May 14 for a wedding."
    off = "The Lisbon trip is cancelled, the wedding got postponed to next year."
    say(store, "p", trip, off)
    may = Basis(valid_at=datetime(2024, 5, 20, tzinfo=UTC), known_at=day(5))
    assert trip not in {f.text for f in store.snapshot("p", basis=may)}
    believed = Basis(valid_at=may.valid_at, known_at=day(0))
    (fact,) = [f for f in store.snapshot("p", basis=believed) if f.text == trip]
    assert store.history(fact.id).superseded_by, "retired, its history kept"
    (planned,) = store.remember(trip, namespace="q", at=T0)
    (later,) = store.remember(off, namespace="q", at=day(1), updates="off")
    store.apply_update(
        Update(fact=later.id, replaced=planned.id, reason="r", confidence=1.0), at=day(3)
    )
    assert trip not in {f.text for f in store.snapshot("q", basis=may)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I love a flat white in the morning.", "I also really like espresso."),
        ("I live in Lyon.", "My sister moved to Berlin last month."),
        ("I live in Lyon.", "I lived in Madrid as a student."),
        ("I live in Lyon.", "I'd love to live by the sea one day."),
        ("I work at Siemens.", "Should I apply for that job at BMW?"),
        ("We have a cat called Miso.", "We adopted a second cat called Udon."),
    ],
)
def test_additions_and_claims_about_others_retire_nothing(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "a", old, new)
    assert old in texts(store, "a")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I drive a 2012 Honda Jazz.", "I lost my car keys again, they turned up in the shed."),
        ("I live in Brighton.", "this week I'm working from my parents' place in Norfolk"),
        ("My mate Tom lives in Edinburgh.", "Tom's been talking about moving to Glasgow."),
        ("My mobile is 07911 123456.", "I've got a work phone too now, 07911 654321."),
        ("我平时坐地铁四号线上班。", "这周地铁施工，只能先打车上班了"),
        ("我发小刘洋在字节做产品经理", "我表妹刚换了工作，去了一家面包店"),
    ],
)
def test_passing_states_talk_and_additions_retire_nothing(
    store: MemoryStore, old: str, new: str
) -> None:
    """A temporary stay, talk of a move, a second phone, another person's change: the old
    fact stays true."""
    say(store, "t", old, new)
    assert old in texts(store, "t")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "My mate Jonathan drives a black Audi A3.",
            "jonno wrote off the audi, he drives a skoda now",
        ),
        (
            "My son Oliver goes to St Mary's Primary School.",
            "ollie has started at Kingsway Academy",
        ),
        ("My sister Katherine lives in Leeds.", "katie's moved to York, she loves it"),
        ("我发小刘洋在字节做产品经理", "洋子辞职回老家了，现在在税务局上班"),
        ("我爸李建国在县医院当医生", "建国同志今天正式退休啦"),
        ("儿子在实验小学上三年级。", "孩子转学了，现在在育才小学"),
        ("My daughter Amelia goes to St Bride's primary.", "Millie started at Westfield Academy"),
        ("My colleague Dev lives in Bath.", "Devendra moved to Leeds last month."),
    ],
)
def test_a_person_called_by_a_short_name_or_a_general_word_is_the_one_named(
    store: MemoryStore, old: str, new: str
) -> None:
    """ "jonno" is Jonathan, 洋子 is 刘洋, 建国 is 李建国, 孩子 is the son: the change is theirs."""
    say(store, "n", old, new)
    assert old not in texts(store, "n") and new in texts(store, "n")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I drive a 2015 VW Golf.", "Picked up a used Kia Niro this morning!"),
        ("我用的华为Mate 40，电池不太行了", "新入了小米14，华为给我妈用了"),
        ("我妈用的还是老年机，只能打电话", "给我妈买了个vivo，她天天刷抖音"),
        ("My sister Harriet still uses an ancient iPhone 8.", "Hattie finally got a Pixel 8"),
    ],
)
def test_a_brand_got_replaces_the_value_of_its_kind(store: MemoryStore, old: str, new: str) -> None:
    """A Kia is a car, a 小米 a phone: getting one replaces the car or phone held."""
    say(store, "b", old, new)
    assert old not in texts(store, "b") and new in texts(store, "b")


def test_a_chinese_statement_without_a_subject_goes_on_about_the_one_before(
    store: MemoryStore,
) -> None:
    """老爷子 is the father; "搬到苏州了" after him in the same message is his move, not the
    speaker's; 我搬到苏州了 is the speaker's."""
    say(store, "c", "我住在上海", "我爸住在杭州", "老爷子退休了。搬到苏州了")
    assert {"我住在上海", "搬到苏州了"} <= texts(store, "c")
    assert "我爸住在杭州" not in texts(store, "c")
    say(store, "f", "我住在上海", "我爸住在杭州", "老爷子挺好的。我搬到苏州了")
    assert "我爸住在杭州" in texts(store, "f")  # 我 says whose move it is
    assert "我住在上海" not in texts(store, "f")


def test_a_chinese_number_known_by_its_shape_replaces_the_old(store: MemoryStore) -> None:
    old, new = "我手机号138 0571 2246，快递啥的填这个就行", "换号了啊，新的是199 2803 6617"
    again = "再发一遍我号码哈，199 2803 6617，别记错了"  # said again: kept
    say(store, "p", old, new, again)
    assert old not in texts(store, "p") and {new, again} <= texts(store, "p")


def test_a_date_moved_replaces_the_appointment(store: MemoryStore) -> None:
    """An appointment (约在) and the date it is moved to (推迟到) are one kind of value."""
    say(store, "d", "奶奶的白内障手术约在3月12号", "奶奶手术推迟到月底了")
    assert "奶奶的白内障手术约在3月12号" not in texts(store, "d", 11)
    assert "奶奶手术推迟到月底了" in texts(store, "d", 11)


@pytest.mark.parametrize(
    ("old", "new", "question"),
    [
        (
            "I have a dentist appointment on Thursday 14 March at 9:30.",
            "The dentist's office called and moved my appointment to Tuesday 19 March at 4pm.",
            "When is my dentist appointment?",
        ),
        (
            "周四下午三点约了牙医。",
            "牙医诊所刚打电话，说改到下周二上午十点了。",
            "我的牙医预约是什么时候？",
        ),
    ],
)
def test_an_appointment_moved_to_a_later_day_holds_from_when_it_was_said(
    store: MemoryStore, old: str, new: str, question: str
) -> None:
    """The date an appointment is on is its value: the move is what holds from the day it was
    said, before and after that date (not "until next Tuesday", not only from it)."""
    say(store, "appt", old, new)
    for n in (3, 30):
        assert texts(store, "appt", n) == {new}
    assert new in store.context(question, namespace="appt", basis=now(3))


def test_a_time_someone_is_said_to_name_later_does_not_date_the_statement(
    store: MemoryStore,
) -> None:
    """一上来就说下个月涨五百: the new landlord is so from the day it was said, not next month."""
    new = "房子被阿姨卖了，新房东是个九零后小哥，一上来就说下个月涨五百"
    say(store, "rep", "我们房东是个上海阿姨，人很好", new)
    assert texts(store, "rep", 3) == {new}


def test_a_short_name_of_someone_else_changes_nothing_of_the_speakers(store: MemoryStore) -> None:
    """洋子辞职 is 刘洋's, so the speaker's own job stays."""
    say(store, "s", "我在美团做运营", "我发小刘洋在字节做产品经理", "洋子辞职回老家了")
    assert "我在美团做运营" in texts(store, "s")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I bank with Barclays.", "moved all my money over to Monzo, the app is so much better"),
        ("We get a HelloFresh box every week.", "hellofresh is off, we went with gousto"),
        ("I smoke about ten a day.", "three months without a cigarette today!"),
        ("My manager is Karen.", "karen got promoted, Dev is my boss now"),
        ("My brother Tom lives in Manchester.", "tom's moved down to bristol for his new job"),
        # a word only a relative is called ("sis") is the sister the pronoun points back to
        ("My sister lives up in Glasgow.", "sis moved down south, she's renting a flat in Bath"),
        ("I bank with Barclays.", "Current account switch to Starling went through, finally."),
        ("I'm a data analyst at Monzo.", "Served my notice and today was day one at Ocado."),
        ("我每天晚上不喝两瓶啤酒睡不着", "戒酒一个月了，今天体检转氨酶终于正常了"),
        ("我们组长是老周，人挺好说话的", "老周调去深圳分公司了，新来的领导姓孙"),
        # stop 42: a manager named before the phrasing, a brand after "my", whose op "they"
        # moved, a number with "if..." after it, a pet mourned by name, Chinese endings
        ("My manager is Ruth Okafor.", "Ruth left, and Sam Ito is taking over as my manager."),
        ("My car is a Toyota Yaris.", "my new Honda Jazz is brilliant on fuel"),
        ("dad's hip op is on the 3rd of june", "they've pushed his op back to the 17th"),
        ("my number is 07700 900111 if you need it", "new number is 07700 900222"),
        ("I have a cat called Mochi.", "rip mochi, we had to say goodbye today"),
        ("我吃素好几年了", "医生让我补铁，这周开始又吃肉了"),
        ("我妈在妇幼医院当护士", "我妈上周办完退休手续了"),
        ("办了张健身房的年卡", "健身卡转让出去了 以后去游泳"),
        ("我爸烟瘾很大，一天一包", "我爸出院到现在，一根都没抽"),
        ("我家女儿果果在彩虹幼儿园上中班", "小家伙今天去育英小学报到了"),
        ("我现在是市场助理，天天做表", "升市场主管了🎉 晚上吃顿好的"),
        (
            "I'm a junior designer at Kestrel.",
            "passed probation and got bumped to mid-level designer",
        ),
        # stop 43: a lowercase name read as an adjective, landlords, schedules, commutes,
        # a Chinese employer by its shape, a car sold to someone and a new one picked up
        ("our broadband is sparrow fibre, it's fine", "ditched sparrow last week, much happier"),
        ("Our landlord is Mrs Okoro.", "the flat got sold, new landlord is Brightkey Homes"),
        ("I work Monday to Friday, nine to five.", "got my compressed hours approved"),
        ("I cycle to work most days.", "it's the bus every morning now, the bike got nicked"),
        ("在星河科技做测试，天天加班", "从星河跑路了，下周去新公司报到"),
        ("我开的是一辆丰田卡罗拉", "卡罗拉卖给我同事了，周六刚提的小鹏P7"),
        ("I'm seeing a guy called Rafael.", "Rafael and I broke up, single again"),
        ("Booked flights to Porto for May!", "Had to push the Porto trip to July, work again."),
        ("我对花生过敏，一吃就起疹子", "复查了，医生说我花生过敏已经好了"),
        ("I wake up at 6:45 on weekdays.", "these days I get up at 5:30 for the early shift"),
        ("我一般凌晨一点才睡", "现在每天十一点准时上床了"),
        # stop 44: a gym by its brand, a lowercase model, a second-hand phone, Chinese
        # phones, homes, favourites, drinks, gyms and employers; endings without a value
        ("I'm a member at PureGym on Deansgate.", "Switched to The Gym Group, it's closer."),
        ("typing this on my pixel 6, screen's cracked lol", "got a second hand iPhone 13"),
        ("我用的是iPhone 12，电池不太行了", "我又换成小米14了"),
        ("我姐在深圳工作，住南山那边", "我姐调回成都了，已经在那边租好房子了"),
        ("我最喜欢的水果是芒果", "我最喜欢的水果现在是榴莲"),
        ("每天早上一杯瑞幸生椰拿铁，不喝上班就没魂", "医生让我别碰咖啡了，现在早上改喝豆浆"),
        ("my coffee order is a flat white", "my order is now an oat latte"),
        ("I don't really exercise at all, total couch potato.", "apparently I'm a runner now"),
        ("My son Oscar is allergic to eggs.", "Oscar's consultant says he's grown out of it"),
        ("我在乐刻办的卡，就在小区楼下", "现在都去公司旁边的超级猩猩上团课了"),
        ("我对象在一家4A广告公司当文案", "他被猎头挖去小红书做内容策划了！"),
        ("我奶奶一个人住在老家县城", "奶奶上个月住进镇上的养老院了"),
        ("I work nights at the hospital.", "finally off nights, I'm on days now"),
        ("im at deloitte atm, audit team lol", "first day at KPMG tomorrow, wish me luck"),
        ("Our cleaner is Anna.", "We've got a new cleaner, Tomasz, he comes on Mondays."),
        (
            "We rent a little flat near the harbour in Bristol.",
            "first night in the new place in Cardiff",
        ),
        ("我们公司是朝九晚六，双休。", "公司改成大小周了，隔一周要上六天班。"),
        ("我室友叫张磊，是个程序员。", "张磊搬走了，新室友是个叫小林的研究生。"),
        ("我表哥阿杰在广州开了家奶茶店", "阿杰把广州的店盘出去了 回长沙老家了"),
        # a time someone is said to name in a later clause does not date the new landlord
        (
            "我们房东是个上海阿姨，人很好",
            "房子被阿姨卖了，新房东是个九零后小哥，一上来就说下个月涨五百",
        ),
    ],
)
def test_a_change_by_brand_event_or_ended_habit_retires_the_old_fact(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "g", old, "The weather has been awful all week.", new)
    assert old not in texts(store, "g") and new in texts(store, "g")
    (first,) = [f for f in store.timeline("g").versions if f.text == old and f.version == 1]
    assert store.history(first.id).changes[0].reason.startswith("rule:")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My brother Tom lives in Manchester.", "Tom's new flat in Manchester has a balcony"),
        ("I bank with Barclays.", "opened a savings account with Marcus, better interest"),
        ("Our energy supplier is British Gas.", "Our neighbours switched to Octopus."),
        # stop 42: someone else's brand after "my", a team that lost, a new car said again
        ("I drive a Mazda MX-5.", "had a spin in my cousin's Porsche Cayman today"),
        ("I've supported Leeds United for years.", "The team I follow lost again, typical"),
        ("我开的是一辆大众朗逸", "我又买了一辆车，给我老婆开"),
        # stop 43: someone else's commute and employer
        ("I cycle to work most days.", "my sister takes the bus every morning"),
        ("我在云端科技做开发", "我老公在海川集团做销售"),
        ("I'm married to Priya.", "I was engaged once before, back in my twenties."),
        ("I wake up at 6:45 every weekday.", "On weekends I wake up at 10, bliss."),
        ("我一般凌晨一点才睡", "熊猫睡觉的时候喜欢抱着树枝"),
        # stop 44: an allergy outgrown long ago, a question about a change, still only one,
        # the company's move, another favourite
        ("I'm allergic to cats.", "I was allergic to eggs until I was 7 and then grew out of it"),
        ("我通勤骑的是一台小牛电动车", "小牛那台电池越来越不行了，要不要干脆换台雅迪的？"),
        ("我养了只柯基叫豆豆", "家里还是只有豆豆一只狗哈，没再养别的"),
        ("我在公司是做测试的", "公司搬到郊区了"),
        ("我最喜欢的水果是芒果", "我最喜欢的颜色是蓝色"),
    ],
)
def test_a_restated_value_a_second_account_and_the_neighbours_retire_nothing(
    store: MemoryStore, old: str, new: str
) -> None:
    say(store, "k", old, new)
    assert {old, new} <= texts(store, "k")


def test_a_brand_is_found_by_its_category(store: MemoryStore) -> None:
    say(store, "c", "We pay for Netflix every month.", "My sister lives in Leeds.")
    context = store.context("Which streaming service is ours?", namespace="c", basis=now(5))
    assert "Netflix" in context


def test_a_question_finds_a_fact_by_the_kind_of_thing_it_names(store: MemoryStore) -> None:
    """ "handset" is a word of the phone family: the Galaxy (a phone by its brand) is found."""
    say(store, "q", "My sister finally learned how to use video calls.", "Got a Galaxy S23.")
    assert "Galaxy S23" in store.context("Which handset do I use?", namespace="q", basis=now(5))


def test_a_pronoun_is_resolved_to_the_person_it_points_back_to(store: MemoryStore) -> None:
    say(
        store,
        "p",
        "My friend Kenji lives in Osaka.",
        "I live in Leeds.",
        "Kenji messaged me last night. He's moved back to Tokyo for good.",
    )
    current = texts(store, "p")
    assert "My friend Kenji lives in Osaka." not in current
    assert "I live in Leeds." in current, "the speaker's home is not Kenji's"
    tokyo = next(f for f in store.snapshot("p", basis=now(9)) if "Tokyo" in f.text)
    claims = store.history(tokyo.id).claims[tokyo.version_id]
    assert [(c.subject, c.slot, c.value) for c in claims if c.slot != "topic"] == [
        ("person:kenji", "residence", "Tokyo")
    ]
    assert {c.subject for c in claims} == {"person:kenji"}, "the topic rule's claim is Kenji's"


def test_a_relative_named_once_is_the_same_person_later(store: MemoryStore) -> None:
    say(
        store,
        "r",
        "My dad Pete works at the Nissan plant in Sunderland.",
        "I work at Greggs.",
        "Dad retired on friday after 31 years at Nissan!",
    )
    current = texts(store, "r")
    assert "My dad Pete works at the Nissan plant in Sunderland." not in current
    assert "I work at Greggs." in current, "the speaker's job is not dad's"


@pytest.mark.parametrize(
    "lines",
    [  # small talk about a name between the two: the pronoun still means the child
        (
            "My son is learning chess at the youth centre on weekends.",
            "Mina said the café downstairs always has a queue.",
            "He said chess is too boring and quit, so now he does Lego robotics instead.",
        ),
        (
            "我女儿每周六去少年宫学钢琴。",
            "小敏说楼下新开了家咖啡店，排队的人特别多。",
            "她说钢琴太无聊了死活不去了，现在改学画画。",
        ),
        (  # the slot is the topic: the one who has an allergy
            "My daughter Isla has a peanut allergy.",
            "Maya said the café downstairs always has a queue.",
            "She's outgrown it!",
        ),
    ],
)
def test_a_pronoun_points_to_the_one_its_topic_is_held_about(
    store: MemoryStore, lines: tuple[str, str, str]
) -> None:
    say(store, "h", *lines)
    current = texts(store, "h")
    assert lines[0] not in current, "the child's old fact is retired, not the friend's"
    assert lines[1] in current and lines[2] in current


def test_a_pronoun_reaches_past_the_names_of_small_talk_to_its_topic(store: MemoryStore) -> None:
    names = [
        "Rhys's baby arrived on Wednesday.",
        "Piotr told me a story about a ferret.",
        "Ayesha sent me a photo of a puppy.",
        "Kofi's baby arrived on Sunday.",
        "Grace made stroganoff for dinner.",
    ]
    say(store, "m", "My daughter Maisie is allergic to eggs.", *names, "She's outgrown it!")
    assert texts(store, "m") == {*names, "She's outgrown it!"}


def test_what_was_said_with_a_retired_fact_ends_with_it(store: MemoryStore) -> None:
    say(
        store,
        "w",
        "My cat Biscuit knocked my tea over again. 14 years old and still pure chaos.",
        "I live in Lyon. I work at Airbus. The weather is lovely.",
        "We had to put Biscuit to sleep yesterday.",
        "I moved to Berlin.",
    )
    assert texts(store, "w") == {
        "We had to put Biscuit to sleep yesterday.",
        "I work at Airbus.",  # a claim of its own: kept
        "The weather is lovely.",  # a new home, not an ending: says nothing of the rest
        "I moved to Berlin.",
    }
    (chaos,) = [
        f for f in store.timeline("w").versions if f.text.startswith("14") and f.version == 1
    ]
    assert store.history(chaos.id).changes[0].reason.startswith("rule:said with ")


@pytest.mark.parametrize(
    "lines",
    [  # a change said of a name ends the fact about someone else that names it
        ("My flatmate is Hollie, we met at uni.", "Hollie moved out to live with her boyfriend."),
        ("Dad's GP is Dr Okafor.", "Dr Okafor retired, so dad has Dr Shah now."),
    ],
)
def test_a_change_of_a_name_ends_what_another_subject_holds_by_it(
    store: MemoryStore, lines: tuple[str, str]
) -> None:
    say(store, "h", *lines)
    assert texts(store, "h") == {lines[1]}


def test_a_name_that_changes_nothing_else_leaves_other_subjects_alone(store: MemoryStore) -> None:
    say(store, "a", "My sister Anna lives in Paris.", "Mum visited Anna.", "Anna moved to Berlin.")
    assert texts(store, "a") == {"Mum visited Anna.", "Anna moved to Berlin."}


def test_a_relative_not_named_before_is_someone_else(store: MemoryStore) -> None:
    say(store, "o", "My dad Pete works at the Nissan plant.", "My uncle retired last week.")
    assert "My dad Pete works at the Nissan plant." in texts(store, "o")


@pytest.mark.parametrize(
    ("text", "starts"),
    [  # a time in a wish said after the main clause does not date the switch
        ("I gave up Japanese, I'm learning Spanish now, want to visit Madrid next year.", 1),
        ("日语劝退了，现在改学西班牙语了，明年想去巴塞罗那。", 1),
        ("I'm moving to Madrid next year.", 306),  # the statement's own time still counts
    ],
)
def test_a_wish_after_the_main_clause_does_not_date_the_statement(
    store: MemoryStore, text: str, starts: int
) -> None:
    (fact,) = store.remember(text, namespace="w", at=day(1))
    assert (fact.valid_from.date() - T0.date()).days == starts


def test_the_later_clause_of_one_message_wins_and_both_are_recorded(store: MemoryStore) -> None:
    say(
        store,
        "c",
        "I live in Lyon, near the market.",
        "I live in Lyon, well actually since Monday I live in Berlin.",
    )
    (berlin,) = [f for f in store.snapshot("c", basis=now(9))]
    claims = store.history(berlin.id).claims[berlin.version_id]
    assert [c.value for c in claims if c.slot == "residence"] == ["Lyon", "Berlin"]


def test_a_claim_on_an_empty_slot_is_a_plain_addition(store: MemoryStore) -> None:
    (fact,) = store.remember("I moved to Berlin.", namespace="e", at=T0)
    assert fact.supersedes is None
    assert store.history(fact.id).changes == ()


def test_updates_apply_within_one_bulk_import(store: MemoryStore) -> None:
    items = [
        {"text": "I live in Lyon.", "at": day(0), "id": "m1"},
        {"text": "I like jazz.", "at": day(1), "id": "m2"},
        {"text": "I moved to Berlin.", "at": day(2), "id": "m3"},
    ]
    store.remember_many(items, namespace="b")
    assert texts(store, "b") == {"I like jazz.", "I moved to Berlin."}
    assert store.remember_many(items, namespace="b")[2][0].text == "I moved to Berlin."


# --- suggest, off, undo ---------------------------------------------------------------------
def test_suggest_leaves_the_update_to_the_caller(store: MemoryStore) -> None:
    s = MemoryStore(store.backend, formation=Formation(updates="suggest"), owns_backend=False)
    lyon = s.remember("I live in Lyon.", namespace="s", at=T0)[0]
    berlin = s.remember("I moved to Berlin.", namespace="s", at=day(1))[0]
    assert texts(s, "s") == {"I live in Lyon.", "I moved to Berlin."}
    (update,) = s.pending_updates("s", at=day(2))
    assert (update.fact, update.replaced) == (berlin.id, lyon.id)
    s.apply_update(update, at=day(3))
    assert texts(s, "s") == {"I moved to Berlin."}
    assert s.history(lyon.id).changes[0].reason == update.reason
    assert s.pending_updates("s", at=day(4)) == []


def test_off_records_claims_and_changes_nothing(store: MemoryStore) -> None:
    store.remember("I live in Lyon.", namespace="o", at=T0)
    berlin = store.remember("I moved to Berlin.", namespace="o", at=day(1), updates="off")[0]
    assert texts(store, "o") == {"I live in Lyon.", "I moved to Berlin."}
    assert store.history(berlin.id).claims[berlin.version_id][0].value == "Berlin"
    with pytest.raises(InvalidInput):
        store.remember("I moved to Rome.", namespace="o", at=day(2), updates="maybe")


def test_one_call_undoes_an_automatic_update_without_losing_anything(store: MemoryStore) -> None:
    lyon = store.remember("I live in Lyon.", namespace="d", at=T0)[0]
    berlin = store.remember("I moved to Berlin.", namespace="d", at=day(1))[0]
    versions_before = len(store.history(lyon.id))
    (restored,) = store.undo_update(berlin.id, at=day(2))
    assert restored.id == lyon.id and restored.valid_to is None
    assert texts(store, "d") == {"I live in Lyon.", "I moved to Berlin."}
    history = store.history(lyon.id)
    assert len(history) == versions_before + 1, "every version kept"
    assert history.superseded_by == ()
    assert history.changes[0].undone_at is not None
    assert store.history(berlin.id).supersedes is None
    assert texts(store, "d", n=1.5) == {"I moved to Berlin."}, "as known at 1.5, it was retired"
    with pytest.raises(NotFound):
        store.undo_update(berlin.id)


# --- time from the conversation ------------------------------------------------------------
def test_a_turn_is_remembered_at_the_time_it_was_said(store: MemoryStore) -> None:
    said = day(3)
    (fact,) = store.add_turn(
        Turn(text="Yesterday I moved to Berlin.", role="user", at=said), namespace="turn"
    )
    assert fact.recorded_at == said and fact.valid_from == day(2).replace(hour=0)
    store.remember("I like tea.", namespace="turn", at=day(5))
    (late,) = store.add_turn(
        Turn(text="Yesterday I adopted a cat.", role="user", at=day(4)), namespace="turn"
    )
    assert late.recorded_at > day(5), "said before the latest write: recorded now"
    assert late.said_at == day(4) and late.valid_from == day(3).replace(hour=0)


def test_a_store_clock_replays_a_conversation(store: MemoryStore) -> None:
    clock = [day(10)]
    replay = MemoryStore(store.backend, clock=lambda: clock[0], owns_backend=False)
    (fact,) = replay.remember("Yesterday I moved to Berlin.", namespace="clock")
    assert fact.recorded_at == day(10) and fact.valid_from == day(9).replace(hour=0)
    clock[0] = day(11)
    assert replay.remember("I like tea.", namespace="clock")[0].recorded_at == day(11)
    with pytest.raises(InvalidInput):
        MemoryStore(store.backend, clock="now", owns_backend=False)  # type: ignore[arg-type]


def test_a_namespace_written_before_claims_had_keys_files_them_once(store: MemoryStore) -> None:
    """Claims are found by lookup keys in namespaces created since; an older namespace (no
    `claim_keys` mark, no keys) has its claims filed under keys by its first write that may
    retire something, which finds its updates; later writes read by key only."""
    say(store, "old", "I live in Lyon.", "I like jazz.", "I drive a Golf.")
    inner = getattr(store.backend, "inner", store.backend)
    inner._write("MATCH (n:Namespace {name: 'old'}) SET n.claim_keys = NULL", {})
    inner._write("MATCH (k:ClaimKey) DETACH DELETE k", {})
    assert store.backend.unkeyed_claims("old") is not None
    store.remember("I moved to Berlin.", namespace="old", at=day(5))
    assert texts(store, "old") == {"I like jazz.", "I drive a Golf.", "I moved to Berlin."}
    assert store.backend.unkeyed_claims("old") is None
    assert inner._read("MATCH (k:ClaimKey) RETURN count(k)", {})[0][0] > 0
    by_subject = store.backend.claims
    store.backend.claims = lambda *a: pytest.fail("read by subject")  # type: ignore[method-assign]
    try:
        store.remember("I sold my car and drive a Tesla now.", namespace="old", at=day(6))
    finally:
        store.backend.claims = by_subject  # type: ignore[method-assign]
    tesla = "I sold my car and drive a Tesla now."
    assert texts(store, "old") == {"I like jazz.", "I moved to Berlin.", tesla}
    store.remember("I moved to Rome.", namespace="new", at=day(5))
    store.remember("I like jazz.", namespace="new", at=day(6))
    store.remember("I moved to Oslo.", namespace="new", at=day(7))
    assert texts(store, "new") == {"I like jazz.", "I moved to Oslo."}
