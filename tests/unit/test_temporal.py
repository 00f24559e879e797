"""Valid time from statement text: the rule resolver (own sentences; the dev set stays held out)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bitemporal_core.errors import InvalidInput, InvalidInterval, NaiveDatetime
from bitemporal_core.language.temporal import (
    ResolvedTime,
    RuleResolver,
    TimeResolver,
    default_resolver,
)

# A Wednesday afternoon.
SAID = datetime(2025, 3, 12, 15, 30, tzinfo=UTC)
RESOLVER = default_resolver()


def resolve(text: str, said_at: datetime = SAID) -> ResolvedTime | None:
    return RESOLVER.resolve(text, said_at)


def start_of(text: str, said_at: datetime = SAID) -> str | None:
    """The resolved `valid_from` as an ISO date (None: no expression); it must be UTC midnight."""
    result = resolve(text, said_at)
    if result is None:
        return None
    assert result.valid_from.tzinfo == UTC
    assert result.valid_from.time() == datetime.min.time(), result
    return result.valid_from.date().isoformat()


def interval(text: str, said_at: datetime = SAID) -> tuple[str, str | None]:
    result = resolve(text, said_at)
    assert result is not None, text
    end = result.valid_to.date().isoformat() if result.valid_to else None
    return result.valid_from.date().isoformat(), end


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We had pizza yesterday evening.", "2025-03-11"),
        ("Earlier today I walked the dog.", "2025-03-12"),
        ("This afternoon my boss called.", "2025-03-12"),
        ("Tonight the kids are staying with grandma.", "2025-03-12"),
        ("Tomorrow morning I see the doctor.", "2025-03-13"),
        ("We sold the old sofa the day before yesterday.", "2025-03-10"),
        ("The day after tomorrow the plumber comes.", "2025-03-14"),
        ("Last night the heating broke.", "2025-03-11"),
    ],
)
def test_day_words(text: str, expected: str) -> None:
    assert start_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Five days ago my laptop broke.", "2025-03-07"),
        ("Twenty-one days ago I quit sugar.", "2025-02-19"),
        ("A couple of weeks ago we met at a wedding.", "2025-02-26"),
        ("Eleven months ago I adopted a rabbit.", "2024-04-12"),
        ("My grandmother died three years ago.", "2022-03-12"),
        ("In a fortnight I travel to Oslo.", "2025-03-26"),
        ("In four months we move to Porto.", "2025-07-12"),
        ("Three weeks from now the course ends.", "2025-04-02"),
        ("In 10 days the exam starts.", "2025-03-22"),
        ("I have played the cello for six years.", "2019-03-12"),
        ("For the past two months I've been running.", "2025-01-12"),
        ("A year and a half ago we bought the flat.", "2023-09-12"),
        ("Half a year ago I changed banks.", "2024-09-12"),
    ],
)
def test_offsets(text: str, expected: str) -> None:
    assert start_of(text) == expected


def test_hours_ago_is_an_instant() -> None:
    result = resolve("Two hours ago I ate a sandwich.")
    assert result is not None
    assert result.valid_from == SAID - timedelta(hours=2)
    assert result.granularity == "instant"


def test_durations_are_not_offsets() -> None:
    assert resolve("I lost 5 kg in two weeks.") is None  # past tense: a duration
    assert resolve("I lived in Lyon for six years.") is None  # no present perfect
    assert resolve("My son is 7 years old.") is None


@pytest.mark.parametrize(
    ("text", "expected", "granularity"),
    [
        ("I repainted the kitchen last week.", "2025-03-03", "week"),
        ("This week I am working nights.", "2025-03-10", "week"),
        ("The week before last I had the flu.", "2025-02-24", "week"),
        ("Next month my sister visits.", "2025-04-01", "month"),
        ("Last month I joined a choir.", "2025-02-01", "month"),
        ("The month after next we renovate.", "2025-05-01", "month"),
        ("Last year we bought a caravan.", "2024-01-01", "year"),
        ("Next year I will run a half marathon.", "2026-01-01", "year"),
        ("This time last year I was in Rome.", "2024-03-12", "day"),
        ("By the end of the month I will finish the report.", "2025-03-31", "day"),
        ("At the beginning of next year I change jobs.", "2026-01-01", "day"),
    ],
)
def test_calendar_units(text: str, expected: str, granularity: str) -> None:
    result = resolve(text)
    assert result is not None
    assert (result.valid_from.date().isoformat(), result.granularity) == (expected, granularity)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Last Wednesday I cooked for ten people.", "2025-03-05"),  # said on a Wednesday
        ("Next Wednesday I cook for my in-laws.", "2025-03-19"),
        ("Last Sunday we went to the zoo.", "2025-03-09"),
        ("Next Tuesday the new fridge arrives.", "2025-03-18"),
        ("This Friday I'm going out with colleagues.", "2025-03-14"),
        ("This Monday I went swimming.", "2025-03-10"),
        ("On Friday I went to the gym.", "2025-03-07"),
        ("On Friday I will go to the gym.", "2025-03-14"),
        ("Since Monday I have had a cold.", "2025-03-10"),
        ("Last weekend we hiked in the hills.", "2025-03-08"),
        ("This weekend we are painting the fence.", "2025-03-15"),
        ("Next weekend we visit my aunt.", "2025-03-15"),
        ("Three weekends ago we went sailing.", "2025-02-22"),
        ("Over the weekend I repaired the bike.", "2025-03-08"),
        ("On the weekend we will repair the bike.", "2025-03-15"),
    ],
)
def test_weekdays_and_weekends(text: str, expected: str) -> None:
    assert start_of(text) == expected


def test_next_weekend_on_a_saturday_is_the_following_one() -> None:
    saturday = datetime(2025, 3, 15, 9, 0, tzinfo=UTC)
    assert start_of("Next weekend we go camping.", saturday) == "2025-03-22"
    assert start_of("Last weekend we went camping.", saturday) == "2025-03-08"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Last Christmas my uncle gave me a drone.", "2024-12-25"),
        ("On Christmas Eve we will sing carols.", "2025-12-24"),
        ("Over Christmas we stayed at home.", "2024-12-25"),
        ("At Easter we painted eggs.", "2024-03-31"),
        ("On Thanksgiving we ate turkey.", "2024-11-28"),
        ("On New Year's Eve we danced until four.", "2024-12-31"),
        ("We'll get engaged on Valentine's Day.", "2026-02-14"),
        ("Halloween 2021 was our first party together, on Halloween 2021.", "2021-10-31"),
    ],
)
def test_named_days(text: str, expected: str) -> None:
    assert start_of(text) == expected


def test_named_day_just_after_it_took_place() -> None:
    jan_5 = datetime(2025, 1, 5, 8, 0, tzinfo=UTC)
    assert start_of("On New Year's Day I slept late.", jan_5) == "2025-01-01"
    assert start_of("On Christmas Day we opened presents.", jan_5) == "2024-12-25"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We married on the 4th of July 2015.", "2015-07-04"),
        ("I was born on 12/25/1990.", "1990-12-25"),
        ("The lease starts on 25.12.2024.", "2024-12-25"),
        ("The parcel shipped on 2024-08-19.", "2024-08-19"),
        ("Her visa expires on January 9th, 2027.", "2027-01-09"),
        ("On 7 June I flew to Riga.", "2024-06-07"),
        ("On 7 June I will fly to Riga.", "2025-06-07"),
        ("I flew to Riga on the first of June.", "2024-06-01"),
        ("I retired in October 2019.", "2019-10-01"),
        ("I was born in 1987.", "1987-01-01"),
        ("We have lived here since 2004.", "2004-01-01"),
        ("In the 90s my father ran a bakery.", "1990-01-01"),
        ("In March I started yoga.", "2025-03-01"),
        ("Last April I planted a cherry tree.", "2024-04-01"),
        ("Next September my daughter starts school.", "2025-09-01"),
        ("On the 10th I paid the rent.", "2025-03-10"),
        ("I'll see you on the 21st.", "2025-03-21"),
        ("Friday, we went to the cinema.", "2025-03-07"),
    ],
)
def test_calendar_dates(text: str, expected: str) -> None:
    assert start_of(text) == expected


def test_year_inferred_from_tense() -> None:
    # Said in March: a past "15 August" is last year's, a future one this year's.
    assert start_of("I crashed my bike on 15 August.") == "2024-08-15"
    assert start_of("I am going to crash on 15 August.") == "2025-08-15"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Last winter the lake froze.", "2024-12-01"),
        ("Last summer we toured Sicily.", "2024-06-01"),
        ("Next spring we plant potatoes.", "2026-03-01"),
        ("In summer 2019 I hiked in Peru.", "2019-06-01"),
        ("This autumn we'll go to Japan.", "2025-09-01"),
    ],
)
def test_seasons(text: str, expected: str) -> None:
    assert start_of(text) == expected


def test_last_summer_during_summer_is_the_previous_one() -> None:
    july = datetime(2024, 7, 20, tzinfo=UTC)
    assert start_of("Last summer we rented a boat.", july) == "2023-06-01"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("From May to July I worked in a bar.", ("2024-05-01", "2024-08-01")),
        ("Between March 3 and March 9 I was away.", ("2025-03-03", "2025-03-10")),
        ("I was in Spain June 3-10.", ("2024-06-03", "2024-06-11")),
        ("From 2010 to 2014 I studied in Leeds.", ("2010-01-01", "2015-01-01")),
        ("Between 2001 and 2003 we lived in Kyoto.", ("2001-01-01", "2004-01-01")),
        ("Between 2 and 5 May we camped by the river.", ("2024-05-02", "2024-05-06")),
        ("From 8 to 11 August we were in Prague.", ("2024-08-08", "2024-08-12")),
        ("From December 20 to January 5 I was on holiday.", ("2024-12-20", "2025-01-06")),
        ("My contract ran from 2023-01-01 to 2023-06-30.", ("2023-01-01", "2023-07-01")),
        ("From Monday to Friday I worked late.", ("2025-03-10", "2025-03-15")),
        ("We'll be in Rome from the 5th to the 12th.", ("2025-04-05", "2025-04-13")),
    ],
)
def test_ranges(text: str, expected: tuple[str, str]) -> None:
    assert interval(text) == expected


def test_until_starts_when_said() -> None:
    result = resolve("I'm busy till Friday.")
    assert result is not None
    assert result.valid_from == SAID
    assert result.valid_to == datetime(2025, 3, 15, tzinfo=UTC)
    assert result.expression == "till Friday"


def test_a_thing_that_went_through_is_done_not_until() -> None:
    """ "The switch went through this week" began this week; "through Friday" is until."""
    done = resolve("The switch went through this week, the old account is closed.")
    assert done is not None and done.valid_to is None and done.valid_from < SAID
    going = resolve("The transfer is going through this week.")
    assert going is not None and going.valid_to is None
    still = resolve("I'm at my mum's through Friday.")
    assert still is not None and still.valid_from == SAID and still.valid_to is not None


def test_until_a_past_time_gives_nothing() -> None:
    assert resolve("Until 2018 I lived in Madrid.") is None


def test_open_range_to_now() -> None:
    assert interval("From 2010 until now I have lived here.") == ("2010-01-01", None)


@pytest.mark.parametrize(
    "text",
    [
        "I love pears.",
        "This is the last year of my degree.",
        "April is my cousin from Leeds.",
        "I gave May 5 dollars for the tickets.",
        "Since May started school she is happier.",
        "We read the Sunday paper in bed.",
        "Sunday is my favourite day.",
        "On Saturday mornings I play tennis.",
        "Every Tuesday we meet for chess.",
        "Her favourite film is Tomorrow Never Dies.",
        "My favourite song is Last Christmas.",
        "We listened to Yesterday's Children all night.",
        "Yesterday's Children is a great band.",
        "The Today show was fun.",
        "I love Christmas.",
        "I had a summer job at a bakery.",
        "The fall of Rome took centuries.",
        "On Chinese New Year we ate dumplings.",
        "The meeting is on 03/04/2024.",  # ambiguous day and month
        "I have 2019 reasons to stay.",
        "On the 3rd floor there is a gym.",
        "999 decades ago nothing was here.",  # outside the calendar
        "",
    ],
)
def test_not_temporal(text: str) -> None:
    assert resolve(text) is None


def test_lower_case_possessive_is_still_time() -> None:
    assert start_of("I missed yesterday's meeting.") == "2025-03-11"


def test_precise_date_after_weekday_wins() -> None:
    result = resolve("Last Friday, March 7, I moved house.")
    assert result is not None
    assert result.valid_from.date().isoformat() == "2025-03-07"
    assert result.expression == "Last Friday, March 7"


def test_first_expression_wins() -> None:
    assert start_of("I visited Oslo last year and will go again next year.") == "2024-01-01"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我前天买了一辆自行车。", "2025-03-10"),
        ("大前天我生病了。", "2025-03-09"),
        ("后天我们去海边。", "2025-03-14"),
        ("今晚我们吃火锅。", "2025-03-12"),
        ("明早我要开会。", "2025-03-13"),
        ("上周三我见了老板。", "2025-03-05"),
        ("下周五我要出差。", "2025-03-21"),
        ("这周日我们去爬山。", "2025-03-16"),
        ("星期六我去了超市。", "2025-03-08"),
        ("上周末我们去了公园。", "2025-03-08"),
        ("上个月我换了工作。", "2025-02-01"),
        ("下个月我要搬家。", "2025-04-01"),
        ("去年我去了日本。", "2024-01-01"),
        ("明年我想学日语。", "2026-01-01"),
        ("五天前我丢了钥匙。", "2025-03-07"),
        ("两周前我开始跑步。", "2025-02-26"),
        ("三个月前我搬家了。", "2024-12-12"),
        ("半年前我辞职了。", "2024-09-12"),
        ("十二天后考试。", "2025-03-24"),
        ("2023年5月3日我生了孩子。", "2023-05-03"),
        ("8月3日我去了北京。", "2024-08-03"),
        ("去年夏天我们去了海边。", "2024-06-01"),
        ("去年圣诞节我收到了礼物。", "2024-12-25"),
        ("月底我要交房租。", "2025-03-31"),
        ("从今天开始我每天跑步。", "2025-03-12"),
    ],
)
def test_chinese(text: str, expected: str) -> None:
    assert start_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("上周五我去了医院。", "2025-03-07"),
        ("上周二我们开了会。", "2025-03-04"),
        ("三天前我摔了一跤。", "2025-03-09"),
        ("下个月三号我要体检。", "2025-04-03"),
        ("明年春天我们结婚。", "2026-03-01"),
        ("十一月中旬我要去开会。", "2025-11-11"),
        ("下个月下旬我要考试。", "2025-04-21"),
        ("过几天我去找你。", "2025-03-15"),
        ("过两周我们搬家。", "2025-03-26"),
        ("刚才我看见了一只猫。", "2025-03-12"),
        ("春节我们回老家了。", "2025-01-29"),
        ("明年春节我要去旅游。", "2026-02-17"),
        ("中秋节我要回家看爸妈。", "2025-10-06"),
        ("端午节我们吃了粽子。", "2024-06-10"),
        ("国庆我要去西藏。", "2025-10-01"),
        ("下週五我要出差。", "2025-03-21"),
        ("我２０２４年６月搬到了上海。", "2024-06-01"),
        ("我next Friday要去开会。", "2025-03-14"),
        ("我yesterday去了超市。", "2025-03-11"),
        ("我约了朋友周五吃饭。", "2025-03-14"),
    ],
)
def test_chinese_grown(text: str, expected: str) -> None:
    assert start_of(text) == expected


def test_chinese_week_modifier_is_on_the_week() -> None:
    """上周二 is Tuesday of the previous ISO week, also said on a Friday; the English "last
    Tuesday" is the most recent past Tuesday (docs/chinese.md, "Weeks")."""
    friday = datetime(2025, 3, 14, 9, tzinfo=UTC)
    assert start_of("上周二我见了医生。", friday) == "2025-03-04"
    assert start_of("I saw the doctor last Tuesday.", friday) == "2025-03-11"


