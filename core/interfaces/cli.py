"""`bitemporal-memory`: the command line. Errors print one line and exit non-zero.

Commands that only read (and `forget`, `supersede`, `correct`, `retract`, which need facts to
exist) refuse a store path that does not exist, and create nothing; `remember`, `import`,
`demo` and `mcp` create the store (and its folders) on first use.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bitemporal_core.errors import BitemporalError, InvalidInput
from bitemporal_core.interfaces import mcp as mcp_server
from bitemporal_core.interfaces.commands import COMMANDS
from bitemporal_core.store import MemoryStore

__all__ = ["CREATING", "default_store_path", "main"]

CREATING = frozenset({"demo", "remember", "import", "mcp"})
"""The commands that may create a store that does not exist yet."""

_TIME = "ISO-8601 with a timezone, e.g. 2024-06-05T09:00:00Z"


def default_store_path() -> Path:
    """The store used when `--store` is not given: in the user's data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("bitemporal-memory")) / "store.lbdb"


def _version() -> str:
    from bitemporal_core import __version__

    return f"bitemporal-memory {__version__}"


def _json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")


def _write_options(p: argparse.ArgumentParser, *, speaker: bool = True) -> None:
    p.add_argument("--at", help=f"transaction time (default: now); {_TIME}")
    p.add_argument(
        "--valid-from", help=f"start of validity (default: from the text, else now); {_TIME}"
    )
    p.add_argument("--valid-to", help=f"end of validity, or 'open' for none; {_TIME}")
    if speaker:
        p.add_argument("--speaker", help="who said it (e.g. user)")
    _json(p)


def _fact_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = sub.add_parser("remember", help="remember a statement (one fact per sentence)")
    r.add_argument("text", help="what to remember, as plain sentences")
    _write_options(r)
    s = sub.add_parser("supersede", help="a fact stopped being true: replace it by a new one")
    s.add_argument("fact", help="id of the fact that is no longer true")
    s.add_argument("text", help="what is true instead")
    _write_options(s)
    c = sub.add_parser("correct", help="a fact was recorded wrongly: record a corrected version")
    c.add_argument("fact", help="id of the fact to correct")
    c.add_argument("--text", help="the corrected text (default: unchanged)")
    c.add_argument("--valid-from", help=f"the corrected start of validity; {_TIME}")
    c.add_argument("--valid-to", help=f"the corrected end of validity, or 'open'; {_TIME}")
    c.add_argument("--at", help=f"transaction time (default: now); {_TIME}")
    _json(c)
    x = sub.add_parser("retract", help="a fact was never true: stop believing it (history kept)")
    x.add_argument("fact", help="id of the fact to retract")
    x.add_argument("--at", help=f"transaction time (default: now); {_TIME}")
    _json(x)


def _read_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    _json(sub.add_parser("info", help="show the store, engine, extractor and namespaces"))
    q = sub.add_parser("recall", help="recall the memories valid at a basis")
    q.add_argument("query", help="what to look for, in words")
    q.add_argument("--valid-at", help=f"true at this moment (default: now); {_TIME}")
    q.add_argument("--known-at", help=f"as known at this moment (default: now); {_TIME}")
    q.add_argument("-k", type=int, default=10, help="how many memories at most (default: 10)")
    q.add_argument("--context", action="store_true", help="print the prompt block instead")
    _json(q)
    h = sub.add_parser("history", help="every version of a fact, on both time axes")
    h.add_argument("fact", help="a fact id")
    _json(h)
    t = sub.add_parser("timeline", help="the namespace's fact versions with their intervals")
    t.add_argument("--known-at", help=f"only versions known then (default: all); {_TIME}")
    _json(t)
    v = sub.add_parser("view", help="write the namespace as an HTML page and open it")
    v.add_argument(
        "--output", type=Path, help="the page to write (default: ./bitemporal-memory-NS.html)"
    )
    v.add_argument("--no-open", action="store_true", help="write the page without opening it")
    v.add_argument(
        "--limit", type=int, default=300, help="facts shown, newest first (default: 300)"
    )
    v.add_argument("--concepts", type=int, default=60, help="concepts in the graph (default: 60)")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bitemporal-memory", description="A bitemporal graph memory for LLM agents."
    )
    p.add_argument("--version", action="version", version=_version(), help="show the version")
    p.add_argument("--store", type=Path, help="embedded store path (default: user data dir)")
    p.add_argument("--memory", action="store_true", help="use an in-memory store")
    p.add_argument(
        "--keys",
        type=Path,
        help="folder of the namespaces' keys: the store holds their texts sealed (README)",
    )
    p.add_argument(
        "--read-only",
        action="store_true",
        help="open the store for reading only (writing commands then fail, nothing changes)",
    )
    p.add_argument(
        "-n",
        "--namespace",
        default="default",
        help="namespace of every command, fact ids too (default: default)",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser(
        "demo", help="replay a short conversation and show recall at several bases"
    )
    demo.add_argument(
        "--lang", choices=["en", "zh"], default="en", help="the conversation's language"
    )
    _fact_commands(sub)
    _read_commands(sub)
    f = sub.add_parser("forget", help="physically delete a namespace or a fact")
    f.add_argument("--fact", help="forget one fact (default: the whole namespace)")
    i = sub.add_parser("import", help="import a JSONL file of messages")
    i.add_argument("file", type=Path, help='one message a line: {"text", "at", "speaker"?, "id"?}')
    _json(i)
    e = sub.add_parser("export", help="export every fact version as JSONL")
    e.add_argument("--output", type=Path, help="file to write (default: stdout)")
    mcp_server.add_parser(sub)
    return p


def _open_store(args: argparse.Namespace) -> MemoryStore:
    """The store of this run; a path that does not exist is refused unless the command
    creates (then the store and its folders are made)."""
    if args.memory:
        if args.read_only:
            raise InvalidInput("--read-only needs a store file, not --memory")
        return MemoryStore.embedded(None, keys=args.keys)
    path: Path = args.store or default_store_path()
    if args.command not in CREATING and not path.exists():
        raise InvalidInput(
            f"no store at {path} (nothing remembered there yet; `remember` or `import` creates it)"
        )
    return MemoryStore.embedded(path, read_only=args.read_only, keys=args.keys)


def _checked(args: argparse.Namespace) -> None:
    for name in ("k", "limit", "concepts"):
        value = getattr(args, name, None)
        if value is not None and value < 1:
            raise InvalidInput(f"--{name} must be at least 1, not {value}")


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 error, 2 usage)."""
    args = _parser().parse_args(argv)
    command = mcp_server.command if args.command == "mcp" else COMMANDS[args.command]
    try:
        _checked(args)
        with _open_store(args) as store:
            return command(store, args, out or sys.stdout)
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
