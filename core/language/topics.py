"""The topic rule of memory formation: a change said about the same thing as an earlier fact
(docs/design.md, "Memory formation").

The slot table names about forty kinds of fact; people talk about many more (a hairdresser,
a vet, a book club, the paper they read). A clause that says something changed ("I've
switched hairdressers", "my new vet is ...", "I cancelled the Guardian", "现在改喝...") and is
not an addition, a wish, a past state, a temporary situation or a mention of something that
merely exists yields a `topic` claim whose keys are the things it names; it retires the
earlier current facts of the same subject that name one of them. The cues, the words too
general to be a topic and the families of words for one topic are data (`data/topics.json`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, lru_cache

from bitemporal_core.language.claims_en import keys_of
from bitemporal_core.language.clauses_en import clauses
from bitemporal_core.language.cues_en import ended_for, norm
from bitemporal_core.language.extract import Token
from bitemporal_core.language.extract.chinese import Word, tag_words
from bitemporal_core.language.families import (
    family_head,
    in_family,
    is_brand,
    zh_family_heads,
)
from bitemporal_core.language.normalise import normalise
from bitemporal_core.language.people import is_speaker_word, mentioned, named_subject
from bitemporal_core.language.people_zh import zh_called, zh_thing_subject
from bitemporal_core.language.slots import (
    ABOUT,
    ANY,
    ClaimDraft,
    role_slots,
    slot_table,
    topic_table,
)
from bitemporal_core.language.values_en import is_time

__all__ = [
    "SLOTLESS",
    "TOPIC",
    "change_cue_en",
    "change_cue_zh",
    "ends_subject",
    "topic_claims_en",
    "topic_claims_zh",
    "topic_terms",
    "verb_keys",
    "zh_cue_words",
    "zh_names",
    "zh_terms",
]

TOPIC = "topic"
"""The slot of a claim read by the topic rule: its keys are the things a change names."""
SLOTLESS = frozenset({ABOUT, ANY, TOPIC})
"""The slots of claims that read no slot of the table: they are matched by what they name."""

_NOUNS = frozenset({"NOUN", "PROPN"})
_WAS = frozenset({"was", "were"})
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9]+")
VERB = "v:"
"""The prefix of a Chinese verb key: what one does with a thing (喝, 玩, 睡), a topic of its own."""
_MEASURED = re.compile(r"(.)[一两几半][\u3400-\u9fff]?$")  # 喝一杯 -> 喝


_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "we", "us", "our", "ours"})


@cache
def _stops() -> frozenset[str]:
    return frozenset(keys_of(" ".join(topic_table()["en"]["stop"])))


def _has(cues: Iterable[str], words: str) -> str:
    """The first cue phrase found among the words (space-padded), or ""."""
    padded = " " + words + " "
    return next((c for c in cues if " " + c + " " in padded), "")


def _blocks() -> list[tuple[str, list[str]]]:
    return list(topic_table()["en"]["block"].items())


def _cue_words(tokens: Sequence[Token]) -> str:
    """The words cues are looked for in: lowercase, contractions spelled out, and a degree
    word before an adjective or adverb dropped ("too pricey" is no "too")."""
    degree = set(topic_table()["en"]["degree"])
    times = set(topic_table()["en"]["not_degree_before"])  # "a work phone too now": an addition
    words = []
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        graded = nxt is not None and nxt.pos in ("ADJ", "ADV") and norm(nxt.text) not in times
        if not (norm(tok.text) in degree and graded):
            words.append(norm(tok.text))
    return " ".join(words)


def topic_claims_en(tokens: Sequence[Token]) -> tuple[ClaimDraft, ...]:
    """The topic claims of an English statement: one per clause that says something changed
    (a `change` cue, or a habit ended for a while: `cues_en.ended_for`) and names
    something, unless the statement is blocked (an addition, a wish, a past or temporary
    state, continuity, something that merely exists; a temporary state does not block an
    ended habit)."""
    out = []
    parts = list(clauses(tokens))
    was: list[str] | None = None
    for clause, cue, said, ceased, before in _change_clauses(tokens, parts):
        verb = next(
            (i for i, t in enumerate(clause) if t.pos in ("VERB", "AUX") and t.text.isalpha()),
            len(clause),
        )  # "new job = asleep by ten": a sign is no verb
        who = named_subject(clause, verb)
        # A change done to the speaker is the speaker's: "they've moved me to tuesday" (the
        # salon, of mine), "doc switched me to citalopram" (the verb's object).
        they_did = who == ("pronoun", "they") and any(
            is_speaker_word(t.text) for t in clause[verb:]
        )
        done_to_me = they_did or (
            who is not None and who[0] != "speaker" and _object_is_speaker(clause, verb)
        )
        if done_to_me:
            who = ("speaker", "")
        # what is done to the speaker is named after the verb ("Dan switched me to ...")
        said_of = clause if they_did or not done_to_me else clause[verb + 1 :]
        named = _named_words(said_of, before if they_did or _points_back(said) else ())
        keys = tuple(dict.fromkeys(k for k in keys_of(" ".join(named)) if k not in _stops()))
        keys += tuple(k for k in keys_of(" ".join(completed(cue))) if k not in keys)
        if keys and not ceased:
            was = _was_named(parts) if was is None else was
            keys += tuple(k for k in keys_of(" ".join(was)) if k not in keys and k not in _stops())
        if not keys:
            continue
        # A change of a thing ("the stall sold out") is no one's, unless the clause says whose
        # ("a hairdresser in town does my hair").
        # An ended habit or a clause without a verb that names nobody is the speaker's
        # ("three months without a cigarette", "totally over fortnite").
        ending = _ending(clause, said)
        mine = _first_person(clause) or bool(ceased) or verb == len(clause) or bool(completed(cue))
        # A thing that ended is the speaker's thing, by its head noun ("the pixel finally gave
        # up the ghost"; not the laptop of "the laptop charger gave up the ghost").
        if who is None and ending and not mine:
            head = _ended_head(clause, said, ending)
            keys = tuple(k for k in keys_of(head) if k not in _stops())
            mine, named = bool(keys), [head]
        if who is not None and is_brand(who):  # "netflix got the chop": the speaker's netflix
            mine = mine or bool(ending)
            who = None
        # a role opening the clause is the speaker's ("new boss started today": my manager)
        mine = mine or any(norm(t.text) in role_slots() for t in clause[:verb])
        who = who or (("speaker", "") if mine else None)
        if who is None:
            continue
        value = " ".join(named)
        out.append(_draft(who[0], who[1], value, keys, cue))
        # The people a change is done to are changed too ("we moved Mia to Bright Stars"); a
        # change that ends its subject is the speaker's too ("Nemo died", "the band broke up"),
        # and one done to the speaker's things is, for those things ("the doc upped my
        # sertraline": the speaker's sertraline, not their doctor).
        if who[0] == "speaker":
            named_people = [p for p in mentioned(clause[verb + 1 :]) if "=" not in p]
            others = [p.partition(":")[::2] for p in named_people]
        elif ending and not _own_ending(who, ending) and not _possessed(clause, verb):
            others = [("speaker", "")]
        else:
            owned = _owned(clause[verb + 1 :])
            others = []
            if owned:
                out.append(_draft("speaker", "", value, owned, cue))
        out.extend(_draft(kind, name, value, keys, cue) for kind, name in others)
    return tuple(out)


def _was_named(parts: Sequence[Sequence[Token]]) -> list[str]:
    """The common nouns a statement's clause says were something before its verb "was" or
    "were" ("these days it's cold brew, the macchiatos were too sweet"): beside a change, what
    it replaced. Not a name: "Greg was off sick, so meetings got cancelled" changes no Greg."""
    named: list[str] = []
    for clause in parts:
        verb = next((i for i, t in enumerate(clause) if t.pos in ("VERB", "AUX")), None)
        if verb is not None and norm(clause[verb].text) in _WAS:
            named.extend(t.text for t in clause[:verb] if t.pos == "NOUN")  # not "Greg was"
    return named


def _object_is_speaker(clause: Sequence[Token], verb: int) -> bool:
    """Whether the word after the clause's verb (past its particles) is the speaker."""
    i = verb + 1
    while i < len(clause) and clause[i].pos in ("PART", "ADV", "AUX", "VERB") and i - verb < 3:
        i += 1
    return i < len(clause) and is_speaker_word(clause[i].text)


