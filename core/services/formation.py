"""Memory formation: what a conversation says becomes memories that stay true
(docs/design.md, "Memory formation").

For each statement of a message: is it a memory (questions and small talk stay messages,
unless the store keeps everything)? Which claims does it make, about whom (pronouns resolved
against who the conversation mentioned)? Which current facts do they retire (the offline rules
of `services.claims`, or the LLM deciding among candidates found by subject and slot, by the
embedder and by keyword)? The writes apply the plan.
"""

from __future__ import annotations

import logging
import uuid
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

import attrs

from bitemporal_core.backends.port import NewClaim, RecallScope
from bitemporal_core.errors import BackendError
from bitemporal_core.language.analysis import Analysed
from bitemporal_core.language.claims import claim_context
from bitemporal_core.language.claims_en import keys_of as claim_keys
from bitemporal_core.language.clauses import words_in
from bitemporal_core.language.continued import continued, names_any
from bitemporal_core.language.families import brand_slot
from bitemporal_core.language.people import names_person, says_i, share_a_name
from bitemporal_core.language.people_zh import zh_says_i
from bitemporal_core.language.slots import ClaimDraft
from bitemporal_core.language.topics import TOPIC, ends_subject
from bitemporal_core.language.worthiness import MEMORY
from bitemporal_core.model import Claim, Fact
from bitemporal_core.services.book import Book
from bitemporal_core.services.claims import (
    UNKEYED,
    held_keys,
    may_retire,
    names_topic,
    resolve,
    restated,
    retired_by,
    said_about,
    topic_keys,
)
from bitemporal_core.services.context import Services
from bitemporal_core.services.llm_tasks import decide_updates, worth_remembering
from bitemporal_core.services.mentions import Mentions
from bitemporal_core.services.named import ended_by_name, vacated
from bitemporal_core.services.others import Said, ended_by_others

__all__ = ["MAX_PLANNED", "TALK", "Planned", "Retire", "plan_statements"]

_log = logging.getLogger(__name__)

TALK = "talk"
"""The kind of a non-memory statement kept as a fact (`Formation(keep="all")`)."""

MAX_PLANNED = 64
"""Facts of one message that later statements of the same call are weighed against."""
_CONFIDENCE = {"single": 0.8, "negated": 0.9, "replace": 0.7, "named": 0.7, "along": 0.6}
_LLM_CANDIDATES = 8
_NEAR_CANDIDATES = 8
_ALONG_MAX = 3  # other facts of a message: more, and it is a long message
_ALONG_WORDS = 8  # a remark ("14 yrs old and still pure chaos"), not a fact of its own
_TOPICAL_REFERENTS = 12  # the latest people a pronoun may point to, weighed by topic


@attrs.frozen(kw_only=True)
class Retire:
    """A current fact a new statement supersedes, and why; `fact` is None for a fact planned
    earlier in the same call and not written yet."""

    fact_id: str
    fact: Fact | None
    reason: str
    confidence: float


@attrs.frozen(kw_only=True)
class Planned:
    """One statement of a message, as the write will make it: a fact (or not), its claims
    and the facts it retires (applied only with `updates="auto"`)."""

    statement: Analysed
    fact_id: str
    keep: bool
    claims: tuple[NewClaim, ...] = ()
    retire: tuple[Retire, ...] = ()


def mentions_for(ctx: Services, namespace: str, statements: Sequence[Analysed]) -> Mentions:
    """The people the namespace's conversation mentioned, read from the engine only when the
    message names someone, a relative ("dad": maybe named before), speaks of "he", "she" or
    "they", or makes a claim about anyone but the speaker (a Chinese name the clause starts
    with, or a Chinese statement without 我 that may open with someone's short name): every
    such message updates them, so each must start from what was stored."""
    needed = any(
        st.people
        or any(d.subject_kind != "speaker" for d in st.claims)
        or (st.claims and st.language == "zh" and not zh_says_i(st.text))
        for st in statements
    )
    return Mentions(list(ctx.facts.recent(namespace))) if needed else Mentions()


