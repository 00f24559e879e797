"""Who a Chinese clause is about, read from the text before its phrasing (`zh_subject`): a
relative (我姐姐), a relative named right after the relation word (我哥李强: that person, so that
a later 李强 is the same one), a pronoun to resolve, a short name, or the speaker; and the short
forms people use for a Chinese full name (`zh_aliases`). The word lists are the slot table's
Chinese `subjects` (`data/slots.json`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from bitemporal_core.language.extract.chinese import Word, tag_words
from bitemporal_core.language.normalise import normalise
from bitemporal_core.language.slots import slot_table

__all__ = [
    "zh_alias_opening",
    "zh_aliases",
    "zh_called",
    "zh_mentioned",
    "zh_prefixed_names",
    "zh_relatives",
    "zh_says_i",
    "zh_subject",
    "zh_thing_subject",
]

_ZH_NAME = re.compile(r"[\u3400-\u9fff]{2,3}")


_ZH_MINE = ("我", "我家", "我们家", "咱家")  # before a relative: the speaker's (我家儿子豆豆)
_AH = "阿"  # 阿 + a given name (阿杰) is a name of two


@cache
def _zh_relation_words() -> tuple[str, ...]:
    """The Chinese relation words and their aliases (我哥), longest first: 表哥 before 哥."""
    subjects = slot_table()["subjects"]["zh"]
    words = [*subjects["relations"], *subjects["relation_aliases"]]
    return tuple(sorted(words, key=len, reverse=True))


def zh_subject(before: str) -> tuple[str, str] | None:
    """Who a Chinese clause is about, from the text before its phrasing, or None when it
    names no one: a relative (我姐姐, 我哥), or the person a relative's name says (我哥李强 ->
    李强, as "my brother Tom"), someone of a relative's (我儿子的同桌), a pronoun to resolve,
    a short name, or the speaker (我 in the text: 现在我的领导; 我和陈浩). Text that starts with
    跟/和 (with) names a companion, not the subject: None; those addressed first (姐妹们,
    家人们) are skipped."""
    subjects = slot_table()["subjects"]["zh"]
    head = before.strip()
    for word in subjects["vocatives"]:  # 姐妹们我升店长啦: those addressed, not the subject
        if head.startswith(word):
            head = head[len(word) :].lstrip("，, 啊呀")
            break
    head = head.lstrip(subjects["interjections"] + "，,！!~ ")  # 啊啊啊莉莉今天领证了
    if head[:1] in subjects["with"]:  # 跟大学同学小林在一起了: the subject was said before
        return None
    for word in [*subjects["disposal"], *subjects["benefactive"]]:  # 只好把朵朵转到...
        moved = head.rpartition(word)[2] if word in head else ""
        found = zh_subject(moved) if moved else None
        if found is None or not (found[0] in ("relation", "pronoun") or zh_called(found[1])):
            continue  # not 把周会取消了: a meeting, though 周 is a surname
        if word in subjects["disposal"] or moved.endswith(found[1]):
            return found  # 给豆豆转到: 豆豆 moves; 给老板发了辞职信 is not the boss's
    if any(
        head.startswith(w) and head[len(w) : len(w) + 1] in subjects["with"]
        for w in subjects["speaker"]
    ):
        return "speaker", ""  # 我和陈浩分手了
    for home in subjects["household"]:  # 我家豆豆: the one of the house named
        rest = head[len(home) :] if head.startswith(home) else ""
        name = _zh_name(rest)
        if name and not rest[len(name) :].startswith("叫"):  # 我家柯基叫旺财: a kind
            return "person", name
    group = next((g for g in subjects["groups"] if head.startswith(g)), "")
    named = _named_head(head[len(group) :].removeprefix("的")) if group else ""
    if named:  # 我们组小吴: the colleague named, not the speaker
        return "person", named
    aliases = subjects["relation_aliases"]
    scan = head  # 朋友圈 (WeChat Moments) names no friend: `not_relations` masked
    for word in subjects["not_relations"]:
        scan = scan.replace(word, "，" * len(word))
    for at, relation in _relations_said(scan):
        if _not_subject(head[:at]):
            continue  # 跟我妈去: a companion; 转给我表哥, 被阿姨卖了: not the subject
        rest = head[at + len(relation) :]
        name = _zh_name(rest)
        if name:
            return "person", name
        owned = _zh_owned(rest)
        if owned:  # 我儿子的同桌: someone of the relative's, not the relative
            return "person", relation + "的" + owned
        return "relation", aliases.get(relation, relation)
    for word in subjects["third"]:
        if head.startswith(word) or any(c + word in head for c in subjects["causatives"]):
            return "pronoun", word  # 现在送他去学围棋了: he learns it
    named = _named_head(head)
    if named:
        return "person", named
    if any(word in head for word in subjects["speaker"]):  # 我..., 现在我的领导
        return "speaker", ""
    return None


def _not_subject(ahead: str) -> bool:
    """Whether the text before a relative makes them no subject: a companion (跟我妈, 跟她老公:
    past an owner) or one something is done to or by (`not_subject_after`: 转给, 被)."""
    subjects = slot_table()["subjects"]["zh"]
    owners = sorted([*subjects["speaker"], *subjects["third"]], key=len, reverse=True)
    bare = ahead.removesuffix("的")
    ahead = next((bare[: -len(w)] for w in owners if bare.endswith(w)), ahead)
    with_ = subjects["with"]
    return bool(ahead) and (
        ahead[-1] in with_ or ahead.endswith(tuple(subjects["not_subject_after"]))
    )


def _named_head(head: str) -> str:
    """The name a clause opens with (小王被阿里挖走了; 小李在我们组做前端, the group being the
    speaker's), or a short head that is only a name ("婚礼改到" is no one's), else ""."""
    subjects = slot_table()["subjects"]["zh"]
    starts = subjects["surnames"] + subjects["name_prefixes"]
    named = _zh_name(head)
    unmasked = head
    for place in subjects["speaker_as_place"]:
        unmasked = unmasked.replace(place, "")
    if (
        named
        and (named[0] in starts or _doubled(named))
        and not any(word in unmasked for word in subjects["speaker"])
        and not named.startswith(tuple(subjects["not_name_words"]))
        and not head[len(named) :].startswith(tuple(subjects["place_after_name"]))
    ):
        return named
    short = _ZH_NAME.match(head)
    if (
        short
        and len(head) <= 4
        and head[0] in starts
        and head[:1] not in subjects["speaker"]
        and short.group(0)[-1] not in subjects["not_name_ends"]  # 秦也卖掉了: the car 秦, too
        and not _zh_time_word(head)  # 周二刚提的: Tuesday, no one named 周二
        and not head.startswith(tuple(subjects["not_name_words"]))  # 老板走了: the boss
        and not _common_noun(head, short.group(0))  # 王者卸载了: the game, though 王 is a surname
    ):
        return head[:2] if _prefixed(head[:2]) else short.group(0)  # 老刘一直: 老刘
    return ""


def _common_noun(head: str, name: str) -> bool:
    """Whether the segmenter reads the text's first word as exactly `name`, a common noun."""
    words = tag_words(normalise(head))
    return bool(words) and words[0].norm == name and words[0].tag == "n"


