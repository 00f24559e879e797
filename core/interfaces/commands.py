"""The commands of `bitemporal-memory`: each takes the open store, the parsed arguments and the
output stream, prints text (or one JSON document with `--json`) and returns the exit status.

Every command works in one namespace (`-n`, default "default"): the fact commands act through
`store.scope(namespace)`, so a fact of another namespace is reported as unknown there."""

from __future__ import annotations

import argparse
import json
import sys
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from bitemporal_core.common.times import parse_time
from bitemporal_core.errors import InvalidInput
from bitemporal_core.interfaces.shapes import (
    basis_json,
    concept_displays,
    hit_json,
    lineage_json,
    lineage_text,
)
from bitemporal_core.model import UNSET, Basis, Fact
from bitemporal_core.store import MemoryStore
from bitemporal_core.views.page import render_page
from bitemporal_core.views.prompt import format_line
from bitemporal_core.views.timeline import Timeline

__all__ = ["COMMANDS", "Command"]

Command = Callable[[MemoryStore, argparse.Namespace, TextIO], int]
_CHUNK = 500  # messages per transaction on import


def _time(value: str | None, name: str) -> Any:
    return None if value is None else parse_time(value, name)


def _end(value: str | None, name: str) -> Any:
    """An optional end: not given is UNSET (keep or infer), "open" is None (no end)."""
    if value is None:
        return UNSET
    return None if value.strip().lower() == "open" else parse_time(value, name)


def _dump(data: Any, out: TextIO) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2), file=out)


def _facts_out(facts: list[Fact], args: argparse.Namespace, out: TextIO) -> int:
    if args.json:
        _dump({"facts": [f.to_dict() for f in facts]}, out)
    else:
        for fact in facts:
            print(f"{fact.id}  {format_line(fact)}", file=out)
    return 0


