"""`Services`: the one immutable object every service works with.

`MemoryStore` builds it once from its options: the engine, seen through the storage roles of
`backends.port` (a service reads `ctx.reads` or writes through `ctx.log`, and mypy checks that
it uses only what the role offers), the statement analyser, the optional LLM, the recall
parameters, the lifecycle and formation policies, the use recorder, the clock and the
sessions' latest messages.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import attrs

from bitemporal_core.backends.port import (
    Backend,
    Erasure,
    FactReads,
    MessageLog,
    RecallReads,
    TransactionLog,
    Upkeep,
)
from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.pool import AnalysisPool
from bitemporal_core.model import Formation
from bitemporal_core.providers.llm import LLM
from bitemporal_core.ranking.decay import Lifecycle
from bitemporal_core.ranking.recallm import RecallParams
from bitemporal_core.services.dialogue import Dialogue
from bitemporal_core.services.uses import UseRecorder

__all__ = ["Services"]


@attrs.frozen(kw_only=True)
class Services:
    """The engine (by role), the analyser, the providers and the settings of one store."""

    backend: Backend
    analyser: Analyser
    pool: AnalysisPool
    llm: LLM | None
    params: RecallParams
    lifecycle: Lifecycle
    uses: UseRecorder
    formation: Formation = attrs.field(factory=Formation)
    clock: Callable[[], datetime] | None = None  # the default transaction time (replays)
    dialogue: Dialogue = attrs.field(
        default=attrs.Factory(lambda self: Dialogue(self.backend), takes_self=True)
    )  # the message before a new one, per session (the `before` keyword field)
    # How far an explicit transaction time may lie past the engine's clock.
    max_clock_skew: timedelta = timedelta(minutes=5)

    @property
    def log(self) -> TransactionLog:
        """The namespace clocks and atomic batch writes."""
        return self.backend

    @property
    def facts(self) -> FactReads:
        """Fact versions by lineage and by basis."""
        return self.backend

    @property
    def reads(self) -> RecallReads:
        """The reads of recall."""
        return self.backend

    @property
    def messages(self) -> MessageLog:
        """Raw messages and the facts remembered from them."""
        return self.backend

    @property
    def erasure(self) -> Erasure:
        """Physical deletion."""
        return self.backend

    @property
    def upkeep(self) -> Upkeep:
        """Operational metadata: uses, archiving, abstraction links, inferred edges, claim keys."""
        return self.backend
