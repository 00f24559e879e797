"""Scale benchmark (issues 3, 8) on chitchat-dataset: ingest, recall p50/p95 per size with and
without embeddings, as-of recall vs lineage depth, RSS, disk, hot spots, Neo4j PROFILE. Asserts
nothing (targets printed beside the numbers); prints Markdown and writes benchmarks/RESULTS.md.
Usage: benchmarks/bench_scale.py [--engines ladybug,neo4j] [--sizes 1000,10000,100000]
[--queries 200] [--embeddings] [--quick] [--budget ladybug=1800,neo4j-emb=600]. Each (engine,
embeddings) run is a subprocess (peak RSS per run). Unless --neo4j-uri is given, a private Neo4j
(port 7696, run dir /tmp/bench-neo4j, fresh data dir) is started and stopped here. A size that
does not fit the run's ingest budget (--budget) is reported as not measured. --vectors FILE is
the MiniLM vector cache (default: the one bench_baselines.py keeps). --save-runs DIR keeps each
run's JSON; --add-runs a.json,b.json reports runs of earlier invocations beside these (each with
its own commit and load average).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.metadata
import json
import math
import os
import pickle
import platform
import pstats
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NEO4J_SH = ROOT / "tools" / "neo4j" / "neo4j.sh"
_ENV = "PORT=7696 RUN_DIR=/tmp/bench-neo4j DATA_DIR=/tmp/bench-neo4j/bench-home HEAP=2g"
NEO4J_ENV = dict(("NEO4J_" + kv).split("=") for kv in (_ENV + " PAGECACHE=1g").split())
AUTH = ("neo4j", os.environ.get("NEO4J_PASSWORD", "bitemporal-test"))
NS, NS_SINGLE, CHUNK, SINGLE_CALLS = "bench", "bench-single", 500, 300
ASOF = {1: "Quillon", 10: "Brevanth", 100: "Zarquod"}  # versions -> lineage subject
PORT_CALLS = {"concept_graph", "mentions", "keyword_search", "postings", "vector_search", "clock"}
PORT_CALLS |= {"summaries", "sentences"}
Json = dict[str, Any]


def stats_ms(values: list[float]) -> Json:
    ordered = sorted(values)
    at = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.95)]
    return {"p50": at[0], "p95": at[1], "n": len(values)}


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    return fn(*args, **kwargs), (time.perf_counter() - t0) * 1000


def size_mb(path: Path) -> float:
    files = path.rglob("*") if path.is_dir() else path.parent.glob(path.name + "*")
    return sum(f.stat().st_size for f in files if f.is_file()) / 2**20


def vm_hwm_mb(pid: int | None) -> float | None:
    status = Path(f"/proc/{pid}/status")
    lines = status.read_text().splitlines() if pid and status.exists() else []
    return next((int(x.split()[1]) / 1024 for x in lines if x.startswith("VmHWM:")), None)


def load_data(holdout: float = 0.03, seed: int = 13) -> tuple[list[Json], list[Json]]:
    """chitchat messages of the non-held-out conversations sorted by timestamp, and the
    messages of the held-out conversations (queries, single calls)."""
    import chitchat_dataset as ccc

    from bitemporal_core.common.validate import check_text

    data = ccc.Dataset()
    ids = sorted(data)
    held = set(random.Random(seed).sample(ids, int(len(ids) * holdout)))
    stream: list[Json] = []
    heldout = stream[:0]
    for cid in ids:
        for m in (m for turn in data[cid]["messages"] for m in turn):
            try:
                text = check_text(m["text"])
            except Exception:
                continue
            at = datetime.fromisoformat(m["timestamp"].replace("Z", "+00:00"))
            item = {"text": text, "at": at, "speaker": m["sender"][:8], "session": cid}
            (heldout if cid in held else stream).append(item)
    stream.sort(key=lambda it: it["at"])
    return stream, heldout


def stream_items(stream: list[Json], msgs: int) -> list[Json]:
    """The first `msgs` stream messages as `remember_many` items, each with a message id (as
    the adapters send)."""
    return [
        {"text": m["text"], "at": m["at"], "speaker": m["speaker"], "session": m["session"]}
        | {"id": f"m{i}"}
        for i, m in enumerate(stream[:msgs])
    ]


def pick_queries(heldout: list[Json], n: int, seed: int = 5) -> list[str]:
    texts = list(dict.fromkeys(m["text"] for m in heldout if 4 <= len(m["text"].split()) <= 30))
    random.Random(seed).shuffle(texts)
    questions = [t for t in texts if t.endswith("?")][: n // 2]
    return questions + [t for t in texts if not t.endswith("?")][: n - len(questions)]


def cached_embedder(cache_file: Path, queries: list[str]) -> Any:
    """MiniLM, caching vectors across runs; query vectors pre-computed (excluded from timings)."""
    import numpy as np

    from bitemporal_core.providers.embeddings import (
        MINILM_DIM,
        MINILM_NAME,
        BaseEmbedder,
        MiniLMEmbedder,
    )

    class Cached(BaseEmbedder):
        def __init__(self) -> None:
            super().__init__(MINILM_NAME, MINILM_DIM)
            self.inner, self.compute_s = MiniLMEmbedder(threads=2), 0.0
            self.cache: Json = pickle.loads(cache_file.read_bytes()) if cache_file.exists() else {}
            self.queries = {q: self.inner.embed_query(q) for q in queries}

        def _embed_raw(self, texts: list[str]) -> object:
            missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
            if missing:
                vectors, ms = timed(self.inner.embed, missing)
                self.cache.update(zip(missing, np.asarray(vectors, dtype=np.float32), strict=True))
                self.compute_s += ms / 1000
            return np.stack([self.cache[t] for t in texts])

        def embed_query(self, text: str) -> list[float]:
            return self.queries[text] if text in self.queries else self.inner.embed_query(text)

    return Cached()


def open_store(cfg: Json, embedder: Any) -> tuple[Any, list[tuple[str, Path]]]:
    from bitemporal_core import MemoryStore

    if cfg["engine"] == "ladybug":
        path = Path(cfg["workdir"]) / ("bench-emb.lbdb" if cfg["emb"] else "bench.lbdb")
        return MemoryStore.embedded(path, embedder=embedder), [("db", path)]
    store = MemoryStore.neo4j(cfg["neo4j_uri"], auth=AUTH, embedder=embedder)
    for ns in (NS, NS_SINGLE):
        store.forget(namespace=ns)
    data = Path(cfg["neo4j_data"] or "/nonexistent") / "data"
    return store, [("store", data / "databases"), ("txlogs", data / "transactions")]


def bench_single(store: Any, heldout: list[Json]) -> Json:
    """`remember` one message at a time (engine clock), in its own namespace."""
    lat = [
        timed(store.remember, m["text"], namespace=NS_SINGLE, speaker=m["speaker"])[1]
        for m in heldout[:SINGLE_CALLS]
    ]
    store.forget(namespace=NS_SINGLE)
    return {**stats_ms(lat), "mean": sum(lat) / len(lat), "msgs_s": 1000 * len(lat) / sum(lat)}


def grow(store: Any, run: Json, stream: list[Json], target: int, deadline: float) -> bool:
    """Bulk-import up to `target` facts and a >= 1 s gap (room for the as-of lineages)."""
    while run["facts"] < target or (
        run["pos"] < len(stream)
        and stream[run["pos"]]["at"] - stream[run["pos"] - 1]["at"] < timedelta(seconds=1)
    ):
        if time.monotonic() > deadline or run["pos"] >= len(stream):
            return False
        need = math.ceil((target - run["facts"]) * max(run["pos"], 1) / max(run["facts"], 1.4))
        part = stream[run["pos"] : run["pos"] + max(1, min(20 * CHUNK, need))]
        out, ms = timed(store.remember_many, part, namespace=NS, chunk=CHUNK)
        run["ingest_s"] += ms / 1000
        run["pos"] += len(part)
        run["facts"] += sum(len(f) for f in out)
    return True


def time_recalls(store: Any, queries: list[str], basis: Any, cap_s: float = 90) -> Json:
    """Recall latency after 5 warm-up calls; stops after `cap_s` (at least 20 queries)."""
    lat = [timed(store.recall, q, namespace=NS, basis=basis)[1] for q in queries[:5]]
    end = time.monotonic() + cap_s
    for q in queries:
        lat.append(timed(store.recall, q, namespace=NS, basis=basis, k=10)[1])
        if len(lat) >= 25 and time.monotonic() > end:
            break
    return stats_ms(lat[5:])


def bench_asof(store: Any, after: datetime, reps: int) -> Json:
    """Lineages of 1, 10 and 100 versions, 1 ms apart, right after `after`; recall and snapshot
    at a basis inside each history (its middle version)."""
    from bitemporal_core import Basis

    at, out, lineages = after, {}, {}
    for depth, name in ASOF.items():
        at += timedelta(milliseconds=1)
        fact = store.remember(f"{name} the tortoise weighs 1 kilograms.", namespace=NS, at=at)[0]
        lineages[depth] = [at]
        for j in range(2, depth + 1):
            at += timedelta(milliseconds=1)
            store.correct(fact.id, text=f"{name} the tortoise weighs {j} kilograms.", at=at)
            lineages[depth].append(at)
    for depth, times in lineages.items():
        mid = (depth - 1) // 2
        when = times[mid] + timedelta(microseconds=500)
        basis = Basis(valid_at=when, known_at=when)
        query = f"How much does {ASOF[depth]} the tortoise weigh?"
        want = f"{ASOF[depth]} the tortoise weighs {mid + 1} kilograms."
        top = [h.fact.text for h in store.recall(query, namespace=NS, basis=basis, k=10)[:1]]
        lat = time_recalls(store, [query] * reps, basis)
        snap = stats_ms([timed(store.snapshot, NS, basis=basis)[1] for _ in range(3)])
        out[str(depth)] = {**lat, "snapshot_p50": snap["p50"], "found": top == [want]}
    return out


def hotspots(store: Any, queries: list[str], basis: Any, n: int = 20) -> Json:
    """cProfile of `n` recalls: top functions by own time, and ms per recall per port call."""
    prof = cProfile.Profile()
    prof.runcall(lambda: [store.recall(q, namespace=NS, basis=basis, k=10) for q in queries[:n]])
    entries = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in entries.values()) or 1.0
    port: dict[str, float] = {}
    for key, v in sorted(entries.items(), key=lambda kv: -kv[1][3]):
        if key[2] in PORT_CALLS and ("/backends/" in key[0] or "/extract/" in key[0]):
            port[key[2]] = port.get(key[2], 0.0) + v[3] * 1000 / n
    top = sorted(entries.items(), key=lambda kv: -kv[1][2])[:5]
    top_ms = [(f"{Path(k[0]).name}:{k[1]}({k[2]})", v[2] * 1e3 / n, v[2] / total) for k, v in top]
    return {"top": top_ms, "port_ms": port, "total_ms": total * 1000 / n}


def measure_size(store: Any, cfg: Json, run: Json, size: int, queries: list[str]) -> Json:
    from bitemporal_core import Basis

    now, past = datetime.now(UTC), run["stream"][run["pos"] // 2]["at"]
    row: Json = {"size": size, "facts": run["facts"], "msgs": run["pos"]}
    row.update(ingest_s=run["ingest_s"], embed_s=run["embed_s"])
    row["now"] = time_recalls(store, queries, Basis(valid_at=now, known_at=now))
    row["past"] = time_recalls(store, queries, Basis(valid_at=past, known_at=past))
    row["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    row["jvm_hwm_mb"] = vm_hwm_mb(cfg["neo4j_pid"] if cfg["engine"] == "neo4j" else None)
    row["disk_mb"] = {name: size_mb(path) for name, path in run["disks"]}
    if size == cfg["asof_size"]:
        last = run["stream"][run["pos"] - 1]["at"]
        row["asof"] = bench_asof(store, last, reps=max(20, len(queries) // 4))
        row["hot"] = hotspots(store, queries, Basis(valid_at=now, known_at=now))
    return row


def run_worker(cfg: Json) -> Json:
    stream, heldout = load_data()
    queries = pick_queries(heldout, cfg["queries"])
    asof_queries = [f"How much does {n} the tortoise weigh?" for n in ASOF.values()]
    vectors = Path(cfg["vectors"])
    embedder = cached_embedder(vectors, queries + asof_queries) if cfg["emb"] else None
    store, disks = open_store(cfg, embedder)
    name = f"[{cfg['engine']}{' +emb' if cfg['emb'] else ''}]"
    res: Json = {"engine": cfg["engine"], "emb": cfg["emb"], "describe": store.describe()}
    git = ["git", "-C", str(ROOT), "describe", "--always", "--dirty"]
    res["commit"] = subprocess.run(git, capture_output=True, text=True).stdout.strip()
    res.update(sizes=[], not_measured=[], queries=len(queries), load=loadavg())
    if not cfg["emb"]:
        res["single"] = bench_single(store, heldout[len(queries) :])
    run: Json = {"stream": stream, "pos": 0, "facts": 0, "ingest_s": 0.0, "disks": disks}
    deadline = time.monotonic() + cfg["budget"]
    for size in cfg["sizes"]:  # a size is not started if, at the rate so far, it cannot fit
        need_s = (size - run["facts"]) * run["ingest_s"] / max(run["facts"], 1)
        if need_s > deadline - time.monotonic() or not grow(store, run, stream, size, deadline):
            rate = f"{run['pos'] / max(run['ingest_s'], 1e-9):.0f} msg/s"
            res["not_measured"].append(
                f"{size:,} facts: does not fit the {cfg['budget']} s ingest budget; stopped at "
                f"{run['facts']:,} facts ({run['pos']:,} msgs) with a measured {rate}"
            )
            print(f"{name} {res['not_measured'][-1]}", flush=True)
            break
        run["embed_s"] = embedder.compute_s if embedder is not None else 0.0
        res["sizes"].append(measure_size(store, cfg, run, size, queries))
        Path(cfg["out"]).write_text(json.dumps(res, default=str))  # kept if a later step fails
        print(f"{name} {run['facts']:,} facts measured", flush=True)
    if cfg["engine"] == "neo4j" and res["sizes"]:
        from _neo4j_profile import profile_cypher

        res["profile"] = profile_cypher(cfg, AUTH, store, queries, embedder, run["facts"])
        res["neo4j_server"] = machine_info(cfg["neo4j_uri"])["neo4j_server"]
    if embedder is not None:
        vectors.write_bytes(pickle.dumps(embedder.cache))
    store.close()
    if cfg["engine"] == "ladybug":
        res["closed_mb"] = size_mb(disks[0][1])
    res["load"] += f" at start, {loadavg()} at end"
    return res


def loadavg() -> str:
    return " / ".join(f(x, 2) for x in os.getloadavg())


def f(x: Any, digits: int = 1) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def tag(run: Json, sep: str = " | ") -> str:
    return f"{run['engine']}{sep}{'MiniLM' if run['emb'] else 'off'}"


def table(head: str, rows: list[str]) -> str:
    return "\n".join([f"| {head} |", "|" + "---|" * (head.count("|") + 1), *rows])


def bulk_rate(run: Json, s: Json) -> str:
    rate = f(s["msgs"] / s["ingest_s"], 0)
    return rate + (f" ({f(s['msgs'] / (s['ingest_s'] - s['embed_s']), 0)})" if run["emb"] else "")


def size_rows(runs: list[Json]) -> tuple[list[str], list[str]]:
    """Rows of the per-size table and of the as-of table."""
    rows, asof = [], []
    for r in runs:
        for s in r.get("sizes", []):
            now, past = (f"{f(x['p50'])} / {f(x['p95'])}" for x in (s["now"], s["past"]))
            now, past = (
                v + (f" (n={s[k]['n']})" if s[k]["n"] < r["queries"] else "")
                for k, v in (("now", now), ("past", past))
            )
            disk = ", ".join(f"{k} {f(v)}" for k, v in s["disk_mb"].items())
            rows.append(
                f"| {tag(r)} | {s['facts']:,} | {s['msgs']:,} | {bulk_rate(r, s)} | "
                f"{now} | {past} | "
                f"{f(s['rss_mb'], 0)} | {f(s['jvm_hwm_mb'], 0)} | {disk} |"
            )
            for depth, a in s.get("asof", {}).items():
                asof.append(
                    f"| {tag(r)} | {s['facts']:,} | {depth} | {f(a['p50'])} / {f(a['p95'])} | "
                    f"{f(a['p50'] / s['asof']['1']['p50'], 2)}x | {f(a['snapshot_p50'], 0)} | "
                    f"{'yes' if a['found'] else 'NO'} |"
                )
    return rows, asof


def target_cells(runs: list[Json]) -> Json:
    def at100k(emb: bool) -> str:
        r = next((r for r in runs if r["engine"] == "ladybug" and r["emb"] == emb), {})
        s = next((s for s in r.get("sizes", []) if s["size"] == 100_000), None)
        return f"p95 {f(s['now']['p95'])} ms (now), {f(s['past']['p95'])} ms (past)" if s else "-"

    single = [
        f"{r['engine']} p50 {f(x['p50'])} / p95 {f(x['p95'])} / mean {f(x['mean'])} ms "
        f"({f(x['msgs_s'], 0)} msg/s)"
        for r in runs
        if (x := r.get("single"))
    ]
    bulk = [f"{tag(r, ' ')} {bulk_rate(r, r['sizes'][-1])}" for r in runs if r.get("sizes")]
    firsts = [(r, next((s["asof"] for s in r.get("sizes", []) if "asof" in s), None)) for r in runs]
    asof = [f"{tag(r, ' ')} {f(a['100']['p50'] / a['1']['p50'], 2)}x" for r, a in firsts if a]
    cells = {"t_plain": at100k(False), "t_emb": at100k(True), "t_single": single}
    cells.update(t_bulk=bulk, t_asof=asof)
    return {k: v if isinstance(v, str) else "; ".join(v) or "-" for k, v in cells.items()}


def hot_lines(runs: list[Json]) -> list[str]:
    out = []
    for r in runs:
        for hot in (s["hot"] for s in r.get("sizes", []) if "hot" in s):
            port = ", ".join(f"{k} {f(v)}" for k, v in hot["port_ms"].items())
            out.append(f"- **{tag(r)}**: {f(hot['total_ms'])} ms per recall under cProfile; ")
            out[-1] += f"by call (ms per recall, cumulative): {port}"
            out += [f"  - `{n}` {f(ms)} ms own ({f(100 * p, 0)} %)" for n, ms, p in hot["top"]]
    return out


def profile_lines(runs: list[Json]) -> list[str]:
    out = []
    for r in (r for r in runs if r.get("profile")):
        p = r["profile"]
        rows = [
            f"| {name} | {'<br>'.join(st['index_ops']) or '-'} | {st['db_hits']:,} | "
            f"{st['rows']:,} | {', '.join(st['scans']) or 'none'} |"
            for name, st in p["statements"].items()
        ]
        out += [f'At {p["facts"]:,} facts ({tag(r)}), query "{p["query"]}":', ""]
        out += [table("statement | index operators | db hits | rows | label/type scans", rows), ""]
    return out or ["- no Neo4j run"]


TEMPLATE = """# Scale benchmark results

