"""Claims in a conversation: subjects resolved against who was mentioned, and the offline rules
that decide which current facts a new claim retires (docs/design.md, "Memory formation").

Pure functions over values: the formation service reads the candidates from the engine and
applies the decisions; the stream benchmark can run them without a store.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import cache

import attrs

from bitemporal_core.language.analysis import Analysed
from bitemporal_core.language.claims_en import keys_of as claim_keys
from bitemporal_core.language.detect import has_han
from bitemporal_core.language.families import brand_slot, family_heads, zh_family_heads
from bitemporal_core.language.people_zh import zh_says_i
from bitemporal_core.language.slots import (
    ABOUT,
    ANY,
    ClaimDraft,
    dose_only,
    kin_slots,
    phrasing_of,
    role_keyed,
    role_words,
    same_slots,
    slot_spec,
    slot_table,
    topic_table,
)
from bitemporal_core.language.topics import SLOTLESS, TOPIC, topic_terms
from bitemporal_core.language.values_en import clock_time, is_time
from bitemporal_core.model import Claim
from bitemporal_core.services.mentions import SINGULAR_PRONOUNS, Mentions

__all__ = [
    "ABOUT",
    "ANY",
    "UNKEYED",
    "Candidate",
    "entity_key",
    "held_keys",
    "names_topic",
    "resolve",
    "restated",
    "retired_by",
    "said_about",
    "topic_keys",
    "wanted_keys",
]
_PAIR_PRONOUNS = frozenset({"他俩", "她俩", "他们俩", "她们俩"})  # two others, never the speaker
UNKEYED = SLOTLESS
"""The slots whose claims are filed by what they name, not by slot."""


def entity_key(kind: str, name: str, speaker: str | None) -> str:
    """The key of a claim's subject entity in its namespace."""
    if kind == "speaker":
        return "speaker:" + (speaker or "user").strip().lower()
    return kind + ":" + name.strip().lower()


def resolve(
    draft: ClaimDraft,
    *,
    speaker: str | None,
    mentions: Mentions,
    context: Sequence[str],
    topical: Collection[str] = (),
) -> Claim:
    """A draft claim with its subject resolved (a pronoun to the person it points back to,
    preferring one the statement's topic is held about, `topical`; else to the speaker),
    mentions updated."""
    if draft.subject_kind == "pronoun":
        found = mentions.pronoun(draft.subject, topical)
        if found is None:  # "they" with nobody to point at is the speaker's "they"
            others = draft.subject in SINGULAR_PRONOUNS | _PAIR_PRONOUNS
            found = "unknown:" + draft.subject if others else entity_key("speaker", "", speaker)
        key = found
    else:
        key = mentions.alias(entity_key(draft.subject_kind, draft.subject, speaker))
    mentions.add(key)
    if draft.tentative:
        mode = "tentative"
    elif draft.passing and (draft.positive or draft.single):  # 出差取消了: a trip ends
        mode = "passing"
    elif draft.past:
        mode = "past"
    elif draft.event:
        mode = "event"
    elif draft.additive and draft.positive:
        mode = "add"
    elif draft.replacing:
        mode = "replace"
    else:
        mode = "state"
    return Claim(
        subject=key,
        slot=draft.slot,
        value=draft.value,
        keys=draft.keys,
        positive=draft.positive,
        single=draft.single,
        mode=mode,
        context=tuple(sorted(set(context))),
        rule=draft.rule,
    )


def said_about(
    st: Analysed, mentions: Mentions, before: ClaimDraft | None
) -> tuple[ClaimDraft, ...]:
    """A statement's draft claims with the subject the conversation gives those it left to
    the speaker: the person a Chinese statement opens with by a short name
    (`_opened_by_name`), or the one the message's statement before was about
    (`_carried`; `before` is that statement's first claim)."""
    return _carried(st, _opened_by_name(st, mentions), before)


