"""`UposTable` gives the attribute ruler's UPOS without running it (issue #8)."""

from __future__ import annotations

from typing import Any

import pytest

from bitemporal_core.language.extract import SpacyExtractor
from bitemporal_core.language.extract._upos import UposTable
from bitemporal_core.language.extract.spacy import DEFAULT_SPACY_MODEL, _load_pipeline

spacy = pytest.importorskip("spacy")

SENTENCES = [
    "Brandon loves coffee.",
    "It's what's on his mind, isn't it? That's something I don't know.",
    "I can't believe that he said that; there's nothing to it.",
    "There are two cats and there is a dog. Is there anyone here?",
    "We ain't gonna do it, y'all, 'cause we're gotta go.",
    "Did you do your homework? I did, and I have done it well.",
    "She'd have liked that one, wouldn't she?   Everyone knows.",
    "Let's see if it works \n\n and whether    spaces matter.",
    "I've got 3.5 kg of apples, 1,000 pears & the $5 deal :) lol",
    "lol idk u kno wat i mean?? no way!!! #fun @bob",
    "Something, anything, nobody... I'd rather not, because it's late.",
    "The ones that I saw were those that you bought, weren't they?",
    "",
]


@pytest.fixture(scope="module")
def nlp() -> Any:
    return _load_pipeline(DEFAULT_SPACY_MODEL)


def test_table_equals_the_attribute_ruler(nlp: Any) -> None:
    table = UposTable.compile(nlp)
    assert table is not None
    for text in SENTENCES:
        ruler = [t.pos_ for t in nlp(text)]
        assert table.tags(nlp(text, disable=["attribute_ruler"])) == ruler, text


def test_tricky_tokens(nlp: Any) -> None:
    table = UposTable.compile(nlp)
    assert table is not None
    doc = nlp("There's something that isn't right.", disable=["attribute_ruler"])
    tags = dict(zip([t.text for t in doc], table.tags(doc), strict=True))
    assert tags == {
        "There": "PRON",
        "'s": "VERB",  # after an expletive: the two-token rule
        "something": "PRON",
        "that": "PRON",
        "is": "AUX",
        "n't": "PART",
        "right": "ADJ",
        ".": "PUNCT",
    }


def test_extractor_output_is_unchanged(nlp: Any) -> None:
    fast = SpacyExtractor(nlp=nlp)
    slow = SpacyExtractor(nlp=nlp)
    slow._compiled = True  # no table: the ruler runs
    assert fast._table() is not None
    assert fast.sentences_many(SENTENCES) == slow.sentences_many(SENTENCES)
    assert [fast.sentences(t) for t in SENTENCES] == [slow.sentences(t) for t in SENTENCES]


def _blank(patterns: list[dict[str, Any]]) -> Any:
    blank = spacy.blank("en")
    blank.add_pipe("attribute_ruler").add_patterns(patterns)
    return blank


def test_later_rules_win_and_span_indices_count() -> None:
    blank = _blank(
        [
            {"patterns": [[{"LOWER": "run"}]], "attrs": {"POS": "VERB"}},
            {"patterns": [[{"ORTH": "Run"}]], "attrs": {"POS": "PROPN"}},
            {
                "patterns": [[{"LOWER": "to"}, {"LOWER": "run"}]],
                "attrs": {"POS": "NOUN"},
                "index": -1,
            },
            {"patterns": [[{"LOWER": {"IN": ["to", "a"]}}]], "attrs": {"POS": "PART"}},
            {"patterns": [[{"LOWER": {"NOT_IN": ["to", "run"]}}]], "attrs": {"POS": "X"}},
        ]
    )
    table = UposTable.compile(blank)
    assert table is not None
    text = "Run to run a Run to Run x"
    expected = [t.pos_ for t in blank(text)]
    assert table.tags(blank.make_doc(text)) == expected
    assert expected == [
        "PROPN",
        "PART",
        "NOUN",
        "X",
        "PROPN",
        "PART",
        "NOUN",
        "X",
    ]  # "a": X is later


@pytest.mark.parametrize(
    "pattern",
    [
        [{"LOWER": {"REGEX": "^ru"}}],
        [{"LOWER": "run", "OP": "+"}],
        [{"LENGTH": 3}],
    ],
)
def test_unsupported_pos_rules_keep_the_ruler(pattern: list[dict[str, Any]]) -> None:
    blank = _blank([{"patterns": [pattern], "attrs": {"POS": "VERB"}}])
    assert UposTable.compile(blank) is None
    extractor = SpacyExtractor(nlp=blank)
    assert extractor._table() is None


def test_a_ruler_that_is_not_last_is_kept() -> None:
    blank = _blank([{"patterns": [[{"LOWER": "run"}]], "attrs": {"POS": "VERB"}}])
    blank.add_pipe("sentencizer")
    assert UposTable.compile(blank) is None
