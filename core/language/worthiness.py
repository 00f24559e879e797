"""What becomes a memory: a statement is memory-worthy unless it is a question, a greeting,
thanks, an acknowledgement or filler (the lexicons are data, `data/worthiness.json`).

The rules read the sentence's words and their UPOS tags, so they work with every extractor.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any

from bitemporal_core.language.clauses import is_emoji
from bitemporal_core.language.extract import Token
from bitemporal_core.language.people import is_first_name

__all__ = ["CATEGORIES", "MEMORY", "category"]

MEMORY = "memory"
CATEGORIES: tuple[str, ...] = (
    MEMORY,
    "question",
    "greeting",
    "thanks",
    "acknowledgement",
    "filler",
)
"""What a statement is: a memory, or one of the kinds of talk kept only as a message."""

_CONTENT_POS = frozenset({"NOUN", "PROPN", "NUM", "VERB", "ADJ", "ADV", "X"})
_WORD = re.compile(r"[\w'’]+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_ZH_PUNCT = re.compile(r"[\s，。！？；：、…~～!?,.;:\"'“”‘’（）()【】\[\]]+")
_ZH_TAIL = "啊呀啦哈嘛哦噢喔吧呗嘞"


@cache
def _lexicon() -> dict[str, Any]:
    text = resources.files("bitemporal_core.language").joinpath("data/worthiness.json")
    data: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return data


@cache
def _phrases(language: str, *groups: str) -> tuple[tuple[str, ...], ...]:
    """The phrases of some lexicon groups as word tuples, longest first."""
    lex = _lexicon()[language]
    found = {tuple(p.split()) for g in groups for p in lex[g]}
    return tuple(sorted(found, key=len, reverse=True))


def category(text: str, tokens: Sequence[Token] = ()) -> str:
    """`MEMORY`, or the kind of talk `text` is (question, greeting, thanks, acknowledgement,
    filler); Chinese text is judged by the Chinese lexicon."""
    if _CJK.search(text):
        return _chinese(text)
    return _english(text, tokens)


def _english(text: str, tokens: Sequence[Token]) -> str:
    words = [w.lower().replace("’", "'") for w in _WORD.findall(text)]
    if not words:
        return "filler"
    lex = _lexicon()["en"]
    if text.rstrip().rstrip("\"')]").endswith("?"):
        told = _tagged(text, "en")
        if told is not None:
            return _english(told, _prefix(tokens, told))
        if _told_asking(words, lex):  # "turns out i'm not allergic to it anymore??"
            return _english(text.rstrip().rstrip("\"')]?!"), tokens)
        return "question"
    names = {t.text.lower() for t in tokens if t.pos == "PROPN" and not _verb_like(t.text)}
    if _starts_question(words, tokens, lex, names):
        return "question"
    if _covered(words, names, ("greetings", "thanks", "acknowledgements", "intensifiers")):
        return _first_group(words)
    if _reaction(words, names, lex):
        return "acknowledgement"
    if set(words) & set(lex["moods"]) and _covered(words, set(), ("moods", "mood_times")):
        return "filler"  # "ugh monday again"
    if tokens and not any(t.pos in _CONTENT_POS for t in tokens):
        return "filler"
    return MEMORY


def _verb_like(word: str) -> bool:
    """A lowercase past-tense form the tagger took for a name ("ditched portuguese")."""
    return word.islower() and word.endswith("ed") and len(word) > 4 and not is_first_name(word)


def _told_asking(words: list[str], lex: dict[str, Any]) -> bool:
    """A statement said with a question mark (surprise, uptalk: "so she's a ward manager
    now??", "i've been veggie since uni so like 9 years?"): no question word or auxiliary
    opens it (after its `question_fillers`: "so", "and") or stands before a subject pronoun
    ("would I have to"), and it asks no one ("you", "anyone": `asking_words`)."""
    subjects = set(lex["inverted_subjects"])
    lead = next((w for w in words if w not in lex["question_fillers"]), "")
    if lead in lex["question_starts"] or set(words) & set(lex["asking_words"]):
        return False  # "so has my dentist retired?": a question after its filler
    return not any(a in lex["question_starts"] and b in subjects for a, b in pairwise(words))


def _tagged(text: str, language: str) -> str | None:
    """The statement before a short question tag ("He sold the Volvo, can you believe it?"
    -> "He sold the Volvo"), when there is one (the language's `question_tag` rule)."""
    rule = _lexicon()[language]["question_tag"]
    body = text.strip().rstrip(" \t\n\"')]")
    cut = max(body.rfind(b) for b in rule["breaks"])
    if cut < 0 or not body.endswith(("?", "？")):
        return None
    told, tag = body[:cut].rstrip(), body[cut + 1 : -1].strip()

    def size(part: str) -> int:
        return len(_WORD.findall(part)) if rule["unit"] == "words" else len(part)

    if size(tag) > rule["tag_at_most"] or size(told) < rule["told_at_least"]:
        return None
    return told


def _prefix(tokens: Sequence[Token], text: str) -> Sequence[Token]:
    """The tokens that make up the start `text` of their sentence."""
    seen = 0
    for i, tok in enumerate(tokens):
        seen += len(tok.text)
        if seen > len(text.replace(" ", "")):
            return tokens[:i]
    return tokens


def _starts_question(
    words: list[str], tokens: Sequence[Token], lex: dict[str, Any], names: set[str]
) -> bool:
    """A question without its question mark: it opens with a question word (not a name such
    as "Will") or with a phrase such as "what about"."""
    for phrase in _phrases("en", "question_statement_starts"):
        if tuple(words[: len(phrase)]) == phrase:
            return True
    first = words[0]
    if first in names or first not in lex["question_starts"]:
        return False
    if len(words) > 2 and words[1] == "you" and words[2] in lex["request_verbs"]:
        return False  # "Can you save my number ...": a request to keep something
    wh = {"what", "whats", "what's", "where", "wheres", "where's", "when", "why", "who", "whom"}
    wh |= {"whose", "which", "how", "hows", "how's"}
    if first in lex["subordinating_wh"]:  # "when the contract ends i might switch to a tablet"
        return len(words) > 1 and words[1] in lex["question_starts"] and words[1] not in wh
    if first in wh:
        return (len(words) > 1 and words[1] not in {"a", "an"}) or first == "why"
    # an auxiliary first ("Do you...", "Is it...") followed by a subject pronoun or "there"
    subjects = {"i", "you", "we", "they", "he", "she", "it", "there", "that", "this", "anyone"}
    said = tokens[2].text if len(tokens) > 3 else ""
    if said in ("!", "!!") or is_emoji(said) or _done_then_news(words, tokens):
        return False  # "did it 😅 the mortgage is with nationwide now": an exclamation, then news
    return len(words) > 1 and words[1] in subjects


def _done_then_news(words: list[str], tokens: Sequence[Token]) -> bool:
    """Whether a deed done (`done_openers`) opens the text, then a comma and a clause opening
    with its subject: news ("did it, salary now goes into Monzo"), not "did it, in the end, go
    through ok"."""
    opens = [tuple(p.split()) for p in _lexicon()["en"]["done_openers"]]
    n = next((len(p) for p in opens if tuple(words[: len(p)]) == p), 0)
    after = tokens[n + 1] if n and len(tokens) > n + 1 and tokens[n].text == "," else None
    return after is not None and after.pos in ("NOUN", "PROPN", "PRON", "DET")


@cache
def _by_first(language: str, *groups: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """`_phrases` indexed by their first word (longest first), so that matching at a
    position tries only the phrases that can start there: linear in the number of words."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for phrase in _phrases(language, *groups):
        out.setdefault(phrase[0], []).append(phrase)
    return {first: tuple(found) for first, found in out.items()}


def _phrase_at(words: list[str], i: int, *groups: str) -> tuple[str, ...] | None:
    """The longest phrase of these groups that starts at word `i`, if any."""
    for phrase in _by_first("en", *groups).get(words[i], ()):
        if tuple(words[i : i + len(phrase)]) == phrase:
            return phrase
    return None


def _covered(words: list[str], names: set[str], groups: tuple[str, ...]) -> bool:
    """True if the words are made only of these groups' phrases (and names)."""
    i = 0
    while i < len(words):
        if words[i] in names:
            i += 1
            continue
        phrase = _phrase_at(words, i, *groups)
        if phrase is None:
            return False
        i += len(phrase)
    return True


_GROUPS = (("greetings", "greeting"), ("thanks", "thanks"), ("acknowledgements", "acknowledgement"))


def _first_group(words: list[str]) -> str:
    """Which kind of talk a covered sentence is: its first greeting, thanks or acknowledgement."""
    for i in range(len(words)):
        for group, name in _GROUPS:
            if _phrase_at(words, i, group) is not None:
                return name
    return "filler"


def _reaction(words: list[str], names: set[str], lex: dict[str, Any]) -> bool:
    """A verdict on what the other person said: "Wow, that's amazing!", "Sounds like a plan"."""
    opening = set(_lexicon()["en"]["acknowledgements"]) | set(lex["intensifiers"])
    rest = [w for w in words if w not in names]
    start = 0
    while (
        start < len(rest) and rest[start] in opening and rest[start] not in lex["reaction_subjects"]
    ):
        start += 1
    rest = rest[start:]
    if not rest or rest[0] not in lex["reaction_subjects"]:
        return False
    allowed = set(lex["intensifiers"]) | set(lex["verdicts"]) | set(lex["reaction_subjects"])
    allowed |= {"like", "of", "to", "for", "you", "me", "us", "all", "at", "well", "then", "now"}
    allowed |= {"though", "honestly", "seriously", "literally", "much", "lot", "lots", "bit"}
    return any(w in lex["verdicts"] for w in rest) and all(w in allowed for w in rest)


def _declarative_ne(text: str, lex: dict[str, Any]) -> bool:
    """A 呢 that ends a statement (报告还没写完呢): its last clause holds a cue of an ongoing
    state (`declarative_ne`) and no question word."""
    last = [p for p in _ZH_PUNCT.split(text) if p][-1]
    asks = any(w in last for w in lex["question_words"])
    return not asks and any(c in last for c in lex["declarative_ne"])


def _chinese(text: str) -> str:
    stripped = text.strip()
    if stripped.endswith(("？", "?")):
        told = _tagged(stripped, "zh")
        if told is None:
            return "question"
        return _chinese(told)  # 想再养只猫，豆豆会不会欺负它啊？: a wish, then a question tag
    lex = _lexicon()["zh"]
    core = _ZH_PUNCT.sub("", stripped)
    bare = core.rstrip(_ZH_TAIL) or core
    if not core:
        return "filler"
    if bare.endswith(tuple(p.rstrip("？") for p in lex["question_particles"])) and not (
        bare.endswith("呢") and _declarative_ne(stripped, lex)
    ):
        return "question"
    for group, name in (("greetings", "greeting"), ("thanks", "thanks")):
        if bare in lex[group] or core in lex[group]:
            return name
    if bare in lex["acknowledgements"] or core in lex["acknowledgements"]:
        return "acknowledgement"
    asked = core
    for word in lex["indefinites"]:  # 什么都吃 "eat anything", 谁都认识: no question
        asked = asked.replace(word, "")
    if any(w in asked for w in lex["question_words"]) and len(core) <= 12:
        return "question"
    return MEMORY
