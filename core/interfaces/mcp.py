"""`bitemporal-memory mcp`: the memory as a Model Context Protocol server, for any MCP client.

Tools: `remember`, `recall` (at `valid_at` / `known_at`, ISO-8601), `history`, `timeline`,
`supersede`, `correct`, `retract`, `forget`. Results are JSON objects, facts as `Fact.to_dict()`;
a recalled memory also names the concepts that found it, by their display forms.

- **Namespace.** Every tool that reads or writes a namespace takes it as an argument (default
  `"default"`), unless the server was started with a fixed namespace (`--namespace NS`): then no
  tool offers the argument, and the tools given a fact id refuse a fact of another namespace as
  unknown: they act through the store's handle on that namespace (`store.scope(NS)`, see
  `_Tools.facts`), which refuses before anything is written.
- **Errors.** The store's refusals (`BitemporalError`: a bad date, an empty text, an unknown or
  closed fact...) come back as MCP tool errors carrying the store's message. Anything else is
  reported by the SDK as `Error executing tool NAME`: never a traceback.
- **Transports.** stdio by default; streamable HTTP with `--port` (`--host`, default 127.0.0.1;
  endpoint `/mcp`).

Built on the official MCP Python SDK (`pip install 'bitemporal-memory[mcp]'`), imported only when
a server is built, so the core does not need it. Uses the package's public API only. Tools are
plain functions, which the SDK runs on worker threads: the server's event loop never blocks.
"""

import argparse
import functools
import inspect
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, TextIO

from bitemporal_core import (  # the package's public API only
    UNSET,
    Basis,
    BitemporalError,
    ConfigurationError,
    Fact,
    InvalidInput,
    MemoryStore,
    ScopedStore,
)
from bitemporal_core.interfaces.shapes import concept_displays, hit_json, lineage_json

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["TOOL_NAMES", "add_parser", "build_server", "command", "serve"]

TOOL_NAMES = (
    "remember",
    "recall",
    "history",
    "timeline",
    "supersede",
    "correct",
    "retract",
    "forget",
)

_INSTRUCTIONS = (
    "A bitemporal memory. Every fact has a valid time (when it is true in the world) and a "
    "transaction time (when the memory learned it). `recall` finds what is true now, or at "
    "`valid_at` as known at `known_at`. When something stops being true use `supersede`; when "
    "it was recorded wrongly, `correct`; when it was never true, `retract` (history is kept). "
    "`forget` deletes for good. Times are ISO-8601, UTC when no zone is given."
)

ToolFunction = Callable[..., dict[str, Any]]