def _opened_by_name(st: Analysed, mentions: Mentions) -> tuple[ClaimDraft, ...]:
    """The statement's claims, those it gives the speaker handed to the person it opens
    with when a Chinese statement names someone mentioned by a short name the segmenter
    does not read as a name (洋子辞职回老家了: 刘洋's job, not the speaker's)."""
    person = mentions.opening(st.text) if st.language == "zh" else None
    if person is None:
        return st.claims
    name = person.partition(":")[2]
    return tuple(
        attrs.evolve(d, subject_kind="person", subject=name) if d.subject_kind == "speaker" else d
        for d in st.claims
    )


def _carried(
    st: Analysed, drafts: tuple[ClaimDraft, ...], before: ClaimDraft | None
) -> tuple[ClaimDraft, ...]:
    """A Chinese statement that names no one and says no 我 goes on about the one the
    statement before it in the message was about (老爷子把捷达卖了！提了台比亚迪秦: the
    father's car). Not English: a sentence that opens with its verb is the speaker's as
    often ("Dad sold up. Moved to York." scored the same on every set either way)."""
    if before is None or before.subject_kind in ("speaker", "pronoun") or st.language != "zh":
        return drafts
    if any(d.subject_kind != "speaker" for d in drafts) or st.people or zh_says_i(st.text):
        return drafts
    return tuple(
        attrs.evolve(d, subject_kind=before.subject_kind, subject=before.subject) for d in drafts
    )


@attrs.frozen(kw_only=True)
class Candidate:
    """A current fact holding a claim of the same subject and slot."""

    fact_id: str
    claim: Claim
    recorded: float  # when the fact was recorded (epoch seconds), for "the latest"


def _of_day(value: str) -> bool:
    """A time of day: a clock time ("8:30", "7pm") or an hour alone ("8")."""
    return clock_time(value) or re.fullmatch(r"\d{1,2}", value.strip()) is not None


def _same_value(a: Claim, b: Claim) -> bool:
    if not a.keys or not b.keys or (_of_day(a.value) and _of_day(b.value)):
        return a.value.lower() == b.value.lower()  # 8 is no part of 8:30
    x, y = set(a.keys), set(b.keys)
    return x <= y or y <= x


def _related(new: Claim, old: Claim, *, dates: bool = True) -> bool:
    """The two claims are about the same thing: their values or their statements share a
    word (the trip to Lisbon, the Toronto flight); without `dates`, a word of a time ("june")
    does not count (an appointment is not the wedding of the same month)."""
    mine = set(new.keys) | set(new.context)
    theirs = set(old.keys) | set(old.context)
    shared = mine & theirs - set(_GENERIC)
    return bool(shared if dates else {w for w in shared if not is_time(w)})


# A change of topic replaces what was said of it lately, not everything ever said of it: a
# long conversation names a topic many times over, and "I run the volunteer rota now" must
# not end a year of running (long-conversation recall R@10 0.556 -> 0.564, stream sets same).
_TOPIC_REACH = 3

_GENERIC = ("week", "month", "year", "day", "time", "thing", "lot", "bit")


def may_retire(claim: Claim) -> bool:
    """Whether the offline rules can retire anything for this claim: a wish, a past state and
    a positive `about` claim never do, so their subject's facts need no read."""
    return not (
        claim.mode in ("tentative", "passing", "past", "event")
        or (claim.slot == ABOUT and claim.positive)
    )


