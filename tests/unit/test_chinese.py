"""Chinese analysis: normalisation, language detection, words, concepts, terms, kinds, and the
per-language extractor (own sentences; the labelled set stays a measurement)."""

from __future__ import annotations

import pytest

from bitemporal_core.errors import InvalidInput
from bitemporal_core.language.analysis import Analyser, Utterance
from bitemporal_core.language.detect import check_language, language_of, script_runs
from bitemporal_core.language.extract import (
    ChineseExtractor,
    MultilingualExtractor,
    SimpleExtractor,
    StanzaExtractor,
    content_terms,
    multilingual,
)
from bitemporal_core.language.extract import chinese as zh
from bitemporal_core.language.extract.chinese import split_sentences
from bitemporal_core.language.kinds import classify
from bitemporal_core.language.normalise import normalise

EXTRACTOR = ChineseExtractor(english=SimpleExtractor())


def keys(text: str) -> list[str]:
    return [c.key for s in EXTRACTOR.sentences(text) for c in s.concepts]


def test_normalise_keeps_the_length() -> None:
    text = "我下週三在臺灣，電話是１３９０００。\u3000ＯＫ"
    out = normalise(text)
    assert len(out) == len(text)
    assert out == "我下周三在台湾,电话是139000。 OK"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("我在Google上班。", "zh"),
        ("I met 小王 at the station.", "en"),
        ("I like tea.", "en"),
        ("下周三有个meeting", "zh"),
        ("我們週末見", "zh"),
        ("Ça va très bien", "en"),
    ],
)
def test_language_from_script(text: str, lang: str) -> None:
    assert language_of(text) == lang


def test_script_runs() -> None:
    assert script_runs("用Keep跑步") == [(0, 1, "zh"), (1, 5, "en"), (5, 7, "zh")]


def test_check_language() -> None:
    assert check_language("zh") == "zh"
    assert check_language("auto") == "auto"
    for bad in ("fr", "ZH", 3, None):
        with pytest.raises(InvalidInput):
            check_language(bad)
    with pytest.raises(InvalidInput):
        check_language("auto", auto=False)


def test_sentences_split_on_chinese_ends_and_line_breaks() -> None:
    text = "我喜欢猫！你呢？我养了两只；他也养了。\n明天见"
    pieces = [text[a:b] for a, b in split_sentences(text)]
    assert pieces == ["我喜欢猫！", "你呢？", "我养了两只；", "他也养了。", "明天见"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我姐姐在深圳的腾讯做产品经理。", ["姐姐", "深圳", "腾讯", "产品", "经理"]),
        ("王医生让我少吃辣。", ["王医生", "辣"]),
        ("我女儿今年六岁，养了两只兔子。", ["女儿", "六", "两", "兔子"]),
        ("我每周三晚上去游泳馆。", ["游泳馆"]),
        ("我花了3500块买了一台咖啡机。", ["3500", "咖啡机"]),
        ("下个月十二号我要去医院拿体检报告。", ["医院", "体检", "报告"]),
        ("小李推荐我用Notion记笔记。", ["小李", "notion", "笔记"]),
        ("我們週末去臺北看電影。", ["台北", "电影"]),
        ("我的车牌号是沪B67890。", ["车牌号", "沪b67890"]),
    ],
)
def test_concepts(text: str, expected: list[str]) -> None:
    assert keys(text) == expected


def test_concept_display_is_the_text_as_written() -> None:
    (sentence,) = EXTRACTOR.sentences("我們在臺北。")
    assert [(c.key, c.display) for c in sentence.concepts] == [("台北", "臺北")]
    assert sentence.language == "zh"
    assert "".join(t.text for t in sentence.tokens) == "我們在臺北。"


def test_time_words_and_durations_are_not_concepts() -> None:
    assert keys("昨天下午我们聊了两个小时。") == []
    assert keys("上周末我在三月份认识了他。") == []


def test_english_run_inside_chinese_is_tagged_as_english() -> None:
    (sentence,) = EXTRACTOR.sentences("他跟我说 I will call the doctor tomorrow 然后就走了")
    assert "doctor" in [c.key for c in sentence.concepts]
    assert "will" not in [c.key for c in sentence.concepts]


