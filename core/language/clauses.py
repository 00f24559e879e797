"""Which part of a statement its valid time comes from: not a wish or plan said after the
main clause ("gave up Japanese, started Spanish, want to go to Barcelona next year": the
switch is now, not next year), and where statements and clauses split (`ZH_CLAUSES`,
`dependent`, `unhyphened`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from bitemporal_core.language.extract import Token
from bitemporal_core.language.slots import slot_table, topic_table

__all__ = [
    "ZH_CLAUSES",
    "dependent",
    "hyphen_compounds",
    "is_emoji",
    "plain_fragment",
    "timed_text",
    "unhyphened",
    "words_in",
]

_EN_BREAK = re.compile(
    r"[,;:!?.\u2014]+|\b(?:cos|coz|cause|because|but|so)\b"
    r"|\band\b(?=\s+(?:i|we|you|he|she|they)(?:'ll|\s+will)\b)",
    re.IGNORECASE,
)
_EMOJI = "\u2600-\u27bf\U0001f300-\U0001faff"  # the symbols chat uses as punctuation
ZH_CLAUSES = re.compile(
    "[，,；;。！!？?\n" + _EMOJI + "]+|(?:但是|不过(?!敏)|所以|然后|而且)"
    "|(?<=[\u4e00-\u9fff])[ \u3000]+(?=[\u4e00-\u9fff])"
)
"""Where a Chinese statement's clauses end: punctuation, emoji (used as punctuation),
clause-joining words (不过 "but", not the 不过 of 不过敏 "not allergic") and a space between
two characters (chat's comma: 之前那个号停机了哈 新号186…); the Chinese claim rules read the
same clauses."""


@cache
def _cues() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The wish and plan cues of the slot table's `hypothetical` lists (and its Chinese
    `wish_words`) and what someone is reported to say (`reported`: 一上来就说下个月涨五百
    dates no new landlord), English as whole words, Chinese in the text."""
    cues = slot_table()["cues"]
    en = sorted((*cues["en"]["hypothetical"], *cues["en"]["reported"]), key=len, reverse=True)
    zh = sorted(
        (*cues["zh"]["hypothetical"], *cues["zh"]["wish_words"], *cues["zh"]["reported"]),
        key=len,
        reverse=True,
    )
    return _whole_words(en), re.compile("|".join(map(re.escape, zh)))


def _whole_words(words: Sequence[str]) -> re.Pattern[str]:
    """English words or phrases, matched whole and ignoring case (longest first)."""
    ordered = sorted(words, key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(map(re.escape, ordered)) + r")(?![\w'])", re.I)


def timed_text(text: str, *, chinese: bool) -> str:
    """`text` with every wish or plan clause after its first clause blanked (same length), so
    that a time word in it does not date the whole statement; after a first clause that calls
    something off, every later clause ("云南黄了，五一要值班": the trip is off now, not on
    1 May); after a clause that says now, every later one that says when something ends
    (现在用199..., 老号下个月停机: the new number is in use now; "at google now, starting at
    meta next month" is still dated) or what will happen ("on the night shift now and we'll
    swap back in spring": the night shift is now)."""
    breaks = list((ZH_CLAUSES if chinese else _EN_BREAK).finditer(text))
    if not breaks:
        return text
    cue = _cues()[1 if chinese else 0]
    off = _called_off(chinese).search(text, 0, breaks[0].start()) is not None
    starts = [m.end() for m in breaks]
    ends = [m.start() for m in breaks[1:]] + [len(text)]
    out, said_now = text, _group(chinese, "now_words")
    ending = _group(chinese, "ends_later"), _group(chinese, "said_later")
    now = said_now.search(text, 0, breaks[0].start()) is not None
    for start, end in zip(starts, ends, strict=True):
        later = now and any(group.search(text, start, end) for group in ending)
        if off or later or cue.search(text, start, end):
            out = out[:start] + " " * (end - start) + out[end:]
        now = now or said_now.search(text, start, end) is not None
    return out


@cache
def _group(chinese: bool, group: str) -> re.Pattern[str]:
    """A cue group of one language (`now_words`, `ends_later`, `said_later`; English as whole
    words, a contraction such as 'll after any word)."""
    words = sorted(slot_table()["cues"]["zh" if chinese else "en"][group], key=len)[::-1]
    if chinese:
        return re.compile("|".join(map(re.escape, words)))
    bounded = [("" if w.startswith("'") else r"(?<![\w'])") + re.escape(w) for w in words]
    return re.compile("(?:" + "|".join(bounded) + r")(?![\w'])", re.I)


@cache
def _called_off(chinese: bool) -> re.Pattern[str]:
    """The slot table's `called_off` cues of one language (English as whole words)."""
    words = sorted(slot_table()["cues"]["zh" if chinese else "en"]["called_off"], key=len)[::-1]
    if chinese:
        return re.compile("|".join(map(re.escape, words)))
    bounded = [("" if w.startswith(("'", "’")) else r"(?<![\w])") + re.escape(w) for w in words]
    return re.compile("(?:" + "|".join(bounded) + r")(?![\w'])(?! to\b)", re.I)  # not "off to"


_PLAIN_BLOCKERS = ("hypothetical", "negation", "additive", "replacing", "past_state", "time_words")


@cache
def _blockers() -> re.Pattern[str]:
    """Any English cue of the slot table's lists that changes what a statement says."""
    en = slot_table()["cues"]["en"]
    lasting = topic_table()["en"]["block"]["continuity"]  # "Still monthly": it holds on
    return _whole_words([*(w for name in _PLAIN_BLOCKERS for w in en[name]), *lasting])


def plain_fragment(text: str) -> bool:
    """Whether an English fragment says nothing of its own about time or change: no wish,
    negation, addition, replacement, past state, continuity or time word, no question, no
    digit ("CBT mostly", not "maybe next year" or "still monthly"), so joining it to the
    sentence before changes no claim."""
    return (
        not text.rstrip().endswith("?")
        and not any(ch.isdigit() for ch in text)
        and not (_blockers().search(text))
    )


def dependent(text: str) -> bool:
    """Whether an English sentence opens with a subordinating word ("if u need it for the
    booking"): a clause the splitter cut from the sentence it depends on."""
    low = " " + " ".join(text.lower().split()[:2]) + " "
    return any(
        low.startswith(" " + w + " ") for w in slot_table()["cues"]["en"]["dependent_openers"]
    )


@cache
def hyphen_compounds() -> frozenset[str]:
    """The hyphenated words read as one word (the slot table's `hyphen_compounds`: "go-to"),
    by `unhyphened` in a statement and by the phrasings that name them."""
    return frozenset(slot_table()["cues"]["en"]["hyphen_compounds"])


def unhyphened(tokens: Sequence[Token]) -> list[Token]:
    """The tokens without hyphens ("gluten-free" reads as "gluten free"), except that a
    compound of the slot table's `hyphen_compounds` is one word ("my new go-to spot" says no
    "going to")."""
    compounds = hyphen_compounds()
    kept: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if i + 2 < len(tokens) and tokens[i + 1].text == "-":
            joined = f"{tok.text}-{tokens[i + 2].text}"
            if joined.lower() in compounds:
                kept.append(Token(text=joined, pos="NOUN", tag="NN"))
                i += 3
                continue
        if tok.text not in ("-", "–"):
            kept.append(tok)
        i += 1
    return kept


_WORD = re.compile(r"[A-Za-z0-9'’]+")
_HAN = re.compile(r"[\u3400-\u9fff]")


def words_in(text: str) -> float:
    """How long a text is in words, in either language: an English word is one, a Chinese
    character half of one (about two characters a word)."""
    return len(_WORD.findall(text)) + len(_HAN.findall(text)) / 2


def is_emoji(text: str) -> bool:
    """Whether a token is an emoji (joiners and variation selectors included: 🏃\u200d♀️),
    which ends a thought in chat as a full stop does."""
    return re.fullmatch("[" + _EMOJI + "\u200d\ufe0f\U0001f3fb-\U0001f3ff]+", text) is not None
