"""Chinese rules: 昨天, 前天, 上周六, 下个月, 去年, 三天前, 2023年5月3日, 从6月3日到10日, 春节...

The text is read normalised (full-width folded, traditional simplified: 下週三 is 下周三).
Weeks are ISO weeks (Monday first): 上周六 is the Saturday of the previous week, 下周一 the Monday
of the next one, whatever day it is said (docs/chinese.md, "Weeks": the Chinese modifier is
on the week, where the English "last Tuesday" is on the weekday). Not times: titles in
book-title marks (《明天会更好》), lunar dates (农历八月十五), a time word used as a name (狗叫夏天,
在星期五餐厅, 周一鸣是我的同学).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

import attrs

from bitemporal_core.language.temporal import _zh_tables as tables
from bitemporal_core.language.temporal._calendar import (
    add_months,
    choose,
    day,
    month,
    safe_date,
    season,
    shift,
    week,
    year,
)
from bitemporal_core.language.temporal._en_relative import weekday_date
from bitemporal_core.language.temporal._rules import RuleSet, dedupe, join_range, point, until
from bitemporal_core.language.temporal._types import Context, Hit, Period, Tense

__all__ = ["chinese_hits", "cn_number", "has_cjk"]

ZH = RuleSet(flags=re.NOFLAG)

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
_NUM = r"[0-9０-９]{1,4}|[零〇一二两三四五六七八九十百]{1,5}"
_MONTH = r"1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九]"
_DAY = (
    r"3[01]|[12][0-9]|0?[1-9]|三十一?|二十[一二三四五六七八九]?|十[一二三四五六七八九]?|"
    r"[一二三四五六七八九]"
)
_YEAR = r"[0-9]{4}|[〇零一二三四五六七八九]{4}"
_YEAR_WORDS = {"大前年": -3, "前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2, "大后年": 3}
_YEAR_WORD = "大前年|大后年|前年|去年|今年|明年|后年"
_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_MODS = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}
_CJK = re.compile(r"[\u4e00-\u9fff]")


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


def cn_number(text: str) -> int:
    """The value of "3", "三", "十二", "二十一", "两"; 几 ("a few") counts as 3."""
    if text.isdigit():
        return int(text)
    if text == "几":
        return 3
    if len(text) == 4 and all(ch in _DIGITS for ch in text):  # 二〇二三
        return int("".join(str(_DIGITS[ch]) for ch in text))
    total = current = 0
    for ch in text:
        if ch in _DIGITS:
            current = _DIGITS[ch]
        else:
            total += (current or 1) * (10 if ch == "十" else 100)
            current = 0
    return total + current


_FUTURE = re.compile(
    r"打算|计划|准备|将要|将会|即将|预计|想要|约了|约好|订了|定了|预约|(?<![重主只需])要(?!求)"
)
_PAST = re.compile(r"了|过|曾|已经|刚才|刚刚")


def chinese_tense(text: str) -> Tense:
    if _FUTURE.search(text):
        return "future"
    if _PAST.search(text):
        return "past"
    return None


_DAY_WORDS = {"大前天": -3, "前天": -2, "昨": -1, "今": 0, "明": 1, "后天": 2, "大后天": 3}


@ZH.rule(
    r"(?P<core>大前天|大后天|(?<![之以目提])前天|前天(?!天)|(?<![之以然随])后天|后天(?!天)"
    r"|刚才|刚刚|(?P<w>昨|(?<!如)今|今(?!天天)|明)(?:天|日|晚|夜|早))"
)
def _day_word(m: re.Match[str], ctx: Context) -> Hit | None:
    """昨天, 今晚, 前天, 大后天; 刚才 ("a moment ago") is the day it is said. Not the 后天 of
    之后天天 ("every day since"), the 前天 of 以前天天, the 今天 of 如今天天 ("nowadays"); the
    前天 of 所以前天我去了 is one."""
    offset = _DAY_WORDS.get(m.group("w") or m.group("core"), 0)
    return point(m, day(ctx.today + timedelta(days=offset)))


@ZH.rule(rf"(?P<core>过(?P<n>{_NUM}|几|两)(?:个)?(?P<unit>天|星期|礼拜|周|月))")
def _in_a_while(m: re.Match[str], ctx: Context) -> Hit | None:
    """过几天, 过两周, 过三个月: that long after it is said (几 counts as 3)."""
    unit = _UNITS[m.group("unit")]
    if unit == "month" and "个" not in m.group("core"):
        return None
    return point(m, shift(ctx.said_at, cn_number(m.group("n")), unit))


_UNITS = {"小时": "hour", "分钟": "minute", "天": "day", "日": "day", "周": "week"}
_UNITS |= {"星期": "week", "礼拜": "week", "月": "month", "年": "year"}


@ZH.rule(
    rf"(?<![0-9０-９零〇一二两三四五六七八九十百])(?P<core>(?P<n>{_NUM}|半|几)个?(?P<unit>小时|分钟|天|日|星期|礼拜|周|月|年)(?:以|之)?"
    r"(?P<dir>前|后|後))"
)
def _relative(m: re.Match[str], ctx: Context) -> Hit | None:
    """三天前, 两周后, 五年前, 半年前; "2019年前" (before 2019) and 3日后 after a month are not."""
    unit = _UNITS[m.group("unit")]
    if m.group("unit") == "月" and "个" not in m.group("core"):
        return None  # 三月前: "before March", not "three months ago"
    if unit == "day" and m.group("unit") == "日" and ctx.text[max(0, m.start() - 1)] == "月":
        return None
    sign = -1 if m.group("dir") == "前" else 1
    if m.group("n") == "半":
        halves = {"year": (6, "month"), "month": (15, "day"), "day": (12, "hour")}
        if unit not in halves:
            return None
        n, unit = halves[unit]
    else:
        n = cn_number(m.group("n"))
    if unit == "year" and n >= 1000:
        return None
    return point(m, shift(ctx.said_at, sign * n, unit))


def _after_is_word(ctx: Context, end: int) -> bool:
    """下周 in 一下周围 ("around a bit") is not a week."""
    return ctx.text[end : end + 1] in tuple("围边遭岁年刊报期")


@ZH.rule(r"(?P<core>(?P<mod>上上|下下|上|下|这|本)个?(?:周|星期|礼拜)(?P<d>[一二三四五六日天末])?)")
def _week(m: re.Match[str], ctx: Context) -> Hit | None:
    if ctx.text[max(0, m.start() - 1) : m.start()] == "一" and m.group("mod").startswith("下"):
        return None
    if m.group("d") is None and _after_is_word(ctx, m.end()):
        return None
    base = ctx.today + timedelta(days=7 * _MODS[m.group("mod")])
    d = m.group("d")
    if d is None:
        return point(m, week(base))
    monday = base - timedelta(days=base.weekday())
    if d == "末":
        return point(m, day(monday + timedelta(days=5), "weekend"))
    return point(m, day(monday + timedelta(days=_WEEKDAY[d])))


@ZH.rule(rf"(?P<core>(?P<mod>上上|下下|上|下|这|本)个?月(?:份)?(?:(?P<d>{_DAY})[日号])?)")
def _month_word(m: re.Match[str], ctx: Context) -> Hit | None:
    if ctx.text[max(0, m.start() - 1) : m.start()] == "一" and m.group("mod").startswith("下"):
        return None
    shifted = add_months(ctx.today, _MODS[m.group("mod")])
    if m.group("d") is None:
        return point(m, month(shifted.year, shifted.month))
    found = safe_date(shifted.year, shifted.month, cn_number(m.group("d")))
    return point(m, None if found is None else day(found), rank=2)


def _edge(p: Period, edge: str) -> Period:
    """The day 初 (first), 中 (middle) or 底/末 (last) of a month or year."""
    if edge == "初":
        return day(p.start)
    if edge == "中":
        return day(p.start + (p.end - p.start) / 2)
    return day(p.end - timedelta(days=1))


@ZH.rule(rf"(?P<core>(?:(?P<mod>上上|下下|上|下|这|本)个?|(?P<m>{_MONTH}))?月(?P<e>底|初|中|末))")
def _month_edge(m: re.Match[str], ctx: Context) -> Hit | None:
    """月底, 下个月初, 5月中."""
    edge = m.group("e")
    if m.group("m"):
        mon = cn_number(m.group("m"))
        if not 1 <= mon <= 12:
            return None
        return point(m, choose(lambda y: _edge(month(y, mon), edge), ctx.today, ctx.tense))
    shifted = add_months(ctx.today, _MODS[m.group("mod") or "这"])
    return point(m, _edge(month(shifted.year, shifted.month), edge))


_DEKADS = {"上": 1, "中": 11, "下": 21}


@ZH.rule(rf"(?P<core>(?:(?P<mod>上上|下下|上|下|这|本)个?|(?P<m>{_MONTH}))?月(?P<e>[上中下])旬)")
def _dekad(m: re.Match[str], ctx: Context) -> Hit | None:
    """上旬, 十一月中旬, 下个月下旬: days 1-10, 11-20, 21 to the end of the month."""
    if m.group("m"):
        mon = cn_number(m.group("m"))
        if not 1 <= mon <= 12:
            return None
        whole = choose(lambda y: month(y, mon), ctx.today, ctx.tense)
    else:
        shifted = add_months(ctx.today, _MODS[m.group("mod") or "这"])
        whole = month(shifted.year, shifted.month)
    if whole is None:
        return None
    first = whole.start.replace(day=_DEKADS[m.group("e")])
    last = whole.end if m.group("e") == "下" else first + timedelta(days=10)
    return point(m, Period(first, last, "dekad"), rank=2)


@ZH.rule(rf"(?P<core>(?:(?P<yw>{_YEAR_WORD})|(?P<y>{_YEAR})年)?年?(?P<e>底|初|中|末))")
def _year_edge(m: re.Match[str], ctx: Context) -> Hit | None:
    """年底, 去年底, 明年年初, 2019年底."""
    if "年" not in m.group("core"):
        return None
    if m.group("y"):
        y = cn_number(m.group("y"))
    else:
        y = ctx.today.year + _YEAR_WORDS.get(m.group("yw") or "今年", 0)
    return point(m, _edge(year(y), m.group("e")))


def _month_day(y: int | None, m: re.Match[str], ctx: Context) -> Period | None:
    """The month (and day) of a match in year `y`, or in the year the tense suggests."""
    mon = cn_number(m.group("m"))
    if not 1 <= mon <= 12:
        return None
    if m.group("d") is None:
        if y is not None:
            return month(y, mon)
        return choose(lambda y2: month(y2, mon), ctx.today, ctx.tense)
    d = cn_number(m.group("d"))

    def make(y2: int) -> Period | None:
        found = safe_date(y2, mon, d)
        return None if found is None else day(found)

    return make(y) if y is not None else choose(make, ctx.today, ctx.tense)


@ZH.rule(
    rf"(?P<core>(?P<yw>{_YEAR_WORD})(?:的)?(?:(?P<s>[春夏秋冬])(?:天|季)|(?P<m>{_MONTH})月份?"
    rf"(?:(?P<d>{_DAY})[日号])?)?)"
)
def _year_word(m: re.Match[str], ctx: Context) -> Hit | None:
    """去年, 明年三月, 去年夏天 (winter: the one starting in that year's December)."""
    y = ctx.today.year + _YEAR_WORDS[m.group("yw")]
    if m.group("s"):
        name = {"春": "spring", "夏": "summer", "秋": "autumn", "冬": "winter"}[m.group("s")]
        return point(m, season(y, name))
    if m.group("m"):
        return point(m, _month_day(y, m, ctx), rank=2)
    return point(m, year(y))


@ZH.rule(rf"(?P<core>(?:(?P<y>{_YEAR})年)?(?P<m>{_MONTH})月份?(?:(?P<d>{_DAY})[日号])?)")
def _date(m: re.Match[str], ctx: Context) -> Hit | None:
    """2023年5月3日, 5月3号, 五月 (not 每月, 几个月, 五月天)."""
    y = cn_number(m.group("y")) if m.group("y") else None
    if y is None:
        before = ctx.text[max(0, m.start() - 1) : m.start()]
        if before and (before in "个几每上下这本前去今明" or before.isdigit() or before in _DIGITS):
            return None
        if m.group("d") is None and ctx.text[m.end() : m.end() + 1] == "天":
            return None
    return point(m, _month_day(y, m, ctx), rank=3 if y else 2)


@ZH.rule(rf"(?P<core>(?P<y>{_YEAR})年)(?![前后代级间])")
def _year(m: re.Match[str], ctx: Context) -> Hit | None:
    return point(m, year(cn_number(m.group("y"))), rank=3)


@ZH.rule(
    r"(?<![每一二三四五六七八九十两几这上下本个])(?P<core>(?:星期|礼拜|周)(?P<d>[一二三四五六日天]))"
)
def _weekday(m: re.Match[str], ctx: Context) -> Hit | None:
    """星期六, 周日 without 上/下/这: the tense decides (no tense: the nearest one)."""
    return point(m, day(weekday_date(ctx.today, _WEEKDAY[m.group("d")], "", ctx)))


def _nearest(options: list[date], ctx: Context) -> date:
    """The holiday date the tense points at: the next one in a future sentence, else the
    latest not after today."""
    if ctx.tense == "future":
        return next(x for x in options if x >= ctx.today)
    return [x for x in options if x <= ctx.today][-1]


def _holiday_date(name: str, y: int) -> date | None:
    if name in tables.FIXED_HOLIDAYS:
        mon, d = tables.FIXED_HOLIDAYS[name]
        return date(y, mon, d)
    table, offset = tables.LUNAR_HOLIDAYS[name]
    found = tables.lunar_date(table, y)
    return None if found is None else found + timedelta(days=offset)


_HOLIDAY_NAMES = "|".join(
    sorted([*tables.FIXED_HOLIDAYS, *tables.LUNAR_HOLIDAYS], key=len, reverse=True)
)


_EVERY = re.compile(r"每年|年年|每次|每逢|每到")
_CLAUSE_END = re.compile(r"[，。！？；,.!?;\n]")


def _clause_of(text: str, at: int) -> str:
    """The clause of `text` around position `at`."""
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, at)), default=0)
    end = _CLAUSE_END.search(text, at)
    return text[start : end.start() if end else len(text)]


