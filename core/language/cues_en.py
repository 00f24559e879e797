"""The English cue layer: a clause's words read against the slot table's cue lists
(`cues.en` of `data/slots.json`), shared by the phrasing matcher, the typed claims and topics.

Whether a clause holds a cue group's phrase, negates or ends what it names, tells of a
passing state, a comparison or a state in the past.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from bitemporal_core.language.extract import Token
from bitemporal_core.language.extract._lexicon import NUMBER_WORDS
from bitemporal_core.language.slots import slot_table

__all__ = [
    "cue_in",
    "ended_for",
    "has_cue",
    "hypothetical",
    "lasting",
    "modal_had",
    "negated",
    "norm",
    "passing",
    "simile",
    "was_before",
    "without",
]


@lru_cache(maxsize=65536)
def norm(word: str) -> str:
    """A word lowercased with its contraction or chat abbreviation spelled out ("n't" ->
    "not", "bf" -> "boyfriend"; `contractions` and `abbreviations` of the slot table)."""
    low = word.lower().replace("’", "'")
    cues = slot_table()["cues"]["en"]
    return str(cues["contractions"].get(low) or cues["abbreviations"].get(low, low))


def has_cue(cue_group: str, tokens: Sequence[Token]) -> bool:
    """Whether the words hold one of a cue group's phrases (`cues.en` of the slot table)."""
    return cue_in(cue_group, " ".join(norm(t.text) for t in tokens))


def cue_in(cue_group: str, words: str) -> bool:
    """Whether the normed words hold one of a cue group's phrases (less its `_except` ones)."""
    table = slot_table()["cues"]["en"]
    cues = _normed(cue_group)
    if cue_group + "_except" in table:  # "second hand" is no second one
        words = without(cue_group + "_except", words)
    padded = " " + words + " "
    return any(" " + c + " " in padded or (c.startswith("'") and c in padded) for c in cues)


@cache
def _normed(cue_group: str) -> tuple[str, ...]:
    """A cue group's phrases with their words as `norm` reads a clause's ("an extra": a extra)."""
    return tuple(
        c if c.startswith("'") else " ".join(map(norm, c.split()))
        for c in slot_table()["cues"]["en"][cue_group]
    )


def hypothetical(words: str, *, conditional: bool = True) -> bool:
    """Whether normed words hold a wish or plan cue; with `conditional=False` an "if" does not
    count ("if the buzzer's dead text 07700 900412": a contact is still theirs)."""
    return cue_in("hypothetical", words if conditional else without("conditionals", words))


def without(cue_group: str, words: str) -> str:
    """The words with the cues of a group taken out ("joseph 's back in the uk" is a
    return, not "back in" the past); a cue's "{n}" is a number ("on about {n}": "on about
    ten a day" is an amount, not "on about" a plan)."""
    padded = " " + words + " "
    for cue in slot_table()["cues"]["en"][cue_group]:
        if "{n}" in cue:
            padded = re.sub(" " + re.escape(cue).replace(r"\{n\}", _NUMBER) + " ", " _ ", padded)
        else:
            padded = padded.replace(" " + cue + " ", " _ ")
    return padded.strip()


_NUMBER = r"(?:\d[\d.,]*|half|" + "|".join(sorted(NUMBER_WORDS)) + ")"


def negated(clause: Sequence[Token], start: int, end: int) -> bool:
    """A negation that bears on the words `start:end`: one of the four words before them or
    inside them ("I'm not at Google", "no food allergies"), or a cessation word after them
    ("... anymore"); a lone "No," answering the other person does not count."""
    words = [norm(t.text) for t in clause]
    for i in range(max(0, start - 4), end):
        if words[i] in ("not", "never", "nor") or (words[i] == "no" and _word_after(clause, i)):
            return True
        if words[i] == "no" and i + 1 < len(words) and words[i + 1] in ("longer", "more"):
            return True
    after = " ".join(words[start:])
    ended = any(c in " " + after + " " for c in (" anymore ", " any more ", " any longer "))
    return ended or bool(ended_for(clause))


def denied(clause: Sequence[Token], start: int) -> bool:
    """Whether an ending verb (`ending_verbs`) at `start` has "not" or "never" in the three
    words before it: it ends nothing ("not giving up the guitar, just adding", "never
    cancelled it"); an ending said with a negation ("hasn't touched a drink") still ends."""
    verbs = slot_table()["cues"]["en"]["ending_verbs"]
    if start >= len(clause) or norm(clause[start].text) not in verbs:
        return False
    return any(norm(t.text) in ("not", "never") for t in clause[max(0, start - 3) : start])


