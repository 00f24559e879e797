"""Chinese statement cues of the kind classifier (`kinds.classify`), as data.

Multi-character cues are matched in the sentence text (they survive segmentation choices:
最喜欢 or 最 + 喜欢); one-character cues (爱, 想, 要) only as whole words followed by a verb, so
可爱 (cute) or 想你 (miss you) do not count.
"""

from __future__ import annotations

import re

__all__ = [
    "BELIEF",
    "EVENT",
    "INTENT",
    "INTENT_WORDS",
    "NOT_WANTING",
    "PAST_MARKERS",
    "PLAN",
    "PREFERENCE",
    "PREFERENCE_WORDS",
]


def _any(words: str) -> re.Pattern[str]:
    return re.compile("|".join(sorted(words.split(), key=len, reverse=True)))


PLAN = re.compile(
    _any("打算 计划 准备 安排 预约 预定 预订 约好 约了 订了 报名 定好 已定 排好").pattern
    + r"|明天|明早|明晚|后天|今晚|今天晚上|下下?个?(?:周|星期|礼拜|月)|明年|后年|过几天|过两天"
    + r"|改天|回头|这个?周末"
)
"""Plans: a plan word, or a time ahead (as "tomorrow", "tonight" in English)."""
INTENT = _any("想要 希望 盼望 渴望 梦想 期待 但愿 需要")
INTENT_WORDS = frozenset({"想", "要", "我想", "我要", "想去", "要去"})
"""Wants: these words as words of their own before a verb (想去巴黎, not 想你)."""
NOT_WANTING = frozenset({"想念", "想起", "想到", "想象", "想通", "想法", "想来", "想开"})
"""Verbs starting with 想 that are not "want to" (a verb 想学 or 想买 is)."""
PREFERENCE = _any(
    "喜欢 喜爱 热爱 钟爱 偏爱 偏好 最爱 爱吃 爱喝 爱看 爱玩 爱听"
    " 讨厌 厌恶 受不了 着迷 迷上 爱上 不爱"
)
PREFERENCE_WORDS = frozenset({"爱", "恨"})
BELIEF = _any(
    "觉得 认为 相信 以为 估计 可能 也许 大概 或许 好像 似乎 恐怕 看来 怀疑 说不定 我猜 我看"
)
EVENT = re.compile(
    r"昨天|昨晚|前天|上上?个?(?:周|星期|礼拜|月)|去年|前年|刚才|刚刚|以前|之前"
    r"|[天周月年]前|曾经|已经|那时候"
)
"""Past events: a time behind, or 已经/曾经; also a verb followed by 了 or 过 (`PAST_MARKERS`)."""
PAST_MARKERS = frozenset({"了", "过"})