def retired_by(new: Claim, candidates: Sequence[Candidate]) -> list[str]:
    """The fact ids a new claim retires among the subject's current facts, by the offline
    rules:

    - tentative (a wish, a question, a hypothetical), passing and past-state claims retire
      nothing;
    - a claim on a single-valued slot retires a passing state of another value of it
      ("using my brother's old samsung for now" by "got my own phone, an iPhone 15");
      nor does an addition ("also", "another");
    - a claim on a single-valued slot retires the facts holding another value of that slot,
      or, said as a change where none holds it, the latest fact no slot read that names the
      slot's kind;
    - a negated or stopped claim retires those it ends: any value of a single-valued slot,
      the related ones (or the only one) of a many-valued slot, and in any slot the facts
      whose value it names ("I'm no longer doing the Italian lessons");
    - a replacing claim on a many-valued slot ("instead", "now") retires the related ones;
    - a claim retires the negated ones of its slot it contradicts: those about the same
      value or the whole slot ("no food allergies" by "allergic to shellfish", "I don't own
      a car" by "I bought a Yaris");
    - an `about` claim (a statement no slot reads) retires nothing unless it ends something;
    - a `topic` claim (a change said about the things it names) retires the facts that
      name one of them (`topics.py`), the three latest at most, but not one holding as a
      slot's value the thing a Chinese "now" clause opens with (`_goes_on`: it goes on);
    - an event told in the past tense is retired only by an ending that names what it
      names ("said goodbye to the fiat" ends "my fiat failed its MOT"), not by a change of
      topic: it happened, whatever changed since.
    """
    if not may_retire(new):
        return []
    live = [c for c in candidates if c.claim.mode not in ("tentative", "passing", "past")]
    states = [c for c in live if c.claim.mode != "event"]  # an event is ended only by name
    if new.slot == TOPIC:  # a fact saying the same change again is a restatement, kept
        said = {c.fact_id for c in live if c.claim.slot == TOPIC and _same_keys(new, c.claim)}
        latest = sorted(states, key=lambda c: -c.recorded)
        said |= {c.fact_id for c in latest if _goes_on(new, c.claim)}
        found = [c.fact_id for c in latest if c.fact_id not in said and _same_topic(new, c.claim)]
        return list(dict.fromkeys(found))[:_TOPIC_REACH]
    if new.mode == "add":  # "I also got a dog" ends only "I have no pets"
        return [c.fact_id for c in live if not c.claim.positive and _contradicts(new, c.claim)]
    held = [c for c in live if c.claim.positive]
    new = _read_as_held(new, held)
    named = [c.fact_id for c in held if _names(new, c.claim)]
    if new.slot in (ANY, ABOUT):  # "I quit the choir": whatever holds that value ends
        return named
    if new.positive:
        denied = [c.fact_id for c in live if not c.claim.positive and _contradicts(new, c.claim)]
        return list(dict.fromkeys(denied + _positive(new, held) + _passed(new, candidates)))
    same = [c for c in held if _own_slot(c.claim) == new.slot] or _ended_too(new, held)
    if not new.positive:
        if new.single and _denied_state(new):  # "we're not even married": still together
            ended = [c.fact_id for c in same if _holds_state(new, c.claim)]
        elif new.single:
            ended = [c.fact_id for c in same]
        else:
            ended = [c.fact_id for c in same if _related(new, c.claim)]
            # the only value held ends only for an ending that names none ("I quit my meds"),
            # not for one naming another ("cats don't bother me anymore": no peanut allergy)
            ended = ended or ([same[0].fact_id] if len(same) == 1 and _ends_slot(new) else [])
        topical = [c.fact_id for c in states if c.claim.positive and _names_slot(new, c.claim)]
        return list(dict.fromkeys(ended + named + topical))
    return []


def _ended_too(new: Claim, held: Sequence[Candidate]) -> list[Candidate]:
    """For an ending of a whole single-valued slot the subject holds nothing of, the held
    values of the slots its ending ends too (its `ends_too`: 退休 ends a night shift)."""
    if new.positive or not new.single or not _ends_slot(new):
        return []
    too = set(slot_spec(new.slot).get("ends_too", ()))
    return [c for c in held if _own_slot(c.claim) in too]


def _denied_state(claim: Claim) -> bool:
    """A negated claim of a state another value of its slot may go on without (the slot's
    `denied_alone`: "we're not even married" leaves "been together" true): it ends only
    that state."""
    return claim.value.lower() in slot_spec(claim.slot).get("denied_alone", ())


