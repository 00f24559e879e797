"""Who an English sentence names and who a clause is about: names (told apart from
capitalised ordinary words even where the tagger mistakes a rare name), relatives ("my
sister"), honorifics ("Mrs Patel"), possessives ("Jake's number"), and the speaker in
"Sam and I". The word lists are the slot table's `subjects` (`data/slots.json`).
Chinese subjects are read in `people_zh`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import nicknames

from bitemporal_core.language.extract import Token
from bitemporal_core.language.extract._lexicon import ADVERBS, FUNCTION_WORDS
from bitemporal_core.language.people_zh import zh_aliases
from bitemporal_core.language.slots import role_slots, slot_table

__all__ = [
    "is_first_name",
    "is_name",
    "is_speaker_word",
    "mentioned",
    "name_at",
    "named_by",
    "named_subject",
    "names_after_relation",
    "names_person",
    "nickname_of",
    "owner_in",
    "relation_words",
    "role_holder",
    "says_i",
    "share_a_name",
    "subject_of",
]

_NOT_PEOPLE_AFTER = frozenset({"at", "in", "to", "from", "on", "by", "of", "for", "into", "near"})
_NAME_TAGS = frozenset({"PROPN", "NOUN", "ADV", "ADJ", "VERB", "X", "INTJ"})
_FOLLOWS_NAME = frozenset({"VERB", "AUX", "PART", "ADV", "PUNCT", "CCONJ"})
_FIRST_NOT_NAME = frozenset({"NOUN", "VERB", "ADJ"})
_NOT_BEFORE = frozenset({"DET", "ADJ", "NUM"})  # "the Lisbon trip", "an electric Kia Niro"


def _full(word: str) -> str:
    """A relative's word as written in full ("bf" -> "boyfriend"), so both name one person."""
    return str(slot_table()["cues"]["en"]["abbreviations"].get(word, word))


@cache
def _words(group: str) -> frozenset[str]:
    return frozenset(slot_table()["subjects"]["en"][group])


def relation_words() -> frozenset[str]:
    """The words for a relative ("sister", "mum", "bf")."""
    return _words("relations")


def _plain(word: str) -> bool:
    """A word of the language rather than a name: a closed-class word, a common adverb, an
    -ly adverb or one of the slot table's known capitalised non-names."""
    low = word.lower()
    return (
        low in FUNCTION_WORDS
        or low in ADVERBS
        or low.endswith("ly")
        or low in _words("not_names")
        or low in _words("relations")
    )


def is_name(tokens: Sequence[Token], i: int) -> bool:
    """Whether token `i` is (part of) a person's or a thing's proper name: tagged PROPN, or a
    capitalised word the tagger mislabelled that is no ordinary word, inside the sentence or
    first and followed by a verb ("Raj quit the hospital")."""
    tok = tokens[i]
    if len(tok.text) < 2 or not (tok.text[:1].isupper() and tok.text.replace("-", "").isalpha()):
        return False  # "registered w the nhs dentist": "w" is "with", no one's initial
    if tok.text.lower() in _words("relations"):
        return False
    if tok.text.lower() in _words("speaker") or _plain(tok.text):  # a shouted word: "STILL"
        return (
            tok.pos == "PROPN"
            and not tok.text.isupper()
            and tok.text.lower() not in _words("not_names")
        )
    if tok.pos == "PROPN":
        return True
    if tok.pos not in _NAME_TAGS or (tok.text.isupper() and len(tok.text) > 1):
        return False
    if i > 0 and tokens[i - 1].text not in ('"', "“", "(", ":"):
        return tok.pos != "ADJ"  # "Italian food": a nationality, not a name
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    known = is_first_name(tok.text)  # "Ines and Rafael split up": tagged a noun, still a name
    if not known and (tok.pos in _FIRST_NOT_NAME or tok.text.lower().endswith(("ed", "ing"))):
        return False  # "Work let me go remote", "Booked it!": ordinary first words
    return nxt is not None and (nxt.pos in _FOLLOWS_NAME or nxt.text.lower() in ("'s", "and"))


