"""`bitemporal-memory`: the command line. Errors print one line and exit non-zero."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from bitemporal_core.common.times import parse_time
from bitemporal_core.errors import BitemporalError, InvalidInput
from bitemporal_core.interfaces import mcp as mcp_server
from bitemporal_core.model import Basis, Fact
from bitemporal_core.store import MemoryStore
from bitemporal_core.views.prompt import format_line

__all__ = ["default_store_path", "main"]

_CHUNK = 500  # messages per transaction on import


def default_store_path() -> Path:
    """The store used when `--store` is not given: in the user's data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("bitemporal-memory")) / "store.lbdb"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bitemporal-memory", description="A bitemporal graph memory for LLM agents."
    )
    p.add_argument("--store", type=Path, help="embedded store path (default: user data dir)")
    p.add_argument("--memory", action="store_true", help="use an in-memory store")
    p.add_argument("-n", "--namespace", default="default", help="namespace (default: default)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser(
        "demo", help="replay a short conversation and show recall at several bases"
    )
    demo.add_argument(
        "--lang", choices=["en", "zh"], default="en", help="the conversation's language"
    )
    sub.add_parser("info", help="show the store, engine, extractor and namespaces in use")
    r = sub.add_parser("remember", help="remember a statement")
    r.add_argument("text")
    r.add_argument("--at", help="transaction time, ISO-8601 with timezone (default: now)")
    r.add_argument("--valid-from")
    r.add_argument("--valid-to")
    r.add_argument("--speaker")
    q = sub.add_parser("recall", help="recall memories valid at a basis")
    q.add_argument("query")
    q.add_argument("--valid-at")
    q.add_argument("--known-at")
    q.add_argument("-k", type=int, default=10)
    q.add_argument("--context", action="store_true", help="print the prompt block instead")
    h = sub.add_parser("history", help="every version of a fact")
    h.add_argument("fact")
    t = sub.add_parser("timeline", help="facts with their valid intervals")
    t.add_argument("--known-at")
    f = sub.add_parser("forget", help="physically delete a namespace or a fact")
    f.add_argument("--fact", help="forget one fact (default: the whole namespace)")
    i = sub.add_parser("import", help="import a JSONL file of messages")
    i.add_argument("file", type=Path)
    e = sub.add_parser("export", help="export every fact version as JSONL")
    e.add_argument("--output", type=Path, help="file to write (default: stdout)")
    mcp_server.add_parser(sub)
    return p


def _time(value: str | None, name: str) -> Any:
    return None if value is None else parse_time(value, name)


def _open_store(args: argparse.Namespace) -> MemoryStore:
    if args.memory:
        return MemoryStore.embedded(None)
    return MemoryStore.embedded(args.store or default_store_path())


def _print_fact(fact: Fact, out: TextIO) -> None:
    print(f"{fact.id}  {format_line(fact)}", file=out)


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


def _import(store: MemoryStore, path: Path, namespace: str, out: TextIO) -> int:
    """Bulk-remember every message of a JSONL file, a chunk per transaction, with progress."""
    from tqdm import tqdm

    rows = _read_jsonl(path)
    count = 0
    step = 10 * _CHUNK  # a call of 5,000 messages starts the analysis process (see _pool)
    with tqdm(total=len(rows), desc="import", unit="msg", file=sys.stderr) as bar:
        for start in range(0, len(rows), step):
            part = rows[start : start + step]
            facts = store.remember_many(part, namespace=namespace, chunk=_CHUNK)
            count += sum(len(f) for f in facts)
            bar.update(len(part))
    print(f"imported {count} facts from {len(rows)} messages", file=out)
    return 0


def _rows(store: MemoryStore, namespace: str) -> Iterator[str]:
    for fact in store.timeline(namespace):
        yield json.dumps(fact.to_dict(), ensure_ascii=False)


def _demo(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    from bitemporal_core.interfaces.demo import run_demo

    run_demo(store, echo=lambda s: print(s, file=out), language=args.lang)
    return 0


def _info(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    print(store.describe(), file=out)
    print("namespaces: " + (", ".join(store.namespaces()) or "(none)"), file=out)
    return 0


def _remember(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    extra = {} if args.valid_to is None else {"valid_to": _time(args.valid_to, "--valid-to")}
    facts = store.remember(
        args.text,
        namespace=args.namespace,
        at=_time(args.at, "--at"),
        valid_from=_time(args.valid_from, "--valid-from"),
        speaker=args.speaker,
        **extra,
    )
    for fact in facts:
        _print_fact(fact, out)
    return 0


def _recall(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    basis = Basis(
        valid_at=_time(args.valid_at, "--valid-at"), known_at=_time(args.known_at, "--known-at")
    )
    if args.context:
        print(store.context(args.query, namespace=args.namespace, basis=basis), file=out)
        return 0
    hits = store.recall(args.query, namespace=args.namespace, basis=basis, k=args.k)
    for hit in hits:
        print(f"{hit.score:.4f}  {hit.fact.id}  {format_line(hit.fact)}", file=out)
    if not hits:
        print("(no memories valid at this basis)", file=out)
    return 0


def _history(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    for v in store.history(args.fact):
        print(json.dumps(v.to_dict(), ensure_ascii=False), file=out)
    return 0


def _timeline(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    for v in store.timeline(args.namespace, known_at=_time(args.known_at, "--known-at")):
        _print_fact(v, out)
    return 0


def _forget(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    n = store.forget(fact=args.fact) if args.fact else store.forget(namespace=args.namespace)
    print(f"forgot {n} nodes", file=out)
    return 0


def _export(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    text = "".join(row + "\n" for row in _rows(store, args.namespace))
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return 0


def _import_command(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    return _import(store, args.file, args.namespace, out)


COMMANDS = {
    "demo": _demo,
    "info": _info,
    "remember": _remember,
    "recall": _recall,
    "history": _history,
    "timeline": _timeline,
    "forget": _forget,
    "import": _import_command,
    "export": _export,
    "mcp": mcp_server.command,
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 error, 2 usage)."""
    args = _parser().parse_args(argv)
    try:
        with _open_store(args) as store:
            return COMMANDS[args.command](store, args, out or sys.stdout)
    except BitemporalError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {e.strerror or e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
