"""Dependency-free fallback extractor: regex sentence splitter, tokenizer and POS heuristics.

Good enough for short conversational statements ("Brandon loves coffee."); use the spaCy
or Stanza extractor for real tagging quality.
"""

from __future__ import annotations

import re

import attrs

from bitemporal_core.language.extract import _lexicon as lex
from bitemporal_core.language.extract.base import Sentence, Token, build_sentence

__all__ = ["SimpleExtractor", "split_sentences", "tag", "tokenize"]

_CANDIDATE = re.compile(r"(?P<end>[.!?…]+[\"'”’)\]]*)\s+|\n[ \t]*\n\s*")
_ACRONYM = re.compile(r"(?:[^\W\d_]\.)+[^\W\d_]")
_TOKEN = re.compile(
    r"""
      \d+(?:[.,:/]\d+)*(?!\w)                                 # numbers, decimals, times
    | \w+(?=n['’]t\b) | n['’]t\b                              # do|n't, ca|n't
    | ['’](?:s|m|re|ve|ll|d)\b                                # clitics: 's 'm 're ...
    | (?:[^\W\d_]\.){2,}                                      # acronyms: U.S. e.g.
    | (?:mrs?|ms|dr|prof|st|jr|sr|mt|vs|etc)\.                # abbreviations: Mr. Dr.
    | (?-i:[A-HJ-Z])\.(?=\s+[A-Z])                              # initials: J. K. Rowling
    | \w+(?:-\w+|['’](?!(?:s|m|re|ve|ll|d|t)\b)\w+)*          # words, hyphenated, O'Brien
    | [^\w\s]+                                                # punctuation runs
    """,
    re.IGNORECASE | re.VERBOSE,
)
_ADJ_SUFFIXES = ("ous", "ful", "less", "able", "ible", "ical", "ive", "ish")
_ADJ_SUFFIX_EXCEPTIONS = frozenset(
    {"olive", "archive", "detective", "executive", "representative", "relative", "native"}
    | {"dish", "fish", "wish", "table", "cable", "vegetable", "fable", "stable", "motive"}
    | {"drive", "five", "hive"}
)
_NOUN_CONTEXT = frozenset({"DET", "ADJ", "NUM", "ADP"})
_KEEP_EXPECTATION = frozenset({"ADV", "PART", "PROPN", "PRON", "CCONJ"})


def _is_abbreviation(prefix: str) -> bool:
    """Return whether the word ending `prefix` (just before a period) is an abbreviation."""
    words = prefix.split()
    if not words:
        return False
    word = words[-1].lstrip("([\"'“‘").lower()
    if word in lex.ABBREVIATIONS or _ACRONYM.fullmatch(word):
        return True
    return len(word) == 1 and word.isalpha() and word != "i"  # initials: "J. K. Rowling"


def split_sentences(text: str) -> list[str]:
    """Split `text` at . ! ? and blank lines; not after abbreviations or before lowercase."""
    pieces: list[str] = []
    start = 0
    for match in _CANDIDATE.finditer(text):
        end = match.group("end")
        if end is not None:
            following = text[match.end() : match.end() + 1]
            only_period = set(end.rstrip("\"'”’)]")) == {"."}
            if following.islower() or (
                only_period and _is_abbreviation(text[start : match.start()])
            ):
                continue
            pieces.append(text[start : match.end("end")])
        else:
            pieces.append(text[start : match.start()])
        start = match.end()
    pieces.append(text[start:])
    return [p.strip() for p in pieces if any(ch.isalnum() for ch in p)]


def tokenize(sentence: str) -> list[str]:
    """Split one sentence into word, number, clitic and punctuation tokens."""
    return _TOKEN.findall(sentence)


def _known(lower: str) -> bool:
    """Return whether a lowercased word is in one of the built-in word lists."""
    return (
        lower in lex.FUNCTION_WORDS
        or lower in lex.VERB_FORMS
        or lower in lex.ADJECTIVES
        or lower in lex.ADVERBS
        or lower in lex.NUMBER_WORDS
        or (lower.endswith("ly") and lower not in lex.LY_NOUNS)
    )


def _adjective(lower: str, predicative: bool) -> bool:
    """Return whether `lower` looks like an adjective (list, suffix, or -ic/-al after a copula)."""
    if lower in lex.ADJECTIVES:
        return True
    if lower.endswith(_ADJ_SUFFIXES) and lower not in _ADJ_SUFFIX_EXCEPTIONS and len(lower) > 5:
        return True
    return predicative and lower.endswith(("ic", "al", "ed", "ent", "ant"))


def _verb_shaped(lower: str) -> bool:
    """Return whether `lower` is a known verb form or an -ing/-ed form of an unknown verb."""
    if lower in lex.VERB_FORMS:
        return True
    if lower.endswith("ing") and len(lower) > 5 and lower not in lex.ING_NOUNS:
        return True
    return lower.endswith("ed") and not lower.endswith("eed") and len(lower) > 4


