"""Chinese words and concepts against the labelled set `benchmarks/data/zh_segmentation.jsonl`.

Scores the library's Chinese analysis (`ChineseExtractor`: normalisation, rjieba words and
tags, merges, the concept rule) by character span: word precision/recall/F1 (whitespace
ignored, punctuation counted) and concept P/R/F1 (every mention), per subset (simplified,
traditional, mixed with English, full-width) and in all. Ablations: raw `rjieba.tag` on the
text as written with the plain tag mapping (nouns + every numeral), and the pipeline without
its user dictionary (`USER_WORDS`). Then speed: characters per second of the segmenter alone
and of whole-sentence analysis, best of 5 passes. Prints a table; exits 0 (a measure, not a
test). The standard and the concept rule of the gold are in docs/chinese.md.

    .venv/bin/python benchmarks/zh_segmentation.py [--passes 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from bitemporal_core.language.extract import _zh_lexicon as lex
from bitemporal_core.language.extract import chinese

DATA = Path(__file__).resolve().parent / "data" / "zh_segmentation.jsonl"
SETS = ("simp", "trad", "mixed", "fullwidth", "all")
Spans = set[tuple[int, int]]


def load(path: Path = DATA) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def gold_spans(case: dict[str, Any]) -> tuple[Spans, Spans]:
    """The gold word spans (no whitespace words) and concept spans of a case."""
    words, concepts, at = set(), set(), 0
    wanted = list(case["concepts"])
    for word in case["words"]:
        span = (at, at + len(word))
        if word.strip():
            words.add(span)
        if wanted and word == wanted[0]:
            concepts.add(span)
            wanted.pop(0)
        at += len(word)
    return words, concepts


def pipeline(text: str) -> tuple[Spans, Spans]:
    """The library's words and concept mentions of one sentence."""
    words = chinese.ChineseExtractor().words(text)
    spans = {(w.start, w.end) for w in words if not w.norm.isspace()}
    return spans, {(a, b) for _, a, b in chinese.concept_spans(words)}


def raw_rjieba(text: str) -> tuple[Spans, Spans]:
    """`rjieba.tag` on the text as written; concepts: noun tags, eng and every numeral."""
    tags = lex.CONCEPT_TAGS | {"eng", "m", "mq"}
    words, concepts, at = set(), set(), 0
    for word, tag in chinese.segmenter().tag(text):
        span = (at, at + len(word))
        if word.strip():
            words.add(span)
        if tag in tags:
            concepts.add(span)
        at += len(word)
    return words, concepts


def _prf(tp: int, predicted: int, gold: int) -> str:
    p = tp / predicted if predicted else 0.0
    r = tp / gold if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return f"{100 * p:.1f} / {100 * r:.1f} / **{100 * f:.1f}**"


def score(cases: list[dict[str, Any]], run: Callable[[str], tuple[Spans, Spans]]) -> list[str]:
    """Table cells per subset: word P/R/F1 and concept P/R/F1."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0] * 6)
    for case in cases:
        gw, gc = gold_spans(case)
        pw, pc = run(case["text"])
        for group in (case["set"], "all"):
            c = counts[group]
            c[0] += len(pw & gw)
            c[1] += len(pw)
            c[2] += len(gw)
            c[3] += len(pc & gc)
            c[4] += len(pc)
            c[5] += len(gc)
    return [f"{_prf(*counts[s][:3])} | {_prf(*counts[s][3:])}" for s in SETS]


def _best(passes: int, fn: Callable[[], Any]) -> float:
    times = []
    for _ in range(passes):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def speed(texts: Iterable[str], passes: int) -> list[str]:
    texts = list(texts)
    chars = sum(map(len, texts))
    seg = chinese.segmenter()
    extractor = chinese.ChineseExtractor()
    rows = [
        ("rjieba.tag alone", lambda: [seg.tag(t) for t in texts]),
        ("normalise + words + concepts", lambda: [extractor.sentence(t) for t in texts]),
        ("keyword terms", lambda: [chinese.chinese_terms(t) for t in texts]),
    ]
    return [f"| {label} | {chars / _best(passes, fn):,.0f} |" for label, fn in rows]


def without_user_words(cases: list[dict[str, Any]]) -> list[str]:
    """The pipeline with an rjieba instance that has no user dictionary."""
    saved_words, saved = dict(lex.USER_WORDS), dict(chinese._segmenters)
    lex.USER_WORDS.clear()
    chinese._segmenters.clear()
    try:
        return score(cases, pipeline)
    finally:
        lex.USER_WORDS.update(saved_words)
        chinese._segmenters.clear()
        chinese._segmenters.update(saved)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--passes", type=int, default=5)
    args = ap.parse_args(argv)
    cases = load()
    n = {s: sum(c["set"] == s for c in cases) for s in SETS[:-1]} | {"all": len(cases)}
    print(f"{len(cases)} sentences; segmenter {chinese.ChineseExtractor().name}\n")
    print("| variant | set (sentences) | words P / R / F1 | concepts P / R / F1 |")
    print("|---|---|---|---|")
    variants = [
        ("library pipeline", score(cases, pipeline)),
        ("pipeline without user dictionary", without_user_words(cases)),
        ("raw rjieba.tag, nouns + numerals", score(cases, raw_rjieba)),
    ]
    for label, cells in variants:
        for s, cell in zip(SETS, cells, strict=True):
            print(f"| {label} | {s} ({n[s]}) | {cell} |")
    print("\n| step (10x the set) | characters/s, best of passes |\n|---|---|")
    print("\n".join(speed([c["text"] for c in cases] * 10, args.passes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
