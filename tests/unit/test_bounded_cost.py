"""Issue 20, item 7: every input within the length limit is analysed in time linear in its
length. These tests check that the bounded path is taken (no wall time is measured; the
numbers are in benchmarks/bench_adversarial.py)."""

from __future__ import annotations

import pytest

from bitemporal_core import InvalidInput
from bitemporal_core.common.validate import MAX_TEXT, check_text
from bitemporal_core.language import worthiness
from bitemporal_core.language.extract import ConceptExtractor, SpacyExtractor
from bitemporal_core.language.extract.spacy import _LONG_RUN, _PIECE, bounded_doc


def test_the_length_check_comes_before_any_other_pass() -> None:
    with pytest.raises(InvalidInput, match="too long"):  # not "empty": no scan came first
        check_text(" " * (MAX_TEXT + 1))
    with pytest.raises(InvalidInput, match="too long"):
        check_text("\x00" * (MAX_TEXT + 1))


def _spacy(extractor: ConceptExtractor) -> SpacyExtractor:
    if not isinstance(extractor, SpacyExtractor):
        pytest.skip("spaCy's model is not installed")
    return extractor


@pytest.mark.parametrize(
    "text",
    [
        "(" * 2000 + "a" + ")" * 2000,
        "a," * 5000,
        "x" * 20_000,
        "I said " + "(" * 100 + "hi" + ")" * 100 + "  twice.\n\nThen left.",
        "see https://example.com/" + "a" * 90 + " now",
    ],
)
def test_spacys_tokenizer_only_sees_bounded_runs(extractor: ConceptExtractor, text: str) -> None:
    nlp = _spacy(extractor).load()
    doc, cuts = bounded_doc(nlp, text)
    assert doc.text == text  # the statement's text is exactly what was said
    longest_run = max(len(run) for run in text.split())
    assert bool(cuts) == (longest_run > _LONG_RUN)
    assert all(len(token.text) <= max(_PIECE, _LONG_RUN) for token in doc)


def test_fragments_of_an_over_long_word_name_no_concept(extractor: ConceptExtractor) -> None:
    spacy = _spacy(extractor)
    (sentence,) = spacy.sentences("My password is " + "q" * 9000 + " really.")
    assert "q" * 9000 in sentence.text
    assert all("q" not in c.key for c in sentence.concepts)
    short = spacy.sentences("My cat Rex likes tuna.")[0]  # text without long runs is unchanged
    assert {c.key for c in short.concepts} >= {"cat", "rex", "tuna"}


def test_worthiness_tries_only_the_phrases_that_can_start_at_a_word() -> None:
    index = worthiness._by_first("en", "greetings", "thanks", "acknowledgements", "intensifiers")
    assert all(all(p[0] == first for p in phrases) for first, phrases in index.items())
    assert worthiness.category("thanks so much! " * 3000) == "thanks"
    assert worthiness.category("ok " * 30_000) == "acknowledgement"


def test_typed_claims_read_a_bounded_number_of_values(
    extractor: ConceptExtractor, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bitemporal_core.language import claims_typed
    from bitemporal_core.language.claims import claims_of

    drafted: list[str] = []
    real = claims_typed._draft

    def counting(*args: object, **options: object) -> object:
        drafted.append(str(args[2]))
        return real(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(claims_typed, "_draft", counting)
    (long,) = _spacy(extractor).sentences("call 07700 900123 next month, " * 300)
    claims_of(long.text, long.tokens)
    assert 0 < len(drafted) <= claims_typed.MAX_TYPED
    drafted.clear()
    (short,) = extractor.sentences("My new number is 07700 900123.")
    assert any(d.slot == "phone_number" for d in claims_of(short.text, short.tokens))
