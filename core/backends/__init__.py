"""Storage engines behind one port (`port`): LadybugDB (embedded, default) and Neo4j.

`base.CypherBackend` holds what both engines share (statements in `cypher`, row mapping in
`rows`, batch merging in `merge`); each engine's folder keeps only what differs. Engine
modules import their driver lazily, so importing this package needs neither.
"""

from __future__ import annotations

from bitemporal_core.backends.port import (
    ALL,
    Backend,
    Clock,
    Erasure,
    FactReads,
    MessageLog,
    NewFact,
    NewMessage,
    NewVersion,
    RecallFilter,
    RecallReads,
    RecallScope,
    TransactionLog,
    Upkeep,
    WriteBatch,
    WriteResult,
)

__all__ = [
    "ALL",
    "Backend",
    "Clock",
    "Erasure",
    "FactReads",
    "MessageLog",
    "NewFact",
    "NewMessage",
    "NewVersion",
    "RecallFilter",
    "RecallReads",
    "RecallScope",
    "TransactionLog",
    "Upkeep",
    "WriteBatch",
    "WriteResult",
]
