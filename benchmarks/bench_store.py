"""Scale benchmark on a kept multi-tenant store (issue 17): what users pay at 0, 100k, 1M facts.

Build once per engine and size (bulk path, kept for later runs), then measure:

    .venv/bin/python benchmarks/bench_store.py build --facts 100000 --store STORE
    .venv/bin/python benchmarks/bench_store.py measure --store STORE   # STORE: a kept path

The store: namespace `big` holds the first `--big-msgs` messages of the timestamp-sorted
chitchat stream (40,000: about 52k facts; the recall and the single-remember namespace), the
rest of the facts are tenants `t0001`, `t0002`... each a replay of 2,000 stream messages (other
users' data in the same file). Every message carries a message id as adapters send one
("msg-" + 32 hex digits, seeded). `measure` prints one JSON line and appends it to `--out`:
single `remember` with a message id of held-out chitchat turns cut to 3, 12 and 40 words
(p50/p95, in a fresh namespace, in `big`, and on an empty store), recall p50/p95 in `big` and
in one tenant, the first recall of a fresh process (`first-recall`, run as a child; also
opened with `preload=True` and recalled 5 s later, and after a process that only remembered one
message, as the command line does), peak RSS, disk, the load.

    .venv/bin/python benchmarks/bench_store.py grow --store NEW_PATH --msgs 10000 \
        [--replan off] [--wal-mb 16]
    .venv/bin/python benchmarks/bench_store.py bulk --store NEW_PATH --msgs 12000 [--replan off]

`grow`: one process opens an empty store and remembers the chitchat stream one message at a
time (message ids, speaker, session, as an adapter sends them), as a chat application that
starts empty and keeps running does; prints single `remember` p50/p95 per window of 250 calls
and the last window against the first. `--replan off` keeps the statements prepared while the
store was empty (what the engine did before it prepared them again as it grows); `--wal-mb 16`
checkpoints the write-ahead log at LadybugDB's default size instead of the engine's 4 MB.
`bulk`: `remember_many` of the stream into an empty store in calls of 1,000 messages; prints
msg/s overall and per call, with the same switches.
`--embedder minilm|e5` builds and measures with vectors (give the same one to both); recall
latency then excludes embedding the query (computed before the timed calls, reported apart).
Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import load_data, pick_queries, size_mb, stats_ms, timed

Json = dict[str, Any]
BIG, TENANT_MSGS, CALL_ITEMS = "big", 2_000, 10_000
WORDS = (3, 12, 40)


def msg_id(rng: random.Random) -> str:
    return "msg-" + uuid.UUID(int=rng.getrandbits(128)).hex


def open_store(args: argparse.Namespace, embedder: Any = None, **options: Any) -> Any:
    from bitemporal_core import MemoryStore

    options |= {} if embedder is None else {"embedder": embedder}
    if args.engine == "ladybug":
        return MemoryStore.embedded(args.store, **options)
    auth = ("neo4j", os.environ.get("NEO4J_PASSWORD", "bitemporal-test"))
    return MemoryStore.neo4j(args.neo4j_uri, auth=auth, **options)


def make_embedder(name: str) -> Any:
    """The library embedder called `name` (`--embedder`), or None for "none"."""
    if name == "none":
        return None
    from bitemporal_core.providers import embeddings

    return {"minilm": embeddings.MiniLMEmbedder, "e5": embeddings.E5Embedder}[name]()


class QueryCache:
    """An embedder whose query vectors are computed before the timed recalls, so a recall's
    latency excludes embedding its query (the issue's "query embedding excluded")."""

    def __init__(self, inner: Any, queries: list[str]) -> None:
        self.inner, t0 = inner, time.perf_counter()
        self.vectors = {q: inner.embed_query(q) for q in queries}
        self.query_ms = (time.perf_counter() - t0) * 1000 / max(1, len(queries))

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def dim(self) -> int | None:
        return self.inner.dim

    def embed(self, texts: Any) -> list[list[float]]:
        return self.inner.embed(texts)

    def embed_query(self, text: str) -> list[float]:
        cached = self.vectors.get(text)
        return self.inner.embed_query(text) if cached is None else cached


def items(stream: list[Json], rng: random.Random, shift: timedelta) -> list[Json]:
    return [
        {
            "text": m["text"],
            "at": m["at"] + shift,
            "speaker": m["speaker"],
            "session": m["session"],
            "id": msg_id(rng),
        }
        for m in stream
    ]


def build(args: argparse.Namespace) -> None:
    """`big` first (a stream prefix), then tenants until the store holds `--facts` facts.

    Every item has a seeded message id, so building a larger store on a copy of a smaller one
    skips what it holds (remembering is idempotent by message id) and adds the rest."""
    stream, _ = load_data()
    store, rng = open_store(args, make_embedder(args.embedder)), random.Random(17)
    facts, t0 = 0, time.monotonic()
    plan: list[tuple[str, list[Json]]] = [(BIG, stream[: args.big_msgs])]
    for n in range(1, 10_000):
        start = (n * 7_919 * TENANT_MSGS) % (len(stream) - TENANT_MSGS)
        plan.append((f"t{n:04d}", stream[start : start + TENANT_MSGS]))
    msgs = 0
    for namespace, part in plan:
        if facts >= args.facts:
            break
        shift = timedelta(days=0) if namespace == BIG else timedelta(days=900)
        batch = items(part, rng, shift)
        for i in range(0, len(batch), CALL_ITEMS):
            part_items = batch[i : i + CALL_ITEMS]
            out = store.remember_many(part_items, namespace=namespace, chunk=500, parallel=True)
            facts += sum(len(f) for f in out)
            msgs += len(out)
            elapsed = time.monotonic() - t0
            rate = f"{msgs / elapsed:,.0f} msg/s, load {load()}"
            print(f"{namespace}: {facts:,} facts, {msgs:,} msgs, {rate}", flush=True)
    store.close()
    info = {"facts": facts, "messages": msgs, "seconds": time.monotonic() - t0, "load": load()}
    info["msg_s"] = msgs / info["seconds"]
    Path(args.store + ".build.json").write_text(json.dumps(info))
    print(json.dumps(info))


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def cut(texts: list[str], words: int, n: int) -> list[str]:
    """Held-out turns joined and cut to exactly `words` words, ending with a full stop."""
    pool = " ".join(texts).split()
    return [" ".join(pool[i * words : (i + 1) * words]).rstrip(".?!,") + "." for i in range(n)]


def single(store: Any, namespace: str, texts: list[str], rng: random.Random) -> Json:
    """`remember` one message at a time with a fresh message id (as an adapter sends it)."""
    lat = [
        timed(store.remember, t, namespace=namespace, source=msg_id(rng), speaker="user")[1]
        for t in texts
    ]
    return stats_ms(lat[5:])  # the first calls warm the statement cache


def recalls(store: Any, namespace: str, queries: list[str]) -> Json:
    lat = [timed(store.recall, q, namespace=namespace, k=10)[1] for q in queries]
    return stats_ms(lat[5:])


def first_recall(args: argparse.Namespace) -> None:
    """In this fresh process: open the store, then time its first recall (and the second).
    With `--idle S`: opened with `preload=True`, the first recall `S` seconds after opening
    (an application that opens its store before the first user message). With
    `--remember-only`: remember one message and close, timing both (a command-line
    `remember`; the next process's first recall shows whether it left a saved index)."""
    if args.remember_only:
        t0 = time.perf_counter()
        store = open_store(args, make_embedder(args.embedder))
        said = "I started learning the cello last month."
        source = msg_id(random.Random())
        _, ms = timed(store.remember, said, namespace=args.namespace, source=source)
        t1 = time.perf_counter()
        store.close()
        out = {"remember_ms": ms, "close_ms": (time.perf_counter() - t1) * 1000}
        print(json.dumps(out | {"open_ms": (t1 - t0) * 1000 - ms}))
        return
    t0 = time.perf_counter()
    store = open_store(args, make_embedder(args.embedder), preload=args.idle > 0)
    opened = time.perf_counter()
    time.sleep(args.idle)
    _, first = timed(store.recall, args.query, namespace=args.namespace, k=10)
    _, second = timed(store.recall, args.query + " today", namespace=args.namespace, k=10)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    store.close()  # as the command line and an application at exit (saves the recall index)
    out = {"open_ms": (opened - t0) * 1000, "first_ms": first, "second_ms": second, "rss_mb": rss}
    print(json.dumps(out))


def child_first_recall(
    args: argparse.Namespace,
    namespace: str,
    query: str,
    idle: float = 0.0,
    *,
    remember_only: bool = False,
) -> Json:
    cmd = [sys.executable, __file__, "first-recall", "--engine", args.engine, "--store"]
    cmd += [args.store, "--namespace", namespace, "--query", query, "--embedder", args.embedder]
    cmd += ["--idle", str(idle)] + (["--remember-only"] if remember_only else [])
    if args.neo4j_uri:
        cmd += ["--neo4j-uri", args.neo4j_uri]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def measure(args: argparse.Namespace) -> None:
    from bitemporal_core import MemoryStore

    _, heldout = load_data()
    queries = pick_queries(heldout, args.queries)
    texts = [m["text"] for m in heldout[len(queries) :]]
    row: Json = {"store": args.store, "engine": args.engine, "load_start": load()}
    build_info = Path(args.store + ".build.json")
    row["build"] = json.loads(build_info.read_text()) if build_info.exists() else None
    row["first_recall_big"] = child_first_recall(args, BIG, queries[0])
    row["first_recall_tenant"] = child_first_recall(args, "t0001", queries[1])
    row["first_recall_big_preload_5s"] = child_first_recall(args, BIG, queries[0], idle=5.0)
    row["remember_only_big"] = child_first_recall(args, BIG, "", remember_only=True)
    row["first_recall_big_after_remember"] = child_first_recall(args, BIG, queries[0])
    embedder = make_embedder(args.embedder)
    if embedder is not None:
        embedder = QueryCache(embedder, queries)
        row["embedder"], row["query_embed_ms"] = embedder.name, embedder.query_ms
    # Fresh message ids on every run: a repeated id is a re-import, skipped, not a remember.
    store, rng = open_store(args, embedder), random.Random(uuid.uuid4().int)
    row["namespaces"] = len(store.namespaces())
    # A namespace written before claims had lookup keys files them on its first change
    # statement (once): paid here, reported apart, not inside the timed single calls.
    change = "I moved to Lisbon for a new job now."
    row["first_change_big_ms"] = timed(store.remember, change, namespace=BIG, source=msg_id(rng))[1]
    row["recall_big"] = recalls(store, BIG, queries)
    row["recall_tenant"] = recalls(store, "t0001", queries[: max(25, len(queries) // 4)])
    fresh = f"bench-single-{uuid.uuid4().hex[:8]}"
    for words in WORDS:
        said = cut(texts[words * 50 :], words, args.calls + 5)
        row[f"single_{words}w_fresh_ns"] = single(store, fresh, said, rng)
        row[f"single_{words}w_big"] = single(store, BIG, said, rng)
    store.forget(namespace=fresh)
    row["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    store.close()
    if args.engine == "ladybug":  # the same calls on an empty store, in this run
        with tempfile.TemporaryDirectory() as tmp:
            empty = MemoryStore.embedded(str(Path(tmp) / "empty.lbdb"), embedder=embedder)
            for words in WORDS:
                said = cut(texts[words * 50 :], words, args.calls + 5)
                row[f"single_{words}w_empty_store"] = single(empty, fresh, said, rng)
            empty.close()
    if args.engine == "ladybug":
        row["disk_mb"] = size_mb(Path(args.store))
    row["load_end"] = load()
    print(json.dumps(row))
    with open(args.out, "a") as out:
        out.write(json.dumps(row) + "\n")


def empty_store(args: argparse.Namespace) -> Any:
    """A new store, with the engine as it was before stop 34 where the A/B switches say."""
    if args.replan == "off":
        from bitemporal_core.backends.ladybug import runner

        runner.REPLAN_FIRST = 2**62  # never: the plans prepared on the empty tables stay
    if args.wal_mb:  # the engine checkpoints at q.WAL_SMALL_BYTES between single writes
        from bitemporal_core.backends.ladybug import cypher as q

        q.WAL_SMALL_BYTES = args.wal_mb * 2**20
        q.WAL_SMALL = f"CALL checkpoint_threshold={q.WAL_SMALL_BYTES}"
    if args.engine != "ladybug" or Path(args.store).exists():
        raise SystemExit(f"{args.command} starts on a new embedded store: {args.store} exists")
    return open_store(args)


def bulk(args: argparse.Namespace) -> None:
    """`remember_many` of the chitchat stream into a new store, calls of 1,000 (chunk 500)."""
    stream, _ = load_data()
    store = empty_store(args)
    store.remember("A first message loads the models.", namespace="warm")
    batch, rates = items(stream[: args.msgs], random.Random(17), timedelta(0)), []
    t0 = time.monotonic()
    for start in range(0, len(batch), 1_000):
        part = batch[start : start + 1_000]
        _, ms = timed(store.remember_many, part, namespace=BIG, chunk=500)
        rates.append(round(len(part) / ms * 1000))
    seconds = time.monotonic() - t0
    store.close()
    row = {
        "command": "bulk",
        "replan": args.replan,
        "wal_mb": args.wal_mb or None,
        "msgs": len(batch),
        "msg_per_s": round(len(batch) / seconds),
        "per_call_msg_per_s": rates,
        "load": load(),
    }
    print(json.dumps(row))
    with open(args.out, "a") as out:
        out.write(json.dumps(row) + "\n")


def grow(args: argparse.Namespace) -> None:
    stream, _ = load_data()
    store, rng = empty_store(args), random.Random(17)
    t0, lat, windows = time.monotonic(), [], []
    for m in items(stream[: args.msgs], rng, timedelta(0)):
        meta = {"speaker": m["speaker"], "session": m["session"]}
        _, seconds = timed(
            store.remember, m["text"], namespace=BIG, at=m["at"], source=m["id"], **meta
        )
        lat.append(seconds)
        if len(lat) % 250 == 0:
            windows.append({"msgs": len(lat), **stats_ms(lat[-250:])})
            print(json.dumps(windows[-1]), flush=True)
    store.close()
    first, last = windows[0], windows[-1]
    row = {
        "command": "grow",
        "replan": args.replan,
        "wal_mb": args.wal_mb or None,
        "msgs": len(lat),
        "seconds": round(time.monotonic() - t0, 1),
        "windows": windows,
        "last_over_first_p50": round(last["p50"] / first["p50"], 2),
        "load": load(),
    }
    print(json.dumps(row))
    with open(args.out, "a") as out:
        out.write(json.dumps(row) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=("build", "measure", "first-recall", "grow", "bulk"))
    ap.add_argument("--engine", default="ladybug", choices=("ladybug", "neo4j"))
    ap.add_argument("--store", required=True, help="LadybugDB path (a label for Neo4j)")
    ap.add_argument("--neo4j-uri", default=None)
    ap.add_argument("--facts", type=int, default=1_000_000)
    ap.add_argument("--big-msgs", type=int, default=40_000, help="stream prefix in `big`")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--calls", type=int, default=200, help="single remembers per length")
    ap.add_argument("--namespace", default=BIG)
    ap.add_argument("--query", default="")
    ap.add_argument("--idle", type=float, default=0.0, help="first-recall: preload, wait S s")
    ap.add_argument("--remember-only", action="store_true", help="first-recall: write, close")
    ap.add_argument("--embedder", default="none", choices=("none", "minilm", "e5"))
    ap.add_argument("--msgs", type=int, default=10_000, help="grow: messages remembered")
    ap.add_argument("--wal-mb", type=int, default=0, help="grow: checkpoint size, A/B switch")
    ap.add_argument("--replan", default="on", choices=("on", "off"), help="grow: A/B switch")
    ap.add_argument("--out", default="/work/bench-stores/measurements.jsonl")
    args = ap.parse_args()
    commands = {
        "build": build,
        "measure": measure,
        "first-recall": first_recall,
        "grow": grow,
        "bulk": bulk,
    }
    commands[args.command](args)


if __name__ == "__main__":
    main()