def _holds_state(denied: Claim, old: Claim) -> bool:
    """A held claim of the state a negated claim denies: its value, or a phrasing that says
    it ("married to {v}" for "not married anymore")."""
    state = denied.value.lower()
    return _same_value(denied, old) or state in phrasing_of(old.rule).lower().split()


def _passed(new: Claim, candidates: Sequence[Candidate]) -> list[str]:
    """The passing states of a single-valued slot a new value of it ends."""
    if not new.single:
        return []
    return [
        c.fact_id
        for c in candidates
        if c.claim.mode == "passing"
        and c.claim.positive
        and _own_slot(c.claim) == new.slot
        and not _same_value(new, c.claim)
    ]


def _ends_slot(claim: Claim) -> bool:
    """A negated claim of a slot that names no value of it ("I've stopped drinking")."""
    return (
        not claim.positive
        and claim.slot not in UNKEYED
        and not set(claim.keys) - _slot_words(claim.slot)
    )


@cache
def _slot_topics(slot: str) -> frozenset[str]:
    """The topics the name of a slot belongs to ("alcohol": wine, beer, pints...)."""
    return frozenset(topic_terms(claim_keys(slot.replace("_", " "))))


def _names_slot(new: Claim, old: Claim) -> bool:
    """A claim ending a whole slot names the topic of a fact no slot read ("a glass of wine
    most evenings" for "I've stopped drinking")."""
    return _ends_slot(new) and _names_kind(new.slot, old)


def _names_kind(slot: str, old: Claim) -> bool:
    """An `about` claim naming the kind of thing a slot holds (a role's Chinese words too:
    咨询)."""
    kind = _slot_topics(slot) | _kind_of(slot)
    return old.slot == ABOUT and bool(kind & topic_terms((*old.keys, *old.context)))


def _unread_of_slot(new: Claim, held: Sequence[Candidate]) -> list[str]:
    """A change said outright of a slot no fact holds replaces the latest fact no slot read
    that names the slot's kind ("took out home insurance with one firm" by "switched my
    home insurance to another")."""
    read = {c.fact_id for c in held if c.claim.slot not in (ABOUT, TOPIC)}
    named = [c for c in held if c.fact_id not in read and _names_kind(new.slot, c.claim)]
    return [max(named, key=lambda c: c.recorded).fact_id] if named else []


def restated(new: Claim, candidates: Sequence[Candidate]) -> list[str]:
    """The facts a slot claim says again (same slot, same named value: "Tom's new flat in
    Manchester" of "Tom lives in Manchester"): the topic rule retires none of them for a
    change said in the same statement. A value that names no one thing (no capitalised
    word: "my car insurance") restates nothing."""
    if new.slot in (TOPIC, ABOUT, ANY) or not new.positive or not may_retire(new):
        return []
    if not any(w[:1].isupper() for w in new.value.split()):
        return []
    return [
        c.fact_id
        for c in candidates
        if _own_slot(c.claim) == new.slot and c.claim.positive and _same_value(new, c.claim)
    ]


def _same_keys(new: Claim, old: Claim) -> bool:
    return set(new.keys) == set(old.keys)


def _positive(new: Claim, held: Sequence[Candidate]) -> list[str]:
    """What a positive claim retires among the held values of its slot."""
    same = [c for c in held if _own_slot(c.claim) == new.slot]
    if new.single:
        kind = [c.fact_id for c in held if new.mode != "add" and _kind_named(new, c.claim)]
        unread = _unread_of_slot(new, held) if not same and new.mode == "replace" else []
        return [c.fact_id for c in same if not _same_value(new, c.claim)] + kind + unread
    if len(same) == 1 and dose_only(new.value, new.rule) and not _same_value(new, same[0].claim):
        return [same[0].fact_id]  # "upped me to 150mg": the one medicine's dose
    if new.mode == "replace":  # the kin slot's too: 手术推迟到月底 moves 手术约在3月12号
        kin = [c for c in held if c.claim.slot in kin_slots(new.slot)]
        dated = [*same, *kin]
        found = [
            c.fact_id
            for c in dated
            if _related(new, c.claim, dates=c in same) and not _same_value(new, c.claim)
        ]
        if not found and len(dated) == 1 and _moves_the_date(new):
            found = [dated[0].fact_id]  # "they moved me to Thursday"
        if not found and len(same) == 1 and _swaps(new):
            found = [same[0].fact_id]  # "doc switched me to citalopram": the one medicine
        return found
    return []