@attrs.define(slots=True)
class _Tagger:
    """Left-to-right heuristic tagger keeping a little syntactic state."""

    words: list[str]
    tags: list[str] = attrs.field(factory=list)
    expect_verb: bool = False  # after a subject pronoun, a modal or do-form, infinitive "to"

    def run(self) -> list[str]:
        """Tag every word and return the UPOS tags."""
        for i, word in enumerate(self.words):
            tag = self._tag(i, word)
            self._update(i, word.lower().replace("’", "'"), tag)
            self.tags.append(tag)
        return self.tags

    def _prev(self, i: int) -> tuple[str, str]:
        """Return the previous token (lowercased) and its tag, or empty strings."""
        if i == 0:
            return "", ""
        return self.words[i - 1].lower().replace("’", "'"), self.tags[i - 1]

    def _tag(self, i: int, word: str) -> str:
        """Tag one token from its shape, the word lists and the left context."""
        lower = word.lower().replace("’", "'")
        if any(ch.isdigit() for ch in word) or lower in lex.NUMBER_WORDS:
            return "NUM"
        if not any(ch.isalnum() for ch in word):
            return "PUNCT"
        capitalized = word[0].isupper() and lower != "i"
        if self.expect_verb and lower in lex.BEFORE_VERB:
            return "ADV"
        initial = all(t == "PUNCT" for t in self.tags)
        if capitalized and (not initial or not _known(lower)):
            return "PROPN"
        if lower in lex.FUNCTION_WORDS:
            return self._function_tag(i, lower)
        return self._open_class(i, lower)

    def _function_tag(self, i: int, lower: str) -> str:
        """Tag a closed-class word, disambiguating "to" and "'s"."""
        prev, prev_tag = self._prev(i)
        if lower == "to":
            return "PART" if prev in lex.INFINITIVE_CUES else "ADP"
        if lower == "'s" and prev_tag in {"NOUN", "PROPN"}:
            return "PART"
        return lex.FUNCTION_WORDS[lower]

    def _open_class(self, i: int, lower: str) -> str:
        """Tag an open-class word as VERB, ADJ, ADV or NOUN."""
        prev, prev_tag = self._prev(i)
        nxt = self.words[i + 1].lower() if i + 1 < len(self.words) else ""
        if prev_tag == "PART" and prev == "to":
            return "VERB"
        if lower == "like" and nxt in {"", "?", "."}:
            return "ADP"  # "What's it like?"
        if lower == "right" and nxt in lex.AFTER_RIGHT:
            return "ADV"  # "right now", "right after"
        if prev_tag == "PART" and prev == "'s" and not _adjective(lower, False):
            return "NOUN"  # "does Ben's father live": the possessed noun, the verb after it
        if self.expect_verb and not _adjective(lower, False):
            return "VERB"
        if lower.endswith("ly") and lower not in lex.LY_NOUNS and lower not in lex.ADJECTIVES:
            return "ADV"
        if lower in lex.ADVERBS and prev_tag not in {"DET", "ADJ"}:
            return "ADV"
        if _adjective(lower, prev in lex.COPULAS or prev == "very"):
            return "ADJ"
        noun_context = (
            prev_tag in _NOUN_CONTEXT
            or (prev_tag == "PART" and prev == "'s")
            or (prev_tag == "VERB" and not lower.endswith(("ing", "ed")))
        )
        subject_position = nxt in lex.FUNCTION_WORDS and lex.FUNCTION_WORDS[nxt] == "AUX"
        if not noun_context and not subject_position and _verb_shaped(lower):
            return "VERB"
        return "NOUN"

    def _update(self, i: int, lower: str, tag: str) -> None:
        """Update the verb expectation after tagging token `i`."""
        _, prev_tag = self._prev(i)
        if lower in lex.VERB_TRIGGERS:
            self.expect_verb = True
        elif tag == "PRON" and lower in lex.SUBJECT_PRONOUNS:
            unambiguous = lower not in {"you", "it"}
            self.expect_verb = unambiguous or i == 0 or prev_tag not in {"VERB", "ADP"}
        elif tag == "NOUN" and prev_tag == "PART" and self.words[i - 1] in ("'s", "’s"):
            pass  # the possessed noun of an inverted subject: its verb is still to come
        elif tag not in _KEEP_EXPECTATION:
            self.expect_verb = False


def tag(words: list[str]) -> list[str]:
    """Return heuristic UPOS tags for the tokens of one sentence."""
    return _Tagger(words).run()


@attrs.frozen(slots=True)
class SimpleExtractor:
    """Regex/heuristic concept extractor needing no model (the last-resort fallback)."""

    window: int | None = attrs.field(default=None, kw_only=True)

    @property
    def name(self) -> str:
        """Visible description of the extractor."""
        return "simple"

    def sentences(self, text: str) -> list[Sentence]:
        """Split `text` into sentences and tag each heuristically."""
        result: list[Sentence] = []
        for sentence in split_sentences(text):
            words = tokenize(sentence)
            tokens = (Token(text=w, pos=p) for w, p in zip(words, tag(words), strict=True))
            result.append(build_sentence(sentence, tokens, self.window))
        return result