def test_chinese_until_and_ranges_grown() -> None:
    assert interval("我休息到下周三。") == ("2025-03-12", "2025-03-20")
    assert interval("从六月三日到十日我在成都。") == ("2025-06-03", "2025-06-11")
    golden_week = resolve("去年国庆我们去了云南。")
    assert golden_week is not None and golden_week.granularity == "holiday"


def test_chinese_ranges() -> None:
    assert interval("从7月3日到7月9日我在东京。") == ("2025-07-03", "2025-07-10")
    assert interval("我7月3日至9日在东京。") == ("2025-07-03", "2025-07-10")
    result = resolve("直到下周五我都在休假。")
    assert result is not None
    assert (result.valid_from, result.valid_to) == (SAID, datetime(2025, 3, 22, tzinfo=UTC))


@pytest.mark.parametrize(
    "text",
    [
        "我喜欢听《明天会更好》。",
        "看一下周围的环境。",
        "我每周一去健身房。",
        "我爱五月天。",
        "我的猫叫明天。",
        "他在明天广场上班。",
        "周一新是我的邻居。",
        "我的生日是农历三月初三。",
    ],
)
def test_chinese_not_temporal(text: str) -> None:
    assert resolve(text) is None


def test_naive_said_at_is_refused() -> None:
    with pytest.raises(NaiveDatetime):
        resolve("yesterday", datetime(2025, 3, 12, 15, 30))


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(InvalidInput):
        RESOLVER.resolve("yesterday", "2025-03-12")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        RESOLVER.resolve(None, SAID)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        RuleResolver(languages=("fr",))


