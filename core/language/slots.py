"""The slot table and the claim type shared by every language's claim reader."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import attrs

__all__ = [
    "ABOUT",
    "ANY",
    "ClaimDraft",
    "headed_slot",
    "overlaps",
    "phrasing_of",
    "role_keyed",
    "role_slots",
    "role_words",
    "same_slots",
    "shaped",
    "shaped_en",
    "shaped_of",
    "slot_spec",
    "slot_table",
    "topic_table",
]

ANY = "any"
"""The slot of a claim that ends whatever holds its value ("I gave up the cello"): its
candidates are all the subject's current facts."""
ABOUT = "about"
"""The slot of a statement no other slot reads: it names things (its keys) so that a later
claim ending one of them can retire it, and retires nothing itself unless it ends something."""


def phrasing_of(rule: str) -> str:
    """The phrasing a claim's rule names ("slot:pet 'died'" -> "died"; "" for none)."""
    return rule.partition(" '")[2].removesuffix("'")


@attrs.frozen(kw_only=True)
class ClaimDraft:
    """A claim as read from one clause, before its subject is resolved against the
    conversation.

    Attributes:
        subject_kind: "speaker", "person" (a name), "relation" (my sister) or "pronoun".
        subject: the name, relation word or pronoun (lowercase); "" for the speaker.
        slot: the slot table's name (with its object for slots keyed by one, e.g.
            "favourite:band").
        value: the value as said ("Berlin"); a fixed value for phrasings that give one.
        keys: the value's word stems, to compare values.
        positive: False for a negated or stopped claim (it ends the current value).
        single: the slot holds one value (a new one replaces).
        replacing: the clause says it replaces ("instead", "now", "switched to").
        additive: the clause says it adds ("also", "too", "another").
        tentative: a question, wish or hypothetical: recorded, never applied.
        passing: a passing state ("for now", 暂时): recorded, never applied, and ended by
            the next value of its single-valued slot.
        past: a past state ("as a student", "used to"): recorded, never applied.
        event: an event told in the past tense ("I had a scare in the car on Tuesday"): it
            stays true after later changes, so only an ending that names what it names
            retires it.
        rule: which phrasing matched (for the reason of an update).
    """

    subject_kind: str
    subject: str
    slot: str
    value: str
    keys: tuple[str, ...]
    positive: bool
    single: bool
    replacing: bool = False
    additive: bool = False
    tentative: bool = False
    passing: bool = False
    past: bool = False
    event: bool = False
    rule: str = ""


@cache
def slot_table() -> dict[str, Any]:
    """The slot table (`data/slots.json`)."""
    text = resources.files("bitemporal_core.language").joinpath("data/slots.json")
    data: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    frames = data["cues"]["en"]["abstinence"]["frames"]
    for spec in data["slots"].values():  # "no cigarettes", "off the booze": a habit ends
        en = spec.get("en", {})
        made = [f.replace("{w}", w) for w in en.get("abstained", ()) for f in frames]
        en["end"] = [*en.get("end", ()), *(m for m in made if m not in en.get("end", ()))]
    return data


@cache
def topic_table() -> dict[str, Any]:
    """The topic rule's cues and words (`data/topics.json`)."""
    text = resources.files("bitemporal_core.language").joinpath("data/topics.json")
    data: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return data


@cache
def role_slots() -> dict[str, str]:
    """The slot each role word names (a slot's `roles`: "landlord" -> landlord, "gp" -> doctor)."""
    return {
        word: slot for slot, spec in slot_table()["slots"].items() for word in spec.get("roles", ())
    }


def slot_spec(slot: str) -> dict[str, Any]:
    """The slot table's entry of a claim's slot, keyed or not ("doctor:gp", "favourite:band"
    read "doctor", "favourite"); {} for a slot it does not hold (`about`, `topic`)."""
    spec: dict[str, Any] = slot_table()["slots"].get(slot.partition(":")[0], {})
    return spec


def _has_roles(slot: str) -> bool:
    return "role_keys" in slot_spec(slot)


def role_keyed(slot: str, words: Sequence[str], language: str = "en") -> str:
    """`slot` with the key of the role a claim's words name (its phrasing's, then its
    value's), for a slot whose roles are kept apart (`role_keys`: a dentist and a GP are
    both doctors, and one does not replace the other): the first of `words` that is a role
    word (in Chinese, the first role word one of them holds), else the slot's default ("")."""
    keys: dict[str, str] = slot_spec(slot).get("role_keys", {}).get(language)
    if not keys or ":" in slot:
        return slot
    for word in words:
        found = keys.get(word) or next(
            (k for r, k in keys.items() if r and language != "en" and r in word), None
        )
        if found:
            return f"{slot}:{found}"
    return f"{slot}:{keys['']}" if "" in keys else slot


