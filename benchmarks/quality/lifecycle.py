"""Lifecycle ablation: the quality benchmark with each memory-lifecycle feature on and off.

Replays the quality dataset (`run.py`) into one store per variant and asks every question in
hybrid mode, judging contexts as `run.py` does (right memory in context AND superseded memory
absent or marked). Variants:

- `baseline`: statements classified (kinds shown in the prompt), nothing else;
- `kinds off`: every statement stored as "said" (no classification, no kind in the prompt);
- `+abstraction`: `abstract()` every `--every` turns, at that turn's time;
- `+decay/reinforce`: `Lifecycle(half_life=30 days, reinforce=True)`; questions reinforce;
- `+prune`: decay as above and `prune(min_weight=0.05)` every `--every` turns;
- `+inferred`: `infer_relationships()` every `--every` turns;
- `all on`: abstraction, decay/reinforce, prune and inferred together.

Also times `context()` per question for the baseline and `all on` (same run, interleaved).
Prints a table and writes `LIFECYCLE.md`; asserts nothing.

    .venv/bin/python benchmarks/quality/lifecycle.py [--engine ladybug] [--vectors] [--every 100]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from run import (
    CATEGORIES,
    DATA,
    Conversation,
    Question,
    Result,
    _apply,
    evaluate,
    load,
    open_store,
    seed_fact_ids,
)

from bitemporal_core import Basis, Lifecycle, MemoryStore

HERE = Path(__file__).resolve().parent
OUT = HERE / "LIFECYCLE.md"
VARIANTS = (
    "baseline",
    "kinds off",
    "+abstraction",
    "+decay/reinforce",
    "+prune",
    "+inferred",
    "all on",
)
HALF_LIFE = timedelta(days=30)


class _Said:
    """A store whose remember/supersede record every statement as kind "said"."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store

    def remember(self, *args: Any, **kwargs: Any) -> Any:
        return self._store.remember(*args, kind="said", **kwargs)

    def supersede(self, *args: Any, **kwargs: Any) -> Any:
        return self._store.supersede(*args, kind="said", **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _features(variant: str) -> set[str]:
    if variant == "all on":
        return {"abstraction", "decay", "prune", "inferred"}
    return {variant.lstrip("+").split("/")[0]} - {"baseline", "kinds off"}


def _store(engine: str, variant: str, embedder: Any) -> MemoryStore:
    features = _features(variant)
    lifecycle = Lifecycle(
        half_life=HALF_LIFE if features & {"decay", "prune"} else None,
        reinforce=bool(features & {"decay", "prune"}),
        inferred_weight=0.5 if "inferred" in features else 0.0,
    )
    options: dict[str, Any] = {"lifecycle": lifecycle}
    if embedder is not None:
        options["embedder"] = embedder
    return open_store(engine, **options)


def ingest(store: MemoryStore, ns: str, conv: Conversation, variant: str, every: int) -> dict:
    """Replays the turns; runs the variant's periodic lifecycle operations at turn times."""
    features = _features(variant)
    target: Any = _Said(store) if variant == "kinds off" else store
    ids: dict[str, str] = {}
    texts = {}
    for i, turn in enumerate(conv.turns, start=1):
        texts[turn.id] = _apply(target, ns, turn, ids)
        if i % every:
            continue
        if "abstraction" in features:
            store.abstract(ns, at=turn.at)
        if "inferred" in features:
            store.infer_relationships(ns, at=turn.at)
        if "prune" in features:
            store.prune(ns, min_weight=0.05, at=turn.at)
    return texts


def ask(store: MemoryStore, ns: str, q: Question, k: int, max_tokens: int) -> tuple[str, float]:
    basis = Basis(valid_at=q.valid_at, known_at=q.known_at)
    start = time.perf_counter()
    context = store.context(q.text, namespace=ns, basis=basis, k=k, max_tokens=max_tokens)
    return context, time.perf_counter() - start


def replay(args: argparse.Namespace, conv: Conversation, embedder: Any, out: dict) -> None:
    stores = {}
    texts = {}
    for variant in args.variants:
        seed_fact_ids(f"lifecycle-{conv.id}")
        store = stores[variant] = _store(args.engine, variant, embedder)
        ns = f"lifecycle-{VARIANTS.index(variant)}-{conv.id}"
        store.forget(namespace=ns)
        start = time.perf_counter()
        texts[variant] = ingest(store, ns, conv, variant, args.every)
        out["ingest"][variant] = out["ingest"].get(variant, 0.0) + time.perf_counter() - start
    try:
        for q in conv.questions:
            for variant in args.variants:
                ns = f"lifecycle-{VARIANTS.index(variant)}-{conv.id}"
                store = stores[variant]
                context, secs = ask(store, ns, q, args.k, args.max_tokens)
                out["latency"].setdefault(variant, []).append(secs)
                out["results"].setdefault(variant, []).append(
                    evaluate(variant, q, context, texts[variant], store.counter)
                )
    finally:
        for variant, store in stores.items():
            if args.engine == "neo4j":
                store.forget(namespace=f"lifecycle-{VARIANTS.index(variant)}-{conv.id}")
            store.close()


def _pct(results: list[Result], category: str, attr: str) -> str:
    chosen = [getattr(r, attr) for r in results if category in ("all", r.category)]
    counted = [v for v in chosen if v is not None]
    return f"{100 * sum(counted) / max(1, len(counted)):.0f}%"


def table(out: dict) -> list[str]:
    head = "| variant | " + " | ".join(f"{c} (both)" for c in CATEGORIES)
    lines = [
        head + " | all: right | all: superseded ok | all: both | context p50 / p95 ms |",
        "|---|" + "---|" * (len(CATEGORIES) + 4),
    ]
    for variant in out["results"]:
        rs = out["results"][variant]
        cells = [_pct(rs, c, "both") for c in CATEGORIES]
        times = sorted(out["latency"][variant])
        p50 = statistics.median(times) * 1000
        p95 = times[int(0.95 * (len(times) - 1))] * 1000
        lines.append(
            f"| {variant} | " + " | ".join(cells) + f" | {_pct(rs, 'all', 'right')} "
            f"| {_pct(rs, 'all', 'stale_ok')} | {_pct(rs, 'all', 'both')} "
            f"| {p50:.1f} / {p95:.1f} |"
        )
    return lines


def changes(out: dict) -> list[str]:
    """The questions whose outcome differs from the baseline's, per variant."""
    base = {r.question: r.both for r in out["results"].get("baseline", [])}
    lines = []
    for variant, results in out["results"].items():
        won = sorted(r.question for r in results if r.both and base.get(r.question) is False)
        lost = sorted(r.question for r in results if not r.both and base.get(r.question))
        if won or lost:
            lines.append(f"- {variant}: now passing {won or 'none'}; now failing {lost or 'none'}")
    return lines or ["- no variant changes any question's outcome"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="ladybug", choices=["ladybug", "neo4j"])
    ap.add_argument("--vectors", action="store_true", help="add the MiniLM vector rank")
    ap.add_argument("--every", type=int, default=100, help="turns between lifecycle runs")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--max-tokens", type=int, default=800)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    ap.add_argument("--convs", type=int, default=0, help="only the first N conversations")
    args = ap.parse_args(argv)
    embedder = None
    if args.vectors:
        from bitemporal_core.providers.embeddings import MiniLMEmbedder

        embedder = MiniLMEmbedder()
    convs = load(DATA)[: args.convs or None]
    out: dict[str, Any] = {"results": {}, "latency": {}, "ingest": {}}
    started = time.perf_counter()
    for conv in convs:
        replay(args, conv, embedder, out)
        print(f"  {conv.id} ({time.perf_counter() - started:.0f}s)", file=sys.stderr)
    base = statistics.mean(out["latency"].get("baseline", [0.0]))
    every = statistics.mean(out["latency"].get("all on", [0.0]))
    command = (
        f".venv/bin/python benchmarks/quality/lifecycle.py --engine {args.engine}"
        f"{' --vectors' if args.vectors else ''} --every {args.every}"
    )
    ingest = ", ".join(f"{v} {s:.0f}s" for v, s in out["ingest"].items())
    text = "\n".join(
        [
            "# Lifecycle ablation (quality benchmark)",
            "",
            f"`{command}` (hybrid mode, k={args.k}, {args.max_tokens} tokens; "
            f"{sum(len(c.questions) for c in convs)} questions, "
            f"{sum(len(c.turns) for c in convs)} turns)",
            "",
            *table(out),
            "",
            f"Mean context() latency: baseline {base * 1000:.1f} ms, all on "
            f"{every * 1000:.1f} ms ({every / max(base, 1e-9):.2f}x). Ingest (with the "
            f"periodic lifecycle runs): {ingest}.",
            "",
            "Questions whose outcome differs from the baseline:",
            "",
            *changes(out),
            "",
        ]
    )
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