def _demo(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    from bitemporal_core.interfaces.demo import run_demo

    run_demo(store, echo=lambda s: print(s, file=out), language=args.lang)
    return 0


def _info(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    namespaces = store.namespaces()
    if args.json:
        _dump({"store": store.describe(), "namespaces": namespaces}, out)
        return 0
    print(store.describe(), file=out)
    print("namespaces: " + (", ".join(namespaces) or "(none)"), file=out)
    return 0


def _remember(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    facts = store.remember(
        args.text,
        namespace=args.namespace,
        at=_time(args.at, "--at"),
        valid_from=_time(args.valid_from, "--valid-from"),
        valid_to=_end(args.valid_to, "--valid-to"),
        speaker=args.speaker,
    )
    return _facts_out(facts, args, out)


def _supersede(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    new = store.scope(args.namespace).supersede(
        args.fact,
        args.text,
        at=_time(args.at, "--at"),
        valid_from=_time(args.valid_from, "--valid-from"),
        valid_to=_end(args.valid_to, "--valid-to"),
        speaker=args.speaker,
    )
    return _facts_out([new], args, out)


def _correct(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    if args.text is None and args.valid_from is None and args.valid_to is None:
        raise InvalidInput("correct needs --text, --valid-from or --valid-to")
    fixed = store.scope(args.namespace).correct(
        args.fact,
        text=args.text,
        valid_from=_time(args.valid_from, "--valid-from"),
        valid_to=_end(args.valid_to, "--valid-to"),
        at=_time(args.at, "--at"),
    )
    return _facts_out([fixed], args, out)


def _retract(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    closed = store.scope(args.namespace).retract(args.fact, at=_time(args.at, "--at"))
    return _facts_out([closed], args, out)


def _recall(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    basis = Basis(
        valid_at=_time(args.valid_at, "--valid-at"), known_at=_time(args.known_at, "--known-at")
    ).resolved()
    if args.context:
        block = store.context(args.query, namespace=args.namespace, basis=basis)
        _dump({"context": block, **basis_json(basis)}, out) if args.json else print(block, file=out)
        return 0
    hits = store.recall(args.query, namespace=args.namespace, basis=basis, k=args.k)
    displays = concept_displays(store, args.namespace, hits)
    if args.json:
        rows = [hit_json(h, displays) for h in hits]
        _dump({"namespace": args.namespace, **basis_json(basis), "hits": rows}, out)
        return 0
    for hit in hits:
        found = ", ".join(displays.get(k, k) for k in hit.concepts)
        about = f"  [{found}]" if found else ""
        print(f"{hit.score:.4f}  {hit.fact.id}  {format_line(hit.fact)}{about}", file=out)
    if not hits:
        print("(no memories valid at this basis)", file=out)
    return 0


def _history(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    lineage = store.scope(args.namespace).history(args.fact)
    if args.json:
        _dump(lineage_json(lineage), out)
    else:
        print(lineage_text(lineage), file=out)
    return 0


def _timeline(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    versions = list(store.timeline(args.namespace, known_at=_time(args.known_at, "--known-at")))
    if args.json:
        _dump({"namespace": args.namespace, "versions": [v.to_dict() for v in versions]}, out)
        return 0
    for v in versions:
        state = "" if v.is_current else "  (no longer believed)"
        print(f"{v.id}  {format_line(v)}{state}", file=out)
    return 0


def _forget(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    memory = store.scope(args.namespace)
    n = memory.forget(fact=args.fact) if args.fact else memory.forget(everything=True)
    print(f"forgot {n} nodes", file=out)
    return 0


def _rows(store: MemoryStore, namespace: str) -> Iterator[str]:
    for fact in store.timeline(namespace):
        yield json.dumps(fact.to_dict(), ensure_ascii=False)


def _export(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    text = "".join(row + "\n" for row in _rows(store, args.namespace))
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return 0


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Messages of a JSONL file: {"text", "at", "speaker"?, "id"?, "session"?}, validated."""
    if not path.is_file():
        raise InvalidInput(f"no such file: {path}")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            item = {"text": row["text"], "at": parse_time(row["at"], "at")}
        except (ValueError, KeyError, TypeError) as e:
            raise InvalidInput(f'{path}:{number}: expected {{"text", "at"}}: {e}') from e
        item.update({k: row[k] for k in ("speaker", "id", "session") if row.get(k) is not None})
        rows.append(item)
    return rows


def _import(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    """Bulk-remember every message of a JSONL file, a chunk per transaction, with progress;
    report the facts written and the messages skipped as already remembered."""
    from tqdm import tqdm

    rows = _read_jsonl(args.file)
    before = {v.version_id for v in store.timeline(args.namespace)}
    written = skipped = 0
    step = 10 * _CHUNK  # a call of 5,000 messages starts the analysis process (see _pool)
    with tqdm(total=len(rows), desc="import", unit="msg", file=sys.stderr) as bar:
        for start in range(0, len(rows), step):
            part = rows[start : start + step]
            for facts in store.remember_many(part, namespace=args.namespace, chunk=_CHUNK):
                new = [f for f in facts if f.version_id not in before]
                written += len(new)
                skipped += bool(facts) and not new
            bar.update(len(part))
    report = {"messages": len(rows), "facts_written": written, "messages_skipped": skipped}
    if args.json:
        _dump(report, out)
    else:
        print(
            f"imported {len(rows)} messages: wrote {written} facts, skipped {skipped} "
            "messages already remembered",
            file=out,
        )
    return 0


def _view(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    """Write the namespace's page (timeline and concept graph) and open it."""
    ns = args.namespace
    versions = list(store.timeline(ns))
    newest = sorted(versions, key=lambda v: v.recorded_at, reverse=True)
    recent = list(dict.fromkeys(v.id for v in newest))
    kept = set(recent[: args.limit])
    note = ""
    if len(recent) > args.limit:
        note = f"Showing the {args.limit} most recently recorded of {len(recent)} facts."
    concepts = store.concepts(ns, limit=args.concepts)
    keys = [c.key for c in concepts]
    _, edges = store.concept_graph(keys, namespace=ns) if keys else ([], [])
    inferred = store.relationships(ns, keys=keys) if keys else []
    timeline = Timeline(namespace=ns, versions=tuple(v for v in versions if v.id in kept))
    page = render_page(timeline, concepts=concepts, edges=edges, inferred=inferred, note=note)
    path: Path = args.output or Path(f"bitemporal-memory-{_safe(ns)}.html")
    path.write_text(page, encoding="utf-8")
    print(f"wrote {path}", file=out)
    if not args.no_open:
        webbrowser.open(path.resolve().as_uri())
    return 0


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)[:80]


COMMANDS: dict[str, Command] = {
    "demo": _demo,
    "info": _info,
    "remember": _remember,
    "supersede": _supersede,
    "correct": _correct,
    "retract": _retract,
    "recall": _recall,
    "history": _history,
    "timeline": _timeline,
    "forget": _forget,
    "import": _import,
    "export": _export,
    "view": _view,
}