def _bare_relation(tokens: Sequence[Token], i: int) -> bool:
    """A word only a relative is called, as the subject of its clause or a verb's object,
    and nobody else's: "sis moved", "mum's retiring", "took mum to the GP", "talked to sis";
    not "Jake's mum", "his dad", "a dad joke", "thanks bro"; and "the kids" (`the_relations`)
    unless a place follows ("the kids' lessons"; not "the kids next door", "at school")."""
    prev = tokens[i - 1] if i else None
    word = tokens[i].text.lower()
    if prev is not None and prev.text.lower() == "the" and word in _words("the_relations"):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        return not (nxt is not None and (nxt.pos == "ADP" or nxt.text.lower() == "next"))
    if word not in _words("bare_relations"):
        return False
    if prev is not None and prev.pos == "VERB":  # a verb's object, not "thanks bro"
        return prev.text.lower() not in _words("bare_relation_not_after")
    if prev is not None and prev.pos == "ADP" and i > 1 and tokens[i - 2].pos == "VERB":
        return True  # a verb's object through its preposition: "talked to sis"
    if prev is not None and (
        prev.pos in ("DET", "NOUN", "PROPN", "ADJ", "ADP", "PRON")
        or prev.text.lower() in ("'s", "’s")
    ):
        return False
    j = i + 1
    while j < len(tokens) and tokens[j].pos == "ADV":  # "sis finally moved"
        j += 1
    return j < len(tokens) and (tokens[j].pos in ("VERB", "AUX") or tokens[j].text in ("'s", "’s"))


def name_at(tokens: Sequence[Token], i: int) -> tuple[str, int] | None:
    """The name starting at token `i` as an entity name and the index after it: honorifics
    are skipped ("Mrs Patel" -> "patel"), a first and last name kept whole."""
    honorifics = _words("honorifics")
    j = i
    while j < len(tokens) and tokens[j].text.lower().rstrip(".") in honorifics:
        j += 1
    start = j
    while j < len(tokens) and is_name(tokens, j) and j - start < 3:
        j += 1
    if j == start:
        return None
    return " ".join(t.text.lower() for t in tokens[start:j]), j