def _change_clauses(
    tokens: Sequence[Token], parts: Sequence[Sequence[Token]]
) -> Iterator[tuple[Sequence[Token], str, str, bool, Sequence[Token]]]:
    """Each clause of an English statement that says something changed, with its cue, its
    words, whether it is a habit ended for a while and the clause before it: none if the
    statement is blocked (an addition, a wish, a past state, continuity, something that
    merely exists), and a temporary state blocks all but an ended habit and a start. `parts`:
    the statement's clauses (`clauses`), split once by the caller."""
    words = _cue_words(tokens)
    if any(_has(group, words) for kind, group in _blocks() if kind != "temporary"):
        return
    temporary = bool(_has(dict(_blocks())["temporary"], words))
    spec = topic_table()["en"]
    before: Sequence[Token] = ()
    for clause in parts:
        ceased = ended_for(clause)
        said = " ".join(norm(t.text) for t in clause)
        cue = ceased or _has([*spec["change"], *spec["completes"]], said) or _ending(clause, said)
        # a start dated by a temporary word lasts ("new boss started today")
        if cue and (ceased or not temporary or _has(spec["lasting"], said) or completed(cue)):
            yield clause, cue, said, bool(ceased), before
        before = clause


def _ending(clause: Sequence[Token], said: str) -> str:
    """The cue by which a clause says its subject ended ("the Corolla's finally gone"), or
    "": not when a complement follows it ("dad's finally gone electric")."""
    padded, words = " " + said + " ", said.split()
    for cue in topic_table()["en"]["ends_subject"]:
        if " " + cue + " " not in padded:
            continue
        parts = cue.split()
        for i in range(len(words) - len(parts) + 1):
            if words[i : i + len(parts)] == parts and not _complement(clause, i + len(parts)):
                return str(cue)
    return ""


