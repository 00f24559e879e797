"""Shared tools of the reliability tier: raw engine scans, store fingerprints, a private Neo4j."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from bitemporal_core import Basis, MemoryStore

from ..conftest import ROOT

T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)
# A basis after every explicit test time and before "now": pinned, so observations repeat.
PINNED = Basis(valid_at=datetime(2025, 1, 1, tzinfo=UTC), known_at=datetime(2025, 1, 1, tzinfo=UTC))

Row = tuple[str, dict[str, Any]]


def _plain(value: Any) -> Any:
    """A property value as plain Python: driver temporals become aware UTC datetimes."""
    if hasattr(value, "to_native"):
        value = value.to_native()
    if isinstance(value, datetime) and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    if isinstance(value, datetime):
        value = value.astimezone(UTC)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def raw_scan(store: MemoryStore) -> list[Row]:
    """Every node and relationship of the engine, whatever its label or type, with every
    property: `(label, properties)`. Independent of the backend's own `raw_dump` list."""
    backend: Any = store.backend
    if backend.name == "ladybug":
        rows = backend._read("MATCH (n) RETURN n", {}) + backend._read(
            "MATCH ()-[r]->() RETURN r", {}
        )
        out = []
        for (item,) in rows:
            props = {
                k: _plain(v) for k, v in item.items() if not k.startswith("_") and v is not None
            }
            out.append((str(item["_LABEL"]), props))
        return out
    with backend._driver.session(database=backend._database) as session:
        nodes = session.run("MATCH (n) RETURN labels(n) AS l, properties(n) AS p")
        out = [(":".join(sorted(r["l"])), {k: _plain(v) for k, v in r["p"].items()}) for r in nodes]
        rels = session.run("MATCH ()-[r]->() RETURN type(r) AS t, properties(r) AS p")
        out += [(r["t"], {k: _plain(v) for k, v in r["p"].items()}) for r in rels]
    return out


def fingerprint(store: MemoryStore) -> list[str]:
    """The whole engine content as a sorted list of strings (equal iff nothing changed)."""
    return sorted(f"{label} {sorted(props.items())!r}" for label, props in raw_scan(store))


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside a (nested) property value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings_in(v)
    elif isinstance(value, datetime | date | int | float | bool) or value is None:
        return
    else:
        yield str(value)


def observe(store: MemoryStore, namespace: str, queries: tuple[str, ...] = ()) -> dict[str, Any]:
    """What a namespace shows through the public API at a pinned basis (and its histories)."""
    timeline = store.timeline(namespace)
    ids = sorted({v.id for v in timeline.versions})
    return {
        "snapshot": store.snapshot(namespace, basis=PINNED),
        "timeline": timeline.versions,
        "histories": [store.history(i) for i in ids],
        "messages": store.messages(namespace),
        "sessions": store.sessions(namespace),
        "recall": [
            [(h.fact.version_id, round(h.score, 9)) for h in store.recall(q, namespace=namespace)]
            for q in queries
        ],
        "t_index": store.backend.clock(namespace).t_index,
        "in_namespaces": namespace in store.namespaces(),
    }


# --- a private Neo4j server (its own port and run directory) ---------------------------------
NEO4J_SCRIPT = ROOT / "tools" / "neo4j" / "neo4j.sh"
PASSWORD = "reliability-test"


def require_java_and_maven() -> None:
    """Skip without Java and Maven (they build and run the server); under CI=true, fail."""
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs {' and '.join(missing)} for the private Neo4j server")
        pytest.skip(f"no {' and '.join(missing)}: cannot start a private Neo4j server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateNeo4j:
    """A Neo4j server this test owns: started, stopped and killed without touching others."""

    def __init__(self, run_dir: Path) -> None:
        self.port = free_port()
        self.run_dir = run_dir
        self.uri = f"bolt://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "NEO4J_PORT": str(self.port),
            "NEO4J_RUN_DIR": str(run_dir),
            "NEO4J_PASSWORD": PASSWORD,
            "NEO4J_HEAP": "512m",
            "NEO4J_PAGECACHE": "64m",
            "NEO4J_STOP_TIMEOUT": "60",
        }

    def _script(self, command: str) -> float:
        t0 = time.monotonic()
        done = subprocess.run(
            [str(NEO4J_SCRIPT), command],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=400,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"neo4j.sh {command} failed: {done.stderr[-2000:]}")
        return time.monotonic() - t0

    def start(self) -> float:
        return self._script("start")

    def stop(self) -> float:
        """A clean shutdown (SIGTERM, as `neo4j.sh stop` does)."""
        return self._script("stop")

    def kill(self) -> None:
        """SIGKILL the server's JVM (the pid our own `start` wrote), like a power cut."""
        pid = int((self.run_dir / "neo4j.pid").read_text().strip())
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            # a child of the script's shell, reaped by init: poll /proc for a zombie
            stat = Path(f"/proc/{pid}/stat")
            if not stat.exists() or stat.read_text().split()[2] == "Z":
                break
            time.sleep(0.1)
        (self.run_dir / "neo4j.pid").unlink(missing_ok=True)