def _relations_said(scan: str) -> list[tuple[int, str]]:
    """The relation words a text says, where it says them, the longest where two overlap
    (我姐妹: 姐妹, not 我姐), in the order said (我表姐跟她老公: 表姐 first)."""
    spans: list[tuple[int, str]] = []
    for relation in sorted(_zh_relation_words(), key=len, reverse=True):
        at = scan.find(relation)
        end = at + len(relation)
        if at >= 0 and all(end <= a or at >= a + len(r) for a, r in spans):
            spans.append((at, relation))
    return sorted(spans)


def zh_mentioned(text: str) -> list[str]:
    """The relative a Chinese statement names (我哥李强, 我家儿子豆豆): the person and the
    alias `relation:哥哥=person:李强`, as `mentioned` gives for "my brother Tom", so that a
    later 我哥 or 小家伙 is the same person; else the speaker's relatives it names unnamed
    (我爸..., 让他: the father), as "my dad" is mentioned."""
    subjects = slot_table()["subjects"]["zh"]
    aliases = subjects["relation_aliases"]
    mine: list[str] = []
    for relation in _zh_relation_words():
        at = text.find(relation)
        if at < 0 or (relation not in aliases and not text[:at].endswith(_ZH_MINE)):
            continue
        name = _zh_name(text[at + len(relation) :])
        full = aliases.get(relation, relation)
        if name:
            return ["person:" + name, f"relation:{full}=person:{name}"]
        if text[:at].endswith(_ZH_MINE) or relation.startswith(_ZH_MINE):
            mine.append("relation:" + full)
    return list(dict.fromkeys(mine))


