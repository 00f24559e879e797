"""`bitemporal-memory mcp` with a real MCP client from the SDK: the server as a subprocess over
stdio and over streamable HTTP, a fixed namespace, tool errors; in-process on every engine."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from bitemporal_core import MemoryStore
from bitemporal_core.interfaces.mcp import TOOL_NAMES, build_server

COMMAND = [sys.executable, "-m", "bitemporal_core.interfaces.cli"]


@asynccontextmanager
async def stdio_session(log: Path, *argv: str) -> AsyncIterator[ClientSession]:
    """A client session with `bitemporal-memory ARGV` started as a subprocess over stdio."""
    params = StdioServerParameters(command=COMMAND[0], args=[*COMMAND[1:], *argv])
    with log.open("a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


async def call(session: ClientSession, name: str, **args: Any) -> dict[str, Any]:
    """A tool's structured result; fails the test on a tool error."""
    result = await session.call_tool(name, args)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def error(session: ClientSession, name: str, **args: Any) -> str:
    """The text of a tool error (the call must fail)."""
    result = await session.call_tool(name, args)
    assert result.is_error, result.structured_content
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert "Traceback" not in text
    return text


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


def test_every_tool_over_stdio(tmp_path: Path) -> None:
    db, log = tmp_path / "m.lbdb", tmp_path / "server.log"

    async def scenario() -> None:
        async with stdio_session(log, "--store", str(db), "mcp") as s:
            tools = {t.name: t for t in (await s.list_tools()).tools}
            assert tuple(tools) == TOOL_NAMES
            assert set(tools["recall"].input_schema["properties"]) == {
                "query",
                "namespace",
                "valid_at",
                "known_at",
                "k",
            }
            lyon, paris = await _remember_recall_supersede_history(s)
            await _correct_timeline_retract_forget(s, lyon, paris)

    run(scenario)


async def _remember_recall_supersede_history(
    s: ClientSession,
) -> tuple[dict[str, Any], dict[str, Any]]:
    out = await call(
        s, "remember", text="I live in Lyon.", namespace="alice", valid_from="2020-01-01"
    )
    (lyon,) = out["facts"]
    assert (lyon["text"], lyon["namespace"]) == ("I live in Lyon.", "alice")
    assert lyon["valid_from"] == "2020-01-01T00:00:00+00:00"
    hits = (await call(s, "recall", query="Where do I live?", namespace="alice"))["hits"]
    assert [h["fact"]["id"] for h in hits] == [lyon["id"]] and hits[0]["score"] > 0
    assert (await call(s, "recall", query="Lyon"))["hits"] == []  # namespace "default"

    args = {"fact_id": lyon["id"], "text": "I live in Paris.", "valid_from": "2024-03-01"}
    paris = (await call(s, "supersede", **args))["fact"]
    assert paris["supersedes"] == lyon["id"]
    then = await call(
        s, "recall", query="Where do I live?", namespace="alice", valid_at="2022-06-01"
    )
    assert [h["fact"]["text"] for h in then["hits"]] == ["I live in Lyon."]
    assert then["valid_at"] == "2022-06-01T00:00:00+00:00"
    history = await call(s, "history", fact_id=lyon["id"])
    assert history["superseded_by"] == [paris["id"]] and len(history["versions"]) == 2
    assert history["versions"][1]["valid_to"] == "2024-03-01T00:00:00+00:00"
    return lyon, paris


async def _correct_timeline_retract_forget(
    s: ClientSession, lyon: dict[str, Any], paris: dict[str, Any]
) -> None:
    fixed = (await call(s, "correct", fact_id=paris["id"], valid_from="2024-02-01"))["fact"]
    assert fixed["version"] == 2 and fixed["valid_from"] == "2024-02-01T00:00:00+00:00"
    timeline = await call(s, "timeline", namespace="alice")
    assert {v["text"] for v in timeline["versions"]} == {"I live in Lyon.", "I live in Paris."}
    closed = (await call(s, "retract", fact_id=paris["id"]))["fact"]
    assert closed["superseded_at"] is not None
    assert (await call(s, "recall", query="live", namespace="alice"))["hits"] == []
    gone = await call(s, "forget", fact_id=lyon["id"])
    assert gone["nodes_deleted"] > 0
    assert "no fact with id" in await error(s, "history", fact_id=lyon["id"])
    wiped = await call(s, "forget", all_memories=True, namespace="alice")
    assert wiped["namespace"] == "alice"
    assert (await call(s, "timeline", namespace="alice"))["versions"] == []