def _read_as_held(new: Claim, held: Sequence[Candidate]) -> Claim:
    """A phrasing two slots share (the slot's `read_as`: "first day at {v}", a job or a
    school) read for the other slot when the subject holds that one and not its own: a
    pupil's first day at a new school."""
    phrasing = phrasing_of(new.rule)
    slots = {_own_slot(c.claim) for c in held}
    for other, phrasings in slot_spec(new.slot).get("read_as", {}).items():
        if phrasing in phrasings and other in slots and new.slot not in slots:
            return attrs.evolve(new, slot=other)
    return new


def _kind_named(new: Claim, old: Claim) -> bool:
    """A statement no slot read that names a thing of the kind a single-valued slot holds
    (`_kind_of`: a bank, a landlord, a dentist, 健身房), which the new claim's statement does
    not name ("barclays app is down again" for "my bank is Starling now", "worst landlord
    ever" for "our rent now goes to Grainger"): the one held before."""
    kind = _kind_of(new.slot)
    if not kind or old.slot != ABOUT or not old.positive or old.mode != "state":
        return False
    things = {k for k in (*old.keys, *old.context) if kind & (topic_terms((k,)) | _brand_kind(k))}
    # "picked up a fiat so I'm not stuck when james has the corsa": the corsa goes on
    return bool(things) and not things & {*new.keys, *new.context}


def _swaps(claim: Claim) -> bool:
    """Whether the claim's phrasing is one of its slot's `swaps`: a change of the one value
    held of a many-valued slot ("switched me to", 给我换成)."""
    return phrasing_of(claim.rule) in slot_spec(claim.slot).get("swaps", ())


def _moves_the_date(claim: Claim) -> bool:
    """A move that names nothing but its new date, which is a date: one of its slot's
    `moves_nameless` phrasings ("moved me to Thursday"; not "moved me to the night shift"),
    or a Chinese move whose keys are its date's (not 团建改到周日, which names what it moves)."""
    spec = slot_spec(claim.slot)
    phrasing = phrasing_of(claim.rule)
    if has_han(claim.value):
        nameless = phrasing in spec.get("moves", ()) and all(k in claim.value for k in claim.keys)
    else:
        nameless = phrasing in spec.get("moves_nameless", ())
    return nameless and is_time(claim.value)


def _contradicts(new: Claim, old: Claim) -> bool:
    """A positive claim against a negated one of its slot: of the same value, or of the
    whole slot ("no allergies", "I don't own a car"); "not vegan" stands beside "vegetarian"."""
    if _own_slot(old) != new.slot:
        return False
    return _same_value(new, old) or not set(old.keys) - _slot_words(old.slot)


def _slot_words(slot: str) -> set[str]:
    """The stems that name a slot itself rather than a value of it ("allergies", "food")."""
    table = slot_table()
    words = slot_spec(slot).get("generic", ())
    return set(claim_keys(" ".join((*words, *table["cues"]["en"]["unspecific"]))))


