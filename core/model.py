"""The public value types: a basis to query at, fact versions, concepts and their edges, recall
hits, messages, use counts and abstractions. Every layer may import them; they import nothing
of the package but the foundation helpers."""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any, Final

import attrs

from bitemporal_core.common.times import require_aware, utcnow
from bitemporal_core.common.validate import check_id, check_optional_name, check_text, shown
from bitemporal_core.errors import InvalidInput

__all__ = [
    "UNSET",
    "Abstraction",
    "Basis",
    "Change",
    "Claim",
    "Concept",
    "ConceptEdge",
    "Fact",
    "Formation",
    "Hit",
    "InferredEdge",
    "Lineage",
    "Message",
    "RankContribution",
    "Turn",
    "Unset",
    "Update",
    "Usage",
]


class Unset(enum.Enum):
    """Type of the `UNSET` sentinel: "not given", where `None` already means something."""

    token = 0

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = Unset.token


def _turn_text(value: object) -> str:
    return check_text(value, "turn text")


def _role(value: object) -> str:
    return check_id(value, "role")


def _message_id(value: object) -> str | None:
    return None if value is None else check_id(value, "message id")


def _message(value: object) -> str | None:
    return None if value is None else check_text(value, "message")


def _when(value: object) -> datetime | None:
    return None if value is None else require_aware(value, "at")


def _speaker(value: object) -> str | None:
    return check_optional_name(value, "speaker")


def _session(value: object) -> str | None:
    return check_optional_name(value, "session")


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput("remember must be True or False")
    return value


def _valid_at(value: datetime | None) -> datetime | None:
    return None if value is None else require_aware(value, "valid_at")


def _known_at(value: datetime | None) -> datetime | None:
    return None if value is None else require_aware(value, "known_at")


@attrs.frozen
class Basis:
    """The two instants a query is pinned to: what was true at `valid_at`, as known at `known_at`.

    Either left as None means "now" at the moment of the call; resolve it with `resolved()`
    to make a recall repeatable.
    """

    valid_at: datetime | None = attrs.field(default=None, converter=_valid_at)
    known_at: datetime | None = attrs.field(default=None, converter=_known_at)

    @classmethod
    def now(cls) -> Basis:
        """A basis pinned to the current instant on both axes."""
        t = utcnow()
        return cls(valid_at=t, known_at=t)

    def resolved(self, now: datetime | None = None) -> Basis:
        """This basis with every unset instant replaced by `now` (default: the current time)."""
        t = now or utcnow()
        return Basis(valid_at=self.valid_at or t, known_at=self.known_at or t)

    def describe(self) -> str:
        """A short human-readable form, e.g. for CLI output."""
        v = self.valid_at.isoformat() if self.valid_at else "now"
        k = self.known_at.isoformat() if self.known_at else "now"
        return f"valid at {v}, known at {k}"