def _time(value: str | None, name: str) -> datetime | None:
    """An aware datetime from an ISO-8601 string (UTC if it has no zone)."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError as e:
        raise InvalidInput(f"{name} is not an ISO-8601 date or time: {repr(value)[:60]}") from e
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _facts(facts: list[Fact]) -> list[dict[str, Any]]:
    return [f.to_dict() for f in facts]


class _Tools:
    """What the tools share: the store, and the fixed namespace if any."""

    def __init__(self, store: MemoryStore, namespace: str | None) -> None:
        self.store = store
        self.fixed = namespace

    def ns(self, namespace: str) -> str:
        """The namespace a call works in: the fixed one, else the argument."""
        return self.fixed if self.fixed is not None else namespace

    def facts(self) -> MemoryStore | ScopedStore:
        """What the fact-id tools act on: with a fixed namespace, the store's handle on it
        (`store.scope`: another namespace's fact is unknown there, and nothing is written);
        else the whole store."""
        return self.store if self.fixed is None else self.store.scope(self.fixed)


def _reported(func: ToolFunction) -> ToolFunction:
    """The store's refusals as MCP tool errors with the store's message."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
        try:
            return func(*args, **kwargs)
        except BitemporalError as e:
            raise ToolError(str(e)) from e

    return run


def _without(func: ToolFunction, parameter: str) -> ToolFunction:
    """The function as a tool whose schema lacks one parameter (its default is used)."""
    signature = inspect.signature(func, eval_str=True)
    kept = [p for p in signature.parameters.values() if p.name != parameter]

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
        return func(*args, **kwargs)

    run.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    return run


def _write_tools(t: _Tools) -> list[ToolFunction]:
    """remember, supersede, correct."""
    from pydantic import Field

    namespace_arg = Annotated[str, Field(description="Memory namespace: one per user or agent.")]
    fact_arg = Annotated[str, Field(description="A fact id, as returned by remember or recall.")]
    time_arg = Annotated[str | None, Field(description="ISO-8601 date or time (UTC if no zone).")]

    def remember(
        text: Annotated[str, Field(description="What to remember, as plain sentences.")],
        namespace: namespace_arg = "default",
        valid_from: time_arg = None,
        valid_to: time_arg = None,
    ) -> dict[str, Any]:
        """Remember new facts (one per statement). Valid from `valid_from`, else from a date
        in the text ("next month"), else from now; until `valid_to` if given."""
        facts = t.store.remember(
            text,
            namespace=t.ns(namespace),
            valid_from=_time(valid_from, "valid_from"),
            valid_to=UNSET if valid_to is None else _time(valid_to, "valid_to"),
        )
        return {"facts": _facts(facts)}

    def supersede(
        fact_id: fact_arg,
        text: Annotated[str, Field(description="What is true instead, as a plain sentence.")],
        valid_from: time_arg = None,
    ) -> dict[str, Any]:
        """A fact stopped being true and something else is true instead, from `valid_from`
        (default now): the old fact's validity ends there, its history is kept."""
        new = t.facts().supersede(fact_id, text, valid_from=_time(valid_from, "valid_from"))
        return {"superseded": fact_id, "fact": new.to_dict()}

    def correct(
        fact_id: fact_arg,
        text: Annotated[str | None, Field(description="The corrected text, if wrong.")] = None,
        valid_from: time_arg = None,
        valid_to: time_arg = None,
    ) -> dict[str, Any]:
        """A fact was recorded wrongly (text or dates): record a corrected version of it. What
        was believed before stays in its history."""
        fixed = t.facts().correct(
            fact_id,
            text=text,
            valid_from=_time(valid_from, "valid_from"),
            valid_to=UNSET if valid_to is None else _time(valid_to, "valid_to"),
        )
        return {"fact": fixed.to_dict()}

    return [remember, supersede, correct]


def _read_tools(t: _Tools) -> list[ToolFunction]:
    """recall, history, timeline."""
    from pydantic import Field

    namespace_arg = Annotated[str, Field(description="Memory namespace: one per user or agent.")]
    time_arg = Annotated[str | None, Field(description="ISO-8601 date or time (UTC if no zone).")]

    def recall(
        query: Annotated[str, Field(description="What to look for, in words.")],
        namespace: namespace_arg = "default",
        valid_at: time_arg = None,
        known_at: time_arg = None,
        k: Annotated[int, Field(description="How many facts at most.")] = 10,
    ) -> dict[str, Any]:
        """The facts most relevant to the query that are true at `valid_at` (default now), as
        the memory knew them at `known_at` (default now), best first."""
        basis = Basis(
            valid_at=_time(valid_at, "valid_at"), known_at=_time(known_at, "known_at")
        ).resolved()
        ns = t.ns(namespace)
        hits = t.store.recall(query, namespace=ns, basis=basis, k=k)
        displays = concept_displays(t.store, ns, hits)
        assert basis.valid_at is not None and basis.known_at is not None
        return {
            "namespace": ns,
            "valid_at": basis.valid_at.isoformat(),
            "known_at": basis.known_at.isoformat(),
            "hits": [hit_json(h, displays) for h in hits],
        }

    def history(
        fact_id: Annotated[str, Field(description="A fact id.")],
    ) -> dict[str, Any]:
        """Every version of a fact, oldest first: when each was true, when it was believed,
        and what it replaced or was replaced by."""
        return lineage_json(t.facts().history(fact_id))

    def timeline(namespace: namespace_arg = "default", known_at: time_arg = None) -> dict[str, Any]:
        """The namespace's fact versions with their valid intervals: as known at `known_at`,
        or every version ever recorded if not given."""
        ns = t.ns(namespace)
        versions = t.store.timeline(ns, known_at=_time(known_at, "known_at"))
        return {"namespace": ns, "versions": _facts(list(versions))}

    return [recall, history, timeline]


def _closing_tools(t: _Tools) -> list[ToolFunction]:
    """retract, forget."""
    from pydantic import Field

    namespace_arg = Annotated[str, Field(description="Memory namespace: one per user or agent.")]
    fact_arg = Annotated[str, Field(description="A fact id, as returned by remember or recall.")]

    def retract(fact_id: fact_arg) -> dict[str, Any]:
        """A fact was never true: stop believing it (nothing replaces it; history is kept)."""
        return {"fact": t.facts().retract(fact_id).to_dict()}

    def forget(
        fact_id: Annotated[str | None, Field(description="Forget this fact's lineage.")] = None,
        all_memories: Annotated[
            bool, Field(description="True to forget the whole namespace instead.")
        ] = False,
        namespace: namespace_arg = "default",
    ) -> dict[str, Any]:
        """Delete for good (unlike retract, nothing remains): one fact with every version, or
        with all_memories=true everything the namespace holds. The server stays open, so the
        embedded store's file is rewritten at once (`erased_on_disk`)."""
        if (fact_id is None) == (not all_memories):
            raise InvalidInput("forget needs either fact_id, or all_memories=true (not both)")
        if fact_id is not None:
            out: dict[str, Any] = {"fact_id": fact_id}
            out["nodes_deleted"] = t.facts().forget(fact=fact_id)
        else:
            out = {"namespace": t.ns(namespace)}
            out["nodes_deleted"] = t.store.forget(namespace=out["namespace"])
        out["erased_on_disk"] = t.store.compact()
        return out

    return [retract, forget]


def build_server(store: MemoryStore, *, namespace: str | None = None) -> "MCPServer":
    """An MCP server (the SDK's `MCPServer`) with the memory tools over `store`.

    Args:
        store: the memory the tools use (the caller closes it).
        namespace: a fixed namespace; None lets every call name its own.

    Raises:
        ConfigurationError: the `mcp` package is not installed.
        InvalidInput: `namespace` is not a valid namespace.
    """
    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError as e:
        raise ConfigurationError(
            "the MCP server needs the mcp package: pip install 'bitemporal-memory[mcp]'"
        ) from e
    if namespace is not None and (not isinstance(namespace, str) or not namespace.strip()):
        raise InvalidInput(f"namespace must be a non-empty string, not {repr(namespace)[:60]}")
    tools = _Tools(store, namespace)
    server: MCPServer = MCPServer(
        "bitemporal-memory", instructions=_INSTRUCTIONS, log_level="WARNING"
    )
    functions = _write_tools(tools) + _read_tools(tools) + _closing_tools(tools)
    order = {name: i for i, name in enumerate(TOOL_NAMES)}
    for func in sorted(functions, key=lambda f: order[f.__name__]):
        fixed = namespace is not None and "namespace" in inspect.signature(func).parameters
        tool = _without(func, "namespace") if fixed else func
        server.add_tool(_reported(tool), name=func.__name__, description=func.__doc__)
    return server


def serve(
    store: MemoryStore,
    *,
    namespace: str | None = None,
    host: str = "127.0.0.1",
    port: int | None = None,
) -> None:
    """Run the server until the client leaves: over stdio, or streamable HTTP on `port`."""
    server = build_server(store, namespace=namespace)
    if port is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)


def add_parser(commands: Any) -> None:
    """The `mcp` subcommand of the `bitemporal-memory` command line."""
    p = commands.add_parser("mcp", help="serve the memory to MCP clients (stdio, or HTTP)")
    p.add_argument(
        "--namespace",
        dest="mcp_namespace",
        metavar="NS",
        help="fix the namespace (tools then take none); the global -n NS does the same",
    )
    p.add_argument("--port", type=int, help="serve streamable HTTP on this port (default: stdio)")
    p.add_argument("--host", default="127.0.0.1", help="HTTP address (default: 127.0.0.1)")


def command(store: MemoryStore, args: argparse.Namespace, out: TextIO) -> int:
    """Run `bitemporal-memory mcp` (returns when the client disconnects)."""
    fixed = args.mcp_namespace
    if fixed is None and args.namespace != "default":
        fixed = args.namespace
    if args.port is not None and not 0 < args.port < 65536:
        raise InvalidInput(f"--port must be between 1 and 65535, not {args.port}")
    serve(store, namespace=fixed, host=args.host, port=args.port)
    return 0