def _same_topic(new: Claim, old: Claim) -> bool:
    """A topic claim names what a held fact names (its value or its statement's concepts)."""
    if not old.positive:
        return False
    # "my wife Naomi picked up her new Tesla": the statement's car is Naomi's, not the
    # speaker's; a role's fact names its holder and the role ("my landlord Mr Okafor")
    role = old.rule.startswith("role:")
    theirs = (*old.keys, *claim_keys(phrasing_of(old.rule))) if role else (*old.keys, *old.context)
    mine = topic_terms(new.keys) | _value_heads(new)
    if not mine:  # a name no topic reads (老周: 老 is a stop character) matches as itself
        return bool((set(new.keys) - set(_GENERIC)) & set(theirs))
    # a slot's fact is about its slot too ("new boss started today" meets "reporting to Mike")
    base = old.slot.partition(":")[0]  # a role's fact is its slot's (doctor:gp: doctor)
    slot = _slot_topics(base) if base in _named_slots() else frozenset()
    shared = mine & (topic_terms(theirs) | slot)
    return bool(shared) and not _told_apart(shared, {*new.keys, *new.context}, set(theirs))


def _goes_on(new: Claim, old: Claim) -> bool:
    """A Chinese change said only by a word of now (`topics.json` 'now_cues') of a thing a
    fact holds as its slot's value, the thing opening the change's clause (花卷现在天天追着它跑):
    what the thing does now; it goes on, so the fact holding it stands. (An English topic's
    value is its words, not its clause: "he can eat nuts now" opens with no nut.)"""
    if old.slot in (TOPIC, ABOUT) or not old.value or not has_han(new.value):
        return False
    cue = phrasing_of(new.rule)
    return cue in topic_table()["zh"]["now_cues"] and new.value.startswith(old.value)


def _told_apart(shared: set[str], new: set[str], old: set[str]) -> bool:
    """Whether two statements share only the heads of families whose `apart` words (in
    `topics.json`) one of them names and the other not: 手机号是移动的 and 宽带换成联通了 name a
    phone's carrier and a broadband's."""
    apart = topic_table()["zh"]["apart"]
    if not shared <= set(apart):
        return False
    return all(bool(set(apart[head]) & new) != bool(set(apart[head]) & old) for head in shared)


def _names(new: Claim, old: Claim) -> bool:
    """A negated claim names the value of another: their value words meet."""
    if new.positive:
        return False
    words = set(new.keys) - set(_GENERIC)
    return bool(words & (set(old.keys) | set(old.context)))


# --- the keys held claims are found by ------------------------------------------------------
# The rules above compare a new claim only with held claims of the same subject that share its
# slot, or whose value or statement names one of its words or topics. Each held claim is
# indexed under those keys (`held_keys`) and a new claim reads only the keys it may match
# (`wanted_keys`), so a write reads what it may retire, not everything said of its subject.


def _own_slot(claim: Claim) -> str:
    """A held claim's slot, with the role its phrasing names for one held under a slot whose
    roles are kept apart from before they were ("slot:doctor 'gp is {v}'" is doctor:gp), so
    that a new dentist does not replace a GP stored then."""
    base, _, role = claim.slot.partition(":")
    if role or "role_keys" not in slot_spec(base):
        return claim.slot
    phrasing = phrasing_of(claim.rule)
    return role_keyed(claim.slot, phrasing.split(), "zh" if has_han(phrasing) else "en")


def held_keys(claim: Claim) -> tuple[str, ...]:
    """The keys a stored claim is found by: its subject's slot, and each word and topic its
    value and its statement name."""
    words = (*claim.keys, *claim.context)
    terms = (set(words) - set(_GENERIC)) | topic_terms(words)
    terms |= {t for w in words for t in _brand_kind(w)}  # 招行: a bank
    # a role's claim is found by its slot's key too (a topic naming doctors finds doctor:gp)
    base = [
        k
        for slot in same_slots(claim.slot) - {claim.slot}
        for k in _keyed(claim.subject, slot, set())
    ]
    return (*_keyed(claim.subject, claim.slot, terms), *base)


def names_topic(claim: Claim, words: Sequence[str], slots: Sequence[str] = ()) -> bool:
    """Whether a claim's value or statement names one of `words` (not a generic one), or it
    holds one of `slots`."""
    held_slot = claim.slot in slots and claim.slot not in UNKEYED
    return held_slot or bool((set(words) - set(_GENERIC)) & {*claim.keys, *claim.context})