def test_terms_are_words_not_clauses() -> None:
    terms = content_terms("我可以吃苹果吗？")
    assert "苹果" in terms and "吃" in terms
    assert "吗" not in terms and "我" not in terms
    assert content_terms("I like apples.") == ["like", "appl"]
    mixed = content_terms("我在Google上班")
    assert "googl" in mixed and "上班" in mixed


def test_terms_without_the_segmenter_are_bigrams(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(zh._segmenters, "zh", zh._Runs())
    assert zh.chinese_terms("我爱苹果 and tea") == ["我爱", "爱苹", "苹果", "tea"]
    assert EXTRACTOR.sentences("我爱苹果。")[0].concepts == ()
    assert "han-runs" in EXTRACTOR.name


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("我很喜欢吃榴莲。", "preference"),
        ("我讨厌下雨天出门。", "preference"),
        ("我觉得这家店不太干净。", "belief"),
        ("他可能已经回家了。", "belief"),
        ("我想学潜水。", "intent"),
        ("我希望有一只猫。", "intent"),
        ("我打算换一份工作。", "plan"),
        ("明天我去机场接你。", "plan"),
        ("我上周去了一趟广州。", "event"),
        ("我吃了一碗面。", "event"),
        ("我是一名护士。", "said"),
        ("你真可爱。", "said"),
        ("我想你。", "said"),
    ],
)
def test_kinds_from_chinese_cues(text: str, kind: str) -> None:
    (sentence,) = EXTRACTOR.sentences(text)
    assert classify(sentence.tokens, "zh") == kind


def test_multilingual_leaves_english_alone() -> None:
    english = SimpleExtractor()
    both = multilingual(english)
    text = "Brandon loves coffee. He moved to Paris."
    assert both.sentences(text) == english.sentences(text)


def test_multilingual_splits_a_mixed_message_per_language() -> None:
    both = multilingual(SimpleExtractor())
    sentences = both.sentences("I moved to Hangzhou last year. 我很喜欢这里的西湖。")
    assert [s.language for s in sentences] == ["en", "zh"]
    assert [c.key for c in sentences[1].concepts] == ["西湖"]


def test_han_words_inside_english_are_keyed_as_chinese() -> None:
    (sentence,) = multilingual(SimpleExtractor()).sentences("I had dinner with 小王 at Haidilao.")
    assert sentence.language == "en"
    assert {"小王", "haidilao", "dinner"} <= {c.key for c in sentence.concepts}


def test_a_forced_language_is_used() -> None:
    both = multilingual(SimpleExtractor())
    assert [s.language for s in both.sentences("我喜欢猫。", "en")] == ["en"]
    assert Analyser(extractor=SimpleExtractor(), language="zh").analyse("OK")[0].language == "zh"


def test_extractor_option() -> None:
    assert isinstance(multilingual("simple").extractors["en"], SimpleExtractor)
    stanza = multilingual("stanza").extractors
    assert isinstance(stanza["zh"], StanzaExtractor) and stanza["zh"].languages == ("zh",)
    custom = MultilingualExtractor({"en": SimpleExtractor(), "zh": EXTRACTOR})
    assert multilingual(custom) is custom
    assert multilingual(StanzaExtractor(lang="zh")).extractors["en"] is not None
    with pytest.raises(InvalidInput):
        multilingual("jieba")
    with pytest.raises(InvalidInput):
        multilingual(42)
    with pytest.raises(InvalidInput):
        MultilingualExtractor({"en": SimpleExtractor()})
    with pytest.raises(InvalidInput):
        Analyser(extractor="nope")


def test_statements_carry_their_language() -> None:
    analyser = Analyser(extractor=SimpleExtractor())
    statements = analyser.analyse("I like tea. 我喜欢喝茶。")
    assert [(s.language, s.kind) for s in statements] == [
        ("en", "preference"),
        ("zh", "preference"),
    ]
    groups = analyser.analyse_many(
        [Utterance(text="我喜欢喝茶。", language="en"), Utterance(text="I like tea.")]
    )
    assert [g[0].language for g in groups] == ["en", "en"]
