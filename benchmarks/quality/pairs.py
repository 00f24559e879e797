"""Short-pair benchmark: two-message conversations of the kinds issue 16 names (a new city,
employer, diet, car, number, manager, school, allergy, a cancelled trip, a habit stopped, in
English and Chinese), each in a fresh store, the second message a day after the first,
through `remember` only, no explicit supersede. An update is right when, a month later, no
sentence of the first message is still true and one of the second is; an addition when both
are. Data: `data/pairs_dev1.json` (written blind at stop 49, tuned on since),
`data/pairs_dev2.json` (written blind at stop 50, tuned on since), `data/pairs_dev3.json`
(written blind at the end of stop 50, tuned on from stop 51), `data/pairs_dev4.json` (written
blind at stop 51, tuned on from stop 52), `data/pairs_dev5.json` (written blind at stop 52,
read from stop 53), `data/pairs_dev6.json` (written blind at stop 53, read from stop 54),
`data/pairs_dev7.json` (written blind at stop 54, read from stop 55),
`data/pairs_dev8.json` (written blind at stop 55, read from stop 56),
`data/pairs_dev9.json` (written blind at stop 56, read from stop 57),
`data/pairs_dev10.json` (written blind at stop 57, read from stop 58),
`data/pairs_dev11.json` (written blind at stop 58, read from stop 59),
`data/pairs_dev12.json` (written blind at stop 59, read from stop 60),
`data/pairs_dev13.json` (written blind at stop 60, not read) and the
formation tests' `tests/contract/data/simple_pairs.json`.

    .venv/bin/python benchmarks/quality/pairs.py [--set NAME ...] [--out PATH]

Prints the table and the misses and writes them to `PAIRS.md`; asserts nothing, exits 0.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bitemporal_core import Basis, MemoryStore

HERE = Path(__file__).resolve().parent
SETS = {
    "pairs_dev1": HERE / "data" / "pairs_dev1.json",
    "pairs_dev2": HERE / "data" / "pairs_dev2.json",
    "pairs_dev3": HERE / "data" / "pairs_dev3.json",
    "pairs_dev4": HERE / "data" / "pairs_dev4.json",
    "pairs_dev5": HERE / "data" / "pairs_dev5.json",
    "pairs_dev6": HERE / "data" / "pairs_dev6.json",
    "pairs_dev7": HERE / "data" / "pairs_dev7.json",
    "pairs_dev8": HERE / "data" / "pairs_dev8.json",
    "pairs_dev9": HERE / "data" / "pairs_dev9.json",
    "pairs_dev10": HERE / "data" / "pairs_dev10.json",
    "pairs_dev11": HERE / "data" / "pairs_dev11.json",
    "pairs_dev12": HERE / "data" / "pairs_dev12.json",
    "pairs_dev13": HERE / "data" / "pairs_dev13.json",
    "simple_pairs": HERE.parents[1] / "tests" / "contract" / "data" / "simple_pairs.json",
}
T0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


def _true_texts(store: MemoryStore, days: float) -> set[str]:
    at = T0 + timedelta(days=days)
    return {f.text for f in store.snapshot("u", basis=Basis(valid_at=at, known_at=at))}


def judge(category: str, lang: str, old: str, new: str) -> bool:
    """Whether one pair comes out right (see the module's docstring)."""
    with MemoryStore.embedded() as store:
        store.remember(old, namespace="u", at=T0, language=lang)
        store.remember(new, namespace="u", at=T0 + timedelta(days=1), language=lang)
        after = _true_texts(store, 30)
    old_true = any(t in old for t in after)
    new_true = any(t in new for t in after)
    return (old_true and new_true) if category == "addition" else (new_true and not old_true)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "PAIRS.md"), help="'-' to write nothing")
    parser.add_argument("--set", action="append", choices=sorted(SETS), help="default: all")
    args = parser.parse_args()
    started = time.perf_counter()
    rows, misses = [], []
    for name, path in SETS.items():
        if args.set and name not in args.set:
            continue
        data = json.loads(path.read_text("utf-8"))
        for category in ("update", "addition"):
            for lang, pairs in data.get(category, {}).items():
                right = 0
                for old, new, *_ in pairs:
                    ok = judge(category, lang, old, new)
                    right += ok
                    if not ok:
                        misses.append(f"- {name} {category} {lang}: {old!r} -> {new!r}")
                rows.append(f"| {name} | {category} | {lang} | {right}/{len(pairs)} |")
    lines = [
        "# Short-pair benchmark",
        "",
        f"`.venv/bin/python benchmarks/quality/pairs.py` ({time.perf_counter() - started:.0f} s)."
        " Each pair in a fresh embedded store through `remember`, a day apart, no supersede;",
        "an update is right when only the second message is true a month later, an addition",
        "when both are.",
        "",
        "| set | category | lang | right |",
        "|---|---|---|---|",
        *rows,
        "",
        "Misses:",
        "",
        *(misses or ["- none"]),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
