"""The long-conversation development set, the two plain baselines and the scoring.

Shared by `longconv.py` (the benchmark run and its report) and `longconv_tune.py` (the weight
search on the tuning split). The data format is in `conversations/README.md`.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from bitemporal_core import MemoryStore
from bitemporal_core.language.extract import content_terms
from bitemporal_core.ranking import bm25

HERE = Path(__file__).resolve().parent
CONVERSATIONS = HERE / "conversations"
TUNING = ("aria-ben", "lena-omar", "priya-jonas", "mei-daniel")
CHECK = ("kai-sofia", "rosa-felix")
CATEGORIES = ("single-hop", "multi-hop", "temporal", "open-domain")
KS = (5, 10, 20)
TURN_GAP = timedelta(seconds=5)  # between two turns of a session


@dataclass(frozen=True)
class TurnRow:
    """One turn with the time it is remembered at."""

    id: str
    speaker: str
    text: str
    session: int
    at: datetime

    @property
    def document(self) -> str:
        """What the plain baselines index: "speaker: text"."""
        return f"{self.speaker}: {self.text}"


@dataclass(frozen=True)
class Question:
    id: str
    category: str
    question: str
    evidence: tuple[str, ...]
    answer_date: date | None


@dataclass
class Conversation:
    id: str
    speakers: tuple[str, ...]
    turns: list[TurnRow]
    questions: list[Question]
    session_dates: dict[int, date] = field(default_factory=dict)

    @property
    def split(self) -> str:
        return "tuning" if self.id in TUNING else "check"


def load(names: Iterable[str] = TUNING + CHECK, folder: Path = CONVERSATIONS) -> list[Conversation]:
    """The conversations, in the order given, each turn timed from its session's start."""
    out = []
    for name in names:
        raw = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        turns, dates = [], {}
        for session in raw["sessions"]:
            start = datetime.fromisoformat(session["date_time"]).replace(tzinfo=UTC)
            dates[session["session"]] = start.date()
            for i, turn in enumerate(session["turns"]):
                turns.append(
                    TurnRow(
                        id=turn["id"],
                        speaker=turn["speaker"],
                        text=turn["text"],
                        session=session["session"],
                        at=start + i * TURN_GAP,
                    )
                )
        questions = [
            Question(
                id=q["id"],
                category=q["category"],
                question=q["question"],
                evidence=tuple(q["evidence"]),
                answer_date=date.fromisoformat(q["answer_date"]) if q.get("answer_date") else None,
            )
            for q in raw["questions"]
        ]
        out.append(Conversation(raw["id"], tuple(raw["speakers"]), turns, questions, dates))
    return out


# --- feeding the memory ----------------------------------------------------------------------
def remember_all(store: MemoryStore, conv: Conversation) -> int:
    """Every turn through the public API, one `remember` per turn at its own time; the number
    of facts written (a memory that keeps small talk as messages only writes fewer)."""
    written = 0
    for turn in conv.turns:
        facts = store.remember(
            turn.text,
            namespace=conv.id,
            at=turn.at,
            speaker=turn.speaker,
            source=turn.id,
            session=f"session-{turn.session}",
        )
        written += len(facts)
    return written


# --- plain baselines over the turns ------------------------------------------------------------
class PlainBM25:
    """BM25 (k1 1.2, b 0.75) over "speaker: text" turns, the project's stemmed content words."""

    def __init__(self, turns: Sequence[TurnRow]) -> None:
        self._ids = [t.id for t in turns]
        self._terms = [Counter(content_terms(t.document)) for t in turns]
        self._df: Counter[str] = Counter()
        for terms in self._terms:
            self._df.update(terms.keys())
        self._avg = sum(sum(t.values()) for t in self._terms) / max(len(self._terms), 1)

    def search(self, query: str, k: int) -> list[str]:
        wanted = set(content_terms(query))
        rows = [
            (self._ids[i], sum(terms.values()), term, tf)
            for i, terms in enumerate(self._terms)
            for term, tf in terms.items()
            if term in wanted
        ]
        df = {t: self._df[t] for t in wanted if self._df[t]}
        scores = bm25.score(rows, df, len(self._ids), self._avg)
        return sorted(scores, key=lambda i: (-scores[i], i))[:k]


class PlainDense:
    """Cosine between the question's embedding and each "speaker: text" turn's."""

    def __init__(self, turns: Sequence[TurnRow], embed: Callable[[list[str]], Any]) -> None:
        self._ids = [t.id for t in turns]
        self._matrix = np.asarray(embed([t.document for t in turns]), np.float32)
        self._matrix /= np.linalg.norm(self._matrix, axis=1, keepdims=True)

    def search(self, vector: Sequence[float], k: int) -> list[str]:
        query = np.asarray(vector, np.float32)
        scores = self._matrix @ (query / np.linalg.norm(query))
        order = np.argsort(-scores, kind="stable")[:k]
        return [self._ids[i] for i in order]


# --- scoring ---------------------------------------------------------------------------------
@dataclass
class Answer:
    """What one system returned for one question: turn ids in rank order (repeats removed
    after the first) and the days its top five results name."""

    system: str
    question: Question
    conversation: str
    turns_at: dict[int, list[str]]  # k -> distinct turn ids among the top k results
    days: set[date]  # days of the top five results (valid_from for ours, session for plain)

    def recall(self, k: int) -> float:
        found = set(self.turns_at[k])
        return sum(e in found for e in self.question.evidence) / len(self.question.evidence)

    def hit(self, k: int) -> bool:
        return bool(set(self.turns_at[k]) & set(self.question.evidence))

    @property
    def day_exact(self) -> bool | None:
        """For a "when" question pinned to a day: is that day among the top five's days."""
        q = self.question
        if q.category != "temporal" or q.answer_date is None:
            return None
        return q.answer_date in self.days


def distinct(ids: Iterable[str | None]) -> list[str]:
    return [i for i in dict.fromkeys(ids) if i is not None]


def plain_answer(system: str, conv: Conversation, q: Question, ranked: list[str]) -> Answer:
    """An answer of a plain baseline: each result is one turn, its day the session's."""
    session = {t.id: t.session for t in conv.turns}
    days = {conv.session_dates[session[i]] for i in ranked[:5]}
    return Answer(system, q, conv.id, {k: ranked[:k] for k in KS}, days)


def memory_answer(system: str, conv: Conversation, q: Question, hits: Sequence[Any]) -> Answer:
    """An answer of the memory: the turns its top k hits came from, days from valid time."""
    turns = {k: distinct(h.fact.source for h in hits[:k]) for k in KS}
    days = {h.fact.valid_from.date() for h in hits[:5]}
    return Answer(system, q, conv.id, turns, days)


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else math.nan