def _named_words(clause: Sequence[Token], before: Sequence[Token]) -> list[str]:
    """The words a change clause names, and those of the clause before when it points back
    ("pottery finished, so I'm doing X instead") or is done to the speaker ("the dentist
    rang, they've moved me to friday")."""
    return [t.text for part in (clause, before) for i, t in enumerate(part) if _names(part, i)]


def _points_back(said: str) -> bool:
    """Whether a change clause says it replaces what the clause before named ("spin's on
    hold, I've switched to pilates instead"), whichever cue it was found by."""
    return bool(_has(topic_table()["en"]["points_back"], said))


def _ended_head(clause: Sequence[Token], said: str, cue: str) -> str:
    """The head noun of what an ending cue says ended: the last noun before the cue."""
    words, parts = said.split(), cue.split()
    at = next(
        (i for i in range(len(words) - len(parts) + 1) if words[i : i + len(parts)] == parts),
        0,
    )
    return next((t.text for t in reversed(clause[:at]) if t.pos in ("NOUN", "PROPN")), "")


def _own_ending(who: tuple[str, str], ending: str) -> bool:
    """An ending a person makes of their own life, not of a thing of the speaker's: any said
    of a relative ("mum retired"), and one of `own_endings` said by name ("Dan and Aisha
    split up"; "Nemo died" may be the speaker's pet)."""
    return who[0] == "relation" or (
        who[0] == "person" and ending in topic_table()["en"]["own_endings"]
    )


def _possessed(clause: Sequence[Token], verb: int) -> bool:
    """Whether the clause's subject is someone's thing ("Dad's car finally died": Dad's, not
    the speaker's)."""
    return any(
        t.text in ("'s", "’s") and clause[i + 1].pos in ("NOUN", "PROPN")
        for i, t in enumerate(clause[: max(verb - 1, 0)])
    )


def _complement(clause: Sequence[Token], i: int) -> bool:
    """Whether word `i` completes the verb before it ("gone electric", "shut up")."""
    if i >= len(clause):
        return False
    spec, word = topic_table()["en"], norm(clause[i].text)
    if word in spec["not_after_ending"]:
        return True
    return (
        clause[i].pos in ("ADJ", "NOUN", "PROPN")
        and word.isalpha()  # an emoji is no complement
        and word not in spec["interjections"]
        and word not in slot_table()["cues"]["en"]["time_words"]  # "died last night"
    )


def change_cue_en(tokens: Sequence[Token]) -> str:
    """The first change cue of an English statement that is not blocked, or "": a change
    said whether or not it names what changed ("spin is thursday 7pm from now on")."""
    return _cue_of(tuple(tokens))