# --- fault injection inside a write transaction ----------------------------------------------
class InjectedFault(Exception):
    """The failure a test injects (not one of the library's own)."""


class Fault:
    """Raise `error()` before statement number `at` of write transaction number `tx` (both
    1-based, counted from when the fault is armed), once; with `after`, once that statement
    has run (Neo4j: its writes are in the transaction). Retried transactions count anew."""

    def __init__(
        self, tx: int, at: int, error: Any = InjectedFault, *, after: bool = False
    ) -> None:
        self.tx, self.at, self.error, self.after = tx, at, error, after
        self.armed = False
        self.n_tx = self.n_stmt = self.fired = 0

    def begin(self) -> None:
        if self.armed:
            self.n_tx += 1
            self.n_stmt = 0

    def statement(self, query: object = None) -> None:
        if self.armed and self.n_tx == self.tx and not self.fired:
            self.n_stmt += 1
            if self.n_stmt == self.at and not self.after:
                self.fire()

    def due_after(self) -> bool:
        """Whether the statement just counted is the one to fail once it has run."""
        return self.after and self.armed and self.n_tx == self.tx and self.n_stmt == self.at

    def fire(self) -> None:
        self.fired += 1
        raise self.error("injected fault inside a write transaction")


def inject_ladybug(store: MemoryStore, fault: Fault) -> None:
    """Count the embedded engine's statements per explicit write transaction."""
    from bitemporal_core.backends.ladybug import cypher as q

    backend: Any = store.backend
    real = backend._run

    def run(query: str, params: dict[str, Any] | None = None) -> Any:
        if query == q.BEGIN:
            fault.begin()
        elif query not in (q.BEGIN_READ, q.COMMIT, q.ROLLBACK):
            fault.statement(query)
        return real(query, params)

    backend._run = run


class _Delegate:
    def __init__(self, inner: Any, fault: Fault | Pause) -> None:
        self._inner, self._fault = inner, fault

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _FaultyTx(_Delegate):
    def run(self, query: Any, parameters: Any = None, **kwargs: Any) -> Any:
        fault = self._fault
        fault.statement(query)
        result = self._inner.run(query, parameters, **kwargs)
        if isinstance(fault, Fault) and not fault.fired and fault.due_after():
            result.consume()  # the statement has run: its writes are in the transaction
            fault.fire()
        return result


class _FaultySession(_Delegate):
    def __enter__(self) -> _FaultySession:
        self._inner.__enter__()
        return self

    def __exit__(self, *exc: Any) -> Any:
        return self._inner.__exit__(*exc)

    def execute_write(self, work: Any, *args: Any, **kwargs: Any) -> Any:
        def wrapped(tx: Any, *a: Any, **kw: Any) -> Any:
            self._fault.begin()
            return work(_FaultyTx(tx, self._fault), *a, **kw)

        return self._inner.execute_write(wrapped, *args, **kwargs)


class Pause:
    """Hold the first managed write transaction that runs `query` just before running it,
    until `resume` is set (a deterministic interleaving of two transactions)."""

    def __init__(self, query: str) -> None:
        self.query = query
        self.reached = threading.Event()
        self.resume = threading.Event()

    def begin(self) -> None:
        pass

    def statement(self, query: object = None) -> None:
        if query == self.query and not self.resume.is_set():
            self.reached.set()
            assert self.resume.wait(60), "the paused transaction was never resumed"


class FaultyDriver(_Delegate):
    """A Neo4j driver whose managed write transactions hit `fault` (the real server runs)."""

    def session(self, **kwargs: Any) -> _FaultySession:
        return _FaultySession(self._inner.session(**kwargs), self._fault)
