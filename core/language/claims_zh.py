"""Chinese claims: the slot table's Chinese phrasings matched on the text of each clause.

A phrasing is text with `*` for a stretch of up to eight characters; the value is what `*`
covers, else what follows the phrasing up to the clause's end (trailing particles dropped).
When nothing follows the phrasing (我从蓝标辞职了, 王者我卸载了), the value is the object before
it: after 从/和/跟/把, or a topic ahead of 我. A negation counts only as a word of its own (不抽,
not 差不多). The subject is read from the text before the phrasing (`people_zh.zh_subject`: 我/我们
the speaker, 他/她 a pronoun to resolve, a relative such as 我姐姐, 我哥李强 the person 李强, a
name); a clause that names no one is about the subject of the clause before it (Chinese drops
a subject it has just said).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

import attrs

from bitemporal_core.language.claims_zh_cues import (
    adds,
    cue,
    drop_object,
    find_all,
    object_before,
    passing,
    resumed,
    stopped_after,
    value_keys,
)
from bitemporal_core.language.claims_zh_typed import acquired_claims, shaped_claims
from bitemporal_core.language.clauses import ZH_CLAUSES
from bitemporal_core.language.extract.chinese import Word, tag_words
from bitemporal_core.language.families import brand_slot
from bitemporal_core.language.normalise import normalise
from bitemporal_core.language.people_zh import zh_prefixed_names, zh_subject, zh_thing_subject
from bitemporal_core.language.slots import (
    ABOUT,
    ClaimDraft,
    overlaps,
    role_keyed,
    shaped_of,
    slot_table,
    topic_table,
)
from bitemporal_core.language.topics import topic_claims_zh, verb_keys, zh_names, zh_terms

__all__ = ["claims_zh"]

_LASTED = re.compile(r"第?[一两二三四五六七八九十半几多\d]+(年|个月|天|周|礼拜)多?了?$")
_TAIL = "了啦呢吧啊呀的哦噢嘛"
_LEAD = ":：,， 了"  # punctuation (and 了: 搬到了浦东) between a phrasing and its value
_MAX_VALUE = 12
_DIRECTED = re.compile(r"(?<=..)[去来]了$")
_MAX_CLAIMS = 3  # of one clause


@attrs.frozen
class _Phrasing:
    """One Chinese phrasing of the slot table, compiled. Marks written before it: `^` the
    whole clause (^分了), `|` where a word starts (|死了, not the 死了 of 烦死了), `*` the word
    before it is the value (*新家: 苏州新家). A `*` inside is up to eight characters, the
    first one the value. `@speaker` after it: the speaker's unless its own clause names
    someone (新来的领导姓孙 after 老周调走了 is the speaker's new manager, not 老周's);
    `@named`: only where the clause opens with a name (金宝昨天晚上走了, not 他走了)."""

    slot: str
    regex: re.Pattern[str]  # its text parts as groups l0, l1, ..., the value as group v
    fixed: str | None
    positive: bool
    star: bool
    source: str  # as written (marks included): the rule's name
    parts: tuple[str, ...]  # the text it needs in a clause, between its `*`s
    at_word: bool  # it counts only where a word starts (`|`, or one character before `*`)
    leading: bool
    speaker: bool = False
    named: bool = False

    @classmethod
    def of(cls, slot: str, phrase: str, positive: bool) -> _Phrasing:
        speaker, named = "@speaker" in phrase, "@named" in phrase
        words, _, fixed = phrase.replace("@speaker", "").replace("@named", "").partition("=>")
        source = words.strip()
        whole, marked, leading = (source.startswith(mark) for mark in "^|*")
        text = source[1:] if whole or marked or leading else source
        parts = text.split("*")
        gaps = ["(?P<v>.{1,10}?)", *[".{1,8}?"] * len(parts)]  # 一家做跨境电商的公司
        body = "".join(
            (gaps[i - 1] if i else "") + f"(?P<l{i}>{re.escape(part)})"
            for i, part in enumerate(parts)
        )
        return cls(
            slot=slot,
            regex=re.compile("^" + body + "$" if whole else body),
            fixed=fixed.strip() or None,
            positive=positive,
            star=len(parts) > 1,
            source=source,
            parts=tuple(part for part in parts if part),
            at_word=marked or text.find("*") == 1,
            leading=leading,
            speaker=speaker,
            named=named,
        )

    def own(self, m: re.Match[str]) -> set[int]:
        """The offsets of a clause its own text matched (not what `*` covers)."""
        spans = (m.span(name) for name in m.re.groupindex if name != "v")
        return {at for a, b in spans if a >= 0 for at in range(a, b)}


@cache
def _patterns() -> tuple[_Phrasing, ...]:
    """The Chinese phrasings, longest first; of two as long, one that also needs a word
    before it (*过敏 before 过敏)."""
    out = [
        _Phrasing.of(slot, phrase, positive)
        for slot, spec in slot_table()["slots"].items()
        for group, positive in (("claim", True), ("end", False))
        for phrase in spec.get("zh", {}).get(group, ())
    ]
    return tuple(sorted(out, key=lambda p: (-sum(map(len, p.parts)), not p.leading)))


@cache
def _by_char() -> dict[str, tuple[int, ...]]:
    """Each phrasing (by its place in `_patterns`) under the first character of its longest
    part, so that a clause is matched only against phrasings whose character it holds."""
    index: dict[str, list[int]] = {}
    for i, p in enumerate(_patterns()):
        index.setdefault(max(p.parts, key=len)[0] if p.parts else "", []).append(i)
    return {char: tuple(found) for char, found in index.items()}


def _candidates(clause: str) -> list[int]:
    """The phrasings a clause may match, in `_patterns` order (longest first)."""
    index = _by_char()
    return sorted({i for char in {*clause, ""} for i in index.get(char, ())})


def claims_zh(text: str) -> tuple[ClaimDraft, ...]:
    """The claims of a Chinese statement, in clause order: the slot table's phrasings and
    one claim about what it names (the segmenter gives no reliable concepts to name it by),
    then the topic rule's claims (`topics.py`)."""
    out = []
    clauses = [c.strip() for c in ZH_CLAUSES.split(text) if c.strip()]
    last = ("speaker", "")
    said = ""  # the statement's clauses before this one (我另外办了张卡，号码是...)
    for clause in clauses:
        found = _clause_claims(clause, last, said)
        found += acquired_claims(clause, last, said, {c.slot for c in found})
        found += shaped_claims(clause, last, said, {c.slot for c in found})
        if last[0] == "person":  # 小雅又在朋友圈秀恩爱了，她跟阿杰在一起: she is 小雅
            found = [_as(c, last) if c.subject_kind == "pronoun" else c for c in found]
        said += clause
        if found:
            out.extend(found)
            last = (found[0].subject_kind, found[0].subject)
            held = _topic_subject(clause)
            mine = [c for c in found if c.subject_kind == "speaker"]
            if (
                held
                and held[0] == "relation"
                and (
                    mine == found
                    or (held[1], held[0]) in {(c.subject, c.subject_kind) for c in found}
                )
            ):
                last = held  # 我男朋友是果粉，一直用iPhone: his phone, though 恋爱 is mine
        elif (named := _topic_subject(clause)) is not None:
            last = named  # 同事小李烟瘾超大，天天抽电子烟: 小李 smokes
    topic = tuple(_unnamed(t, out) for t in topic_claims_zh(text, clauses, _topic_subject))
    first = next(iter((*out, *topic)), None)
    who = (first.subject_kind, first.subject) if first else _first_subject(clauses) or last
    return (*out, *_about(text, who), *topic)


