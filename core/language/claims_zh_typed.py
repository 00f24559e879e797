"""Chinese claims of values known by their kind or shape, with no phrasing before them: a
brand got, in use or owned (新入了小米14, 华为mate40用了快四年了, 我那辆老朗逸:
`families.brand_slot`) and a value of a slot's Chinese `shape` (新的是199 2803 6617)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from bitemporal_core.language.claims_zh_cues import (
    adds,
    cue,
    drop_object,
    passing,
    value_keys,
)
from bitemporal_core.language.extract.chinese import tag_words
from bitemporal_core.language.families import brand_slot
from bitemporal_core.language.normalise import normalise
from bitemporal_core.language.people_zh import zh_subject
from bitemporal_core.language.slots import ClaimDraft, shaped, slot_table
from bitemporal_core.language.topics import zh_terms

__all__ = ["acquired_claims", "shaped_claims"]

_PARTICLES = "了啦呀吧哈呢嘛哦"


def acquired_claims(
    clause: str, last: tuple[str, str], said: str, filled: set[str]
) -> list[ClaimDraft]:
    """A brand of a slot's kind got (新入了小米14, 给我妈买了个vivo): a value of that slot
    (`families.brand_slot`) right after one of the slot table's `acquired` verbs and a
    measure word, for the person it was got for (给我妈, 买了个vivo给我妈) or by."""
    cues = slot_table()["cues"]["zh"]
    verbs = sorted((v for v in cues["acquired"] if v in clause), key=len, reverse=True)
    # the clause's opening first: a brand in use or got in the clause before (华为mate40用了快四年
    # 了, 提车啦🚗比亚迪海豹; not 小米出了新款), then after each verb of getting
    for at, verb in [(0, ""), *((clause.find(v), v) for v in verbs)]:
        rest, words, slot = _brand_after(clause[at + len(verb) :], cues["measure_words"])
        if not verb and not (_used(rest, words) or _got_before(said)):
            continue
        if not slot or slot in filled or any(w.norm in cues["not_the_brand"] for w in words):
            continue
        marks = cues["beneficiary_marks"]
        found = re.match(r"[\w\u3400-\u9fff]+", rest[words[0].start :])
        value = re.split("[" + marks + "送]", found.group(0) if found else words[0].norm)[0]
        value = _brand_words(value.rstrip(_PARTICLES) or value)  # 换成小米14了: 小米14
        after = rest[words[0].start + len(value) :]
        before = clause[:at].lstrip(marks)
        who = zh_subject(after[1:]) if after[:1] in marks else None
        who = who or ((zh_subject(before) or last) if before else last)
        single = slot_table()["slots"][slot]["cardinality"] == "one"
        return [
            ClaimDraft(
                subject_kind=who[0],
                subject=who[1],
                slot=slot,
                value=value,
                keys=tuple(sorted(zh_terms(words[0].norm) or {words[0].norm})),
                positive=True,
                single=single,
                tentative=cue("hypothetical", clause),
                passing=passing(said + clause[:at], clause),
                rule="brand:" + slot,
            )
        ]
    return []


def _brand_words(value: str) -> str:
    """A brand's value up to the first adverb, verb or particle after its first word
    (朗逸又趴窝 -> 朗逸; 比亚迪海豹, 华为mate40 stay whole)."""
    words = tag_words(normalise(value))
    cut = next((w.start for w in words[1:] if w.tag[:1] in ("d", "v", "u", "p", "c")), len(value))
    return value[:cut]


def _got_before(said: str) -> bool:
    """Whether the statement's clauses before this one end with a verb of getting (提车啦🚗:
    the brand after the break is what was got)."""
    verbs = slot_table()["cues"]["zh"]["acquired"]
    return said.rstrip(_PARTICLES).endswith(tuple(verbs))


def _used(rest: str, words: Sequence[Any]) -> bool:
    """Whether a clause that opens with a brand says it has been in use (`used_after`)."""
    after = rest[words[-1].end :] if words else ""
    return any(after.startswith(w) for w in slot_table()["cues"]["zh"]["used_after"])


def shaped_claims(
    clause: str, last: tuple[str, str], said: str, filled: set[str]
) -> list[ClaimDraft]:
    """A value known by its shape with no phrasing before it (新的是199 2803 6617: a phone
    number; a slot's Chinese `shape`), for the clause's subject."""
    out = []
    for slot, spec in slot_table()["slots"].items():
        shape = spec.get("zh", {}).get("shape")
        m = re.search(shape, clause) if shape and slot not in filled else None
        if m is None or not shaped(slot, m.group()):
            continue
        kind, subject = zh_subject(drop_object(clause[: m.start()])) or last
        value = m.group().strip()
        claim = ClaimDraft(
            subject_kind=kind,
            subject=subject,
            slot=slot,
            value=value,
            keys=value_keys(spec, value),
            positive=True,
            single=spec["cardinality"] == "one",
            replacing=cue("replacing", said + clause),
            additive=adds(clause[: m.start()]) or cue("additive_before", said),
            tentative=cue("hypothetical", clause),
            past=cue("past_state", clause),
            rule="shape:" + slot,
        )
        out.append(claim)
    return out


def _brand_after(text: str, measure: str) -> tuple[str, list[Any], str]:
    """The text from the brand on, its first two words and the brand's slot: read as it
    stands (一加12) or past 了, 一, a measure word and 新的 (买了个vivo, 换了台新的华为)."""
    stripped = text[_measure(measure).match(text).end() :]  # type: ignore[union-attr]
    for rest in (text, stripped):
        words = tag_words(normalise(rest))[:2]
        slot = brand_slot(words[0].norm) if words else ""
        if slot:
            return rest, words, slot
    return text, [], ""


@cache
def _measure(chars: str) -> re.Pattern[str]:
    """What may stand between a verb of getting and the brand (了, 一, a measure word, 新的)."""
    return re.compile("(?:[了啦]|[^\\w])*一?[" + re.escape(chars) + "]?[新老旧破]?的?")