@ZH.rule(rf"(?P<core>(?:(?P<yw>{_YEAR_WORD})|(?P<y>{_YEAR})年)?(?:的)?(?P<h>{_HOLIDAY_NAMES}))")
def _holiday(m: re.Match[str], ctx: Context) -> Hit | None:
    """圣诞节, 去年国庆, 春节 (lunar holidays from a table of 1990-2049); a public-holiday week
    (国庆, 春节) is that week."""
    name = m.group("h")
    if m.group("yw") or m.group("y"):
        y = cn_number(m.group("y")) if m.group("y") else ctx.today.year + _YEAR_WORDS[m.group("yw")]
        found, rank = _holiday_date(name, y), 3
    elif _EVERY.search(_clause_of(ctx.text, m.start())):
        return None  # 过年去哪儿每年都要吵一架: a habit, no date
    else:
        years = (ctx.today.year - 1, ctx.today.year, ctx.today.year + 1)
        options = [d for d in (_holiday_date(name, y) for y in years) if d is not None]
        found, rank = (_nearest(options, ctx) if len(options) == 3 else None), 2
    if found is None:
        return None
    length = tables.HOLIDAY_DAYS.get(name, 1)
    return point(m, Period(found, found + timedelta(days=length), "holiday"), rank=rank)


_CONNECTOR = re.compile(r"\s*(?:到|至|~|～|-|－|–|—)\s*")
_BARE_DAY = re.compile(rf"(?P<d>{_DAY})[日号]")
_UNTIL_BEFORE = re.compile(r"(?:直到|一直到|截至|截止到?)\s*$")
_UNTIL_AROUND = re.compile(r"到\s*$")
# A bare 到 before a time is "until" (休假到下周五), not after a verb of arriving (回到, 搬到)
# nor of moving a date (改到, 推到, 提前到).
_UNTIL_BARE = re.compile(r"(?<![回来搬送收想得找遇看听见走跑飞开寄拿带等改推挪延换调定约前])到\s*$")
_TITLE = re.compile(r"《[^》]*》|〈[^〉]*〉")
# 到今天整整一百天: a count of time up to now ("as of today, 100 days"), no "until"; not
# 请假到周三，两天后回来 (a real end, then a count of what follows it)
_TALLY_NOW = ("今天", "现在", "目前", "今年")
_TALLY_AFTER = re.compile(
    r"\s*(?:[，,]|整整|已经|刚好|正好|快|都|有)*[\d一二两三四五六七八九十百千半]+个?"
    r"(?:天|年|月|周|星期|礼拜)(?!以?后)"
)


