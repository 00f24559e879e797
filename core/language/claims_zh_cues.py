"""What a Chinese statement says around a phrasing: its cue words (an addition, a wish, a
passing state, a replacement: the slot table's Chinese `cues`), the object said before a
phrasing, and the keys a value is looked up by. Shared by the phrasing claims (`claims_zh`)
and the claims of values known by their kind or shape (`claims_zh_typed`)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from bitemporal_core.language.people_zh import zh_subject
from bitemporal_core.language.slots import slot_table
from bitemporal_core.language.topics import zh_cue_words, zh_terms

__all__ = [
    "adds",
    "cue",
    "drop_object",
    "find_all",
    "object_before",
    "passing",
    "resumed",
    "stopped_after",
    "value_keys",
]

_OBJECT_BEFORE = re.compile(r"(?:从|和|跟|与|把)(?P<v>[^从和跟与把]{1,8}?)(?:我们|我)?[都也还就]?$")


@cache
def _before() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A fronted object, then the speaker (那家健身房我退了) or no one (思域出掉了, 成都不去了),
    with the cue table's time words and adverbs (`soon_after`) allowed before the phrasing."""
    words = sorted(slot_table()["cues"]["zh"]["soon_after"], key=len, reverse=True)
    soon = "(?:" + "|".join(map(re.escape, words)) + ")*"
    topic = re.compile(r"^(?P<v>.{2,10}?)(?:我们|我)" + soon + "$")
    return topic, re.compile(r"^(?P<v>[^我你他她们]{2,8}?)" + soon + "$")


@cache
def _stopped() -> re.Pattern[str]:
    """A state's stop said right after it: the speaker or an adverb, then 不 or 不再 and a
    verb of doing with 了, or a word that says it stopped (晨跑停了; `stop_openers`,
    `stop_verbs`, `stopped_words` of the cue table)."""
    zh = slot_table()["cues"]["zh"]
    openers = "|".join(map(re.escape, sorted(zh["stop_openers"], key=len, reverse=True)))
    verbs = "|".join(map(re.escape, zh["stop_verbs"]))
    stopped = "|".join(map(re.escape, zh["stopped_words"]))
    return re.compile(rf"^[，, ]*(?:{openers}){{0,2}}(?:不再?(?:{verbs})了|{stopped})")


def stopped_after(text: str) -> bool:
    """Whether `text` (what follows a state) stops it: 生酮我不搞了, 健身房现在不去了, 晨跑停了."""
    return _stopped().match(text) is not None


def cue(group: str, text: str) -> bool:
    """Whether a cue of the slot table's `group` is in `text` as words of its own."""
    return zh_cue_words(slot_table()["cues"]["zh"][group], text)


def resumed(text: str) -> bool:
    """A state taken up again (这周开始又吃肉了): a change, though it says 又."""
    return any(cue in text for cue in slot_table()["cues"]["zh"]["resumed"])


def adds(text: str) -> bool:
    """An addition cue (也, 还, 又...) before a phrasing, unless the state is taken up again."""
    return cue("additive", text) and not resumed(text)


def passing(text: str, clause: str) -> bool:
    """A stopgap (暂时, 只能先) or a time frame (这周, 这几天) in `text` (what the statement says
    before the phrasing) that starts nothing (这周开始, 临时有手术) and, for a frame, in a
    clause that tells no change done (这周搬到苏州了 is a move)."""
    cues = slot_table()["cues"]["zh"]

    def said(group: str) -> bool:
        return any(
            not text.startswith(tuple(cues["temporary_not_before"]), at + len(cue))
            for cue in cues[group]
            for at in find_all(text, cue)
        )

    done = any(word in clause for word in cues["changed_aspect"])
    return said("stopgap") or (said("temporary") and not done)


def find_all(text: str, word: str) -> list[int]:
    out, at = [], text.find(word)
    while at >= 0:
        out.append(at)
        at = text.find(word, at + 1)
    return out


def value_keys(spec: dict[str, Any], value: str) -> tuple[str, ...]:
    """A value's keys: its digits for a slot with a shape (138 0571 2246 and 13805712246 are
    one number), else the value and its words."""
    if spec.get("zh", {}).get("shape"):
        return (re.sub(r"\D", "", value),)
    return tuple(sorted({value} | zh_terms(value)))


def object_before(before: str) -> str | None:
    """The object said before a phrasing that nothing follows: after 从/和/跟/把 (从蓝标辞职,
    和陈浩分手), a topic ahead of the speaker (王者我卸载了), or, when no one is named, the words
    right before it (思域出掉了); None when there is none."""
    found = _OBJECT_BEFORE.search(before) or _before()[0].search(before)
    if found is None and zh_subject(before) is None:
        found = _before()[1].search(before)
    return found.group("v").strip() if found else None


def drop_object(before: str) -> str:
    """The text before a phrasing without an object put ahead of the speaker (王者我卸载了:
    我), so that the object is not read as someone's name."""
    found = _before()[0].search(before)
    return before[found.end("v") :] if found else before