@attrs.frozen(kw_only=True)
class Fact:
    """One immutable version of a fact (a lineage of versions shares `id`).

    Valid time `[valid_from, valid_to)` says when it is true in the world (`valid_to=None`: until
    further notice); transaction time `[recorded_at, superseded_at)` says when the memory believed
    it (`superseded_at=None`: still believed). `language` is the language the statement was
    analysed in ("en" or "zh"; docs/chinese.md).
    """

    id: str
    version_id: str
    namespace: str
    text: str
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    superseded_at: datetime | None
    version: int = 1
    said_at: datetime | None = None
    source: str | None = None
    speaker: str | None = None
    session: str | None = None
    kind: str = "said"
    supersedes: str | None = None
    t_index: int = 0
    language: str = "en"
    category: str = "memory"

    @property
    def is_current(self) -> bool:
        """True while this version is still believed (its transaction time is open)."""
        return self.superseded_at is None

    def valid_at(self, when: datetime) -> bool:
        """True if `when` lies inside the half-open valid interval."""
        return self.valid_from <= when and (self.valid_to is None or when < self.valid_to)

    def known_at(self, when: datetime) -> bool:
        """True if `when` lies inside the half-open transaction interval."""
        return self.recorded_at <= when and (
            self.superseded_at is None or when < self.superseded_at
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (times as ISO-8601 strings)."""
        out: dict[str, Any] = attrs.asdict(self)
        for key, value in out.items():
            if isinstance(value, datetime):
                out[key] = value.isoformat()
        return out


@attrs.frozen(kw_only=True)
class Lineage:
    """Every version of one fact, oldest first, with its supersession links."""

    fact_id: str
    namespace: str
    versions: tuple[Fact, ...]
    supersedes: str | None = None
    superseded_by: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()  # why it superseded or was superseded, oldest first
    claims: dict[str, tuple[Claim, ...]] = attrs.field(factory=dict)  # by version id

    @property
    def current(self) -> Fact | None:
        """The version still believed, if any."""
        for version in reversed(self.versions):
            if version.is_current:
                return version
        return None

    def __iter__(self) -> Iterator[Fact]:
        return iter(self.versions)

    def __len__(self) -> int:
        return len(self.versions)


@attrs.frozen(kw_only=True)
class Concept:
    """A node of the RecallM concept graph (namespace-scoped) as read from the engine."""

    key: str
    display: str
    t_index: int


@attrs.frozen(kw_only=True)
class RankContribution:
    """What one rank of recall gave a recalled memory.

    Attributes:
        position: its place in that rank, 1 for the first.
        raw: the rank's own score: BM25 for "keyword", cosine for "vector", the concept
            score of its best concept for "concepts", the relationship's confidence for
            "inferred".
        share: what the rank adds to `Hit.score` (a hit's shares sum to its score).
    """

    position: int
    raw: float
    share: float


@attrs.frozen(kw_only=True)
class Hit:
    """A recalled memory: the fact version, its score, and why it was found.

    Attributes:
        fact: the version recalled.
        score: relevance in 0..1, the fusion of the ranks that found it (1: first in every
            rank) times its boosts; divided by the best score when boosts lift one above 1.
        concepts: the concepts it was found under.
        sources: the ranks that found it ("concepts", "keyword", "vector", "inferred").
        essential: whether it mentions a concept the question names.
        ranks: per rank that found it, its position, raw score and share of `score`.
        boosts: the factors applied after fusion, by name: "time" (a question asking when, a
            statement with its own time), "window" (said or valid in the period the question
            names), "sibling" (its message gave a better hit), "lifecycle" (decay and use).
    """

    fact: Fact
    score: float
    concepts: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    essential: bool = False
    ranks: Mapping[str, RankContribution] = attrs.field(factory=dict, hash=False)
    boosts: Mapping[str, float] = attrs.field(factory=dict, hash=False)

    @property
    def text(self) -> str:
        """The fact's text."""
        return self.fact.text


@attrs.frozen(kw_only=True)
class Message:
    """A raw conversation message, kept in order per namespace and session."""

    id: str
    namespace: str
    session: str | None
    role: str | None
    text: str
    at: datetime
    seq: int = 0


@attrs.frozen(kw_only=True)
class Claim:
    """What a memory-worthy statement says, structured (docs/design.md, "Memory formation").

    Attributes:
        subject: the entity it is about: "speaker:<name>" (first person), "person:<name>",
            "relation:<word>" (my sister).
        slot: the slot it fills ("residence", "employer", "favourite:band", ...).
        value: the value as said ("Berlin").
        keys: the value's word stems (to compare values).
        positive: False for a negated or stopped claim ("no longer", "quit").
        single: the slot holds one value, so a new one replaces the current one.
        mode: "state", "replace" (said to replace), "add" (said to add), "tentative" (a
            wish or hypothetical), "passing" (a passing state: "for now", 暂时; the next
            value of its single-valued slot ends it), "past" (a past state) or "event" (an
            event told in the past tense, which only an ending naming what it names
            retires); the last five retire nothing.
        context: the concept keys of the whole statement.
        rule: the phrasing of the slot table that matched.
    """

    subject: str
    slot: str
    value: str
    keys: tuple[str, ...] = ()
    positive: bool = True
    single: bool = True
    mode: str = "state"
    context: tuple[str, ...] = ()
    rule: str = ""


@attrs.frozen(kw_only=True)
class Change:
    """Why one fact superseded another: an explicit call, an offline rule or an LLM.

    Attributes:
        fact: the superseding fact (the successor).
        replaced: the fact it superseded.
        reason: "explicit", "rule:<slot> '<phrasing>'" or "llm:<model>".
        confidence: how sure the deciding rule or model was (1.0 for explicit calls).
        at: the transaction time of the change.
        undone_at: when `undo_update` reverted it (None while it holds).
    """

    fact: str
    replaced: str
    reason: str = "explicit"
    confidence: float = 1.0
    at: datetime | None = None
    undone_at: datetime | None = None


def _choice(name: str, allowed: tuple[str, ...]) -> Any:
    def check(_: Any, __: Any, value: object) -> None:
        if value not in allowed:
            raise InvalidInput(f"{name} must be one of {', '.join(allowed)}, not {shown(value)}")

    return check


def _timeout(_: Any, __: Any, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 600:
        raise InvalidInput("llm_timeout must be a number of seconds in (0, 600]")


NEAREST = 0.3
"""The default `Formation.nearest` (tuned on the stream benchmark's development sets)."""


def _nearest(_: Any, __: Any, value: object) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
        raise InvalidInput("nearest must be None or a number in (0, 1]")


@attrs.frozen(kw_only=True)
class Formation:
    """How what a conversation says becomes memories (docs/design.md, "Memory formation").

    Attributes:
        keep: "memories" keeps questions, greetings, thanks, acknowledgements and filler as
            messages only; "all" also makes them facts (of kind "talk", left out of recall
            unless asked for with `kinds=["talk"]`).
        updates: "auto" lets a new claim supersede the current facts it replaces (by the
            offline rules, or the LLM when one is configured); "suggest" records the claims
            and leaves the replacements to `pending_updates`/`apply_update`; "off" records
            claims and changes nothing.
        llm_timeout: seconds an LLM may take to decide before the offline rules decide.
        nearest: with an embedder, how near (0 is as near as unrelated text, 1 the same
            vector) the nearest current fact of the same subject must be for a statement that
            says something changed to retire it when no slot or topic rule found what it
            replaces (the nearest-fact rule); None turns the rule off.
    """

    keep: str = attrs.field(default="memories", validator=_choice("keep", ("memories", "all")))
    updates: str = attrs.field(
        default="auto", validator=_choice("updates", ("auto", "suggest", "off"))
    )
    llm_timeout: float = attrs.field(default=10.0, validator=_timeout)
    nearest: float | None = attrs.field(default=NEAREST, validator=_nearest)


@attrs.frozen(kw_only=True)
class Update:
    """A replacement the formation rules (or the LLM) found: `fact` supersedes `replaced`."""

    fact: str
    replaced: str
    reason: str
    confidence: float


@attrs.frozen(kw_only=True)
class Turn:
    """One conversation message as an adapter hands it to the store (`MemoryStore.add_turn`).

    `text` is what is remembered as facts when `remember` is true (the message is then their
    source); `message` is what is stored as the message when that differs from `text` (a
    framework's serialised message with tool calls or images). `id` is the message id (one is
    made if None): the same id and text again is a repeat and writes nothing. `at` is when
    the message was said, where the framework carries it: the turn is recorded then (or now,
    if the memory already holds later writes), and its time expressions read from then.
    `speaker` is who said it in a group chat ("I" is then that person), else the role.
    """

    text: str = attrs.field(converter=_turn_text)
    role: str = attrs.field(converter=_role)
    id: str | None = attrs.field(default=None, converter=_message_id)
    session: str | None = attrs.field(default=None, converter=_session)
    remember: bool = attrs.field(default=True, converter=_flag)
    message: str | None = attrs.field(default=None, converter=_message)
    at: datetime | None = attrs.field(default=None, converter=_when)
    speaker: str | None = attrs.field(default=None, converter=_speaker)


@attrs.frozen(kw_only=True)
class ConceptEdge:
    """A RELATED edge of the concept graph: `src < dst` lexicographically."""

    src: str
    dst: str
    strength: int
    t_index: int


@attrs.frozen(kw_only=True)
class InferredEdge:
    """A relationship inferred between two concepts, kept apart from stated facts."""

    src: str
    dst: str
    type: str  # an upper-case word such as LOCATED_IN; stored as a property, never a label
    confidence: float
    provenance: str  # "rule:shared-neighbours", "rule:co-occurrence" or "llm:<model>"
    recorded_at: datetime | None = None


@attrs.frozen(kw_only=True)
class Usage:
    """How often a lineage was recalled or injected, and when last (operational metadata)."""

    uses: int = 0
    last_used: datetime | None = None


@attrs.frozen(kw_only=True)
class Abstraction:
    """A higher-level memory summarising related facts, as one version of its own lineage.

    `fact.kind` is "abstraction"; `members` are the version ids it summarises (as known when
    it was written); `concept` is the shared concept that grouped them.
    """

    fact: Fact
    concept: str
    members: tuple[str, ...]
