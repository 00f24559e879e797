"""Storage engines behind one port: LadybugDB (embedded, default) and Neo4j.

Engine modules import their driver lazily, so importing this package needs neither.
"""

from __future__ import annotations

from ._port import (
    Backend,
    Clock,
    ConceptEdge,
    NewFact,
    NewMessage,
    NewVersion,
    WriteBatch,
    WriteResult,
)

__all__ = [
    "Backend",
    "Clock",
    "ConceptEdge",
    "NewFact",
    "NewMessage",
    "NewVersion",
    "WriteBatch",
    "WriteResult",
]