def _unnamed(topic: ClaimDraft, found: Sequence[ClaimDraft]) -> ClaimDraft:
    """A topic claim of a named person without their name among its keys when a slot claim
    of theirs says what ended (小雨裸辞了，现在去了米哈游: the job, not all said of 小雨)."""
    if topic.subject_kind != "person" or not any(
        (c.subject_kind, c.subject) == ("person", topic.subject)
        and c.slot != ABOUT
        and not c.positive
        for c in found
    ):
        return topic
    name = {topic.subject, *zh_terms(topic.subject)}
    return attrs.evolve(topic, keys=tuple(k for k in topic.keys if k not in name))


def _as(claim: ClaimDraft, who: tuple[str, str]) -> ClaimDraft:
    return attrs.evolve(claim, subject_kind=who[0], subject=who[1])


def _first_subject(clauses: list[str]) -> tuple[str, str] | None:
    """Who a statement without claims is about: the subject of its first clause that names
    one (a relative in a later clause, 朋友都喊我咸鱼, is not what 我微信昵称叫... is about)."""
    return next(filter(None, map(_topic_subject, clauses)), None)


def _about(text: str, who: tuple[str, str]) -> tuple[ClaimDraft, ...]:
    """A claim of the `about` slot: what the statement names (its character pairs), so that
    a later change of the same thing can retire it; its subject is `who` (that of the
    statement's first claim, else read from its start)."""
    words = tag_words(normalise(text))
    keys = tuple(
        sorted(zh_terms(text) | zh_names(words) | zh_prefixed_names(text) | verb_keys(words))
    )
    if not keys:
        return ()
    kind, subject = who
    return (
        ClaimDraft(
            subject_kind=kind,
            subject=subject,
            slot=ABOUT,
            value="",
            keys=keys,
            positive=True,
            single=False,
            tentative=cue("hypothetical", text),
            past=cue("past_state", text),
            rule="about: what the statement names",
        ),
    )