def worthiness(ctx: Services, statements: list[Analysed]) -> list[Analysed]:
    """With an LLM, its judgement of what is worth remembering (the offline rules' where it
    gives none or fails)."""
    if ctx.llm is None or not statements:
        return statements
    try:
        flags = worth_remembering(ctx.llm, [st.text for st in statements])
    except BackendError as e:
        _log.warning("memory-worthiness judged offline: %s", e)
        return statements
    out = []
    for st, flag in zip(statements, flags, strict=True):
        if flag is None or flag == (st.category == MEMORY):
            out.append(st)
        else:
            out.append(attrs.evolve(st, category=MEMORY if flag else "filler", claims=()))
    return out


def plan_statements(
    ctx: Services,
    namespace: str,
    statements: Sequence[Analysed],
    *,
    speaker: str | None,
    at: datetime,
    mentions: Mentions,
    book: Book,
    updates: str,
) -> list[Planned]:
    """The plan of one message: per statement, whether it becomes a fact, its claims and
    what it retires; `mentions` and `book` are updated as they would be by the write. Only
    the first `MAX_PLANNED` facts of a message become candidates for the later ones (so a
    long message costs time linear in its length); every fact is weighed against the
    facts stored before the message."""
    out: list[Planned] = []
    kept = 0
    # "the pixel stays my personal one": a new phone said with it retires no pixel
    going_on = frozenset(
        w for st in statements if updates != "off" for w in continued(st.text, st.language)
    )
    before: ClaimDraft | None = None  # the claim the message's statement before opened with
    for st in statements:
        fact_id = uuid.uuid4().hex
        keep = st.category == MEMORY or ctx.formation.keep == "all"
        known = frozenset(mentions.recent)
        for person in st.people:
            mentions.add(mentions.alias(person))  # "katie" after Katherine: her
        if not keep:
            out.append(Planned(statement=st, fact_id=fact_id, keep=False))
            continue
        context = claim_context([key for key, _ in st.concepts], st.text, st.language)
        topical = _topical(ctx, namespace, st, mentions, book, at)
        drafts = said_about(st, mentions, before)
        before = drafts[0] if drafts else None
        pronouns = {d.subject for d in drafts if d.subject_kind == "pronoun"}
        if pronouns:
            kin = [d.subject for d in drafts if d.subject_kind == "relation"]
            mentions.lead(st.text, kin, pronouns)
        claims = [
            resolve(d, speaker=speaker, mentions=mentions, context=context, topical=topical)
            for d in drafts
        ]
        # Most statements of a chat hold only claims that retire nothing offline: their
        # subject's facts (which grow with the conversation) are not read for them.
        as_kin = mentions.as_kin(claims)
        needed = [c for c in [*claims, *as_kin] if ctx.llm is not None or may_retire(c)]
        if updates != "off" and needed:
            book.ensure(ctx, namespace, needed, at)
        said = _Said(
            ctx=ctx,
            namespace=namespace,
            st=st,
            claims=claims,
            kin=as_kin,
            book=book,
            at=at,
            speaker=speaker,
            mentions=mentions,
            known=known,
        )
        retire = _retirements(said) if updates != "off" else []
        retire = [r for r in retire if r.fact is None or not names_any(r.fact.text, going_on)]
        for r in retire:
            book.retire(r.fact_id)
        if kept < MAX_PLANNED:
            book.add(fact_id, claims, at.timestamp())
        kept += 1
        out.append(
            Planned(
                statement=st,
                fact_id=fact_id,
                keep=True,
                claims=tuple(
                    _new_claim(f"{fact_id}-{i:03d}", c, d.subject)
                    for i, (c, d) in enumerate(zip(claims, st.claims, strict=True))
                ),
                retire=tuple(retire) if updates == "auto" else (),
            )
        )
    return out


