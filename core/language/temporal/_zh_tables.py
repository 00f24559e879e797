"""Tables of the Chinese time rules: holidays, the lunar holidays' dates, and the words that
make a time word part of a name (docs/chinese.md, "Time expressions")."""

from __future__ import annotations

from datetime import date

__all__ = [
    "FIXED_HOLIDAYS",
    "HOLIDAY_DAYS",
    "LUNAR_HOLIDAYS",
    "LUNAR_MARKERS",
    "NAME_FOLLOWERS",
    "NAMING_VERBS",
    "ORGANISATION_SUFFIXES",
    "PLACE_PREPOSITIONS",
    "WEEKDAY_FOLLOWERS",
    "lunar_date",
]

FIXED_HOLIDAYS: dict[str, tuple[int, int]] = {
    "平安夜": (12, 24), "圣诞节": (12, 25), "圣诞": (12, 25), "元旦": (1, 1),
    "情人节": (2, 14), "万圣节": (10, 31), "国庆节": (10, 1), "国庆": (10, 1),
    "劳动节": (5, 1), "五一": (5, 1), "儿童节": (6, 1), "教师节": (9, 10),
}  # fmt: skip
"""Holidays on a fixed day of the Gregorian calendar: (month, day)."""

_FIRST_YEAR = 1990
_LUNAR_TABLE = {
    "春节": "0127 0215 0204 0123 0210 0131 0219 0207 0128 0216 0205 0124 0212 0201 0122 0209"
    " 0129 0218 0207 0126 0214 0203 0123 0210 0131 0219 0208 0128 0216 0205 0125 0212 0201"
    " 0122 0210 0129 0217 0206 0126 0213 0203 0123 0211 0131 0219 0208 0128 0215 0204 0124"
    " 0212 0201 0122 0210 0130 0217 0206 0126 0214 0202",
    "端午节": "0528 0616 0605 0624 0613 0602 0620 0609 0530 0618 0606 0625 0615 0604 0622 0611"
    " 0531 0619 0608 0528 0616 0606 0623 0612 0602 0620 0609 0530 0618 0607 0625 0614 0603"
    " 0622 0610 0531 0619 0609 0528 0616 0605 0624 0612 0601 0620 0610 0530 0618 0607 0527"
    " 0614 0603 0622 0611 0531 0619 0608 0529 0615 0604",
    "中秋节": "1003 0922 0911 0930 0920 0909 0927 0916 1005 0924 0912 1001 0921 0911 0928 0918"
    " 1006 0925 0914 1003 0922 0912 0930 0919 0908 0927 0915 1004 0924 0913 1001 0921 0910"
    " 0929 0917 1006 0925 0915 1003 0922 0912 1001 0919 0908 0927 0916 1004 0924 0913 1002"
    " 0920 0910 0928 0917 1005 0925 0915 1004 0922 0911",
}
"""Gregorian month and day of lunar 1/1, 5/5 and 8/15 for the years 1990-2049, in order
(from the Chinese calendar; checked against the `lunardate` package's tables)."""
LUNAR_HOLIDAYS: dict[str, tuple[str, int]] = {
    "春节": ("春节", 0), "过年": ("春节", 0), "大年初一": ("春节", 0), "除夕": ("春节", -1),
    "大年三十": ("春节", -1), "元宵节": ("春节", 14), "元宵": ("春节", 14),
    "端午节": ("端午节", 0), "端午": ("端午节", 0), "中秋节": ("中秋节", 0), "中秋": ("中秋节", 0),
}  # fmt: skip
"""Each lunar holiday's name: (the table it is read from, days after that table's day)."""
HOLIDAY_DAYS: dict[str, int] = {"国庆节": 7, "国庆": 7, "春节": 8, "过年": 8}
"""Holidays that are a public-holiday week (Golden Week; 除夕 to the sixth day of the lunar
year): their number of days, ending the valid period."""


def lunar_date(table: str, year: int) -> date | None:
    """The Gregorian date of a lunar holiday table's day in `year` (None outside 1990-2049)."""
    days = _LUNAR_TABLE[table].split()
    if not _FIRST_YEAR <= year < _FIRST_YEAR + len(days):
        return None
    mmdd = days[year - _FIRST_YEAR]
    return date(year, int(mmdd[:2]), int(mmdd[2:]))


LUNAR_MARKERS = ("农历", "阴历", "旧历")
"""A date after one of these is a lunar date, which the rules do not convert (no time)."""
HABIT_MARKERS = ("一到", "每到", "每逢")
"""A time right after one of these comes round again and again (一到周末景区全是人): no date."""
NAMING_VERBS = ("叫做", "名叫", "叫", "取名", "起名", "名字是", "名字叫", "外号")
"""A time word right after one of these is a name (我家的狗叫夏天)."""
ORGANISATION_SUFFIXES = (
    "餐厅", "餐馆", "饭店", "酒店", "酒吧", "咖啡馆", "科技", "公司", "集团", "银行", "超市",
    "商场", "广场", "书店", "乐队", "学校", "大学", "中学", "小学", "医院", "影院", "电影院",
    "工作室", "俱乐部", "传媒", "工厂", "大厦",
)  # fmt: skip
PLACE_PREPOSITIONS = ("在", "去", "到", "于", "来自", "从")
"""A time word between one of `PLACE_PREPOSITIONS` and one of `ORGANISATION_SUFFIXES` is part
of a place's or employer's name (在星期五餐厅打工, 在明日科技上班)."""
WEEKDAY_FOLLOWERS = frozenset(
    "早晚上下中午夜凌傍我你他她它咱们去来要会到至和跟与或开见再前后之都就还也是有没不的又得起"
    "一二三四五六七八九十，。！？、,.!?;；：: "
)
"""Characters that may follow a weekday (周一我去, 周一上午, 周一到周五); a weekday followed by
another character and then one of `NAME_FOLLOWERS` is a name (周一鸣是我的同学)."""
NAME_FOLLOWERS = frozenset("是说和跟的也还在给叫告都，。！？、,.!?")
