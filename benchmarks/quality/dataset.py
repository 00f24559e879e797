"""The quality benchmark's dataset: conversations of turns and questions read from
`data/*.jsonl` (English, and Chinese in `zh_*`), filler blocks expanded into seeded small talk.
Used by `run.py`, `lifecycle.py` and `stream.py`."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = [
    "DATA",
    "LANGS",
    "Conversation",
    "Question",
    "Turn",
    "check",
    "filler_texts",
    "load",
    "parse_time",
]

DATA = Path(__file__).resolve().parent / "data"
LANGS = ("en", "zh")


@dataclass
class Turn:
    """One user message and the memory operation a library user would make of it."""

    id: str
    op: str  # say | supersede | correct | retract
    at: datetime
    text: str | None = None  # the fact text recorded (say, supersede, correct with text)
    message: str | None = None  # what the user literally said, if it differs from `text`
    of: str | None = None  # the turn whose fact this one supersedes, corrects or retracts
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    filler: bool = False

    @property
    def said(self) -> str:
        """The raw message (what a plain message memory stores)."""
        return self.message or self.text or ""


@dataclass
class Question:
    id: str
    category: str
    text: str
    valid_at: datetime
    known_at: datetime
    expect: list[str]  # turn ids whose memory must be in the context
    stale: list[str]  # turn ids whose memory must be absent or marked past


@dataclass
class Conversation:
    id: str
    lang: str = "en"  # "zh" for the files named zh_*.jsonl
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def parse_time(value: str) -> datetime:
    """An ISO time without zone, read as UTC."""
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def _opt_time(value: str | None) -> datetime | None:
    return None if value is None else parse_time(value)


def filler_texts(n: int, seed: int, spec: dict[str, Any]) -> list[str]:
    """`n` small-talk messages: a seeded RNG picks a template, then a value per slot."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        template = rng.choice(spec["templates"])
        text = re.sub(r"\{(\w+)\}", lambda m: rng.choice(spec["slots"][m.group(1)]), template)
        out.append(text[0].upper() + text[1:])
    return out


def _turn(event: dict[str, Any]) -> Turn:
    return Turn(
        id=event["id"],
        op=event["op"],
        at=parse_time(event["at"]),
        text=event.get("text"),
        message=event.get("message"),
        of=event.get("of"),
        valid_from=_opt_time(event.get("valid_from")),
        valid_to=_opt_time(event.get("valid_to")),
    )


def _question(event: dict[str, Any]) -> Question:
    return Question(
        id=event["id"],
        category=event["category"],
        text=event["text"],
        valid_at=parse_time(event["valid_at"]),
        known_at=parse_time(event["known_at"]),
        expect=list(event["expect"]),
        stale=list(event["stale"]),
    )


def _spread(conv: str, block: dict[str, Any], start: datetime, end: datetime, spec: Any) -> list:
    """A filler block: its messages evenly spaced (whole seconds) strictly between two times;
    from the filler file the block names (`file`), else `filler.json`."""
    texts = filler_texts(block["n"], block["seed"], spec[block.get("file", "filler.json")])
    step = (end - start) / (len(texts) + 1)
    return [
        Turn(
            id=f"{conv}-f{block['seed']}-{i:03d}",
            op="say",
            at=(start + step * (i + 1)).replace(microsecond=0),
            text=text,
            filler=True,
        )
        for i, text in enumerate(texts)
    ]


def _build(
    conv: str, lang: str, events: list[dict[str, Any]], spec: dict[str, Any]
) -> Conversation:
    """A conversation from its events, filler blocks expanded between their neighbours."""
    out = Conversation(conv, lang)
    pending: dict[str, Any] | None = None
    for event in events:
        if event["op"] == "filler":
            pending = event
        elif event["op"] == "ask":
            out.questions.append(_question(event))
        else:
            turn = _turn(event)
            if pending is not None:
                out.turns.extend(_spread(conv, pending, out.turns[-1].at, turn.at, spec))
                pending = None
            out.turns.append(turn)
    if pending is not None:
        until = parse_time(pending["until"])
        out.turns.extend(_spread(conv, pending, out.turns[-1].at, until, spec))
    return out


def load(data: Path, langs: Iterable[str] = LANGS) -> list[Conversation]:
    """Every conversation of the question files in `data` (English `*.jsonl`, Chinese
    `zh_*.jsonl`; not the stream-mode `stream_*` files), in file order."""
    spec = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in data.glob("filler*.json")}
    events: dict[str, list[dict[str, Any]]] = {}
    lang_of: dict[str, str] = {}
    for path in sorted(data.glob("*.jsonl")):
        lang = "zh" if path.name.startswith("zh_") else "en"
        if path.name.startswith("stream_") or lang not in langs:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                event = json.loads(line)
                events.setdefault(event["conv"], []).append(event)
                lang_of[event["conv"]] = lang
    return [_build(conv, lang_of[conv], evs, spec) for conv, evs in events.items()]


def check(convs: list[Conversation]) -> list[str]:
    """Problems in the dataset (a benchmark does not stop on them; it prints them)."""
    problems = []
    for conv in convs:
        turns = {t.id: t for t in conv.turns}
        times = [t.at for t in conv.turns]
        if times != sorted(times) or len(set(times)) != len(times):
            problems.append(f"{conv.id}: turn times are not strictly increasing")
        for q in conv.questions:
            for ref in q.expect + q.stale:
                if ref not in turns or not turns[ref].text:
                    problems.append(f"{q.id}: {ref} is not a turn with a memory text")
            for s in q.stale:
                for e in q.expect:
                    if s in turns and e in turns and (turns[s].said in turns[e].said):
                        problems.append(f"{q.id}: stale {s} is a substring of expected {e}")
    return problems
