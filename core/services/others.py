"""What a statement ends of facts about someone other than its claims' subject
(docs/design.md, "Memory formation"), tried only when its own subject held nothing to
retire: a name said for the first time may be a relative known only by relation ("My
husband works at Amazon", then "Tom got laid off from Amazon"); an ending of what two hold
together ends the other's part ("me and tom are done"); an ending the speaker says of what
only a relative it names holds is theirs (学而思那个班退了，给女儿找了个老师); a change that
names someone or something by name reaches the facts of others that name it ("hollie moved
out", "the volvo finally died")."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

import attrs

from bitemporal_core.language.claims_en import keys_of
from bitemporal_core.language.detect import has_han
from bitemporal_core.language.people_zh import zh_relatives, zh_says_i
from bitemporal_core.language.slots import ABOUT, ANY, phrasing_of, slot_table, topic_table
from bitemporal_core.language.topics import TOPIC
from bitemporal_core.model import Claim
from bitemporal_core.services.claims import Candidate, may_retire, retired_by
from bitemporal_core.services.mentions import Mentions

__all__ = ["Said", "ended_by_others"]

_WORDS = re.compile(r"[a-z]+|[\u4e00-\u9fff]")
_PRONOUNS = frozenset({"he", "him", "his", "she", "her", "hers", "他", "她"})
_UNNAMED = 4  # the latest people a Chinese statement that names no one may be about


Found = list[tuple[str, Claim, str]]
"""Fact ids retired, each with the claim (as about the other) and the rule's name."""


@attrs.frozen(kw_only=True)
class Said:
    """A statement as these rules weigh it: its claims and text, who was mentioned before
    it, who it names (entity keys) and the stems of the names and brands it says, and the
    formation's reads: `read` loads what claims may retire (one engine read for them all),
    `held` a subject's current claims as loaded."""

    claims: Sequence[Claim]
    text: str
    known: Collection[str]
    mentions: Mentions
    read: Callable[[Sequence[Claim]], None]
    held: Callable[[str], Sequence[Candidate]]
    people: Sequence[str] = ()
    names: Collection[str] = ()

    def candidates(self, claim: Claim) -> Sequence[Candidate]:
        self.read([claim])
        return self.held(claim.subject)


def ended_by_others(said: Said) -> Found:
    """The first of the rules that finds anything (see the module's docstring)."""
    return named_kin(said) or ended_together(said) or ended_for_other(said) or named_elsewhere(said)


def named_elsewhere(said: Said) -> Found:
    """What a change that names someone or something by name ("hollie moved out", "biscuit
    died", "dr okafor retired", "the volvo finally died") and ends nothing of its own subject
    ends of the others the conversation recently mentioned: their facts that name that name
    ("my flatmate is Hollie", "the kids' hamster is called Biscuit"). The speaker is never
    reached this way."""
    names = set(said.names)
    others = [k for k in said.mentions.recent if "=" not in k] if names else []
    reach = [
        attrs.evolve(c, subject=other)
        for c in said.claims
        if c.slot in (TOPIC, ANY) and may_retire(c) and (c.slot == TOPIC or not c.positive)
        for other in others
        if other != c.subject
    ]
    if not reach:
        return []
    said.read(reach)
    of_someone = any(
        not c.subject.startswith("speaker:") for c in said.claims if c.slot in (TOPIC, ANY)
    )
    found: Found = []
    for claim in reach:
        names_it = _naming(claim, names, of_someone)
        named = [c for c in said.held(claim.subject) if names_it(c.claim)]
        found.extend((f, claim, claim.rule + " (named)") for f in retired_by(claim, named))
    return found


def _naming(claim: Claim, names: Collection[str], of_someone: bool) -> Callable[[Claim], bool]:
    """Whether another's claim is named by a change that reaches it: by a name said, but by
    the other's own name alone, in a change said of someone, only when the change names
    something of the claim's besides: "his flatmate Sam switched to history, which Leo finds
    hilarious" reaches nothing Leo holds; "my buddy is Nell now, Ravi's been moved to Dublin"
    reaches Ravi's being the buddy; "Tia and Jon called the wedding off" Tia's wedding."""
    own = set(keys_of(claim.subject.partition(":")[2])) if of_someone else set()
    by_others, by_own, besides = set(names) - own, set(names) & own, set(claim.keys) - set(names)

    def names_it(held: Claim) -> bool:
        said = {*held.keys, *held.context}
        return bool(by_others & said) or (bool(by_own & said) and bool(besides & said))

    return names_it


def named_kin(said: Said) -> Found:
    """The facts a claim about a person named for the first time retires of the one
    relative it can be: the claim ends a value it names, no fact of the person's own holds
    it, and of the relatives mentioned and not yet known by a name (of the statement's
    pronouns' gender), exactly one holds that value. That relative is then known by the
    name (`Mentions.alias`). A new value alone is no evidence ("Emma moved to Paris" is not
    the sister who lives in Madrid)."""
    found: Found = []
    for claim in said.claims:
        name = claim.subject
        if not _newly_named(claim, said):
            continue
        hits = _holders(said, claim, _unnamed_relatives(said))
        if len(hits) != 1:
            continue
        relative, (retired, as_kin) = hits.popitem()
        said.mentions.add(f"{relative}={name}")
        found.extend((f, as_kin, as_kin.rule + " (kin)") for f in retired)
    return found