def _topical(
    ctx: Services, namespace: str, st: Analysed, mentions: Mentions, book: Book, at: datetime
) -> set[str]:
    """Of the people a pronoun of the statement may point back to (when more than one may),
    those a current claim (stored, or planned earlier in the call) names the statement's
    topic about: "他说围棋太闷了" after "我儿子学围棋" and small talk about 小敏 is about the
    son (one keyed read)."""
    words = [key for key, _ in st.concepts] + [k for d in st.claims for k in d.keys]
    pronouns = {d.subject for d in st.claims if d.subject_kind == "pronoun"}
    # "She's outgrown it" (an allergy): the one who has an allergy
    slots = sorted({d.slot for d in st.claims if d.subject_kind == "pronoun"})
    found = {k for p in pronouns for k in mentions.referents(p)[:_TOPICAL_REFERENTS]}
    if len(found) < 2 or not (words or slots):
        return set()
    planned = {
        who for who in found for _, c in book.claims.get(who, ()) if names_topic(c, words, slots)
    }
    keys = [k for who in sorted(found - planned) for k in topic_keys(who, words, slots)]
    rows = ctx.facts.keyed_claims(namespace, keys, at) if keys else ()
    return planned | ({c.subject for _, c in rows or ()} & found)


def _new_claim(claim_id: str, claim: Claim, said: str) -> NewClaim:
    """A claim to write (in statement order: its id sorts by position), with the keys later
    claims find it by."""
    kind = claim.subject.split(":", 1)[0]
    name = said or claim.subject.split(":", 1)[1]
    return NewClaim(
        id=claim_id,
        version_id="",
        claim=claim,
        entity_name=name,
        entity_kind=kind,
        lookups=held_keys(claim),
    )


def _name_terms(st: Analysed) -> set[str]:
    """The word stems of the names a statement mentions (not its relatives), and of the
    brands it names ("the volvo finally died": whoever's Volvo it was)."""
    brands = {k for k, _ in st.concepts if brand_slot(k)}
    return brands | {k for p in st.people if p.startswith("person:") for k in claim_keys(p[7:])}


@attrs.frozen(kw_only=True)
class _Said:
    """One statement being planned, with what its retirements are weighed against."""

    ctx: Services
    namespace: str
    st: Analysed
    claims: Sequence[Claim]
    book: Book
    at: datetime
    speaker: str | None
    mentions: Mentions
    known: frozenset[str] = frozenset()  # who was mentioned before the statement
    kin: Sequence[Claim] = ()  # the claims again as of the relative named ("my brother Callum")

    @property
    def scope(self) -> RecallScope:
        """Current facts as known when the statement was said."""
        return RecallScope(namespace=self.namespace, valid_at=self.at, known_at=self.at)


def _retirements(s: _Said) -> list[Retire]:
    """What a statement retires: the LLM's decision among the candidates when one is
    configured and answers, else the offline rules' (the later claim acting last; facts of
    others only when its own subject held nothing: `services.others`)."""
    book = s.book
    own = [*s.claims, *s.kin]  # what was said of "my brother" is Callum's too, once named
    kept = {f for c in own for f in restated(c, book.candidates(c.subject))}
    by_rule = [
        (fact_id, claim, claim.rule)
        for claim in own
        for fact_id in retired_by(claim, book.candidates(claim.subject))
        if not (claim.slot == TOPIC and fact_id in kept)
    ] or _others(s)
    offline: dict[str, Retire] = {}
    for fact_id, claim, rule in by_rule:
        offline.setdefault(
            fact_id,
            Retire(
                fact_id=fact_id,
                fact=book.facts.get(fact_id),
                reason="rule:" + rule,
                confidence=_confidence(claim),
            ),
        )
    found = list(offline.values()) or _by_name(s) or _nearest(s, kept)
    ended = {f for f, claim, rule in by_rule if not claim.positive and rule.startswith("slot:")}
    found += _along(s, [r for r in found if r.fact_id in ended])
    if s.ctx.llm is None:
        return found
    decided = _llm_retirements(s)
    return found if decided is None else decided


def _others(s: _Said) -> list[tuple[str, Claim, str]]:
    """What the statement ends of facts about others (`services.others`)."""

    def read(claims: Sequence[Claim]) -> None:
        s.book.ensure(s.ctx, s.namespace, claims, s.at)

    said = Said(
        claims=s.claims,
        text=s.st.text,
        known=s.known,
        mentions=s.mentions,
        read=read,
        held=s.book.candidates,
        people=s.st.people,
        names=_name_terms(s.st),
    )
    return ended_by_others(said)