def mentioned(tokens: Sequence[Token]) -> list[str]:
    """The people a sentence names (entity keys): its names, except those after a preposition
    of place or organisation ("at Lidl", "in Berlin"; but "spoke to Jo") or a determiner ("the
    Lisbon trip"), and the speaker's relatives ("my dad", or a word only a relative is called:
    "sis", "mum"); a relative named ("my dad Pete") also gives the alias
    `relation:dad=person:pete`."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        prev = tokens[i - 1].text.lower() if i else ""
        if prev in _words("speaker_possessive") and tokens[i].text.lower() in _words("relations"):
            relation = "relation:" + _full(tokens[i].text.lower())
            after = name_at(tokens, i + 1)
            if after is not None:  # "my dad Pete": a later "dad" is Pete
                out.extend(("person:" + after[0], relation + "=person:" + after[0]))
            else:
                out.append(relation)
            i = after[1] if after else i + 1
            continue
        if _bare_relation(tokens, i):  # "sis moved", "mum's retiring", "the kids' lessons"
            out.append("relation:" + _full(tokens[i].text.lower()))
            i += 1
            continue
        found = name_at(tokens, i)
        if found is not None:
            talk = tokens[i - 2].text.lower() if i > 1 else ""
            spoken_to = prev == "to" and talk in _words("talk_verbs")
            if (prev not in _NOT_PEOPLE_AFTER or spoken_to) and not (
                i and tokens[i - 1].pos in _NOT_BEFORE
            ):
                out.append("person:" + found[0])
            i = found[1]
            continue
        i += 1
    return out


def subject_of(clause: Sequence[Token], start: int) -> tuple[str, str]:
    """Who a clause is about, from the words before `start` (where the phrasing matched):
    the speaker ("I", "we", "Sam and I"), a pronoun to resolve, "my sister" (a relation),
    "my brother Tom" or "Tom" or "Jake's" (a person), else the speaker."""
    return _subject(clause, start) or ("speaker", "")


def owner_in(tokens: Sequence[Token]) -> tuple[str, str] | None:
    """Whose thing a phrasing names when its subject is an impersonal "they" ("they've
    pushed his op back", "they moved my appointment"): the first possessive's owner."""
    owners = slot_table()["subjects"]["en"]["third_possessive"]
    for tok in tokens:
        low = tok.text.lower()
        if low in _words("speaker_possessive"):
            return "speaker", ""
        if low in owners:
            return "pronoun", str(owners[low])
    return None


def named_by(tokens: Sequence[Token], i: int) -> tuple[str, str]:
    """Who the word a phrasing names as its subject is ("moved {s} to", "took {s} off"): a
    pronoun to resolve ("her"), a relative ("Dad"), else the person of that name."""
    low = tokens[i].text.lower()
    if tokens[i].pos == "PRON" or low in _words("third"):
        return "pronoun", low
    if low in _words("relations"):
        return "relation", _full(low)
    return "person", low


def named_subject(clause: Sequence[Token], start: int) -> tuple[str, str] | None:
    """`subject_of` when the words before `start` name someone (a clause that starts with
    its verb is the speaker's: "Switched to oat milk"), else None ("Tea lot 3 sold")."""
    return ("speaker", "") if start == 0 else _subject(clause, start)


def _subject(clause: Sequence[Token], start: int) -> tuple[str, str] | None:
    head = list(clause[: max(start, 1)])
    resume = 0
    for i, tok in enumerate(head):
        low = tok.text.lower()
        nxt = clause[i + 1] if i + 1 < len(clause) else None
        if i < resume:
            continue
        if low in _words("framing"):  # "with my dad's surgery coming up we've ...": not dad
            resume = next((j + 1 for j in range(i + 1, len(head)) if head[j].pos == "VERB"), i)
            if resume > i:
                continue
        if low in _words("speaker"):
            return "speaker", ""
        if low in _words("third"):
            return "pronoun", low
        if low in _words("speaker_possessive") and nxt is not None:
            rel = _relation(head, i + 1)
            return rel if rel is not None else ("speaker", "")
        if i == 0 and _dropped_apostrophe(low, nxt):
            return "relation", _full(low[:-1])
        if low in _words("relations"):
            pair = _pair(head, i)
            named = None if pair else _relation(clause, i)  # "cousin Amira's party"
            return named if named is not None else ("relation", pair or _full(low))
        owner = _possessor(clause, i)
        if owner is not None:
            return owner
        if _after_object_marker(head, i) or i >= start:
            continue  # a word of the phrasing itself is no name ("Gym is the PureGym")
        found = name_at(clause, i)
        # the phrasing right after a first name is its verb, however tagged ("Anna cycles to
        # work"; not "leg day at puregym")
        verb_next = found is not None and found[1] == start and is_first_name(tok.text)
        if found is not None and (_acts(clause, found[1]) or verb_next):
            if _with_speaker(clause, found[1]):
                return "speaker", ""
            return "person", found[0]
    return _named_first(clause, start)


def _dropped_apostrophe(low: str, nxt: Token | None) -> bool:
    """A relative's word and an "'s" written without the apostrophe, opening a clause before
    a word that no plural takes as its verb ("dads out fishing", "mums been poorly"; not
    "dads are")."""
    return (
        low.endswith("s")
        and low[:-1] in _words("bare_relations")
        and nxt is not None
        and nxt.pos in ("ADV", "ADP", "VERB", "ADJ")
        and nxt.tag not in ("VBP", "VBD")
    )


def _after_object_marker(head: Sequence[Token], i: int) -> bool:
    """The word at `i` follows a preposition, verb or determiner, honorifics and the name
    before it aside ("with Dr Patel", "on duolingo portuguese": an object, not who the
    clause is about)."""
    j = i - 1
    while j > 0 and (
        head[j].text.lower().rstrip(".") in _words("honorifics") or head[j].pos == "PROPN"
    ):
        j -= 1
    return j >= 0 and i > 0 and head[j].pos in ("ADP", "VERB", "DET")


def _pair(head: Sequence[Token], i: int) -> str | None:
    """The relation two relatives make together ("mum and dad": parents), when the words
    from `i` name both (`subjects.en.pairs`)."""
    if i + 2 >= len(head) or head[i + 1].text.lower() not in ("and", "&", "n"):
        return None
    both = {_full(head[i].text.lower()), _full(head[i + 2].text.lower())}
    pairs = slot_table()["subjects"]["en"]["pairs"]
    return next((str(k) for k, ws in pairs.items() if any(both == set(w) for w in ws)), None)


def _named_first(clause: Sequence[Token], start: int) -> tuple[str, str] | None:
    """A clause that opens with a capitalised noun the tagger does not know for a name and
    then its verb ("Ines just got a job at a bike shop"): someone else's, not the speaker's;
    not when the verb's object is the speaker ("Work let me go remote")."""
    first = clause[0] if clause else None
    if first is None or start < 2 or first.pos not in ("NOUN", "PROPN"):
        return None
    if not (first.text[:1].isupper() and first.text.isalpha() and len(first.text) > 1):
        return None
    if _plain(first.text) or first.text.lower() in _words("speaker"):
        return None
    if first.tag == "NN" and not is_first_name(first.text):
        return None  # "Office is mandatory now": a common noun, capitalised to open
    j = 1
    while j < start and clause[j].pos == "ADV":
        j += 1
    if j >= start or clause[j].tag not in ("VBD", "VBZ"):
        return None
    if j + 1 < len(clause) and is_speaker_word(clause[j + 1].text):
        return None  # the speaker as the verb's object: the speaker's
    return "person", first.text.lower()


def _acts(tokens: Sequence[Token], end: int) -> bool:
    """The name ending before `end` is a subject: a verb, "and", a comma or "'s" follows it
    ("Kyoto for the first week of April" names no one)."""
    nxt = tokens[end] if end < len(tokens) else None
    return nxt is not None and (nxt.pos in _FOLLOWS_NAME or nxt.text in ("'s", "’s"))


def _possessor(tokens: Sequence[Token], i: int) -> tuple[str, str] | None:
    """ "the taxi firm's number", "Jake's email": whose thing it is when `i` is followed by a
    possessive "'s" and a noun (not "Tom's moved", where "'s" is "has")."""
    if i + 2 >= len(tokens) or tokens[i + 1].text not in ("'s", "’s"):
        return None
    if tokens[i + 2].pos not in ("NOUN", "ADJ") or tokens[i].pos not in ("NOUN", "PROPN"):
        return None
    after = tokens[i + 3] if i + 3 < len(tokens) else None
    if tokens[i + 2].pos == "ADJ" and (after is None or after.pos not in ("NOUN", "PROPN", "ADJ")):
        return None  # "knee's wrecked": 's is "is", not whose
    low = tokens[i].text.lower()
    if low in _words("relations"):
        return "relation", _full(low)
    return "person", low


def _with_speaker(tokens: Sequence[Token], end: int) -> bool:
    """ "Sam and I ...": the speaker is part of the subject."""
    words = [t.text.lower() for t in tokens[end : end + 2]]
    return words[:1] == ["and"] and words[1:] in (["i"], ["me"])


def role_holder(clause: Sequence[Token], start: int) -> tuple[str, str] | None:
    """ "my GP retired", "our landlord moved to Spain": a clause that opens with one who holds
    a role for the speaker (a slot's `roles`, no relative) as its subject, before the
    phrasing at `start`: that role's holder, not the speaker; else None."""
    if start < 2 or clause[0].text.lower() not in _words("speaker_possessive"):
        return None
    role = clause[1].text.lower()
    if role not in role_slots() or role in relation_words():
        return None
    if start > 2 and clause[2].pos == "NOUN":
        return None  # "our dentist check-up got moved": the speaker's appointment
    return "relation", role


def _relation(tokens: Sequence[Token], i: int) -> tuple[str, str] | None:
    """ "my sister" -> relation; "my brother Tom", "my manager, Linda," -> the person
    (adjectives skipped, unless one names the relative: "our eldest Maisie")."""
    relations = _words("relations")
    pairs = slot_table()["subjects"]["en"]["relation_pairs"]  # "my other half"
    pair = " ".join(t.text.lower() for t in tokens[i : i + 2])
    if pair in pairs:
        return "relation", str(pairs[pair])
    while i < len(tokens) and tokens[i].pos == "ADJ" and tokens[i].text.lower() not in relations:
        i += 1
    if i >= len(tokens) or tokens[i].text.lower() not in relations:
        return None
    j = i + 1 + (i + 1 < len(tokens) and tokens[i + 1].text == ",")
    found = name_at(tokens, j) if j < len(tokens) else None
    if found is not None:
        return "person", found[0]
    return "relation", _full(tokens[i].text.lower())


@cache
def _known_nicknames() -> dict[str, frozenset[str]]:
    """English first names and what people call them: the slot table's `nicknames` and the
    `nicknames` package's curated list, without its pairs of two names of their own
    (Amelia and Emily, Alice and Lisa)."""
    triplets = nicknames.name_triplets()
    own: dict[str, set[str]] = {t.name1: set() for t in triplets}
    for full, relation, short in triplets:
        if relation == "has_nickname" and short not in own:
            own[full].add(short)
    for full, shorts in slot_table()["subjects"]["en"]["nicknames"].items():
        own.setdefault(full, set()).update(shorts)
    return {full: frozenset(shorts) for full, shorts in own.items() if shorts}


def nickname_of(short: str, name: str) -> bool:
    """Whether `short` may be what people call the person `name` (a stored first name or
    a Chinese full name): the start of it ("rach", Rachel), a pet form of its start
    ("jonno", "ollie", "katie"), a usual nickname ("mike", Michael; "hattie", Harriet:
    `_known_nicknames`), or a Chinese short form (`zh_aliases`: 建国 for 李建国, 洋子 for 刘洋)."""
    if short == name or not short or not name:
        return False
    if not name.isascii():
        return short in zh_aliases(name)
    first = name.split(" ")[0]
    if short in _known_nicknames().get(first, ()):
        return True
    if len(short) < 3 or not short.isalpha() or len(first) <= len(short) - 2:
        return False
    if short in _words("given_names"):  # a name of its own: a "mary" is not a "mark"
        return False
    if first.startswith(short):
        return True
    endings = _words("nickname_endings")
    for k in range(2, len(first)):
        start = first[:k]
        if not short.startswith(start):
            return False
        rest = short[k:]
        doubled = rest[:1] == start[-1] and rest[1:] in endings  # jon+n+o, ol+l+ie
        if doubled or (k >= 3 and rest in endings):  # kat+ie
            return True
    return False


def names_person(text: str, subject: str) -> bool:
    """Whether a text names the person a claim subject key is ("person:terry")."""
    kind, _, name = subject.partition(":")
    if kind != "person" or not name:
        return False
    if not name.isascii():
        return name in text
    return re.search(r"(?<![\w])" + re.escape(name) + r"(?![\w])", text, re.IGNORECASE) is not None


_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+")


def says_i(text: str) -> bool:
    """Whether an English statement speaks of its speaker (a word of the slot table's
    `speaker` or `speaker_possessive` subjects: "I", "my", "we"...); "Going well." and
    "that's the dream" do not. A Chinese one may drop its 我, so it always may."""
    if not text.isascii():
        return True
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)}
    return bool(words & (_words("speaker") | _words("speaker_possessive")))