def test_calendar_days_follow_the_speakers_timezone() -> None:
    # 01:00 on May 10 in UTC+8 is still May 9 in UTC: "yesterday" is May 9 local time.
    said = datetime(2024, 5, 10, 1, 0, tzinfo=timezone(timedelta(hours=8)))
    result = resolve("Yesterday I went to Paris.", said)
    assert result is not None
    assert result.valid_from == datetime(2024, 5, 8, 16, 0, tzinfo=UTC)
    assert result.valid_from.tzinfo == UTC


def test_result_fields() -> None:
    result = resolve("I bought a kayak three days ago.")
    assert result == ResolvedTime(
        valid_from=datetime(2025, 3, 9, tzinfo=UTC),
        valid_to=None,
        expression="three days ago",
        granularity="day",
    )


def test_resolved_time_validates() -> None:
    with pytest.raises(NaiveDatetime):
        ResolvedTime(datetime(2025, 1, 1), None, "x", "day")
    with pytest.raises(InvalidInterval):
        ResolvedTime(SAID, SAID, "x", "day")


def test_languages_can_be_limited() -> None:
    assert RuleResolver(languages=("en",)).resolve("我昨天去了巴黎。", SAID) is None
    assert RuleResolver(languages=("zh",)).resolve("I went there yesterday.", SAID) is None


def test_default_resolver_is_the_rule_resolver() -> None:
    resolver = default_resolver()
    assert isinstance(resolver, RuleResolver)
    assert isinstance(resolver, TimeResolver)
    assert resolver.name == "rules"
