"""Long-conversation recall benchmark: evidence recall on long two-person conversations.

Each conversation of `benchmarks/quality/conversations/` is fed to a memory turn by turn through
the public API (`remember(text, at=session start + 5 s per turn, speaker=, source=turn id,
session=)`); after the last session every question is asked with `recall(question, k=20)` at
the default basis (now). A question's evidence recall at k is the share of its evidence turns
among the turns the top k results came from; hit@k is whether any of them is. The "when" check:
for a temporal question whose answer is a day, is that day among the top five results' valid
days (`valid_from`)?

In the same run, over the same turns: **plain BM25** over "speaker: text" (k1 1.2, b 0.75, the
project's stemmed content words) and a **plain dense** baseline (cosine between the question's
embedding and each "speaker: text" turn's, with the dense embedder); their "when" day is the
session's date. Systems: `bm25`, `dense`, `ours` (default recall, no embedder) and
`ours+<embedder>` (default recall with the embedder). Tuning split (four conversations, where
weights were chosen) and check split (two, no weight chosen on them; the facts formation
retired in both were read when its event rule was written) are reported apart.

    .venv/bin/python benchmarks/quality/longconv.py [--embedder minilm] [--engine ladybug]
        [--split all|tuning|check] [--out benchmarks/quality/LONGCONV.md]

Prints the tables and writes them to `LONGCONV.md`; asserts nothing, exits 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from longconv_data import (
    CATEGORIES,
    CHECK,
    HERE,
    KS,
    TUNING,
    Answer,
    Conversation,
    PlainBM25,
    PlainDense,
    load,
    mean,
    memory_answer,
    plain_answer,
    remember_all,
)

from bitemporal_core import MemoryStore

COMMAND = ".venv/bin/python benchmarks/quality/longconv.py"
K = 20  # recalled per question (R@5 and R@10 read its prefix)


def make_embedder(name: str) -> Any:
    """The embedder called `name` on the command line (None for "none")."""
    if name == "none":
        return None
    if name == "minilm":
        from bitemporal_core.providers.embeddings import MiniLMEmbedder

        return MiniLMEmbedder()
    if name == "e5":
        from bitemporal_core.providers.embeddings import E5Embedder

        return E5Embedder()
    raise SystemExit(f"unknown embedder {name!r}")


def open_store(engine: str, **options: Any) -> MemoryStore:
    """An in-memory LadybugDB store, or a Neo4j one from NEO4J_URI/USER/PASSWORD."""
    if engine == "ladybug":
        return MemoryStore.embedded(**options)
    uri = os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687")
    auth = (
        os.environ.get("NEO4J_USER", "neo4j"),
        os.environ.get("NEO4J_PASSWORD", "bitemporal-test"),
    )
    return MemoryStore.neo4j(uri, auth=auth, **options)


def run_memory(
    system: str, conv: Conversation, store: MemoryStore, timings: dict[str, list[float]]
) -> list[Answer]:
    """Feed the conversation, then ask every question (recall at the default basis)."""
    t0 = time.perf_counter()
    remember_all(store, conv)
    timings.setdefault(f"{system} ingest s", []).append(time.perf_counter() - t0)
    answers = []
    for q in conv.questions:
        t1 = time.perf_counter()
        hits = store.recall(q.question, namespace=conv.id, k=K)
        timings.setdefault(f"{system} recall ms", []).append(1000 * (time.perf_counter() - t1))
        answers.append(memory_answer(system, conv, q, hits))
    return answers


def run_plain(conv: Conversation, embedder: Any) -> list[Answer]:
    """The two plain baselines over the conversation's turns."""
    keyword = PlainBM25(conv.turns)
    answers = [plain_answer("bm25", conv, q, keyword.search(q.question, K)) for q in conv.questions]
    if embedder is not None:
        dense = PlainDense(conv.turns, embedder.embed)
        answers += [
            plain_answer("dense", conv, q, dense.search(embedder.embed_query(q.question), K))
            for q in conv.questions
        ]
    return answers


def execute(
    convs: Sequence[Conversation], engine: str, embedder: Any, make_ours: Callable[..., Any]
) -> tuple[list[Answer], dict[str, list[float]], list[str]]:
    """Every system on every conversation; the answers, timings and system names."""
    systems = ["bm25", *(["dense"] if embedder is not None else []), "ours"]
    if embedder is not None:
        systems.append(f"ours+{embedder_label(embedder)}")
    answers: list[Answer] = []
    timings: dict[str, list[float]] = {}
    for conv in convs:
        answers += run_plain(conv, embedder)
        for system in systems[systems.index("ours") :]:
            options = {} if system == "ours" else {"embedder": embedder}
            with make_ours(engine, **options) as store:
                if engine == "neo4j":
                    store.forget(namespace=conv.id)
                answers += run_memory(system, conv, store, timings)
        print(f"  {conv.id}: done", file=sys.stderr)
    return answers, timings, systems


