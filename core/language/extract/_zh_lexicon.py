"""Tables of the Chinese analysis: jieba tags to UPOS, the concept rule's word lists, the user
dictionary and the BM25 stop words (docs/chinese.md says how each was chosen)."""

from __future__ import annotations

import re

__all__ = [
    "CLASSIFIERS",
    "CONCEPT_TAGS",
    "LIGHT_NOUNS",
    "NON_TERM_TAGS",
    "NUMERAL_CHARS",
    "PRONOUN_HEADS",
    "STOPWORDS",
    "SURNAMES",
    "TAG_OVERRIDES",
    "TAG_UPOS",
    "TIME_FOLLOWERS",
    "TIME_UNITS",
    "TIME_WORD",
    "TITLES",
    "USER_WORDS",
    "VERB_HEADS",
    "WEAK_NUMERALS",
]


def _words(words: str) -> frozenset[str]:
    """The set of whitespace-separated words of `words`."""
    return frozenset(words.split())


def _tagged(upos: str, tags: str) -> dict[str, str]:
    return dict.fromkeys(tags.split(), upos)


TAG_UPOS: dict[str, str] = {
    **_tagged("ADJ", "a ag an b z zg"),
    **_tagged("ADV", "ad d df dg"),
    **_tagged("CCONJ", "c"),
    **_tagged("INTJ", "e o"),
    **_tagged("ADP", "p f"),
    **_tagged("NUM", "m mg mq"),
    **_tagged("NOUN", "n ng nw s t tg q"),
    **_tagged("PROPN", "nr nrfg nrt nr1 nr2 nrj nrf ns nsf nt nz j"),
    **_tagged("PART", "h k u ud ug uj ul uv uz y"),
    **_tagged("PRON", "r rg rr rz"),
    **_tagged("VERB", "v vd vg vi vn vq"),
    **_tagged("X", "g i l x eng"),
}
"""jieba's (ICTCLAS) part-of-speech tags as Universal POS; `x` is PUNCT when punctuation."""

CONCEPT_TAGS: frozenset[str] = _words("n nw nr nrfg nrt nr1 nr2 nrj nrf ns nsf nt nz j")
"""Tags whose words are concepts: common and proper nouns (people, places, organisations,
other names) and abbreviations. Not t (time words), s (place words: 楼下), f (localisers),
ng (bound noun morphemes) nor vn (verbal nouns: measured as noise)."""

CLASSIFIERS: frozenset[str] = frozenset(
    "个只家台张片位次块元岁条本辆件顿名斤克米层楼套间瓶杯碗双对种头匹部首份支门所座栋场毛角"
)
"""One-character classifiers and units stripped from a numeral (两只 -> 两, 4500块 -> 4500)."""
TIME_UNITS: frozenset[str] = frozenset("年月日号天周点时秒")
"""A numeral ending in one of these is a date, clock time or duration (三月, 十二号): time."""
TIME_FOLLOWERS: tuple[str, ...] = (
    "小时", "分钟", "钟头", "天", "年", "月", "周", "星期", "礼拜", "号", "日", "点", "秒"
)  # fmt: skip
"""A numeral followed by one of these (a classifier between allowed) is time: 两 个 小时."""
NUMERAL_CHARS: frozenset[str] = frozenset("零〇一二两三四五六七八九十百千万亿半几多余")
WEAK_NUMERALS: frozenset[str] = frozenset({"一", "几", "半", "多"})
"""Numerals alone that are an article or vague ("一家火锅店"), not information."""

LIGHT_NOUNS: frozenset[str] = _words(
    "人 东西 事 事情 时候 地方 样子 时间 问题 情况 方面 感觉 一下 一点 有点 点儿"
)
"""Nouns too general to be a memory's concept (人 in 四川人, 东西, 事情)."""

