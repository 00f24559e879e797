"""Chinese conversations through the public API, on every engine: recall, kinds, valid time,
updates and the language of each fact (issue #18)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bitemporal_core import Basis, Fact, InvalidInput, MemoryStore, hit_metadata

T0 = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)  # a Monday

FACTS = {
    "cat": "我家的猫叫豆豆，是一只英短。",
    "job": "我在一家做新能源汽车的公司当工程师。",
    "sister": "我姐姐住在成都，她是小学老师。",
    "allergy": "我对花生过敏，吃了会起疹子。",
    "car": "我的车是一辆白色的特斯拉。",
    "gym": "我每周二和周四晚上去健身房练瑜伽。",
}
QUESTIONS = {
    "cat": "我的猫叫什么？",
    "job": "我在什么公司上班？",
    "sister": "我姐姐住在哪里？",
    "allergy": "我能吃花生吗？",
    "car": "我开的是什么车？",
    "gym": "我什么时候去健身房？",
}
SMALL_TALK = [
    "今天天气真不错，阳光特别好。",
    "刚看完一部电视剧，结局有点仓促。",
    "楼下新开了一家面包店，味道还行。",
    "周末想睡个懒觉，什么都不干。",
    "最近地铁上人好多，挤得要命。",
    "朋友发了一张日落的照片，特别美。",
    "晚上煮了一锅粥，配了点咸菜。",
    "这首歌最近在网上特别火。",
]


def _remember_conversation(store: MemoryStore, ns: str) -> dict[str, str]:
    ids, at = {}, T0
    for i, (name, text) in enumerate(FACTS.items()):
        ids[name] = store.remember(text, namespace=ns, at=at)[0].id
        for chat in SMALL_TALK[i % 3 :: 2]:
            at += timedelta(minutes=7)
            store.remember(chat, namespace=ns, at=at)
        at += timedelta(hours=3)
    return ids


def test_each_chinese_fact_is_found_by_its_chinese_question(store: MemoryStore) -> None:
    ids = _remember_conversation(store, "xiaoli")
    for name, question in QUESTIONS.items():
        top = [h.fact.id for h in store.recall(question, namespace="xiaoli", k=3)]
        assert ids[name] in top, (question, [h.fact.text for h in store.recall(question, k=3)])


def test_question_concepts_are_words(store: MemoryStore) -> None:
    store.remember("我喜欢吃苹果。", namespace="a", at=T0)
    view = store.concepts_for("我可以吃苹果吗？", namespace="a")
    assert view.question_concepts == ("苹果",)
    assert view.essential == ("苹果",)


def test_facts_carry_their_language(store: MemoryStore) -> None:
    en, zh = store.remember("I moved to Hangzhou. 我很喜欢这里的西湖。", namespace="a", at=T0)
    assert (en.language, zh.language) == ("en", "zh")
    assert (en.kind, zh.kind) == ("event", "preference")
    assert sorted(f.language for f in store.snapshot("a")) == ["en", "zh"]
    assert store.history(zh.id).versions[0].language == "zh"
    (hit,) = [h for h in store.recall("西湖", namespace="a") if h.fact.id == zh.id]
    assert hit.fact.language == "zh"
    assert hit_metadata(hit)["language"] == "zh"
    forced = store.remember("我喜欢猫。", namespace="a", language="en", at=T0 + timedelta(1))
    assert forced[0].language == "en"
    assert "language=auto" in store.describe() and "zh=" in store.describe()


def test_store_language_option(store: MemoryStore) -> None:
    chinese_only = MemoryStore(store.backend, language="zh", owns_backend=False)
    (fact,) = chinese_only.remember("Tom likes tea.", namespace="b", at=T0)
    assert fact.language == "zh"
    assert "language=zh" in chinese_only.describe()
    with pytest.raises(InvalidInput):
        MemoryStore(store.backend, language="fr", owns_backend=False)


def test_bad_language_writes_nothing(store: MemoryStore) -> None:
    with pytest.raises(InvalidInput):
        store.remember("我喜欢猫。", namespace="c", language="jp", at=T0)
    with pytest.raises(InvalidInput):
        store.remember_many(
            [{"text": "我喜欢猫。"}, {"text": "我喜欢狗。", "language": "klingon"}], namespace="c"
        )
    assert store.snapshot("c") == []
    facts = store.remember_many(
        [{"text": "我喜欢猫。", "at": T0}, {"text": "我喜欢狗。", "language": "en"}], namespace="c"
    )
    assert [f[0].language for f in facts] == ["zh", "en"]


def test_kinds_filter_chinese_statements(store: MemoryStore) -> None:
    store.remember("我很喜欢吃火锅。", namespace="d", at=T0)
    store.remember("明天我要去火锅店。", namespace="d", at=T0 + timedelta(minutes=1))
    store.remember("我觉得火锅太辣了。", namespace="d", at=T0 + timedelta(minutes=2))
    kinds = {h.fact.kind for h in store.recall("火锅", namespace="d")}
    assert kinds == {"preference", "plan", "belief"}
    (only,) = store.recall("火锅", namespace="d", kinds=["plan"])
    assert only.fact.text == "明天我要去火锅店。"


def test_chinese_story_of_the_write_up(store: MemoryStore) -> None:
    like = store.remember("我喜欢吃苹果。", namespace="e", at=T0)[0]
    allergy = store.supersede(like.id, "我對蘋果過敏。", at=T0 + timedelta(days=1))
    now = store.recall("我可以吃苹果吗？", namespace="e", k=1)
    assert now[0].fact.id == allergy.id and now[0].fact.language == "zh"
    then = store.recall("苹果", namespace="e", basis=Basis(valid_at=T0 + timedelta(hours=2)))
    assert [h.fact.text for h in then] == ["我喜欢吃苹果。"]
    trip = store.remember("下个月我要去巴黎出差。", namespace="e", at=T0 + timedelta(days=2))[0]
    assert trip.valid_from == datetime(2024, 6, 1, tzinfo=UTC)
    assert trip.kind == "plan"
    store.correct(trip.id, valid_from=datetime(2024, 6, 5, tzinfo=UTC), at=T0 + timedelta(days=3))
    versions = store.history(trip.id).versions
    assert [v.valid_from.day for v in versions] == [1, 5]
    assert {v.language for v in versions} == {"zh"}


def test_parallel_import_of_chinese_equals_in_process(store: MemoryStore) -> None:
    items = [{"text": text, "at": T0 + timedelta(minutes=i)} for i, text in enumerate(SMALL_TALK)]
    items += [{"text": "我喜欢喝茶。", "language": "en", "at": T0 + timedelta(hours=1)}]
    parallel = store.remember_many(items, namespace="p1", parallel=True, chunk=3)
    serial = store.remember_many(items, namespace="p2", parallel=False, chunk=3)

    def shape(groups: list[list[Fact]]) -> list[tuple[str, str, str]]:
        return [(f.text, f.kind, f.language) for g in groups for f in g]

    assert shape(parallel) == shape(serial)
    assert shape(parallel)[-1][::2] == ("我喜欢喝茶。", "en")  # analysed as asked
    assert store.concepts("p1") and {c.key for c in store.concepts("p1")} == {
        c.key for c in store.concepts("p2")
    }


def test_a_chinese_change_about_a_relative_named_once_retires_the_old_fact(
    store: MemoryStore,
) -> None:
    old = store.remember("我哥李强在南京的一家银行上班。", namespace="r", at=T0)[0]
    store.remember("今天下雨了，地铁上好挤。", namespace="r", at=T0 + timedelta(hours=1))
    new = store.remember("李强跳槽了，现在在一家券商。", namespace="r", at=T0 + timedelta(days=1))
    current = {f.text for f in store.snapshot("r")}
    assert old.text not in current and new[0].text in current
    assert store.history(old.id).superseded_by


def test_a_pet_is_found_by_its_kind_of_animal(store: MemoryStore) -> None:
    _remember_conversation(store, "pet")
    store.remember("我领养了一只金毛，叫可乐。", namespace="pet", at=T0 + timedelta(days=2))
    top = [h.fact.text for h in store.recall("我家的狗叫什么名字？", namespace="pet", k=3)]
    assert "我领养了一只金毛，叫可乐。" in top
