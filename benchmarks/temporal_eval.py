"""Share of statements whose valid time the default resolver gets right.

Reads the development cases: the shared ones (`shared/temporal/cases.jsonl` beside the
repository, or beside the folder that holds it; see its README) and the repository's Chinese
cases (`benchmarks/data/temporal_zh.jsonl`), or the files given with `--cases`:
each has `text`, `said_at`, `lang`, and either `from_range` (and maybe `to_range`) = [first day,
exclusive last day] where the resolved `valid_from` (`valid_to`) date must fall, or `none: true`
when the resolver must find no expression. Prints one line per failure, then the share correct
per language and for the traps. Always exits 0: it is a measure, not a test.

    python benchmarks/temporal_eval.py [--cases PATH ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from bitemporal_core.language.temporal import ResolvedTime, default_resolver

ROOT = Path(__file__).resolve().parent.parent
CHINESE_CASES = ROOT / "benchmarks" / "data" / "temporal_zh.jsonl"


def default_cases() -> list[Path]:
    """The shared cases (found beside the repository or one folder up: a worktree) and the
    repository's Chinese ones."""
    shared = [p / "shared" / "temporal" / "cases.jsonl" for p in (ROOT.parent, ROOT.parent.parent)]
    return [*[p for p in shared if p.exists()][:1], CHINESE_CASES]


def _utc_day(value: datetime) -> date:
    return value.astimezone(UTC).date()


def _in_range(value: datetime | None, bounds: list[str]) -> bool:
    if value is None:
        return False
    low, high = (date.fromisoformat(b) for b in bounds)
    return low <= _utc_day(value) < high


def check(case: dict[str, Any], result: ResolvedTime | None) -> str | None:
    """Why the result is wrong for the case, or None when it is right."""
    if case.get("none"):
        return None if result is None else f"expected no time, got {_show(result)}"
    if result is None:
        return f"expected from {case['from_range']}, got nothing"
    if not _in_range(result.valid_from, case["from_range"]):
        return f"valid_from not in {case['from_range']}: {_show(result)}"
    if "to_range" in case and not _in_range(result.valid_to, case["to_range"]):
        return f"valid_to not in {case['to_range']}: {_show(result)}"
    return None


def _show(result: ResolvedTime) -> str:
    end = result.valid_to.isoformat() if result.valid_to else "-"
    return f"[{result.valid_from.isoformat()}, {end}) from {result.expression!r}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cases", type=Path, nargs="+", help="cases.jsonl paths")
    args = parser.parse_args(argv)
    lines: list[tuple[str, int, str]] = []
    for path in args.cases or default_cases():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            print(f"cannot read cases: {e}", file=sys.stderr)
            continue
        print(f"cases: {path}")
        lines += [(path.name, n, line) for n, line in enumerate(text.splitlines(), start=1)]
    resolver = default_resolver()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name, number, line in lines:
        if not line.strip():
            continue
        case = json.loads(line)
        said_at = datetime.fromisoformat(case["said_at"].replace("Z", "+00:00"))
        try:
            problem = check(case, resolver.resolve(case["text"], said_at))
        except Exception as e:  # a crash is a failure of that case, not of the run
            problem = f"raised {type(e).__name__}: {e}"
        groups = [case.get("lang", "?")] + (["traps"] if case.get("trap") else [])
        for group in [*groups, "all"]:
            totals[group][0] += problem is None
            totals[group][1] += 1
        if problem is not None:
            print(f"FAIL {name}:{number} [{case.get('lang', '?')}] {case['text']!r}: {problem}")
    print(f"\n{'group':<8} {'correct':>8} {'cases':>6} {'share':>7}")
    for group in sorted(totals, key=lambda g: (g == "all", g == "traps", g)):
        ok, n = totals[group]
        print(f"{group:<8} {ok:>8} {n:>6} {ok / n:>7.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