def names_after_relation(tokens: Sequence[Token], i: int) -> bool:
    """Whether lowercase token `i` is a first name after a relative ("my gf emma", "my
    sister sarah", "his girlfriend sophie"): a known given name, and a word the tagger takes
    for a noun or name."""
    if i < 2 or tokens[i].pos not in ("NOUN", "PROPN", "ADJ", "X"):
        return False
    low = tokens[i].text.lower()
    owner = tokens[i - 2].text.lower()
    return (
        tokens[i - 1].text.lower() in _words("relations")
        and (owner in _words("speaker_possessive") or owner in _words("third_possessive"))
        and is_first_name(low)
    )


def is_first_name(word: str) -> bool:
    """Whether a word is a first name the nicknames list or the `given_names` know."""
    low = word.lower()
    return low in _words("given_names") or low in _first_names()


@cache
def _first_names() -> frozenset[str]:
    known = _known_nicknames()
    return frozenset(known).union(*known.values())


def is_speaker_word(word: str, *, possessive: bool = False) -> bool:
    """Whether `word` is the speaker as an object ("me", "us"), or with `possessive` also
    as an owner ("my", "our"): the table's `speaker_object` and `speaker_possessive`."""
    low = word.lower()
    return low in _words("speaker_object") or (possessive and low in _words("speaker_possessive"))