def zh_relatives(text: str) -> list[str]:
    """The relatives a Chinese statement names (给女儿找了个老师: relation:女儿), longest word
    first, each once (表哥 is not also 哥)."""
    aliases = slot_table()["subjects"]["zh"]["relation_aliases"]
    out: list[str] = []
    rest = text
    for relation in _zh_relation_words():
        if relation in rest:
            out.append("relation:" + aliases.get(relation, relation))
            rest = rest.replace(relation, " ")
    return list(dict.fromkeys(out))


def _zh_owned(text: str) -> str:
    """The relation word after 的 at the start of `text` (的同桌 -> 同桌; not 的钢琴老师, a
    relative's thing), else ""."""
    relations = slot_table()["subjects"]["zh"]["relations"]
    rest = text[1:] if text.startswith("的") else ""
    return next((r for r in sorted(relations, key=len, reverse=True) if rest.startswith(r)), "")


def _zh_time_word(text: str) -> bool:
    """Whether `text` opens with a word the segmenter tags as a time (周二, 周末), not a name
    of the form 小/老 + surname (老周, which it tags so too)."""
    words = tag_words(normalise(text)) if text else []  # cached: _zh_name segmented it too
    return bool(words) and words[0].tag == "t" and not _prefixed(words[0].norm)


def _zh_name(text: str) -> str:
    """The person's name `text` starts with (a word the segmenter tags as a name, or 小/老 +
    surname), else ""."""
    words = tag_words(normalise(text)) if text else []
    if words and len(words[0].norm) == 1 and _prefixed(text[:2]) and _runs_into(words):
        return text[:2]  # 小陈在奶茶店: the segmenter split 小 | 陈在
    if not words or not _ZH_NAME.fullmatch(words[0].norm):
        return ""
    first, end = words[0].norm, words[0].end
    # a doubled pair before another is a word of four (兜兜转转, 高高兴兴), no name
    doubled = _doubled(first) and not (len(text) > end + 1 and text[end] == text[end + 1])
    if len(first) > 2 and (_prefixed(first) or first[0] in _AH):
        return text[:2]  # 小王升组长了, 阿杰升了: the name, then the verb joined to it
    named = words[0].tag.startswith("nr") or _prefixed(first) or doubled or _pet_name(words[0])
    return text[:end] if named else ""


def _pet_name(word: Word) -> bool:
    """Whether a word is a name a friend is called by, 小/阿 + a character, that the
    segmenter tags as an abbreviation or a descriptive word (小美, 小胖), not as a noun."""
    subjects = slot_table()["subjects"]["zh"]
    pet = len(word.norm) == 2 and word.norm[0] in subjects["name_prefixes"]
    return pet and word.tag in subjects["pet_name_tags"]


def _runs_into(words: Sequence[Word]) -> bool:
    """Whether the segmenter's second word is a surname run into the word after a name
    (小 | 陈在: `name_runs_into`), not a word of its own (小 | 钱包, 小 | 黄车)."""
    second = words[1].norm if len(words) > 1 else ""
    runs = slot_table()["subjects"]["zh"]["name_runs_into"]
    return len(second) >= 2 and second[1] in runs


def _prefixed(word: str) -> bool:
    """Whether `word` opens with 小/老/阿 + surname (老周, 小王): a name, however tagged."""
    subjects = slot_table()["subjects"]["zh"]
    return word[:1] in subjects["name_prefixes"] and word[1:2] in subjects["surnames"]


def zh_prefixed_names(text: str) -> set[str]:
    """The names of the form 小/老/阿 + surname a Chinese text holds (我们组长老周人超好: 老周),
    which the segmenter often splits."""
    return {text[i : i + 2] for i in range(len(text) - 1) if _prefixed(text[i : i + 2])}


