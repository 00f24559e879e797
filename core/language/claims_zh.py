"""Chinese claims: the slot table's Chinese phrasings matched on the text of each clause.

A phrasing is text with `*` for a stretch of up to eight characters; the value is what `*`
covers, else what follows the phrasing up to the clause's end (trailing particles dropped).
The subject is read from the text before the phrasing (我/我们: the speaker; 他/她: a pronoun
to resolve; a relative such as 我姐姐; else a name).
"""

from __future__ import annotations

import re
from functools import cache

from bitemporal_core.language.slots import ABOUT, ClaimDraft, slot_table
from bitemporal_core.language.topics import topic_claims_zh, topics, zh_terms

__all__ = ["claims_zh"]

_CLAUSES = re.compile(r"[，,；;。！!？?\n]+|(?:但是|不过|所以|然后|而且)")
_TAIL = "了啦呢吧啊呀的哦噢嘛"
_MAX_VALUE = 12


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str], str | None, bool, bool, str], ...]:
    """(slot, regex, fixed value, positive, star, source), longest phrasing first."""
    out = []
    for slot, spec in slot_table()["slots"].items():
        for group, positive in (("claim", True), ("end", False)):
            for phrase in spec.get("zh", {}).get(group, ()):
                words, _, fixed = phrase.partition("=>")
                words = words.strip()
                star = "*" in words
                body = ".{1,8}?".join(re.escape(part) for part in words.split("*"))
                if star:
                    body = "(?P<v>.{1,8}?)".join(re.escape(part) for part in words.split("*", 1))
                    body = body.replace(re.escape("*"), ".{1,8}?")
                regex = re.compile(body)
                out.append((slot, regex, fixed.strip() or None, positive, star, words))
    return tuple(sorted(out, key=lambda p: -len(p[5].replace("*", ""))))


def _cue(group: str, text: str) -> bool:
    return any(c in text for c in slot_table()["cues"]["zh"][group])


def claims_zh(text: str) -> tuple[ClaimDraft, ...]:
    """The claims of a Chinese statement, in clause order: the slot table's phrasings and
    one claim about what it names (the segmenter gives no reliable concepts to name it by),
    then the topic rule's claims (`topics.py`)."""
    out = []
    clauses = [c.strip() for c in _CLAUSES.split(text) if c.strip()]
    for clause in clauses:
        claim = _clause_claim(clause)
        if claim is not None:
            out.append(claim)
    topic = topic_claims_zh(text, clauses, _topic_subject)
    first = next(iter((*out, *topic)), None)
    who = (first.subject_kind, first.subject) if first else _topic_subject(text)
    return (*out, *_about(text, who), *topic)


def _about(text: str, who: tuple[str, str]) -> tuple[ClaimDraft, ...]:
    """A claim of the `about` slot: what the statement names (its character pairs), so that
    a later change of the same thing can retire it; its subject is `who` (that of the
    statement's first claim, else read from its start)."""
    keys = tuple(sorted(zh_terms(text)))
    if not keys:
        return ()
    kind, subject = who
    return (
        ClaimDraft(
            subject_kind=kind,
            subject=subject,
            slot=ABOUT,
            value="",
            keys=keys,
            positive=True,
            single=False,
            tentative=_cue("hypothetical", text),
            past=_cue("past_state", text),
            rule="about: what the statement names",
        ),
    )


def _topic_subject(before: str) -> tuple[str, str]:
    """Who a clause is about, read from the text before its cue (or from its start): a
    relative, a pronoun, a name only when that text is nothing but two or three characters
    that are no function words, else the speaker."""
    head = before.strip()
    kind, subject = _subject(head)
    if kind != "person":
        return kind, subject
    stops = set(topics()["zh"]["stop_chars"])
    if len(head) in (2, 3) and not set(head) & stops:
        return kind, subject
    return "speaker", ""


def _clause_claim(clause: str) -> ClaimDraft | None:
    for slot, regex, fixed, positive, star, source in _patterns():
        m = regex.search(clause)
        if m is None:
            continue
        if fixed is not None:
            value = fixed
        elif star and m.groupdict().get("v"):
            value = m.group("v")
        else:
            value = clause[m.end() :][:_MAX_VALUE]
        value = value.strip().rstrip(_TAIL).strip() or value.strip()
        spec = slot_table()["slots"][slot]
        negated = positive and _cue("negation", clause[: m.start()] + clause[m.start() : m.end()])
        kind, subject = _subject(clause[: m.start()])
        return ClaimDraft(
            subject_kind=kind,
            subject=subject,
            slot=slot,
            value=value,
            keys=tuple(sorted({value})) if value else (),
            positive=positive and not negated,
            single=spec["cardinality"] == "one",
            replacing=_cue("replacing", clause) or not positive or negated,
            additive=_cue("additive", clause[: m.start()]),
            tentative=_cue("hypothetical", clause),
            past=_cue("past_state", clause),
            rule="slot:" + slot + " '" + source + "'",
        )
    return None


def _subject(before: str) -> tuple[str, str]:
    """Who the clause is about, from the text before its phrasing."""
    subjects = slot_table()["subjects"]["zh"]
    head = before.strip()
    aliases = subjects["relation_aliases"]
    for relation in sorted([*subjects["relations"], *aliases], key=len, reverse=True):
        if relation in head:
            return "relation", aliases.get(relation, relation)
    for word in subjects["third"]:
        if head.startswith(word) or head == word:
            return "pronoun", word
    for word in subjects["speaker"]:
        if head.startswith(word):
            return "speaker", ""
    name = re.match(r"[\u3400-\u9fff]{2,3}", head)
    starts = subjects["surnames"] + subjects["name_prefixes"]
    if name and len(head) <= 4 and head[0] in starts:  # "婚礼改到" is no one's name
        return "person", name.group(0)
    return "speaker", ""