def _topic_subject(before: str) -> tuple[str, str] | None:
    """Who a clause is about, read from the text before its cue (or from its start): a
    relative, a pronoun, the speaker, a name only when that text is nothing but two or three
    characters that are no function words (or a relative's name), else None."""
    head = before.strip()
    found = zh_subject(head)
    if found is None or found[0] != "person":
        return found
    stops = set(topic_table()["zh"]["stop_chars"])
    if (len(head) in (2, 3) and not set(head) & stops) or len(head) > len(found[1]):
        return found
    return None


def _clause_claims(clause: str, last: tuple[str, str], said: str) -> list[ClaimDraft]:
    """The claims of a clause, longest phrasing first: the first phrasing's, one of a slot
    that may read the same words (`overlaps`: 我在公司是做测试的 is an employer and a job
    title), and those of phrasings matched elsewhere in the clause (我男朋友阿杰在广州工作:
    a partner and 阿杰's employer), in clause order; `last` is the subject of the clause
    before, `said` the statement's text before the clause."""
    found: list[tuple[ClaimDraft, range]] = []
    patterns = _patterns()
    for i in _candidates(clause):
        if len(found) == _MAX_CLAIMS:
            break
        if not all(part in clause for part in patterns[i].parts):
            continue  # a plain substring test first: most phrasings are not in the clause
        made = _claim(patterns[i], clause, last, said)
        if made is None:
            continue
        claim, span = made
        if all(claim.slot in overlaps(c.slot) or not set(span) & set(taken) for c, taken in found):
            found.append((claim, span))
    return [c for c, _ in sorted(found, key=lambda f: f[1].start)]


def _moved(spec: dict[str, Any], source: str, before: str) -> set[str]:
    """What a phrasing that moves a date names before it (洗牙改到下周一: 洗牙), so that the
    move meets the appointment it moves."""
    return zh_terms(before) if source in spec.get("moves", ()) else set()


def _past_frame(said: str, clause: str) -> bool:
    """A past frame opened earlier in the statement and not closed by a "now" (高中的时候我在
    成都读书，住在外婆家: the grandmother's home was then)."""
    return cue("past_frame", said) and not cue("now_words", said + clause)