def speaker_owns(tokens: Sequence[Token], i: int) -> bool:
    """Whether the word at `i` is the speaker (`is_speaker_word`, possessive too) and owns
    what follows it: not the "my" of "my sister's wedding is off", the sister's."""
    rel = tokens[i + 1].text.lower() if i + 1 < len(tokens) else ""
    owned = i + 2 < len(tokens) and tokens[i + 2].tag == "POS"
    return is_speaker_word(tokens[i].text, possessive=True) and not (
        owned and rel in _words("relations")
    )


def share_a_name(a: str, b: str) -> bool:
    """Whether two English statements name one thing by name: a word capitalised inside
    one of them (not where a sentence starts) stands in the other ("the Harriers", "Dr
    Patel"); the nearest-fact rule leaves a change to such a thing to the topic rule."""

    def names(text: str) -> set[str]:
        out = set()
        for m in _WORD.finditer(text):
            before = text[: m.start()].rstrip()
            start = not before or before[-1] in ".!?"
            if m.group()[0].isupper() and not start and m.group() != "I":
                out.add(m.group().lower().split("'")[0])
        return out

    def words(text: str) -> set[str]:
        return {w.lower().split("'")[0] for w in _WORD.findall(text)}

    return bool(names(a) & words(b) or names(b) & words(a))
