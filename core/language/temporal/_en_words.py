"""English vocabulary for the rules: numbers, ordinals, months, weekdays, units, tense cues."""

from __future__ import annotations

import re

from bitemporal_core.language.temporal._types import Tense

__all__ = [
    "HALF_RE",
    "MONTHS",
    "MONTH_ABBR",
    "MONTH_FULL_RE",
    "MONTH_RE",
    "NUM_RE",
    "ORD_RE",
    "UNIT_RE",
    "WEEKDAYS",
    "WEEKDAY_RE",
    "english_tense",
    "looks_like_title",
    "month_number",
    "number",
    "ordinal",
    "sentence_start",
    "unit",
]

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_ORD_ONES = [
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
]
_ORD_TENS = {"twentieth": 20, "thirtieth": 30}

NUMBERS: dict[str, int] = {w: i for i, w in enumerate(_ONES)}
for _t, _tw in enumerate(_TENS, start=2):
    NUMBERS[_tw] = _t * 10
    for _o in range(1, 10):
        NUMBERS[f"{_tw}-{_ONES[_o]}"] = _t * 10 + _o
        NUMBERS[f"{_tw} {_ONES[_o]}"] = _t * 10 + _o
NUMBERS.update({"a": 1, "an": 1, "a couple of": 2, "a few": 3, "couple of": 2, "a dozen": 12})

ORDINALS: dict[str, int] = {w: i for i, w in enumerate(_ORD_ONES) if i}
ORDINALS.update(_ORD_TENS)
for _t, _tw in ((20, "twenty"), (30, "thirty")):
    for _o in range(1, 10 if _t == 20 else 2):
        ORDINALS[f"{_tw}-{_ORD_ONES[_o]}"] = _t + _o
        ORDINALS[f"{_tw} {_ORD_ONES[_o]}"] = _t + _o


def _alternation(words: list[str]) -> str:
    """A regex alternation trying longer words first, spaces matching any whitespace."""
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)


NUM_RE = rf"(?:half\s+an?|(?:\d{{1,3}}|{_alternation(list(NUMBERS))})(?:\s+and\s+a\s+half)?)"
HALF_RE = r"(?:\s+and\s+a\s+half)?"
ORD_RE = rf"(?:[0-3]?\d(?:st|nd|rd|th)?|{_alternation(list(ORDINALS))})"

MONTHS: dict[str, int] = {
    name: i
    for i, name in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}
MONTH_ABBR: dict[str, int] = {name[:3]: i for name, i in MONTHS.items()} | {"sept": 9}
MONTH_FULL_RE = _alternation(list(MONTHS))
MONTH_RE = rf"(?:{MONTH_FULL_RE}|(?:{_alternation(list(MONTH_ABBR))})\.?)"

WEEKDAYS: dict[str, int] = {
    name: i
    for i, name in enumerate(
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    )
}
WEEKDAY_RE = _alternation(list(WEEKDAYS))

_UNITS = {
    "day": "day",
    "week": "week",
    "fortnight": "fortnight",
    "month": "month",
    "year": "year",
    "decade": "decade",
    "weekend": "weekend",
    "hour": "hour",
    "minute": "minute",
}
UNIT_RE = r"(?:days?|weeks?|fortnights?|months?|years?|decades?|weekends?|hours?|minutes?)"


def number(word: str) -> float:
    """The value of a number ("3", "three", "twenty-one", "a couple of", "two and a half",
    "half a")."""
    key = " ".join(word.lower().split())
    if key.startswith("half"):
        return 0.5
    half = 0.5 if key.endswith(" and a half") else 0.0
    key = key.removesuffix(" and a half")
    return (int(key) if key.isdigit() else NUMBERS[key]) + half


def ordinal(word: str) -> int:
    """The value of a day number ("3", "3rd", "third", "twenty-first")."""
    key = " ".join(word.lower().split())
    digits = key.rstrip("stndrh")
    return int(digits) if digits.isdigit() else ORDINALS[key]


def unit(word: str) -> str:
    """The singular unit name of "days", "Weeks"..."""
    return _UNITS[word.lower().rstrip("s")]


def month_number(word: str) -> int:
    key = word.lower().rstrip(".")
    return MONTHS.get(key) or MONTH_ABBR[key[:3] if key != "sept" else key]