`{command}`: {date} UTC, {wall} min. Machine: {cores} cores, {ram} GB RAM, {platform}; Python \
{python}; bitemporal-memory {bitemporal-memory}, ladybug {ladybug}, neo4j driver {neo4j}, spacy \
{spacy}, onnxruntime {onnxruntime}; Neo4j server {neo4j_server} (heap 2g, page cache 1g). Load \
average (1/5/15 min) {load_start} at start, {load_end} at end: other work shares the machine.

{describe}

| target | measured |
|---|---|
| embedded 100k recall p95 <= 20 ms, no embeddings | {t_plain} |
| embedded 100k recall p95 <= 60 ms with embeddings (query embedding excluded) | {t_emb} |
| remember <= 10 ms per short message ({single_calls} held-out messages) | {t_single} |
| bulk import >= 1,000 msg/s (at the largest size measured) | {t_bulk} |
| as-of recall at 100 versions within 1.5x of 1 version (p50) | {t_asof} |

## Per size

Size = facts (one per statement; a message may hold several) from `remember_many(chunk=500)` of \
the timestamp-sorted stream; facts = the exact count measured. msg/s: cumulative bulk import (in \
brackets: without MiniLM). Recall: hybrid, k=10, ms p50 / p95 over {queries} held-out messages \
(half questions; n = fewer if 90 s per basis ran out); now = current time, past = the stream's \
midpoint; query vectors pre-computed. Peak RSS: the benchmark process (incl. MiniLM and a vector \
cache). JVM: Neo4j's VmHWM. Disk MB: LadybugDB file + WAL while open (after close: {closed}); \
Neo4j store and transaction logs of the whole server.