def ended_for(clause: Sequence[Token]) -> str:
    """The cue of a habit the clause says ended a while ago ("three months without a
    cigarette", "six weeks vape free", "dry since new year"; `ended_for` of the slot
    table's English cues), or "" ."""
    spec = slot_table()["cues"]["en"]["ended_for"]
    words = [norm(t.text) for t in clause]
    padded = " " + " ".join(words) + " "
    since = next((c for c in spec["since"] if " " + c + " " in padded), "")
    if since:
        return since
    present = set(words)
    for phrase in spec["phrases"]:
        items = phrase.split()
        if any(i not in present for i in items if i not in ("{n}", "{unit}", "*")):
            continue
        for start in range(len(words) - len(items) + 1):
            if all(_ended_item(item, clause, words, start + k) for k, item in enumerate(items)):
                return str(phrase)
    return ""


def _ended_item(item: str, clause: Sequence[Token], words: Sequence[str], i: int) -> bool:
    if item == "{n}":
        return clause[i].pos == "NUM" or words[i] in ("a", "an")
    if item == "{unit}":
        return words[i] in slot_table()["cues"]["en"]["ended_for"]["units"]
    return item == "*" or words[i] == item


def _word_after(clause: Sequence[Token], i: int) -> bool:
    return i + 1 < len(clause) and clause[i + 1].pos != "PUNCT"


def simile(clause: Sequence[Token], start: int) -> bool:
    """A phrasing inside a comparison ("feels like driving a roller skate", "as if I lived
    there"): the slot table's `simile` cues right before it."""
    before = " ".join(norm(t.text) for t in clause[max(0, start - 3) : start])
    return any((" " + before).endswith(" " + cue) for cue in slot_table()["cues"]["en"]["simile"])


def was_before(clause: Sequence[Token], start: int) -> bool:
    """A state told in the past right before a phrasing ("I was vegan", "we were living in
    Rome", "I was engaged to someone else"); not a passive ("I was promoted to")."""
    before = [t.text.lower() for t in clause[max(0, start - 2) : start] if t.pos != "DET"]
    cues = slot_table()["cues"]["en"]
    state = clause[start].tag != "VBN" or clause[start].text.lower() in cues["state_participles"]
    return bool(before) and before[-1] in cues["past_copulas"] and state


def modal_had(clause: Sequence[Token], start: int) -> bool:
    """Whether "had to" opens the phrasing: an obligation, no past state ("we had to let Rex
    go")."""
    nxt = clause[start + 1].text.lower() if start + 1 < len(clause) else ""
    return clause[start].text.lower() == "had" and nxt == "to"


def lasting(clause: Sequence[Token], start: int) -> bool:
    """A perfect that lasts till now ("I've taught at Ashgrove for nine years"): a 'perfect_aux'
    right before the phrasing and, after it, 'for' with a 'durations' word soon after."""
    cues = slot_table()["cues"]["en"]
    if start == 0 or clause[start - 1].text.lower() not in cues["perfect_aux"]:
        return False
    words = [t.text.lower() for t in clause[start:]]
    fors = [i for i, w in enumerate(words) if w == "for"]
    return any(set(words[i + 1 : i + 5]) & set(cues["durations"]) for i in fors)


def passing(clause: Sequence[Token], words: str) -> bool:
    """A passing state ("this week I'm working from my parents' place in Norfolk"): a
    temporary cue in a clause told in the present ("I moved to Leeds this week", "traded the
    Civic in this weekend" and "as of this week" are changes), or a stopgap in any tense."""
    cues = slot_table()["cues"]["en"]
    padded = " " + words + " "
    framed = any(
        " " + c + " " in padded
        and not any(" " + a + " " + c + " " in padded for a in cues["temporary_not_after"])
        for c in cues["temporary"]
    )
    if cue_in("stopgap", words):  # "got a courtesy Fiat from the garage": told in any tense
        return True
    passive = set(cues["passive_aux"])
    return framed and not any(  # "I've been living at my mum's this week" is no change
        t.tag == "VBD"
        or (
            t.tag == "VBN"
            and t.text.lower() != "been"
            and not (i and clause[i - 1].text.lower() in passive)
        )
        for i, t in enumerate(clause)
    )