def zh_aliases(name: str) -> frozenset[str]:
    """What people call someone of a Chinese full name: the given name of a three-character
    name (李建国: 建国), 老/小 + surname (老李), 阿 + the last character (阿国), and for a
    two-character name the last one doubled or with 子/儿 (刘洋: 洋洋, 洋子, 小洋)."""
    subjects = slot_table()["subjects"]["zh"]
    if not _ZH_NAME.fullmatch(name) or name[0] not in subjects["surnames"]:
        return frozenset()
    last = name[-1]
    out = {"老" + name[0], "小" + name[0], "阿" + last}
    if len(name) == 3:
        out.add(name[1:])
    else:
        out |= {"小" + last, *(last + end for end in subjects["given_name_endings"])}
        if _doubled(last + last):  # 洋洋, not 刚刚 ("just now") for 王刚
            out.add(last + last)
    return frozenset(out)


def zh_says_i(text: str) -> bool:
    """Whether a Chinese text names its speaker (我, 我们, 咱们), not only as the object of
    a preposition or verb (天天在我面前夸鸿蒙, 跟我说, 请我们吃饭: someone else does it)."""
    subjects = slot_table()["subjects"]["zh"]
    text = re.sub("[" + subjects["object_marks"] + "]我(?!们)", "", text)
    text = re.sub("[" + subjects["us_object_marks"] + "]我们", "", text)  # 说请我们吃烤肉
    return any(word in text for word in subjects["speaker"])


def zh_alias_opening(text: str, names: Sequence[str]) -> str | None:
    """The one of `names` (Chinese full names) a Chinese text opens with, by itself or a
    short form (洋子辞职回老家了 for 刘洋), when the text does not speak of the speaker (我)."""
    subjects = slot_table()["subjects"]["zh"]
    head = text.lstrip(subjects["interjections"] + "，,！!~ ")
    if zh_says_i(head):
        return None
    found = {
        n for n in names if head.startswith(n) or any(head.startswith(a) for a in zh_aliases(n))
    }
    return found.pop() if len(found) == 1 else None


def _doubled(word: str) -> bool:
    """A doubled pair of characters used as a name (朵朵, 豆豆), not a word (天天, 妈妈)."""
    subjects = slot_table()["subjects"]["zh"]
    return len(word) == 2 and word[0] == word[1] and word not in subjects["doubled_not_names"]


def zh_called(name: str) -> bool:
    """Whether a Chinese name is one said as people are called (小林, 老周, 阿杰, 朵朵): a
    name for sure, where one read off a surname may be a word (陆冲, longboarding)."""
    prefixes = slot_table()["subjects"]["zh"]["name_prefixes"]
    return _doubled(name) or (len(name) >= 2 and name[0] in prefixes)


def zh_thing_subject(before: str, *, listed: bool = True) -> bool:
    """Whether the text before a phrasing opens with a thing that is no one (公司, 我们单位:
    `things`, unless not `listed`; a word ending in one of `thing_suffixes`: 救助站), the
    subject of the clause (not 我在公司是做测试的, where it is a place)."""
    subjects = slot_table()["subjects"]["zh"]
    head = before.strip()
    for word in sorted(subjects["speaker"], key=len, reverse=True):
        if head.startswith(word):
            head = head[len(word) :].removeprefix("的")
            break
    thing = next((w for w in subjects["things"] if head.startswith(w)), "")
    if thing:  # not 我们部门老刘: a colleague of the speaker's group
        return listed and not _named_head(head[len(thing) :].removeprefix("的"))
    if head != before.strip():
        return False  # the speaker's (我出院以后搬到了苏州): a thing of theirs is in `things`
    words = tag_words(normalise(head)) if head else []  # 救助站搬到了: a place, by its suffix
    first = words[0] if words else None
    return (
        first is not None
        and first.tag.startswith("n")
        and len(first.norm) >= 2
        and first.norm.endswith(tuple(subjects["thing_suffixes"]))
        and not any(w.tag == "f" for w in words[1:2])  # 出院以后: a time, not a subject
    )
