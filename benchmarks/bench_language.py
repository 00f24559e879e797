"""Statement analysis speed per character, English against Chinese, in one run.

The statements are the small talk and memory texts of the quality benchmark (English
`filler.json` and `*.jsonl`, Chinese `filler_zh.json` and `zh_*.jsonl`): each is analysed as
`remember` does (sentences, concepts, terms, kind: `Analyser.analyse`; valid time:
`Analyser.valid_time`). English runs on the default extractor (spaCy when installed) and on the
built-in tagger; Chinese on rjieba. The languages take turns on the same number of rounds,
each round with cold caches (normalised texts, words, stems); the best round of each counts.
Prints characters per second and the ratio; a measure, not a test (it exits 0).

    .venv/bin/python benchmarks/bench_language.py [--rounds 5] [--n 2000]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bitemporal_core.language.analysis import Analyser
from bitemporal_core.language.extract import chinese, terms
from bitemporal_core.language.normalise import normalise

DATA = Path(__file__).resolve().parent / "quality" / "data"
SAID = datetime(2024, 5, 6, 9, tzinfo=UTC)


def texts(lang: str, n: int, seed: int = 7) -> list[str]:
    """`n` statements of one language: memory texts, then seeded small talk."""
    pattern = "zh_*.jsonl" if lang == "zh" else "[!sz]*.jsonl"
    out = []
    for path in sorted(DATA.glob(pattern)):
        for line in path.read_text(encoding="utf-8").splitlines():
            event = json.loads(line) if line.strip() else {}
            if event.get("text") and event.get("op") in ("say", "supersede", "correct"):
                out.append(event["text"])
    spec = json.loads((DATA / ("filler_zh.json" if lang == "zh" else "filler.json")).read_text())
    rng = random.Random(seed)
    while len(out) < n:
        template = rng.choice(spec["templates"])
        out.append(re.sub(r"\{(\w+)\}", lambda m: rng.choice(spec["slots"][m.group(1)]), template))
    return out[:n]


def analyse_all(analyser: Analyser, batch: list[str]) -> None:
    for cached in (normalise, chinese._tag_words, terms.stem):  # each round starts cold
        cached.cache_clear()
    for text in batch:
        for st in analyser.analyse(text):
            analyser.valid_time(st.text, SAID, None, None)


def best(rounds: int, runs: dict[str, Callable[[], None]]) -> dict[str, float]:
    """The best time of each run over `rounds`, the runs taking turns."""
    times: dict[str, float] = {k: float("inf") for k in runs}
    for _ in range(rounds):
        for label, fn in runs.items():
            start = time.perf_counter()
            fn()
            times[label] = min(times[label], time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--n", type=int, default=2000, help="statements per language")
    args = ap.parse_args(argv)
    en, zh = texts("en", args.n), texts("zh", args.n)
    default, simple = Analyser(), Analyser(extractor="simple")
    for analyser in (default, simple):  # load the models before timing
        analyse_all(analyser, en[:5] + zh[:5])
    runs = {
        f"English, {default.extractor.extractors['en'].name}": lambda: analyse_all(default, en),
        "English, built-in tagger": lambda: analyse_all(simple, en),
        f"Chinese, {default.extractor.extractors['zh'].name}": lambda: analyse_all(default, zh),
    }
    chars = {label: sum(map(len, zh if label.startswith("Chinese") else en)) for label in runs}
    times = best(args.rounds, runs)
    zh_rate = next(chars[k] / times[k] for k in runs if k.startswith("Chinese"))
    print(f"{args.n} statements per language, best of {args.rounds} rounds taking turns\n")
    print("| statements | characters | chars/s | ms per statement | Chinese chars/s ÷ this |")
    print("|---|---|---|---|---|")
    for label in runs:
        rate = chars[label] / times[label]
        per = 1000 * times[label] / args.n
        print(f"| {label} | {chars[label]:,} | {rate:,.0f} | {per:.3f} | {zh_rate / rate:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