_FUTURE = re.compile(
    r"\b(?:will|shall|won't|won’t|gonna|going\s+to|about\s+to|plan(?:s|ning)?\s+to|"
    r"want(?:s)?\s+to|hope(?:s)?\s+to|intend(?:s)?\s+to|would\s+like\s+to|look(?:ing)?\s+forward)"
    r"\b|['’]ll\b",
    re.IGNORECASE,
)
_IRREGULAR = [
    "was",
    "were",
    "had",
    "did",
    "didn't",
    "didn’t",
    "been",
    "gone",
    "done",
    "seen",
    "went",
    "got",
    "gave",
    "saw",
    "met",
    "made",
    "took",
    "came",
    "became",
    "bought",
    "brought",
    "thought",
    "told",
    "said",
    "left",
    "lost",
    "found",
    "felt",
    "kept",
    "ran",
    "sat",
    "stood",
    "wrote",
    "won",
    "began",
    "broke",
    "chose",
    "drove",
    "ate",
    "fell",
    "flew",
    "forgot",
    "grew",
    "heard",
    "hid",
    "knew",
    "led",
    "lent",
    "meant",
    "paid",
    "rode",
    "rang",
    "rose",
    "sang",
    "sent",
    "shot",
    "slept",
    "sold",
    "spent",
    "spoke",
    "stole",
    "swam",
    "taught",
    "threw",
    "understood",
    "woke",
    "wore",
    "built",
    "caught",
    "fought",
    "held",
    "sought",
    "drank",
    "drew",
    "dug",
    "fed",
    "fled",
    "hung",
    "slid",
    "stuck",
    "struck",
    "swore",
    "swept",
    "tore",
    "wept",
    "ago",
    "yesterday",
]
_NOT_PAST = set(
    [
        "indeed",
        "proceed",
        "succeed",
        "exceed",
        "speed",
        "breed",
        "bleed",
        "greed",
        "tweed",
        "embed",
        "hundred",
        "sacred",
        "naked",
        "wicked",
        "kindred",
        "interested",
        "excited",
        "tired",
        "bored",
        "scared",
        "worried",
        "supposed",
        "based",
        "related",
        "called",
        "named",
        "located",
        "required",
        "expected",
        "pleased",
        "thrilled",
        "concerned",
        "prepared",
        "booked",
        "scheduled",
        "planned",
        "arranged",
        "reserved",
        "dedicated",
        "talented",
    ]
)
_PAST = re.compile(r"\b(?:" + "|".join(_IRREGULAR) + r"|used\s+to|[a-z]{3,}ed)\b", re.IGNORECASE)
_PROGRESSIVE = re.compile(
    r"\b(?:am|is|are)\s+(?:\w+\s+)?\w{2,}ing\b|['’](?:m|re)\s+(?:\w+\s+)?\w{2,}ing\b",
    re.IGNORECASE,
)


def english_tense(text: str) -> Tense:
    """ "future" for will/going to/'ll..., "past" for past verbs, "future" for a present
    progressive ("I'm flying on Friday"), else None."""
    if _FUTURE.search(text):
        return "future"
    if any(m.group(0).lower() not in _NOT_PAST for m in _PAST.finditer(text)):
        return "past"
    if _PROGRESSIVE.search(text):
        return "future"
    return None


_ALWAYS_CAPITAL = {
    *MONTHS,
    *MONTH_ABBR,
    *WEEKDAYS,
    *[
        "i",
        "christmas",
        "xmas",
        "eve",
        "day",
        "new",
        "year",
        "years",
        "boxing",
        "valentine",
        "valentines",
        "halloween",
        "independence",
        "fourth",
        "st",
        "patrick",
        "patricks",
        "easter",
        "good",
        "thanksgiving",
        "spring",
        "summer",
        "autumn",
        "fall",
        "winter",
    ],
}
_WORD = re.compile(r"[A-Za-z]+")


def sentence_start(text: str, pos: int) -> bool:
    """True when `text[pos]` starts a sentence, a line or a list item."""
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] in ".!?:;\n":
        return True
    return text[i] in "-*•" and (i == 0 or text[i - 1] == "\n")


def _capitalised(word: str) -> bool:
    return word[0].isupper() and not word.isupper()


def looks_like_title(text: str, start: int, end: int) -> bool:
    """True when the span reads as part of a name or title, not as time.

    A word that is normally lower case ("yesterday", "last") but capitalised in mid-sentence
    ("the band Yesterday's Heroes", "the song Last Christmas"), or a possessive followed by a
    capitalised word ("Yesterday's Heroes is...") marks a title.
    """
    for m in _WORD.finditer(text, start, end):
        word = m.group(0)
        if word.lower() in _ALWAYS_CAPITAL or not _capitalised(word):
            continue
        if not sentence_start(text, m.start()):
            return True
    after = re.match(r"['’]s\s+([A-Za-z]+)", text[end:])
    return after is not None and _capitalised(after.group(1)) and after.group(1) != "I"