def headed_slot(slot: str, value: str) -> str:
    """The slot a claim of a place slot (`cues.en.headed_from`: a home, an employer) belongs
    to when its value ends with another slot's `heads` ("moved over to the sports centre by
    the park": a gym, not a home), from the slots its `heads_from` names if it names any
    ("moved to the Leeds office": a work place; "an auditor at Deloitte's Leeds office" is
    still an employer); else `slot`."""
    if slot not in slot_table()["cues"]["en"]["headed_from"]:
        return slot
    tail = " " + " ".join(value.lower().split())
    found = (name for head, name in _heads() if tail.endswith(" " + head))
    return next((n for n in found if slot in slot_spec(n).get("heads_from", (slot,))), slot)


@cache
def _heads() -> tuple[tuple[str, str], ...]:
    """Each slot's `heads`, with the slot: read once, not per claim."""
    slots = slot_table()["slots"].items()
    return tuple((head, name) for name, spec in slots for head in spec.get("heads", ()))


def role_words(slot: str, languages: Sequence[str] = ("en", "zh")) -> tuple[str, ...]:
    """The words that name the role of a role-keyed slot ("doctor:therapist": therapist,
    counsellor, 心理...), in `languages`; () for a slot with no role."""
    base, _, role = slot.partition(":")
    keys = slot_spec(base).get("role_keys", {})
    return tuple(w for lang in languages for w, r in keys.get(lang, {}).items() if w and r == role)


def same_slots(slot: str) -> frozenset[str]:
    """The slots a claim of `slot` meets as its own: itself, and for a role-keyed slot
    ("doctor:gp") the slot unkeyed, as claims held before its roles were kept apart are."""
    base = slot.partition(":")[0]
    return frozenset({slot, base}) if base != slot and _has_roles(base) else frozenset({slot})


@cache
def overlaps(slot: str) -> frozenset[str]:
    """The slots that may read the same words as `slot` (`overlaps` in the slot table, either
    way: "I'm a nurse at St Mary's", 我在公司是做测试的: a job title and an employer)."""
    table = slot_table()["slots"]
    named = set(table.get(slot, {}).get("overlaps", ()))
    return frozenset(named | {s for s, spec in table.items() if slot in spec.get("overlaps", ())})


@cache
def kin_slots(slot: str) -> frozenset[str]:
    """The slots that hold the same kind of value as `slot` (`same_as` in the slot table,
    either way: an appointment and the date it was moved to), so that a change on one
    replaces the related value of the other."""
    table = slot_table()["slots"]
    named = set(table.get(slot, {}).get("same_as", ()))
    return frozenset(named | {s for s, spec in table.items() if slot in spec.get("same_as", ())})


def shaped(slot: str, value: str) -> bool:
    """Whether a value of a slot's `shape` is one: at least `shape_digits` digits and not of
    the form `shape_not` (a phone number, not "14-18 may", "2019-2021" or "2024-05-01")."""
    spec = slot_table()["slots"][slot]
    plain = re.sub(r"\s*-\s*", "-", value.strip())
    digits = sum(ch.isdigit() for ch in plain)
    return digits >= spec.get("shape_digits", 0) and not re.match(
        spec.get("shape_not", "$^"), plain
    )


def shaped_en(slot: str) -> list[dict[str, Any]]:
    """A slot's English `shaped` entries, each a shape and the phrasings that read a value
    only of that shape (a medicine's name or dose: not "i'm on nights")."""
    return shaped_of(slot_table()["slots"][slot], "en")


def shaped_of(spec: dict[str, Any], language: str) -> list[dict[str, Any]]:
    """The `shaped` entries of a slot's spec in a language: one entry, or a list."""
    found = spec.get(language, {}).get("shaped", [])
    return found if isinstance(found, list) else [found]


def dose_only(value: str, rule: str = "") -> bool:
    """Whether a value is only an amount of a medicine (`cues.en.dose`: "75 mg"; in Chinese,
    what a `cues.zh.dose` phrasing read: 医生让加到75了), which can only be the dose of the
    one medicine held."""
    if phrasing_of(rule) in slot_table()["cues"]["zh"]["dose"]["phrasings"]:
        return True
    return re.fullmatch(slot_table()["cues"]["en"]["dose"]["shape"], value.strip()) is not None