def _by_name(s: _Said) -> list[Retire]:
    """What an ending said of someone by name ends of facts about others, and of the places
    they held for others (`services.named`)."""
    found = ended_by_name(s.ctx, s.scope, s.claims, s.book.gone)
    found += vacated(s.ctx, s.scope, s.claims, {*s.book.gone, *(f.id for f, _ in found)})
    reason = "rule:{} (named)"
    conf = _CONFIDENCE["named"]
    return [
        Retire(fact_id=f.id, fact=f, reason=reason.format(c.rule), confidence=conf)
        for f, c in found
    ]


def _along(s: _Said, ended: Sequence[Retire]) -> list[Retire]:
    """The short remarks said in a short turn with a fact a slot rule ends (a negated claim:
    "we had to put biscuit to sleep", "lisbon's off"; not a new value, which says nothing of
    the rest of the turn) that hold no claim of their own on a slot nor about anyone it does
    not name: they went on about what it said ("my cat biscuit knocked my tea over. 14 yrs
    old and still chaos"), and end with it."""
    stored = {r.fact_id: r.fact for r in ended if r.fact is not None and r.fact.source}
    siblings = _remarks(s, stored) if stored else []
    if not siblings:
        return []
    versions = [v.version_id for v in (*siblings, *stored.values())]
    held = s.ctx.facts.version_claims(s.namespace, versions)
    out: list[Retire] = []
    for v in siblings:
        theirs = held.get(v.version_id, ())
        with_it = [f for f in stored.values() if f.source == v.source]
        subjects = {c.subject for f in with_it for c in held.get(f.version_id, ())}
        subjects |= {
            c.subject for c in theirs if any(names_person(f.text, c.subject) for f in with_it)
        }
        if any(c.slot not in UNKEYED or c.subject not in subjects for c in theirs):
            continue  # "an old tabby called Biscuit. She's 16": she is the one it names
        reason = "rule:said with " + with_it[0].id
        out.append(Retire(fact_id=v.id, fact=v, reason=reason, confidence=_CONFIDENCE["along"]))
    return out


def _remarks(s: _Said, stored: dict[str, Fact]) -> list[Fact]:
    """The other current facts of the retired facts' messages, when a message holds fewer
    than `_ALONG_MAX` of them (the sentences of a long message are facts of their own), that
    are remarks of at most `_ALONG_WORDS` words."""
    rows = s.ctx.messages.remembered(s.namespace, sorted({f.source or "" for f in stored.values()}))
    current = {
        v.id: v
        for _, _, v in rows
        if v is not None
        and v.id not in stored
        and v.id not in s.book.gone
        and v.superseded_at is None
        and (v.valid_to is None or v.valid_to > s.at)
        and v.valid_from <= s.at
    }
    counts = Counter(v.source for v in current.values())
    return [
        v
        for v in current.values()
        if counts[v.source] < _ALONG_MAX and words_in(v.text) <= _ALONG_WORDS
    ]


def _says_change(claim: Claim) -> bool:
    """A claim that says something changed: a change cue (a topic claim, "now", "instead")
    or something ended; not an addition, a wish or a past state."""
    return (
        may_retire(claim)
        and claim.mode != "add"
        and (claim.slot == TOPIC or claim.mode == "replace" or not claim.positive)
    )


