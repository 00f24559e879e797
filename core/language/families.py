"""Families of words that name one thing (`data/topics.json`): a family's words count as its
first word ("barber" as "hairdresser", "barclays" as "bank"), its brands name a slot ("kia": a
car), and a kind names what a question may call a thing by its brand."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, lru_cache

from bitemporal_core.language.claims_en import keys_of
from bitemporal_core.language.slots import slot_table, topic_table

__all__ = [
    "brand_slot",
    "category_slot",
    "category_words",
    "family_head",
    "family_heads",
    "in_family",
    "is_brand",
    "zh_family_heads",
]

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def _families() -> list[list[str]]:
    """The word families, English then Chinese (brands under an English first word: 比亚迪
    is a car, for `category_words`)."""
    families: list[list[str]] = [*topic_table()["en"]["families"], *topic_table()["zh"]["families"]]
    return families


def category_slot(category: str) -> str:
    """The slot a family's first word names: itself, or the table's `category_slots`
    ("phone": the phone model)."""
    slots: dict[str, str] = topic_table()["category_slots"]
    return slots.get(category, category)


@lru_cache(maxsize=4096)
def brand_slot(word: str) -> str:
    """The slot a brand's family names ("kia", 比亚迪: car; "pixel", 小米: the phone model;
    a bank), else "": only the slot table's `brand_slots` (a GP is no brand of doctor)."""
    found = category_words(keys_of(word)) if word[:1].isalnum() else []
    model = re.match(r"([A-Za-z]+)\d", word)  # iPhone15, mate40: the brand before its number
    found = found or (category_words(keys_of(model.group(1))) if model else [])
    slot = category_slot(found[0]) if found else ""
    if not slot and model:  # mate60: a phone's line (`model_lines`), no friend
        slot = slot_table()["cues"]["en"]["model_lines"].get(model.group(1).lower(), "")
    return slot if slot in slot_table()["cues"]["en"]["brand_slots"] else ""


def _kinds() -> list[list[str]]:
    """The families, then the `kinds`: words that name a kind of thing for
    `category_words` only, not a topic (a language: "French lessons" is no topic of "a
    French car")."""
    return [*_families(), *topic_table()["en"]["kinds"]]


@cache
def _family(kinds: bool = False) -> dict[str, str]:
    """Each family word's stem -> the stem of its family's first word (with the `kinds`)."""
    out: dict[str, str] = {}
    for words in _kinds() if kinds else _families():
        head = keys_of(words[0])
        for word in words:
            for key in keys_of(word):
                out.setdefault(key, head[0] if head else key)
    return out


@cache
def _zh_family() -> tuple[dict[str, str], re.Pattern[str]]:
    """The words of the Chinese families headed by a Chinese word -> that word (电信, 移动 ->
    运营商), and one pattern finding them, longest first; the brands under an English first
    word (比亚迪 -> car) are read as brands."""
    heads = {word: head for word, head in _family().items() if _CJK.search(head)}
    words = sorted(heads, key=len, reverse=True)
    return heads, re.compile("|".join(map(re.escape, words)) or "(?!)")


def family_heads() -> frozenset[str]:
    """The topics that head a family ("manager" for boss and supervisor)."""
    return frozenset(_family().values())


def in_family(key: str) -> bool:
    """Whether a word's stem is one of a family's ("mobile", "nationwide", "boss")."""
    return key in _family()


def family_head(key: str) -> str:
    """The first word of the family a word's stem belongs to, else the stem itself."""
    return _family().get(key, key)


def zh_family_heads(text: str) -> set[str]:
    """The Chinese heads of the family words a Chinese text holds (移动: 运营商)."""
    heads, names = _zh_family()
    return {heads[name] for name in names.findall(text)}


def is_brand(who: tuple[str, str]) -> bool:
    """Whether a named subject is a brand or kind of a family, not a person ("Octopus took
    over our supply": the speaker's supplier changed; "dentist check up is tuesday"), or one
    of its things ("barclays app is down again")."""
    first = who[1].split()[:1] if who[0] == "person" else []
    keys = keys_of(first[0]) if first else ()
    return bool(keys) and all(k in _family() for k in keys)


def category_words(keys: Iterable[str]) -> list[str]:
    """The first words of the families the keys belong to ("barclai" -> "bank", "netflix" ->
    "streaming"): what a question may call the thing a statement names by its brand."""
    heads, family = _heads(), _family(kinds=True)
    return list(dict.fromkeys(heads[family[k]] for k in keys if family.get(k) in heads))


@cache
def _heads() -> dict[str, str]:
    """Each family's and kind's first word, by its stem."""
    return {keys_of(words[0])[0]: words[0] for words in _kinds() if keys_of(words[0])}