def _join(x: Hit, nxt: Hit | None, ctx: Context) -> tuple[Hit, bool] | None:
    """从6月3日到6月10日, 6月3日至10日, 周一到周五."""
    c = _CONNECTOR.match(ctx.text, x.end)
    if c is None or x.last is not None:
        return None
    start = x.start - 1 if ctx.text[max(0, x.start - 1) : x.start] == "从" else x.start
    if nxt is not None and nxt.start == c.end() and nxt.last is None:
        joined = join_range(start, nxt.end, x.first, nxt.first)
        return (joined, True) if joined else None
    m = _BARE_DAY.match(ctx.text, c.end())
    if m is None or x.first.granularity != "day":
        return None
    found = safe_date(x.first.start.year, x.first.start.month, cn_number(m.group("d")))
    if found is None:
        return None
    joined = join_range(start, m.end(), x.first, day(found, floating=x.first.floating))
    return (joined, False) if joined else None


def _compose(hits: list[Hit], ctx: Context) -> list[Hit]:
    out: list[Hit] = []
    i = 0
    while i < len(hits):
        joined = _join(hits[i], hits[i + 1] if i + 1 < len(hits) else None, ctx)
        out.append(hits[i] if joined is None else joined[0])
        i += 1 if joined is None or not joined[1] else 2
    for k, hit in enumerate(out):
        if hit.last is not None:
            continue
        m = _UNTIL_BEFORE.search(ctx.text, max(0, hit.start - 10), hit.start)
        if m is None and ctx.text.startswith("为止", hit.end):
            m = _UNTIL_AROUND.search(ctx.text, max(0, hit.start - 10), hit.start)
        tally = ctx.text[hit.start : hit.end] in _TALLY_NOW and _TALLY_AFTER.match(
            ctx.text, hit.end
        )
        if m is None and not tally:
            m = _UNTIL_BARE.search(ctx.text, max(0, hit.start - 3), hit.start)
        if m is not None:
            out[k] = until(hit, m.start(), ctx.today)
    return out