def _nearest(s: _Said, kept: set[str]) -> list[Retire]:
    """The nearest-fact rule: a statement that says something changed, when no slot or topic
    rule found what it replaces, retires the current fact nearest to it by embedding that is
    about the same subject, if it is nearer than `Formation.nearest` (rescaled from what the
    embedder gives unrelated text: `language.nearness`). "A month in on daily contacts"
    names nothing "I wear glasses full time" names; their vectors are near."""
    st, claims, speaker = s.st, s.claims, s.speaker
    floors, limit = s.ctx.analyser.floors, s.ctx.formation.nearest
    if floors is None or limit is None or st.embedding is None or not claims:
        return []
    if any(c.mode in ("add", "tentative", "passing", "past") for c in claims):
        return []
    if not (st.change or any(_says_change(c) for c in claims)):
        return []
    found = [
        (fact, cosine)
        for fact, cosine in s.ctx.reads.vector_search(s.scope, st.embedding, _NEAR_CANDIDATES)
        if fact.id not in kept and fact.id not in s.book.gone and fact.kind != TALK
    ]
    held = s.ctx.facts.version_claims(s.namespace, [f.version_id for f, _ in found])
    ending = ends_subject(st.change)
    for fact, cosine in found:  # nearest first: the nearest event or remark, whoever it is
        # about, or the nearest fact of the same subject decides
        theirs = held.get(fact.version_id, ())
        if any(c.mode == "event" for c in theirs):
            return []  # an event happened, whatever changed since
        if _remark(fact, theirs):
            return []
        if not _same_subject(st.text, claims, fact.text, theirs, crossing=ending):
            continue
        if not ending and share_a_name(st.text, fact.text):
            return []  # a change to something both name ("the Harriers got a new coach")
        (near,) = floors.rescaled(st.embedding, [cosine], language=st.language, speaker=speaker)
        if near < limit:
            return []
        reason = f"rule:nearest {near:.2f}"
        return [Retire(fact_id=fact.id, fact=fact, reason=reason, confidence=round(near, 2))]
    return []


def _remark(fact: Fact, claims: Sequence[Claim]) -> bool:
    """A remark, not a state of the speaker's: no slot reads it, it names one thing at most
    and says no I, my or we ("Going well.", "A strange one."; "fav band is arctic monkeys"
    and "on nights at the amazon warehouse" are states)."""
    return (
        all(c.slot in UNKEYED and c.subject.startswith("speaker:") for c in claims)
        and len({k for c in claims for k in c.keys}) < 2
        and not says_i(fact.text)
    )


def _same_subject(
    text: str,
    claims: Sequence[Claim],
    their_text: str,
    theirs: Sequence[Claim],
    *,
    crossing: bool,
) -> bool:
    """Whether a fact is about a subject of the statement: one of its claims has the same
    subject, or, for a change that ends its subject (`crossing`), a person one side is
    about is named by the other ("terry retired" and "our landlord is terry"); "my sister
    moved to Berlin" is not about "I live in Lyon"."""
    mine = {c.subject for c in claims}
    if any(c.subject in mine for c in theirs):
        return True
    if not crossing:
        return False
    return any(names_person(text, c.subject) for c in theirs) or any(
        names_person(their_text, s) for s in mine
    )


def _confidence(claim: Claim) -> float:
    if not claim.positive:
        return _CONFIDENCE["negated"]
    return _CONFIDENCE["single"] if claim.single else _CONFIDENCE["replace"]


def _llm_retirements(s: _Said) -> list[Retire] | None:
    """The LLM's choice among the candidates: the facts holding claims of the statement's
    subjects, the nearest current facts by embedding, and the best by keyword; None when it
    fails or answers nothing usable (the offline rules then decide)."""
    ctx, book, st = s.ctx, s.book, s.st
    assert ctx.llm is not None
    found: dict[str, Fact] = {}
    for claim in s.claims:
        for c in book.candidates(claim.subject):
            if c.fact_id in book.facts:
                found.setdefault(c.fact_id, book.facts[c.fact_id])
    terms = [t for t, _ in st.terms]
    for fact, _ in ctx.reads.keyword_search(s.scope, terms, _LLM_CANDIDATES) if terms else ():
        found.setdefault(fact.id, fact)
    if st.embedding is not None:
        for fact, _ in ctx.reads.vector_search(s.scope, st.embedding, _LLM_CANDIDATES):
            found.setdefault(fact.id, fact)
    candidates = [f for f in found.values() if f.kind != TALK]
    try:
        chosen = decide_updates(ctx.llm, st.text, candidates)
    except BackendError as e:
        _log.warning("updates decided offline: %s", e)
        return None
    if chosen is None:
        _log.warning("updates decided offline: the LLM's answer was not usable")
        return None
    reason = "llm:" + ctx.llm.name
    return [Retire(fact_id=f.id, fact=f, reason=reason, confidence=0.9) for f in chosen]
