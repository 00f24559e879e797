"""Valid time from the text of a statement (docs/design.md, "Valid time from text").

"yesterday", "last Saturday", "next month", "from June 3 to June 10", "上周六", "三天前" are
resolved against the moment the statement was said (its transaction time). `valid_from` is the
start of the referenced period: calendar days are those of `said_at`'s timezone (UTC in practice),
and the result is given in UTC. Ranges also set `valid_to`, the exclusive end ("to June 10" ends
on June 11 at 00:00); "until X" is valid from the moment said to the end of X.

`RuleResolver` is deterministic and rule based (no network, no model). Rules:

* Relative days, weeks, months, years: "yesterday", "tonight", "three days ago", "in two weeks",
  "a month from now", "last week" (Monday of the previous ISO week), "next month" (its first day),
  "last year" (January 1), "the week before last", "for the past three years".
* Weekdays: "last Friday" is the latest Friday before today, "next Friday" the earliest after it,
  "this Friday" the one of the current ISO week (or as the tense says), "on Friday" follows the
  tense. Weekends resolve to their Saturday.
* Calendar dates: "15 February", "March 3rd, 2022", "2023-11-20", "May 2021", "in 2019",
  "the 90s", seasons (northern meteorological: summer = June to August, winter starts in
  December), named days (Christmas, New Year's Day, Easter, Thanksgiving...). Without a year the
  tense decides: a past-tense sentence takes the latest occurrence not after `said_at`, a future
  one (will, going to, 'll, or a present progressive) the earliest not before it, otherwise the
  nearest. A named day without a year is the latest one unless the sentence is future tense.
* Ranges: "from X to Y", "between X and Y", "X-Y", "from 2 to 5 March", "until X".
* Not times: a month name without a day, year or preposition ("May is my friend"), a weekday
  without last/next/this/on... ("a Sunday newspaper") or in the plural ("on Mondays"), a normally
  lower-case word capitalised in mid-sentence or a possessive before a capitalised word (the
  titles "Yesterday's Heroes", "Last Christmas"), text inside 《》.

Libraries considered: dateparser's `search_dates` resolved 37 of the 52 development cases and
found dates in ordinary words ("we", "a Sunday newspaper", "May is my best friend"), with no
ranges and no "two weekends ago" or Chinese "三天前"; rules we control handle those traps, so
no date library is used.
"""

from __future__ import annotations

import re
from datetime import datetime

from bitemporal_core.errors import InvalidInput
from bitemporal_core.language.normalise import normalise
from bitemporal_core.language.temporal._chinese import chinese_hits, has_cjk
from bitemporal_core.language.temporal._english import english_hits
from bitemporal_core.language.temporal._rules import choose_hit, dedupe, to_resolved
from bitemporal_core.language.temporal._types import Context, ResolvedTime, TimeResolver, aware

__all__ = ["ResolvedTime", "RuleResolver", "TimeResolver", "default_resolver"]

_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3007]")


class RuleResolver:
    """English and Chinese rule-based resolver (see the module docstring for the rules).

    `languages` limits the rule sets ("en", "zh"). The first usable expression in the text wins;
    a more precise one right after it ("last Friday, March 1") takes its place.
    """

    name: str

    def __init__(self, languages: tuple[str, ...] = ("en", "zh")) -> None:
        unknown = set(languages) - {"en", "zh"}
        if unknown:
            raise InvalidInput(f"unknown languages: {sorted(unknown)}")
        self.languages = tuple(languages)
        self.name = "rules"

    def resolve(self, text: str, said_at: datetime) -> ResolvedTime | None:
        """The valid time `text` refers to, or None when it has no temporal expression."""
        said_at = aware(said_at, "said_at")
        if not isinstance(text, str):
            raise InvalidInput(f"text must be a string, not {type(text).__name__}")
        try:
            cjk = has_cjk(text)
            hits = []
            # English words glued to Han ones (我next Monday要去) are read with the Han blanked.
            if "en" in self.languages and (not cjk or _ASCII_ALNUM.search(text)):
                hits = english_hits(_HAN.sub(" ", text) if cjk else text, said_at)
            if "zh" in self.languages and cjk:
                hits += chinese_hits(normalise(text), said_at)
            chosen = choose_hit(dedupe(hits), text)
            if chosen is None:
                return None
            return to_resolved(chosen, Context(text, said_at, said_at.date()))
        except (ValueError, OverflowError):  # calendar arithmetic beyond years 1..9999
            return None

    def __repr__(self) -> str:
        return f"RuleResolver(languages={self.languages!r})"


def default_resolver() -> TimeResolver:
    """The resolver statements use unless told otherwise: `RuleResolver()`."""
    return RuleResolver()