@lru_cache(maxsize=1024)
def _cue_of(tokens: tuple[Token, ...]) -> str:
    """`change_cue_en`, read once per statement: the event test of its `about` claim and
    the statement's analysis both ask."""
    return next((cue for _, cue, _, _, _ in _change_clauses(tokens, list(clauses(tokens)))), "")


def completed(cue: str) -> tuple[str, ...]:
    """What a cue that completes a state names of it ("gave birth": pregnant; 出院: 住院),
    so that the state's statement shares a topic with it."""
    spec = topic_table()
    found: tuple[str, ...] = tuple(spec["en"]["completes"].get(cue, ()))
    return found or tuple(spec["zh"]["completes"].get(cue, ()))


def ends_subject(cue: str) -> bool:
    """Whether a change cue ends its subject's part ("died", "retired", 退休, 关门)."""
    spec = topic_table()
    return cue in spec["en"]["ends_subject"] or cue in spec["zh"]["ends_subject"]


def change_cue_zh(text: str, clauses_zh: Sequence[str]) -> str:
    """The first change cue of a Chinese statement's clauses that is not blocked, or ""."""
    if _blocked_zh(text):
        return ""
    framed = False
    for clause in clauses_zh:
        framed = framed or _frames_zh(clause)
        cue = _change_cue_zh(clause)
        if cue and not framed and not _blocked_zh(clause, scope="clause"):
            return cue
    return ""


def _owned(tokens: Sequence[Token]) -> tuple[str, ...]:
    """The keys of the things "my"/"our" name in these words ("upped my sertraline")."""
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if tok.text.lower() not in ("my", "our"):
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].pos in ("ADJ", *_NOUNS):
            j += 1
        words = " ".join(t.text for t in tokens[i + 1 : j] if t.pos in _NOUNS)
        out.extend(k for k in keys_of(words) if k not in _stops() and k not in out)
    return tuple(out)


def _first_person(clause: Sequence[Token]) -> bool:
    return any(t.text.lower() in _FIRST_PERSON for t in clause)


def _names(clause: Sequence[Token], i: int) -> bool:
    """Whether word `i` names a thing: a noun, a name inside the clause, a gerund ("I've
    stopped swimming at the Oasis"), a word of a family whatever its tag unless it modifies
    a noun ("asleep", a brand typed in lowercase), or a lowercase word the tagger took for an
    adjective or adverb right after a preposition and ending its phrase ("went with gousto",
    "at aldi since")."""
    tok = clause[i]
    gerund = tok.pos == "VERB" and tok.text.lower().endswith("ing")
    if tok.pos in _NOUNS or gerund or (i > 0 and tok.text[:1].isupper()):
        return True
    nxt = clause[i + 1] if i + 1 < len(clause) else None
    modifier = nxt is not None and nxt.pos in _NOUNS  # "mobile number" names a number
    family = not modifier and any(in_family(k) for k in keys_of(tok.text))
    return family or _object_word(clause, i)


def _object_word(clause: Sequence[Token], i: int) -> bool:
    tok, nxt = clause[i], clause[i + 1] if i + 1 < len(clause) else None
    return (
        tok.pos in ("ADJ", "ADV")
        and tok.text.isalpha()
        and i > 0
        and clause[i - 1].pos == "ADP"
        and (nxt is None or nxt.pos in ("PUNCT", "SCONJ", "CCONJ", "ADP"))
        and norm(tok.text) not in topic_table()["en"]["not_objects"]
    )


def _draft(kind: str, subject: str, value: str, keys: tuple[str, ...], cue: str) -> ClaimDraft:
    return ClaimDraft(
        subject_kind=kind,
        subject=subject,
        slot=TOPIC,
        value=value,
        keys=keys,
        positive=True,
        single=False,
        replacing=True,
        rule=f"topic: '{cue}'",
    )


def _change_cue_zh(clause: str) -> str:
    """The clause's first cue of a change, an ending of its subject or a completion, or ""."""
    spec = topic_table()["zh"]
    return _zh_cue([*spec["change"], *spec["ends_subject"], *spec["completes"]], clause)


def _frames_zh(clause: str) -> bool:
    """Whether a clause opens a temporary frame over itself and those after it (这周出差);
    an ending is no passing state though 今天 frames one (小林今天搬走了)."""
    ending = _zh_cue(topic_table()["zh"]["ends_subject"], clause)
    return _blocked_zh(clause, scope="onward") and not ending


