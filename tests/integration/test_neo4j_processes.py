"""Four application processes share one Neo4j and one namespace, writing and recalling at once
(issue 17): no acknowledged write is lost, transaction time never goes back along t_index,
and every write has its own t_index."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from datetime import datetime
from typing import Any

import pytest

from bitemporal_core import MemoryStore

from ..conftest import _wipe, neo4j_settings

pytestmark = pytest.mark.neo4j

PROCESSES, WRITES, NS = 4, 20, "shared"

# One application process: opens its store, says "ready", waits for "go", then writes (each a
# message with an id, as the adapters send) and recalls in turn; prints what it was told.
_APP = """
import json, sys
from bitemporal_core import MemoryStore
uri, user, password, worker, writes, ns = sys.argv[1:7]
store = MemoryStore.neo4j(uri, auth=(user, password), extractor="simple")
store.recall("warm up", namespace=ns)
print("ready", flush=True)
sys.stdin.readline()
acked = []
for i in range(int(writes)):
    text = f"Worker {worker} visited harbour number {i} on its trip."
    for fact in store.remember(text, namespace=ns, source=f"w{worker}-m{i}", speaker=worker):
        acked.append({"id": fact.id, "t": fact.t_index, "at": fact.recorded_at.isoformat()})
    hits = store.recall(f"harbour number {i}", namespace=ns, k=5)
    assert hits, "a recall right after a write found nothing"
store.close()
print(json.dumps(acked), flush=True)
"""


def _start(worker: int) -> subprocess.Popen[str]:
    uri, user, password = neo4j_settings()
    args = [sys.executable, "-c", _APP, uri, user, password, f"p{worker}", str(WRITES), NS]
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    return subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_four_processes_share_a_namespace(neo4j_driver: Any) -> None:
    _wipe(neo4j_driver)
    apps = [_start(w) for w in range(PROCESSES)]
    acked: dict[str, list[dict[str, Any]]] = {}
    try:
        for app in apps:  # all have opened their store before any writes
            assert app.stdout is not None
            line = app.stdout.readline()
            assert line.strip() == "ready", app.communicate(timeout=60)
        for app in apps:
            assert app.stdin is not None
            app.stdin.write("go\n")
            app.stdin.flush()
        for w, app in enumerate(apps):
            out, err = app.communicate(timeout=300)
            assert app.returncode == 0, err
            acked[f"p{w}"] = json.loads(out.strip().splitlines()[-1])
    finally:
        for app in apps:
            if app.poll() is None:
                app.kill()
                app.communicate()

    every = [fact for facts in acked.values() for fact in facts]
    assert len(every) == PROCESSES * WRITES  # one fact per message here
    with MemoryStore.neo4j(driver=neo4j_driver, extractor="simple") as store:
        stored = {f.id: f for f in store.snapshot(NS)}
        assert {f["id"] for f in every} == set(stored)  # nothing acknowledged is lost
        assert len(store.messages(NS)) == PROCESSES * WRITES
        assert store.backend.clock(NS).t_index == PROCESSES * WRITES

    t_indexes = sorted(f.t_index for f in stored.values())
    assert t_indexes == list(range(1, PROCESSES * WRITES + 1))  # unique, none skipped
    by_t = sorted(stored.values(), key=lambda f: f.t_index)
    times = [f.recorded_at for f in by_t]
    assert times == sorted(times)  # transaction time never goes back along t_index
    for facts in acked.values():  # each process saw its own writes in order
        own = [datetime.fromisoformat(f["at"]) for f in facts]
        assert own == sorted(own) and len(set(own)) == len(own)
        assert [f["t"] for f in facts] == sorted(f["t"] for f in facts)
    speakers = [f.speaker for f in by_t]
    switches = sum(a != b for a, b in itertools.pairwise(speakers))
    assert switches > 2 * PROCESSES  # the writes really interleaved (one after another: 3)