def embedder_label(embedder: Any) -> str:
    return str(getattr(embedder, "label", None) or embedder.name.split("/")[-1].split("@")[0])


# --- the report -------------------------------------------------------------------------------
def _pick(answers: list[Answer], system: str, names: Sequence[str], category: str | None):
    return [
        a
        for a in answers
        if a.system == system
        and a.conversation in names
        and (category is None or a.question.category == category)
    ]


def recall_table(answers: list[Answer], systems: list[str], names: Sequence[str]) -> list[str]:
    """Evidence R@5/10/20 and hit@k per category and system, with ours / BM25 at R@10."""
    lines = [
        "| category | system | R@5 | R@10 | R@20 | hit@5 | hit@10 | hit@20 | R@10 / BM25 |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for category in (*CATEGORIES, None):
        base = mean(a.recall(10) for a in _pick(answers, "bm25", names, category))
        for system in systems:
            chosen = _pick(answers, system, names, category)
            if not chosen:
                continue
            label = f"{category or 'all'} ({len(chosen)})"
            r = [mean(a.recall(k) for a in chosen) for k in KS]
            h = [mean(a.hit(k) for a in chosen) for k in KS]
            cells = " | ".join(f"{v:.3f}" for v in r + h)
            lines.append(f"| {label} | {system} | {cells} | {r[1] / base:.2f}x |")
    return lines


def when_table(answers: list[Answer], systems: list[str], names: Sequence[str]) -> list[str]:
    lines = ["| system | right day in the top 5 | of |", "|---|---:|---:|"]
    for system in systems:
        checks = [a.day_exact for a in _pick(answers, system, names, None)]
        done = [c for c in checks if c is not None]
        lines.append(f"| {system} | {mean(done):.0%} | {len(done)} |")
    return lines


def versus_table(answers: list[Answer], systems: list[str], names: Sequence[str]) -> list[str]:
    """Per question, at R@10: better than, equal to or worse than plain BM25."""
    base = {a.question.id: a.recall(10) for a in _pick(answers, "bm25", names, None)}
    lines = ["| system | better than BM25 | equal | worse |", "|---|---:|---:|---:|"]
    for system in systems[1:]:
        mine = {a.question.id: a.recall(10) for a in _pick(answers, system, names, None)}
        better = sum(mine[q] > base[q] for q in mine)
        worse = sum(mine[q] < base[q] for q in mine)
        lines.append(f"| {system} | {better} | {len(mine) - better - worse} | {worse} |")
    return lines


def report(
    answers: list[Answer],
    timings: dict[str, list[float]],
    systems: list[str],
    convs: Sequence[Conversation],
    header: list[str],
) -> str:
    out = list(header)
    splits = [("tuning", TUNING), ("check", CHECK)]
    present = {c.id for c in convs}
    for split, names in splits:
        names = tuple(n for n in names if n in present)
        if not names:
            continue
        n_q = sum(len(c.questions) for c in convs if c.id in names)
        n_t = sum(len(c.turns) for c in convs if c.id in names)
        out += [
            "",
            f"## {split.capitalize()} split: {', '.join(names)} ({n_t} turns, {n_q} questions)",
            "",
            *recall_table(answers, systems, names),
            "",
            "Day-exact answers to \"when\" questions (the answer's day among the top five's days):",
            "",
            *when_table(answers, systems, names),
            "",
            *versus_table(answers, systems, names),
        ]
    out += ["", "Timings (all conversations, this run):", ""]
    for name, values in timings.items():
        values = sorted(values)
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        out.append(f"- {name}: mean {mean(values):.1f}, p95 {p95:.1f} (n={len(values)})")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="ladybug", choices=["ladybug", "neo4j"])
    ap.add_argument("--embedder", default="minilm", help="minilm, e5, or none (no dense systems)")
    ap.add_argument("--split", default="all", choices=["all", "tuning", "check"])
    ap.add_argument("--out", default=str(HERE / "LONGCONV.md"), help="'-' to write nothing")
    args = ap.parse_args(argv)
    names = {"all": TUNING + CHECK, "tuning": TUNING, "check": CHECK}[args.split]
    convs = load(names)
    embedder = make_embedder(args.embedder)
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    answers, timings, systems = execute(convs, args.engine, embedder, open_store)
    with open_store(args.engine, embedder=embedder) as probe:
        described = probe.describe()
    argv_text = " ".join(argv if argv is not None else sys.argv[1:])
    header = [
        "# Long-conversation recall: results",
        "",
        f"`{COMMAND} {argv_text}`".replace(" `", "`"),
        "",
        f"Memory: `{described}`; recall(question, k={K}) at the default basis.",
        f"Load average before / after: {load_before[0]:.2f} / {os.getloadavg()[0]:.2f} "
        f"(2 shared cores); run time {time.perf_counter() - t0:.0f} s.",
    ]
    text = report(answers, timings, systems, convs, header)
    print(text)
    if args.out != "-":
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