def _zh_cue(cues: Iterable[str], text: str) -> str:
    """The first Chinese cue found in the text ("*": up to eight characters), or ""; the
    words of `not_cues` are no cue (送去修 is a repair, not 送去 "given away")."""
    for word in topic_table()["zh"]["not_cues"]:
        text = text.replace(word, "")
    for cue in cues:
        if "*" in cue:
            if re.search(".{0,8}?".join(re.escape(p) for p in cue.split("*")), text):
                return cue
        elif cue in text:
            return cue
    return ""


def zh_cue_words(cues: Iterable[str], text: str) -> bool:
    """Whether one of `cues` is in `text` as words of its own in the segmenter's reading:
    要是 (if) is not the 要是 of 主要是 (mainly), nor 第二 that of 第二天 (the next day)."""
    found = [c for c in cues if c in text]
    if not found:
        return False
    norm = normalise(text)
    words = tag_words(norm)
    edges = {w.start for w in words} | {w.end for w in words}
    return any(
        m.start() in edges and m.end() in edges
        for cue in found
        for m in re.finditer(re.escape(normalise(cue)), norm)
    )


def _blocked_zh(text: str, *, scope: str = "statement") -> bool:
    """A block cue of the groups read in `scope` in the text: "statement" (the whole
    statement), "clause" (a change clause) or "onward" (a clause and those after it)."""
    spec = topic_table()["zh"]
    for word in spec["not_block"]:  # 再也不 is "never again", no 也 of an addition
        text = text.replace(word, "")
    return any(
        zh_cue_words(cues, text) for group, cues in spec["block"].items() if _scope(group) == scope
    )


def _scope(group: str) -> str:
    spec = topic_table()["zh"]
    if group in spec["block_in_clause"]:
        return "clause"
    return "onward" if group in spec["block_onward"] else "statement"


def topic_claims_zh(
    text: str, clauses_zh: Sequence[str], subject: Callable[[str], tuple[str, str] | None]
) -> tuple[ClaimDraft, ...]:
    """The topic claims of a Chinese statement: one per clause holding a `change` cue and
    naming something or saying what one now does (its verbs after the cue: 改喝, 现在...睡);
    what the clauses before it named counts as named by it (余额宝收益太低，我把钱转到...).
    `subject` reads who a clause is about from the text before the cue; a clause naming no
    one is about the subject of the change before, or of a clause before it that names a
    pronoun or a relative (else the speaker's)."""
    if _blocked_zh(text):
        return ()
    out = []
    last = ("speaker", "")
    setup: set[str] = set()  # what the clauses before a change named (印象笔记越来越难用，我...)
    framed = False  # a temporary cue frames its clause and those after it (这周出差，...)
    for clause in clauses_zh:
        spec = topic_table()["zh"]
        framed = framed or _frames_zh(clause)
        cue = _change_cue_zh(clause)
        if not cue:  # 他俩终于被我说动了，哈尔滨的房子卖了: a pronoun or relative holds on
            setup |= zh_terms(clause)
            said_of = subject(clause) or _reported(clause)
            if said_of and (
                said_of[0] in ("pronoun", "relation")
                or (said_of[0] == "person" and zh_called(said_of[1]))  # 小雨裸辞了，现在...
            ):
                last = said_of
            continue
        if framed or _blocked_zh(clause, scope="clause"):
            continue
        at = clause.find(cue.split("*", 1)[0])
        words = tag_words(normalise(clause))
        after = [w for w in words if w.end > at]
        found = zh_terms(clause) | zh_names(words) | verb_keys(after) | setup
        found |= set(completed(cue))  # 爷爷出院了 ends 住院
        keys = tuple(sorted(k for k in found if not is_time(k)))  # 一下午 names no topic
        last, setup = subject(clause[:at]) or last, set()
        if cue.startswith("搬") and zh_thing_subject(clause[:at], listed=False):
            continue  # 救助站搬到了公园东门: the shelter moved, no one's change
        if keys:
            out.append(_draft(*last, clause, keys, cue))
            # A change that ends a named person's part (赵总调走了) is the speaker's too, by that
            # name only: 我对象从平安离职了 leaves the speaker's own 平安 alone.
            if last[0] == "person" and _zh_cue(spec["ends_subject"], clause):
                named = tuple(sorted(zh_terms(last[1]) or {last[1]}))
                out.append(_draft("speaker", "", clause, named, cue))
    return tuple(out)