def topic_keys(subject: str, words: Sequence[str], slots: Sequence[str] = ()) -> tuple[str, ...]:
    """The keys under which claims about `subject` that name one of `words`, or hold one of
    `slots`, are held."""
    by_slot = [k for slot in slots for k in _keyed(subject, slot, set())]
    return (*_keyed(subject, ANY, (set(words) - set(_GENERIC)) | topic_terms(words)), *by_slot)


def wanted_keys(claim: Claim) -> tuple[str, ...]:
    """The keys under which the held claims a new claim may retire are found: its slot, the
    words of its value (`_names`) and their topics (`_same_topic`)."""
    terms = (set(claim.keys) - set(_GENERIC)) | topic_terms(claim.keys) | _value_heads(claim)
    if _ends_slot(claim):
        terms |= _slot_topics(claim.slot) | _kind_of(claim.slot)
    if claim.single and claim.positive:
        terms |= _kind_of(claim.slot)
    slots = set(kin_slots(claim.slot)) | (same_slots(claim.slot) - {claim.slot})
    slots |= set(slot_spec(claim.slot).get("read_as", ()))  # a pupil's "first day at"
    if not claim.positive:  # 退休: the night shift ends too
        slots |= set(slot_spec(claim.slot).get("ends_too", ()))
    if claim.slot == TOPIC:  # the slots its topics name (`_same_topic`)
        slots |= {slot for slot in _named_slots() if _slot_topics(slot) & terms}
    kin = (k for slot in sorted(slots) for k in _keyed(claim.subject, slot, set()))
    return (*_keyed(claim.subject, claim.slot, terms), *kin)


@cache
def _named_slots() -> tuple[str, ...]:
    """The slot table's slots whose names are the topic a family heads ("manager": boss,
    supervisor; not "phone_number", which "number" does not name)."""
    heads = family_heads()
    named = {s: _slot_topics(s) for s in slot_table()["slots"] if s not in UNKEYED}
    return tuple(s for s, topics in named.items() if topics and topics <= heads)


def _value_heads(claim: Claim) -> set[str]:
    """The heads of the Chinese families a Chinese value names whole (换到超级猩猩了: 健身房),
    which its two-character keys do not."""
    return zh_family_heads(claim.value) if has_han(claim.value) else set()


def _brand_kind(word: str) -> frozenset[str]:
    """The kind of thing a Chinese brand is (招行: a bank's, `_kind_of`; `families.brand_slot`),
    which `topic_terms` leaves as itself; () for any other word."""
    return _kind_of(brand_slot(word)) if has_han(word) else frozenset()


@cache
def _kind_of(slot: str) -> frozenset[str]:
    """The topics that name a thing a single-valued slot holds: its name, where a family
    heads it (`_named_slots`: a bank), else the words of its `roles` (a landlord) or, for a
    role kept apart, that role's (doctor:dentist: a dentist, not a GP); and the heads of the
    Chinese families it names (its `zh.kinds`: 健身房, which 乐刻 and 超级猩猩 are)."""
    spec = slot_spec(slot)
    heads = frozenset(spec.get("zh", {}).get("kinds", ()))
    if ":" in slot:
        words: Sequence[str] = role_words(slot)
    elif slot in _named_slots():
        return _slot_topics(slot) | heads
    else:
        words = spec.get("roles", ())
    return frozenset(topic_terms(claim_keys(" ".join(words)))) | heads if words else heads


def _keyed(subject: str, slot: str, terms: set[str]) -> tuple[str, ...]:
    """The keys: the slot's (not for `about`, `any` and topic claims, which the rules match by
    what they name, never by slot: nearly every statement holds one) and each term's."""
    prefix = subject + "\x1f"
    by_slot = () if slot in UNKEYED else (prefix + "s:" + slot,)
    return (*by_slot, *(prefix + "t:" + t for t in sorted(terms) if t))
