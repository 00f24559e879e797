"""Adversarial inputs (issue 20, item 7): time of `remember` per input size, and of its stages.

Every input within the length limit (100,000 characters) must be analysed in time linear in its
length. For each shape this prints the time of the whole `remember` (on an in-memory embedded
store) and of the analysis stages at each size, and the ratio of each time to the previous
size's, so a quadratic stage shows a ratio near 4 where the size doubles. Inputs over the limit
must be refused at once (the length check comes before any other pass).

    .venv/bin/python benchmarks/bench_adversarial.py            # every shape, sizes up to 98 KB
    .venv/bin/python benchmarks/bench_adversarial.py --quick    # sizes up to 16 KB
    .venv/bin/python benchmarks/bench_adversarial.py --shapes words,dates

A number, never a test: the unit tests check that a bounded path is taken (tests/unit).
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable
from datetime import UTC, datetime

from bitemporal_core import InvalidInput, MemoryStore
from bitemporal_core.language.claims import claims_of
from bitemporal_core.language.temporal import default_resolver
from bitemporal_core.language.worthiness import category

SHAPES: dict[str, Callable[[int], str]] = {
    "parens": lambda n: "(" * (n // 2) + "a" + ")" * (n // 2),
    "a,": lambda n: "a," * (n // 2),
    "one word": lambda n: "x" * n,
    "words": lambda n: ("I moved to Berlin on Monday. " * (n // 29 + 1))[:n],
    "dates": lambda n: ("on 2024-05-01 next month, " * (n // 26 + 1))[:n],
    "spaced parens": lambda n: ("(((a))) " * (n // 8 + 1))[:n],
}
SIZES = (4_000, 16_000, 32_000, 64_000, 98_000)
QUICK = (4_000, 8_000, 16_000)
WHEN = datetime(2024, 5, 1, tzinfo=UTC)


def _timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _stages(store: MemoryStore, text: str, namespace: str) -> dict[str, float]:
    """The whole `remember` (into a namespace of its own, so that only the input's length
    changes between sizes), then its analysis stages as `remember` runs them: the tagger
    (spaCy's pipeline) over the text, the worthiness rules and the claim rules over each
    sentence, and the time resolver over the text."""
    extractor, resolver = store.services.analyser.extractor, default_resolver()
    sentences = extractor.sentences(text)
    return {
        "remember": _timed(lambda: store.remember(text, namespace=namespace)),
        "tagger": _timed(lambda: extractor.sentences(text)),
        "worth": _timed(lambda: [category(s.text, s.tokens) for s in sentences]),
        "claims": _timed(lambda: [claims_of(s.text, s.tokens) for s in sentences]),
        "time": _timed(lambda: resolver.resolve(text, WHEN)),
    }


def main() -> None:
    """Print one table per input shape and the refusal times of over-long inputs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 16 KB")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated shapes")
    args = parser.parse_args()
    sizes, shapes = QUICK if args.quick else SIZES, args.shapes.split(",")
    store = MemoryStore.embedded(None)
    store.remember("Warm up: I live in Lyon.", namespace="warm")
    print(f"{store.describe()}\n")
    for index, name in enumerate(shapes):
        make = SHAPES[name]
        print(f"{name}: seconds (ratio to the previous size)")
        header = _stages(store, make(100), "warm")
        print(f"{'chars':>8} " + " ".join(f"{s:>16}" for s in header))
        before: dict[str, float] = {}
        for n in sizes:
            times = _stages(store, make(n), f"bench-{index}-{n}")
            cells = []
            for stage, secs in times.items():
                ratio = f"({secs / before[stage]:.1f}x)" if before.get(stage) else ""
                cells.append(f"{secs:>9.3f} {ratio:>6}")
            print(f"{n:>8} " + " ".join(cells))
            before = times
        print()
    for label, text in (("100,001 chars", "a" * 100_001), ("50 MB whitespace", " " * 50_000_000)):
        start = time.perf_counter()
        with contextlib.suppress(InvalidInput):
            store.remember(text, namespace="bench")
        print(f"refused {label}: {time.perf_counter() - start:.4f} s")
    store.close()


if __name__ == "__main__":
    main()