{main}

## As-of recall against lineage depth

Lineages of 1, 10 and 100 versions (`correct(text=...)`, 1 ms apart) added at the as-of size; \
recall (ms p50 / p95) and snapshot (ms p50) at a basis inside each history (the middle version); \
top = recall's first hit is that version.

{asof}

## Hot spots (cProfile, 20 recalls at the as-of size)

{hot}

## Neo4j PROFILE of the recall statements

{profile}

## Not measured

{missing}
"""


def render(info: Json, runs: list[Json]) -> str:
    missing = [f"- {tag(r)}: {m}" for r in runs for m in r.get("not_measured", [])]
    closed = [f"{tag(r, ' ')} {f(r['closed_mb'])}" for r in runs if "closed_mb" in r]
    rows, asof = size_rows(runs)
    head = "engine | embeddings | facts | messages | bulk msg/s | recall now | recall past | "
    asof_head = "engine | embeddings | facts | versions | recall | vs 1 version | snapshot | top"
    fields = {
        **{k: v for k, v in info.items() if isinstance(v, str | int)},
        "describe": "\n".join(
            f"- {tag(r)}: commit {r.get('commit', '?')}, load {r.get('load', '-')}, "
            f"`{r.get('describe', 'failed')}`"
            for r in runs
        ),
        "queries": next((r["queries"] for r in runs if "queries" in r), "?"),
        "closed": "; ".join(closed) or "-",
        "main": table(head + "peak RSS MB | JVM MB | disk MB", rows),
        "single_calls": SINGLE_CALLS,
        "asof": table(asof_head, asof),
        "hot": "\n".join(hot_lines(runs)) or "- none",
        "profile": "\n".join(profile_lines(runs)),
        "missing": "\n".join(missing) or "- nothing",
        **target_cells(runs),
    }
    return TEMPLATE.format_map(fields)


def neo4j_sh(command: str) -> None:
    subprocess.run([str(NEO4J_SH), command], env={**os.environ, **NEO4J_ENV}, check=True)


def start_neo4j() -> tuple[str, int | None, str]:
    neo4j_sh("stop")  # a leftover of an earlier run of this benchmark, if any
    shutil.rmtree(NEO4J_ENV["NEO4J_DATA_DIR"], ignore_errors=True)
    neo4j_sh("start")
    pid_file = Path(NEO4J_ENV["NEO4J_RUN_DIR"]) / "neo4j.pid"
    pid = int(pid_file.read_text()) if pid_file.exists() else None
    return f"bolt://127.0.0.1:{NEO4J_ENV['NEO4J_PORT']}", pid, NEO4J_ENV["NEO4J_DATA_DIR"]


def machine_info(uri: str | None) -> Json:
    mem = int(Path("/proc/meminfo").read_text().split()[1])
    info: Json = {"cores": os.cpu_count(), "ram": f(mem / 2**20), "platform": platform.platform()}
    info.update(python=sys.version.split()[0], neo4j_server="-")
    for pkg in ("bitemporal-memory", "ladybug", "neo4j", "spacy", "onnxruntime"):
        try:
            info[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            info[pkg] = "-"
    if uri:
        import neo4j

        with neo4j.GraphDatabase.driver(uri, auth=AUTH) as driver:
            records, _, _ = driver.execute_query("CALL dbms.components() YIELD versions, edition")
            info["neo4j_server"] = f"{records[0]['versions'][0]} {records[0]['edition']}"
    return info


def run_sub(cfg: Json, workdir: Path) -> Json:
    name = f"{cfg['engine']}{'-emb' if cfg['emb'] else ''}"
    cfg = {**cfg, "out": str(workdir / f"{name}.json")}
    (workdir / f"{name}.cfg.json").write_text(json.dumps(cfg))
    proc = subprocess.run([sys.executable, __file__, "--worker", str(workdir / f"{name}.cfg.json")])
    out, res = Path(cfg["out"]), {"engine": cfg["engine"], "emb": cfg["emb"]}
    res = json.loads(out.read_text()) if out.exists() else res
    if proc.returncode:  # what it measured before failing is kept
        res.setdefault("not_measured", []).append(f"the run failed (exit {proc.returncode})")
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engines", default="ladybug,neo4j")
    ap.add_argument("--sizes", default=None, help="facts; default 1000,10000,100000")
    ap.add_argument("--queries", type=int, default=None, help="default 200 (100 with --quick)")
    ap.add_argument("--embeddings", action="store_true", help="add runs with MiniLMEmbedder")
    ap.add_argument("--quick", action="store_true", help="sizes 1000,10000 (about 10 min)")
    ap.add_argument("--budget", default="", help="ingest s per run: ladybug=S,neo4j-emb=S,...")
    ap.add_argument("--neo4j-uri", default=None, help="use this server instead of a private one")
    ap.add_argument("--results", default=str(ROOT / "benchmarks" / "RESULTS.md"))
    ap.add_argument("--vectors", default="/tmp/bench-baselines-vectors.pkl", help="MiniLM cache")
    ap.add_argument("--save-runs", default=None, help="keep each run's JSON in this directory")
    ap.add_argument("--add-runs", default="", help="run JSONs of earlier invocations to report")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        cfg = json.loads(Path(args.worker).read_text())
        Path(cfg["out"]).write_text(json.dumps(run_worker(cfg), default=str))
        return
    sizes = [int(s) for s in (args.sizes or "1000,10000,100000").split(",")]
    sizes = [s for s in sizes if s <= 10_000] if args.quick and not args.sizes else sizes
    budgets = {"ladybug": 600, "neo4j": 480} if args.quick else {"ladybug": 1800, "neo4j": 900}
    budgets.update({e + "-emb": budgets.get(e, 900) for e in ("ladybug", "neo4j")})
    budgets.update((k, int(v)) for k, v in (b.split("=") for b in args.budget.split(",") if b))
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    load0, started = loadavg(), time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    uri, pid, data = args.neo4j_uri, None, None
    if "neo4j" in engines and uri is None:
        uri, pid, data = start_neo4j()
    try:
        info = machine_info(uri if "neo4j" in engines else None)
        base = {"sizes": sizes, "queries": args.queries or (100 if args.quick else 200)}
        base.update(workdir=str(workdir), neo4j_uri=uri, neo4j_pid=pid, neo4j_data=data)
        base.update(vectors=args.vectors)
        base["asof_size"] = 10_000 if 10_000 in sizes else max(sizes)
        runs = [
            run_sub({**base, "engine": e, "emb": emb, "budget": budgets[e + "-emb" * emb]}, workdir)
            for e in engines
            for emb in ([False, True] if args.embeddings else [False])
        ]
    finally:
        if pid is not None:
            neo4j_sh("stop")
        shutil.rmtree(workdir, ignore_errors=True)
    if args.save_runs:
        for r in runs:
            name = f"{r['engine']}{'-emb' if r['emb'] else ''}.json"
            Path(args.save_runs, name).write_text(json.dumps(r, default=str))
    runs += [json.loads(Path(p).read_text()) for p in args.add_runs.split(",") if p]
    info.update(load_start=load0, load_end=loadavg())
    servers = [r["neo4j_server"] for r in runs if r.get("neo4j_server")]
    if info["neo4j_server"] == "-" and servers:
        info["neo4j_server"] = servers[0]
    info.update(wall=f((time.monotonic() - started) / 60), date=f"{datetime.now(UTC):%F %H:%M}")
    info["command"] = " ".join(["benchmarks/bench_scale.py", *sys.argv[1:]])
    text = render(info, runs)
    print(text)
    Path(args.results).write_text(text)


if __name__ == "__main__":
    main()