def _newly_named(claim: Claim, said: Said) -> bool:
    """A claim on a slot, about a person not mentioned before the statement nor known as
    anyone's name, that ends a value it names."""
    if not claim.subject.startswith("person:") or claim.subject in said.known:
        return False
    if "的" in claim.subject:  # 我儿子的同桌: someone of the son's, no name
        return False
    if claim.slot in (TOPIC, ANY, ABOUT) or not may_retire(claim):
        return False
    if claim.positive or not claim.keys:
        return False
    return not any(k.endswith("=" + claim.subject) for k in said.mentions.recent)


def _unnamed_relatives(said: Said) -> list[str]:
    """The relatives mentioned before the statement and not known by a name, whose gender
    (when their relation word says one) is not the other of the statement's pronouns."""
    genders = slot_table()["subjects"]["genders"]
    words = set(_WORDS.findall(said.text.lower()))
    said_genders = {g for g, ws in genders.items() if words & _PRONOUNS & set(ws)}
    named = {k.split("=", 1)[0] for k in said.mentions.recent if "=" in k}
    out = []
    for key in said.known:
        if not key.startswith("relation:") or "=" in key or key in named:
            continue
        word = key.partition(":")[2]
        own = {g for g, ws in genders.items() if word in ws}
        if own and said_genders and not own & said_genders:
            continue
        out.append(key)
    return sorted(out)


def ended_together(said: Said) -> Found:
    """What an ending of a slot two people hold together (`mutual_slots`: "me and tom are
    done") ends of the other one's: their current facts of that slot ("tom booked dinner,
    been together 8 months" holds Tom's relationship)."""
    found: Found = []
    mutual = set(slot_table()["cues"]["en"]["mutual_slots"])
    for claim in said.claims:
        if claim.positive or claim.slot not in mutual or not claim.keys or not may_retire(claim):
            continue
        other = said.mentions.alias("person:" + claim.value.strip().lower())
        if other == claim.subject:
            continue
        as_other = attrs.evolve(claim, subject=other, value="", keys=())
        found.extend(
            (f, as_other, as_other.rule + " (together)")
            for f in retired_by(as_other, said.candidates(as_other))
        )
    return found


def ended_for_other(said: Said) -> Found:
    """What an ending the speaker says of a value they hold nothing of ends of the one other
    the statement names (or points back to with a pronoun) who holds it (学而思那个班退了，给女儿
    找了个数学老师: the daughter's class; 钢琴不学了 老师说他坐不住: the son's); a Chinese
    statement that names no one, not even 我, may be of any of the latest people mentioned
    (芭蕾不学了 after 我女儿在学芭蕾). A topic's stop said with no subject (游泳课停了，闺女嫌水冷:
    `stops` of `topics.json`) reaches only someone the statement names."""
    found: Found = []
    words = set(_WORDS.findall(said.text.lower())) & _PRONOUNS  # 老师说他坐不住: the son
    pointed = [k for w in sorted(words) for k in said.mentions.referents(w)]
    named = [*said.people, *zh_relatives(said.text)]
    others = [said.mentions.alias(p) for p in named if "=" not in p] + pointed
    stops = bool(others)  # a topic's stop (游泳课停了) reaches only one the statement names
    if not others and has_han(said.text) and not zh_says_i(said.text):
        others = [k for k in said.mentions.recent if "=" not in k][:_UNNAMED]  # 跆拳道不学了
    for claim in said.claims:
        if not claim.subject.startswith("speaker:") or claim.slot == ABOUT:
            continue
        if claim.slot == TOPIC and not (stops and _a_stop(claim)):
            continue
        if (claim.positive and claim.slot != TOPIC) or not claim.keys or not may_retire(claim):
            continue
        hits = _holders(said, claim, [o for o in dict.fromkeys(others) if o != claim.subject])
        if len(hits) == 1:
            retired, as_other = next(iter(hits.values()))
            found.extend((f, as_other, as_other.rule + " (theirs)") for f in retired)
    return found


def _a_stop(claim: Claim) -> bool:
    """Whether a topic claim's change cue stops what it names (`topics.json`, zh `stops`)."""
    return phrasing_of(claim.rule) in topic_table()["zh"]["stops"]


def _holders(
    said: Said, claim: Claim, subjects: Sequence[str]
) -> dict[str, tuple[list[str], Claim]]:
    """Of `subjects`, those holding a current fact that names what `claim` ends and that the
    claim, said of them, retires (one engine read for all of them)."""
    as_them = {who: attrs.evolve(claim, subject=who) for who in subjects}
    said.read(list(as_them.values()))
    hits: dict[str, tuple[list[str], Claim]] = {}
    for who, as_who in as_them.items():
        held = [c for c in said.held(who) if set(c.claim.keys) & set(claim.keys)]
        retired = retired_by(as_who, held)
        if retired:
            hits[who] = (retired, as_who)
    return hits