def _not_cue(clause: str, at: int) -> bool:
    """Whether offset `at` falls inside a word that is no cue (送去修: a repair, not a pet
    given away; `not_cues` of `topics.json`)."""
    return any(
        start <= at < start + len(word)
        for word in topic_table()["zh"]["not_cues"]
        for start in find_all(clause, word)
    )


def _claim(
    p: _Phrasing, clause: str, last: tuple[str, str], said: str
) -> tuple[ClaimDraft, range] | None:
    """One phrasing's claim in a clause and the span it matched, if it matches there."""
    m = next(
        (
            f
            for f in p.regex.finditer(clause)
            if (not p.at_word or _word_at(clause, f.start(), marked=p.source.startswith("|")))
            and not _not_cue(clause, f.start())
            and not _runs_on(clause, f, p)
        ),
        None,
    )
    lead = _word_before(clause, m.start()) if m is not None and p.leading else None
    if m is None or (p.leading and lead is None):
        return None
    if p.positive and clause[m.end() : m.end() + 1] in ("不", "没"):
        return None  # 钢琴实在学不下去: no value, the verb is what is denied
    before = clause[: lead.start if lead is not None else m.start()]  # 苏州新家, 我海鲜过敏
    value = (
        (p.fixed or lead.norm) if lead is not None else _value(clause, m, p.fixed, p.star, p.slot)
    )
    slot, positive = _slot_of(p, value), p.positive
    if not positive and re.match(slot_table()["cues"]["zh"]["ending_not_values"], value):
        value = ""  # 辞职回长沙了, 离职手续办完了: what follows the ending is no value of it
    if positive and re.match(slot_table()["cues"]["zh"]["claim_not_values"], value):
        return None  # 会员也没续: an adverb, no value
    spec = slot_table()["slots"][slot]
    latin = re.match(r"[ -~]+", value)  # 尾号2301的号码: 2301
    if latin and not _fits_zh(spec, value, p.source) and _fits_zh(spec, latin[0], p.source):
        value = latin[0].strip()
    if slot in slot_table()["cues"]["zh"]["trim_to_fit"] and not _fits_zh(spec, value, p.source):
        value = _fitting_start(spec, value, p.source) or value  # 二甲双胍控糖: 二甲双胍
    if value in spec["zh"].get("not_values", ()) or not _fits_zh(spec, value, p.source):
        return None  # 我在家做饭: no employer; 手机号被封了: no number; 我是个急性子: no title
    if _other_brand(slot, value):
        return None  # 买了台华为mate60: a phone, no car
    if spec.get("key_by") == "object":
        slot, value = _keyed(slot, value)
    slot = role_keyed(slot, [clause[: m.end()], value], "zh")  # 保洁阿姨是, 换了个心理医生
    if zh_thing_subject(drop_object(before)) and slot not in _things_speak_for():
        return None  # 公司搬到郊区了: the company moved, not the speaker
    negated = positive and _negated(clause, m.end(), p.own(m))
    kind, subject = zh_subject(drop_object(before)) or (("speaker", "") if p.speaker else last)
    if p.named and kind != "person":
        return None
    if spec.get("ended_by_name") and not positive and kind == "person":
        kind, subject, value = "speaker", "", subject  # 金宝走了: the speaker's pet 金宝
    after = clause[m.end() :].lstrip(_LEAD)
    end = m.end() + (len(clause) - m.end() - len(after)) + len(value)
    span = range(
        lead.start if lead is not None else m.start(),
        end if value and after.startswith(value) else m.end(),
    )
    negated = negated or (positive and stopped_after(clause[span.stop :]))  # 生酮我不搞了
    claim = ClaimDraft(
        subject_kind=kind,
        subject=subject,
        slot=slot,
        value=value,
        keys=tuple(sorted({*value_keys(spec, value), *_moved(spec, p.source, before)}))
        if value
        else (),
        positive=positive and not negated,
        single=spec["cardinality"] == "one",
        replacing=cue("replacing", clause)
        or resumed(clause)
        or not positive
        or negated
        or bool(spec.get("replacing")),
        # 又换了辆: changed again, no second one
        additive=(adds(clause[: m.start()]) and not cue("replacing", p.source))
        or cue("additive_before", said),
        tentative=cue("hypothetical", clause),
        passing=passing(said + clause[: m.start()], clause),
        past=cue("past_state", clause) or _past_frame(said, clause),
        rule="slot:" + slot + " '" + p.source + "'",
    )
    return claim, span