def _reported(clause: str) -> tuple[str, str] | None:
    """Who a clause reports on when it opens with someone saying something of a third person
    (胖虎说他们公司要搬家, 老师说他坐不住: 他们, 他, to resolve; 胖虎 may come tagged as a
    noun or a verb): what follows is theirs, not the speaker's change (老师傅说中药不用再喝了
    may well be the speaker's)."""
    words = tag_words(normalise(clause))
    named = ("n", "nr", "nrfg", "nrt", "nz", "v")  # 大壮 comes tagged as a verb
    if len(words) < 2 or words[0].tag not in named or not 2 <= len(words[0].norm) <= 3:
        return None
    rest = clause[words[0].end :]
    said = next((w for w in slot_table()["cues"]["zh"]["reported"] if rest.startswith(w)), "")
    third = sorted(slot_table()["subjects"]["zh"]["third"], key=len, reverse=True)
    who = next((w for w in third if said and rest[len(said) :].startswith(w)), "")
    return ("pronoun", who) if who else None


def verb_keys(words: Iterable[Word]) -> set[str]:
    """The verbs of these words as topic keys (`VERB` + the verb): a change prefix dropped
    or a negation (改喝 -> 喝, 不去 -> 去), a measured verb cut to its verb (喝一杯 -> 喝); light
    verbs (是, 有, 在, 要...) and complements (成, 掉) are no topic."""
    spec = topic_table()["zh"]
    out = set()
    for w in words:
        split = _split_verb(w.norm)
        if split and split not in spec["light_verbs"]:
            out.add(VERB + split)
        if w.tag != "v":
            continue
        verb = w.norm
        if len(verb) > 1 and verb[0] in spec["verb_prefixes"]:
            verb = verb[1:]
        measured = _MEASURED.fullmatch(verb)
        verb = measured.group(1) if measured else verb
        if verb not in spec["light_verbs"] and _CJK.fullmatch(verb):
            out.add(VERB + verb)
    return out


def _split_verb(word: str) -> str:
    """The verb of a word of a verb and its object, which a sentence may say apart (爬山:
    鱼好久没钓了 -> 钓), else ""."""
    if len(word) != 2 or not _CJK.fullmatch(word):
        return ""
    verb, thing = (tag_words(c) for c in word)
    return word[0] if verb and thing and verb[0].tag == "v" and thing[0].tag == "n" else ""


def zh_names(words: Iterable[Word]) -> set[str]:
    """The names among tagged words (places, people, brands: 成都, whose characters are stop
    characters of `zh_terms`), as topics."""
    tags = set(topic_table()["zh"]["name_tags"])
    return {w.norm for w in words if w.tag in tags and len(w.norm) >= 2}


def _whole_name(key: str) -> set[str]:
    """A Chinese key no pair of which is a topic, as itself, unless it is all stop characters:
    a name whose characters are stop characters (吉他, 天猫: `zh_names`) still names it."""
    stop_chars = set(topic_table()["zh"]["stop_chars"])
    return {key} if len(key) >= 2 and set(key) - stop_chars else set()


def zh_terms(text: str) -> set[str]:
    """The topics a Chinese text names: its two-character stretches without a stop
    character or stop pair, its one-character topics (烟, 酒: `single_chars`) and its Latin
    words (lowercase)."""
    spec = topic_table()["zh"]
    stop_chars, stop_pairs = set(spec["stop_chars"]), set(spec["stop_pairs"])
    out = {w.lower() for w in _LATIN.findall(text)}
    out |= {c for c in spec["single_chars"] if c in text}
    for run in _CJK.findall(text):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if not set(pair) & stop_chars and pair not in stop_pairs:
                out.add(pair)
    return out


def topic_terms(words: Iterable[str]) -> set[str]:
    """The topics a claim's keys and context name: English stems (a family's word as its
    first one, stop words dropped) and Chinese character pairs."""
    out: set[str] = set()
    stops = _stops()
    for word in words:
        if word.startswith(VERB):
            out.add(word)
            out |= zh_family_heads(word[len(VERB) :])  # 招行 tagged a verb: still a bank
        elif _CJK.search(word):
            out |= zh_terms(word) or _whole_name(word)
            out |= zh_family_heads(word)  # 移动: 运营商
        elif word and word not in stops:
            out.add(family_head(word))
    return out