_BARE_WEEKDAY = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天]")


def _is_name(hit: Hit, text: str) -> bool:
    """A time word used as (part of) a name: after a naming verb (狗叫夏天), inside an
    employer's or place's name (在星期五餐厅打工), or a weekday that is a surname and given name
    (周一鸣是我的同学)."""
    before, after = text[: hit.start], text[hit.end :]
    if before.endswith(tables.NAMING_VERBS):
        return True
    if before.endswith(tables.PLACE_PREPOSITIONS) and after.startswith(
        tables.ORGANISATION_SUFFIXES
    ):
        return True
    if _BARE_WEEKDAY.fullmatch(text, hit.start, hit.end) and len(after) >= 1:
        nxt = after[0]
        return (
            has_cjk(nxt)
            and nxt not in tables.WEEKDAY_FOLLOWERS
            and (len(after) == 1 or after[1] in tables.NAME_FOLLOWERS)
        )
    return False


def chinese_hits(text: str, said_at: datetime) -> list[Hit]:
    """The Chinese expressions of `text` (normalised, said at `said_at`), in text order."""
    ctx = Context(text, said_at, said_at.date(), chinese_tense)
    titles = [t.span() for t in _TITLE.finditer(text)]
    hits = []
    for h in ZH.find(ctx):
        if any(a <= h.start < b for a, b in titles) or _is_name(h, text):
            continue
        if text[: h.start].endswith(tables.HABIT_MARKERS):
            continue
        if text[: h.start].endswith(tables.LUNAR_MARKERS):
            h = attrs.evolve(h, blocked=True)  # a lunar date: hidden, not resolved
        hits.append(h)
    return _compose(dedupe(hits), ctx)