def _keyed(slot: str, value: str) -> tuple[str, str]:
    """A slot keyed by the thing it is about and the value, read from "thing 是 value"
    (最喜欢的歌手是周杰伦: favourite:歌手, 周杰伦; 周杰伦的歌是《晴天》: favourite:歌)."""
    thing, said, rest = value.partition("是")
    if not said or not rest.strip():
        return slot + ":", value
    thing = thing.rsplit("的", 1)[-1]
    cues = slot_table()["cues"]["zh"]
    for adverb in sorted(cues["present"] + cues["copula_adverbs"], key=len, reverse=True):
        thing = thing.removesuffix(adverb)
    return slot + ":" + thing, rest.strip()


def _things_speak_for() -> list[str]:
    """The slots a thing holds for the speaker (公司改成大小周了: the speaker's hours)."""
    return list(slot_table()["subjects"]["zh"]["things_speak_for"])


def _word_before(clause: str, at: int) -> Word | None:
    """The word a leading `*` stands for: the last word before offset `at` that names
    something (not 的, a pronoun or an adverb: 我们在苏州的新家 -> 苏州)."""
    skip = set(slot_table()["cues"]["zh"]["not_before_values"])
    words = [w for w in tag_words(normalise(clause)) if w.end <= at]
    while words and (words[-1].norm in skip or len(words[-1].norm) < 2):
        words.pop()
    return words[-1] if words else None


def _slot_of(p: _Phrasing, value: str) -> str:
    """The slot a value's shape says it is of, for a phrasing two slots share (`values_of`:
    去实验小学报到 is a school, 去字节报到 an employer; 在北京大学工作 stays an employer)."""
    shapes = slot_table()["slots"][p.slot]["zh"].get("values_of", {})
    return next(
        (
            other
            for other, rule in shapes.items()
            if p.source in rule["phrasings"] and re.search(rule["shape"], value)
        ),
        p.slot,
    )


def _other_brand(slot: str, value: str) -> bool:
    """Whether a value of a brand slot opens with a brand of another one (a car's 买了台
    before 华为mate60)."""
    if slot not in slot_table()["cues"]["en"]["brand_slots"] or not value:
        return False
    words = tag_words(normalise(value))
    found = brand_slot(words[0].norm) if words else ""
    return bool(found) and found != slot


def _fits_zh(spec: dict[str, Any], value: str, source: str) -> bool:
    """Whether a value has the shape the slot's Chinese phrasings require, if any, and the
    shape a phrasing reads a value of only where the value has it (`shaped`: a title,
    现在是产品经理, not 现在是晚上; 升销售主管了, not 升级了; an employer, 在云帆科技做前端,
    not 在家做饭; one word of the `tags` asked for: 现在在成都)."""
    zh = spec.get("zh", {})
    dose = slot_table()["cues"]["zh"]["dose"]
    if source in dose["phrasings"]:  # 医生让加到75了: an amount, the medicine's dose
        return re.fullmatch(dose["shape"], value) is not None
    for shaped in shaped_of(spec, "zh"):
        if source not in shaped["phrasings"]:
            continue
        words = tag_words(normalise(value)) if value else []
        if not re.search(shaped["shape"], value) or (
            len(words) == 1 and words[0].tag in shaped.get("not_tags", ())
        ):
            return False  # 女朋友是程序员: a common noun, though 程 is a surname
        if "tags" in shaped and not (len(words) == 1 and words[0].tag in shaped["tags"]):
            return False  # 现在在成都, a place's name: not 现在在公司
    pattern = zh.get("value_pattern")
    return not value or not isinstance(pattern, str) or re.search(pattern, value) is not None