TIME_WORD = re.compile(
    r"(?:今年|去年|明年|前年|后年|上上|下下|上|下|这|本|每|今|昨|明)?个?"
    r"(?:周末|周[一二三四五六日天]|星期[一二三四五六日天]?|礼拜[一二三四五六日天]?|"
    r"[春夏秋冬]天|[春夏秋冬]季|小时|分钟|钟头|月底|月初|月中|年底|年初|年中|"
    r"早上|晚上|中午|下午|上午|凌晨|傍晚|半夜|夜里|早晨|晚|早|天|年|月|周|时候)"
)
"""Time words a dictionary tags as nouns (上周末, 今年夏天, 小时): the time resolver owns them."""

USER_WORDS: dict[str, str] = {
    **_tagged("nt", "字节跳动 拼多多 美团 饿了么 盒马 喜茶 瑞幸 蜜雪冰城 海底捞 优衣库 台积电"),
    **_tagged("nt", "菜鸟驿站 宝岛眼镜 德勤 蔚来 小鹏 大疆 顺丰 高德 天猫 钉钉 知乎 哔哩哔哩"),
    **_tagged("nz", "小红书 抖音 快手 微信 B站 网易云 冰美式 拿铁 提拉米苏"),
}
"""Brands, apps and drinks younger than jieba's 2012 dictionary, which it splits or mis-tags
(字节跳动 -> 字节 跳动, 微信/vn, 知乎/v). General knowledge, not taken from a data file."""

TAG_OVERRIDES: dict[str, str] = {
    **_tagged("v", "过敏 跑步"),
    **_tagged("n", "外卖 体检 工资 生日"),
}
"""Words whose dictionary tag is wrong for conversation: 过敏 is tagged as a person's name,
跑步 as a noun, 体检 as a verb, 生日 as a time word."""

VERB_HEADS: frozenset[str] = frozenset("吃喝坐看买开打做玩听学养住搬读写记骑喂穿戴弹唱跳泡逛租订")
"""A three-character dictionary word made of one of these verbs and a noun is split into the
verb and its object: 吃火锅 -> 吃 火锅, 喝咖啡 -> 喝 咖啡, 打电话 -> 打 电话."""
NAME_GLUE: frozenset[str] = frozenset("在说去也都就还又要把被跟")
"""A three-character name the dictionary does not know ending in one of these is a name of two
glued to the word after it by the HMM (筱筱在厦门 -> 筱筱 在 厦门)."""
PRONOUN_HEADS: frozenset[str] = frozenset("我你他她它")
"""A word the dictionary does not know starting with one of these is the pronoun glued to a
verb by the HMM (我想学 -> 我 想学)."""
SURNAMES: frozenset[str] = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝"
)
"""The most common surnames: one before a title is a person (王 医生 -> 王医生)."""
TITLES: frozenset[str] = _words(
    "医生 大夫 老师 教授 阿姨 叔叔 伯伯 奶奶 爷爷 经理 总监 老板 师傅 先生 女士 小姐 律师 主任"
    " 同学 护士 警官 局长 处长 科长 院长 校长"
)
"""Titles after a surname."""

NON_TERM_TAGS: frozenset[str] = _words("x u ud ug uj ul uv uz y e o h k p c r rg rr rz")
"""Tags whose words are not BM25 terms: punctuation, particles, prepositions, conjunctions,
pronouns."""

STOPWORDS: frozenset[str] = _words(
    """
    是 有 在 了 的 地 得 着 过 不 没 没有 也 都 就 还 又 很 太 挺 真 最 更 吗 呢 吧 啊 呀 哦 嗯
    个 一 一个 要 会 能 可以 想 去 来 说 把 被 让 给 跟 和 与 对 从 到 为 这 那 这个 那个
    我要 我想 什么 怎么 怎样 哪 哪里 哪儿 哪个 哪家 为什么 多少 几 谁 现在 一般 一直 已经
    还是 就是
    """
)
"""Frequent function and question words left out of the keyword index (as English stop
words are): they match every statement and no fact."""