def test_bad_input_is_a_tool_error_with_the_stores_message(tmp_path: Path) -> None:
    log = tmp_path / "server.log"

    async def scenario() -> None:
        async with stdio_session(log, "--memory", "mcp") as s:
            assert "text is empty" in await error(s, "remember", text="   ")
            assert "valid_at is not an ISO-8601 date or time: 'soon'" in await error(
                s, "recall", query="x", valid_at="soon"
            )
            assert "k must be at least 1" in await error(s, "recall", query="x", k=0)
            assert "no fact with id 'nope'" in await error(s, "retract", fact_id="nope")
            assert "forget needs either fact_id" in await error(s, "forget")
            (fact,) = (await call(s, "remember", text="I like tea."))["facts"]
            await call(s, "retract", fact_id=fact["id"])
            assert "no current version" in await error(s, "retract", fact_id=fact["id"])
            (tea,) = (await call(s, "remember", text="I like green tea."))["facts"]
            reversed_interval = await error(s, "correct", fact_id=tea["id"], valid_to="2001-01-01")
            assert "valid time interval is empty or reversed" in reversed_interval
            assert (await call(s, "history", fact_id=tea["id"]))["versions"][-1]["version"] == 1

    run(scenario)


@pytest.mark.parametrize("flags", [("mcp", "--namespace", "alice"), ("-n", "alice", "mcp")])
def test_a_fixed_namespace_is_no_argument_and_other_facts_are_refused(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    db, log = tmp_path / "m.lbdb", tmp_path / "server.log"
    with MemoryStore.embedded(db) as store:
        (bob,) = store.remember("Bob lives in Rome.", namespace="bob")

    async def scenario() -> None:
        async with stdio_session(log, "--store", str(db), *flags) as s:
            tools = {t.name: t for t in (await s.list_tools()).tools}
            assert all("namespace" not in t.input_schema["properties"] for t in tools.values())
            (mine,) = (await call(s, "remember", text="I live in Oslo."))["facts"]
            assert mine["namespace"] == "alice"
            assert (await call(s, "recall", query="Rome"))["hits"] == []
            for name, args in [
                ("history", {}),
                ("retract", {}),
                ("supersede", {"text": "Bob lives in Milan."}),
                ("correct", {"text": "Bob lives in Turin."}),
                ("forget", {}),
            ]:
                text = await error(s, name, fact_id=bob.id, **args)
                assert f"no fact with id {bob.id!r} in namespace 'alice'" in text
            assert (await call(s, "history", fact_id=mine["id"]))["namespace"] == "alice"
            (secret,) = (await call(s, "remember", text="My hint is Zephyrine."))["facts"]
            gone = await call(s, "forget", fact_id=secret["id"])
            assert gone["nodes_deleted"] > 0 and gone["erased_on_disk"] is True
            on_disk = [p for p in tmp_path.iterdir() if p.name.startswith(db.name) and p.is_file()]
            assert on_disk and not any(b"Zephyrine" in p.read_bytes() for p in on_disk)

    run(scenario)
    with MemoryStore.embedded(db) as store:  # bob's fact is untouched
        lineage = store.history(bob.id)
        assert len(lineage) == 1 and lineage.current is not None
        assert [f.text for f in store.snapshot("alice")] == ["I live in Oslo."]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_for(port: int, server: subprocess.Popen[bytes], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert server.poll() is None, "the server exited"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"no MCP server on port {port} after {timeout} s")


def test_streamable_http_on_a_port(tmp_path: Path) -> None:
    port = _free_port()
    with (tmp_path / "server.log").open("wb") as log:
        server = subprocess.Popen(
            [*COMMAND, "--memory", "mcp", "--port", str(port)], stdout=log, stderr=log
        )
    try:
        _wait_for(port, server)

        async def scenario() -> None:
            url = f"http://127.0.0.1:{port}/mcp"
            async with (
                streamable_http_client(url) as (read, write),
                ClientSession(read, write) as s,
            ):
                await s.initialize()
                assert [t.name for t in (await s.list_tools()).tools] == list(TOOL_NAMES)
                await call(s, "remember", text="I like green tea.", namespace="http")
                hits = (await call(s, "recall", query="tea", namespace="http"))["hits"]
                assert [h["fact"]["text"] for h in hits] == ["I like green tea."]

        run(scenario)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_in_process_on_every_engine(store: MemoryStore) -> None:
    async def scenario() -> None:
        async with Client(build_server(store, namespace="carol")) as client:
            out = await client.call_tool("remember", {"text": "I enjoy eating apples."})
            (like,) = out.structured_content["facts"]  # type: ignore[index]
            new = await client.call_tool(
                "supersede", {"fact_id": like["id"], "text": "I am allergic to apples."}
            )
            assert not new.is_error
            found = await client.call_tool("recall", {"query": "apples"})
            hits = found.structured_content["hits"]  # type: ignore[index]
            assert [h["fact"]["text"] for h in hits] == ["I am allergic to apples."]
            assert hits[0]["concepts"] == ["apples"]  # display forms, not the stem 'appl'

    run(scenario)
    assert store.namespaces() == ["carol"]