def _fitting_start(spec: dict[str, Any], value: str, source: str) -> str:
    """The longest start of a value, up to the end of one of its words, that has the slot's
    shape (二甲双胍控糖: the medicine, then what it is for), else ""."""
    ends = sorted({w.end for w in tag_words(normalise(value))}, reverse=True)
    return next((value[:end] for end in ends if _fits_zh(spec, value[:end], source)), "")


def _runs_on(clause: str, m: re.Match[str], p: _Phrasing) -> bool:
    """Whether the last word (two characters or more) of a phrasing with a `*` runs on, to
    the segmenter, into a longer word (在楼下的陶艺工作室学拉坯: a studio, no 在*工作); a single
    character is left alone, the segmenter often joins it wrongly."""
    last = p.parts[-1] if p.star and p.parts else ""
    at = m.end() - len(last)
    words = tag_words(normalise(clause)) if len(last) > 1 else []
    return any(w.start == at and w.end > m.end() for w in words)


def _word_at(clause: str, at: int, *, marked: bool = False) -> bool:
    """Whether the segmenter starts a word at offset `at` of the clause; for a phrasing
    marked `|`, right after no verb or adjective (纠结死了, 笑死了: how much, not a death)."""
    words = tag_words(normalise(clause))
    before = [w for w in words if w.end == at] if marked else []
    return any(w.start == at for w in words) and not any(w.tag in ("v", "a") for w in before)


def _value(clause: str, m: re.Match[str], fixed: str | None, star: bool, slot: str) -> str:
    """A phrasing's value: its fixed value, what `*` covers, what follows it, else the object
    said before it (从蓝标辞职, 和陈浩分手, 王者我卸载了)."""
    if fixed is not None:
        return fixed
    star_value = m.group("v") if star and m.groupdict().get("v") else ""
    after = clause[m.end() :].lstrip(_LEAD)
    shape = slot_table()["slots"][slot]["zh"].get("shape")
    whole = re.match(shape, after) if shape else None  # 手机号138 0571 2246: all of it
    value = star_value or (whole.group() if whole else after[:_MAX_VALUE])  # 新换了个号：186...
    value = _DIRECTED.sub("", value.strip())  # 转到法学去了: 法学
    value = value.strip().rstrip(_TAIL).strip() or value.strip()
    value = _LASTED.sub("", value) or value  # 当副经理三年了: 副经理
    if value.strip(_TAIL):
        return value
    said_before = object_before(clause[: m.start()]) or value
    vocatives = slot_table()["subjects"]["zh"]["vocatives"]
    return "" if said_before in vocatives else said_before  # 家人们我被裁了


def _negated(clause: str, end: int, own: set[int]) -> bool:
    """A negation word (不, 没, 不再...) before `end`, as a word of its own: 差不多, 不错 or 不少
    (or an idiom of `negation_idioms`: 没办法) negate nothing, nor does the phrasing's own 不
    (乳糖不耐受, offsets `own`), nor one whose clause ends by saying what goes wrong without it
    (不喝两瓶啤酒睡不着: a habit, the `without_it` cues, unless a reason comes between:
    `without_it_not`)."""
    zh = slot_table()["cues"]["zh"]
    for tail in zh["without_it"]:
        at = clause.find(tail, end)
        if at >= 0 and not any(word in clause[end:at] for word in zh["without_it_not"]):
            return False  # not 不喝啤酒因为喝了睡不着: a reason, the negation stands
    cues = set(zh["negation"])
    idioms = tuple(zh["negation_idioms"])  # 没办法又买了台: no choice, nothing denied
    words = [w for w in tag_words(normalise(clause)) if not clause.startswith(idioms, w.start)]
    fused = tuple(zh["fused_negation"])  # 没养宠物: the segmenter joins 没 to the verb
    return any(
        (w.norm in cues and w.start < end and w.start not in own)
        or (w.norm.startswith(fused) and w.start not in own and own & set(range(w.start, w.end)))
        for w in words
    )
