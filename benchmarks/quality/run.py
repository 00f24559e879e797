"""Quality benchmark: is the right memory in the injected context, and the superseded one not?

Replays the conversations in `benchmarks/quality/data/*.jsonl` (knowledge updates, time-travel
questions, long-range recall over hundreds of small-talk turns; English, and Chinese in the
`zh_*` files, in the same run) into four memories, then asks
every question at its basis `(valid_at, known_at)` and checks the context each memory injects:

- `recallm`: `store.context(..., mode="recallm")`, the concept graph alone;
- `hybrid`: `mode="hybrid"` (concept rank + BM25), no embedder;
- `hybrid+vectors`: `mode="hybrid"` on a store with `MiniLMEmbedder` (adds a vector rank);
- `vector baseline`: LangChain's `InMemoryVectorStore` over the same raw messages with the same
  MiniLM embeddings, top-k joined; it has no notion of time, so it only gets to see the messages
  sent up to the question's `known_at`.

A question passes "right" when every expected memory text is in the context, and "superseded"
when every superseded (or not-yet-true) text is absent or sits on a line marked "(no longer
true)"; the baseline has no marking. Prints the tables (per language, and the Chinese score
minus the English one), writes them to `RESULTS.md`; asserts nothing, exits 0. Deterministic:
fixed times, seeded filler, seeded fact ids.

    .venv/bin/python benchmarks/quality/run.py [--engine ladybug|neo4j] [--k 10] [--max-tokens 800]
        [--lang en zh]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset import DATA, LANGS, Conversation, Question, Turn, check, load
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore

from bitemporal_core import Basis, Formation, MemoryStore
from bitemporal_core.providers.embeddings import MiniLMEmbedder
from bitemporal_core.providers.tokens import TokenCounter

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
PAST_MARK = "(no longer true)"
BASELINE_HEADER = "Relevant earlier messages (most similar first):"
SYSTEMS = ("recallm", "hybrid", "hybrid+vectors", "vector baseline")
CATEGORIES = ("update", "time-travel/valid", "time-travel/known", "long-range")
ID_SEED = 20240501
COMMAND = ".venv/bin/python benchmarks/quality/run.py"


# --- the four memories ----------------------------------------------------------------------
class MiniLMEmbeddings(Embeddings):
    """The library's MiniLM model as a LangChain `Embeddings` (for the vector baseline)."""

    def __init__(self, model: MiniLMEmbedder) -> None:
        self._model = model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._model.embed(texts)

    def embed_query(self, text: str) -> list[float]:
        return self._model.embed_query(text)


def seed_fact_ids(seed: str) -> None:
    """Draw every id (facts, versions, messages) from a seeded generator instead of uuid4, so
    that ranking ties (broken by version id) fall the same way on every run. Benchmark-only:
    it replaces `uuid.uuid4` in this process."""
    rng = random.Random(seed)
    uuid.uuid4 = lambda: uuid.UUID(int=rng.getrandbits(128), version=4)


def open_store(engine: str, **options: Any) -> MemoryStore:
    """An in-memory LadybugDB store, or a Neo4j one from NEO4J_URI/USER/PASSWORD. Automatic
    updates are off: this benchmark measures its explicit supersede/correct/retract calls
    (`stream.py` measures the automatic ones); small talk still stays out of the facts."""
    options.setdefault("formation", Formation(updates="off"))
    if engine == "ladybug":
        return MemoryStore.embedded(**options)
    uri = os.environ.get("NEO4J_URI", "bolt://127.0.0.1:7687")
    auth = (
        os.environ.get("NEO4J_USER", "neo4j"),
        os.environ.get("NEO4J_PASSWORD", "bitemporal-test"),
    )
    return MemoryStore.neo4j(uri, auth=auth, **options)


def _apply(store: MemoryStore, ns: str, turn: Turn, ids: dict[str, str]) -> list[str]:
    """Makes the store call for one turn; returns the fact text(s) it recorded."""
    when: dict[str, Any] = {}
    if turn.valid_from is not None:
        when["valid_from"] = turn.valid_from
    if turn.valid_to is not None:
        when["valid_to"] = turn.valid_to
    if turn.op == "say":
        assert turn.text is not None
        facts = store.remember(turn.text, namespace=ns, at=turn.at, speaker="user", **when)
        if facts:  # small talk and questions stay messages (memory formation)
            ids[turn.id] = facts[0].id
        elif not turn.filler:
            print(f"  note: {turn.id} was kept as a message only", file=sys.stderr)
        return [f.text for f in facts]
    assert turn.of is not None
    target = ids[turn.of]
    if turn.op == "supersede":
        assert turn.text is not None
        fact = store.supersede(target, turn.text, at=turn.at, speaker="user", **when)
    elif turn.op == "correct":
        fact = store.correct(target, text=turn.text, at=turn.at, **when)
    elif turn.op == "retract":
        store.retract(target, at=turn.at)
        return []
    else:
        raise ValueError(f"{turn.id}: unknown op {turn.op!r}")
    ids[turn.id] = fact.id
    return [fact.text]


def ingest_store(store: MemoryStore, ns: str, conv: Conversation) -> dict[str, list[str]]:
    """Replays a conversation into a store; returns each turn's recorded fact text(s)."""
    ids: dict[str, str] = {}
    texts = {}
    for turn in conv.turns:
        texts[turn.id] = _apply(store, ns, turn, ids)
        if len(texts[turn.id]) > 1 and not turn.filler:
            print(f"  note: {turn.id} was split into {len(texts[turn.id])} facts", file=sys.stderr)
    return texts


def ingest_baseline(embeddings: Embeddings, conv: Conversation) -> InMemoryVectorStore:
    """Every raw message of the conversation in a LangChain vector store, with its send time."""
    vs = InMemoryVectorStore(embeddings)
    vs.add_texts(
        [t.said for t in conv.turns],
        metadatas=[{"at": t.at.timestamp(), "turn": t.id} for t in conv.turns],
        ids=[t.id for t in conv.turns],
    )
    return vs


def baseline_context(
    vs: InMemoryVectorStore, q: Question, k: int, max_tokens: int, counter: TokenCounter
) -> str:
    """Top-k messages sent by `known_at`, best first, lowest dropped until within budget."""
    cutoff = q.known_at.timestamp()
    docs = vs.similarity_search(q.text, k=k, filter=lambda d: d.metadata["at"] <= cutoff)
    lines = [f"- {d.page_content}" for d in docs]
    while lines and counter.count("\n".join([BASELINE_HEADER, *lines])) > max_tokens:
        lines.pop()
    return "\n".join([BASELINE_HEADER, *lines]) if lines else "No earlier messages."


# --- judging --------------------------------------------------------------------------------
@dataclass
class Result:
    system: str
    lang: str
    category: str
    question: str
    right: bool | None  # None: the question expects no memory
    stale_ok: bool | None  # None: the question names no superseded memory
    tokens: int
    missing: list[str]
    leaked: list[str]

    @property
    def both(self) -> bool:
        return self.right is not False and self.stale_ok is not False


def judge(context: str, expect: list[str], stale: list[str]) -> tuple[list[str], list[str]]:
    """The expected texts missing from the context, and the stale texts on unmarked lines."""
    lines = context.splitlines()
    missing = [t for t in expect if not any(t in line for line in lines)]
    leaked = [t for t in stale if any(t in line and PAST_MARK not in line for line in lines)]
    return missing, leaked


def _texts(refs: Iterable[str], texts: dict[str, list[str]]) -> list[str]:
    return [t for ref in refs for t in texts[ref]]


def evaluate(
    system: str,
    lang: str,
    q: Question,
    context: str,
    texts: dict[str, list[str]],
    counter: TokenCounter,
) -> Result:
    missing, leaked = judge(context, _texts(q.expect, texts), _texts(q.stale, texts))
    return Result(
        system=system,
        lang=lang,
        category=q.category,
        question=q.id,
        right=(not missing) if q.expect else None,
        stale_ok=(not leaked) if q.stale else None,
        tokens=counter.count(context),
        missing=missing,
        leaked=leaked,
    )


# --- the run --------------------------------------------------------------------------------
@dataclass
class Run:
    engine: str
    k: int
    max_tokens: int
    results: list[Result] = field(default_factory=list)
    contexts: dict[tuple[str, str], str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    describe: str = ""


def _timed(run: Run, label: str, fn: Callable[..., Any], *args: Any) -> Any:
    start = time.perf_counter()
    value = fn(*args)
    run.timings[label] = run.timings.get(label, 0.0) + time.perf_counter() - start
    return value


def context_for(system: str, q: Question, run: Run, memories: dict[str, Any]) -> str:
    """The context block one system injects for a question at its basis."""
    if system == "vector baseline":
        counter = memories["plain"].counter
        return baseline_context(memories["baseline"], q, run.k, run.max_tokens, counter)
    store, ns = (
        (memories["vector"], memories["ns_vector"])
        if system == "hybrid+vectors"
        else (memories["plain"], memories["ns_plain"])
    )
    return store.context(
        q.text,
        namespace=ns,
        basis=Basis(valid_at=q.valid_at, known_at=q.known_at),
        k=run.k,
        max_tokens=run.max_tokens,
        mode="recallm" if system == "recallm" else "hybrid",
    )


def ask_all(run: Run, conv: Conversation, memories: dict[str, Any], texts: dict) -> None:
    """Asks every question of a conversation to every memory and judges the contexts."""
    counter = memories["plain"].counter
    for q in conv.questions:
        for system in SYSTEMS:
            context = _timed(run, f"ask {system}", context_for, system, q, run, memories)
            run.contexts[(system, q.id)] = context
            which = texts["baseline"] if system == "vector baseline" else texts["store"]
            run.results.append(evaluate(system, conv.lang, q, context, which, counter))


def replay(run: Run, conv: Conversation, model: MiniLMEmbedder) -> None:
    """One conversation, one user: fresh memories, replay every turn, ask every question."""
    seed_fact_ids(f"{ID_SEED}-{conv.id}")
    plain = open_store(run.engine)
    vector = open_store(run.engine, embedder=model)
    run.describe = vector.describe()
    ns_plain, ns_vector = f"quality-plain-{conv.id}", f"quality-vec-{conv.id}"
    try:
        for store, ns in ((plain, ns_plain), (vector, ns_vector)):
            store.forget(namespace=ns)  # a Neo4j database may hold an interrupted run
        store_texts = _timed(run, "ingest stores", ingest_store, plain, ns_plain, conv)
        _timed(run, "ingest stores", ingest_store, vector, ns_vector, conv)
        vs = _timed(run, "ingest baseline", ingest_baseline, MiniLMEmbeddings(model), conv)
        texts = {"store": store_texts, "baseline": {t.id: [t.said] for t in conv.turns}}
        memories = {"plain": plain, "vector": vector, "baseline": vs}
        memories |= {"ns_plain": ns_plain, "ns_vector": ns_vector}
        ask_all(run, conv, memories, texts)
    finally:
        for store, ns in ((plain, ns_plain), (vector, ns_vector)):
            if run.engine == "neo4j":
                store.forget(namespace=ns)
            store.close()


def execute(run: Run, convs: list[Conversation]) -> None:
    """Replays every conversation into the four memories and asks its questions."""
    model = MiniLMEmbedder()
    started = time.perf_counter()
    for conv in convs:
        replay(run, conv, model)
        done = time.perf_counter() - started
        print(f"  {conv.id}: {len(conv.turns)} turns, asked ({done:.0f}s)", file=sys.stderr)


# --- the report -----------------------------------------------------------------------------
def _rate(values: list[bool | None]) -> str:
    counted = [v for v in values if v is not None]
    if not counted:
        return "-"
    return f"{100 * sum(counted) / len(counted):.0f}% ({sum(counted)}/{len(counted)})"


def _select(results: list[Result], system: str, category: str, lang: str = "all") -> list[Result]:
    return [
        r
        for r in results
        if r.system == system and category in ("all", r.category) and lang in ("all", r.lang)
    ]


def summary_table(results: list[Result]) -> list[str]:
    """Per category and system: right-in-context, superseded-ok, both, mean tokens."""
    lines = [
        "| category | system | right memory in context | superseded absent or marked "
        "| both | mean context tokens |",
        "|---|---|---|---|---|---|",
    ]
    for category in (*CATEGORIES, "all"):
        for system in SYSTEMS:
            rs = _select(results, system, category)
            if not rs:
                continue
            tokens = sum(r.tokens for r in rs) / len(rs)
            lines.append(
                f"| {category} ({len(rs)}) | {system} | {_rate([r.right for r in rs])} "
                f"| {_rate([r.stale_ok for r in rs])} | {_rate([r.both for r in rs])} "
                f"| {tokens:.0f} |"
            )
    return lines


def _share(rs: list[Result]) -> float:
    return 100 * sum(r.both for r in rs) / max(1, len(rs))


def both_table(results: list[Result], lang: str = "all") -> list[str]:
    """The share of questions passing both checks: categories by systems."""
    lines = ["| category | " + " | ".join(SYSTEMS) + " |", "|---|" + "---|" * len(SYSTEMS)]
    for category in (*CATEGORIES, "all"):
        n = len(_select(results, SYSTEMS[0], category, lang))
        if not n:
            continue
        cells = [f"{_share(_select(results, s, category, lang)):.0f}%" for s in SYSTEMS]
        lines.append(f"| {category} ({n}) | " + " | ".join(cells) + " |")
    return lines


def language_table(results: list[Result]) -> list[str]:
    """Both checks per language and system, and the Chinese score minus the English one."""
    lines = ["| language | " + " | ".join(SYSTEMS) + " |", "|---|" + "---|" * len(SYSTEMS)]
    shares = {}
    for lang in LANGS:
        n = len(_select(results, SYSTEMS[0], "all", lang))
        if not n:
            continue
        shares[lang] = [_share(_select(results, s, "all", lang)) for s in SYSTEMS]
        cells = [f"{v:.0f}%" for v in shares[lang]]
        lines.append(f"| {lang} ({n}) | " + " | ".join(cells) + " |")
    if len(shares) == len(LANGS):
        gaps = [f"{z - e:+.0f}" for e, z in zip(shares["en"], shares["zh"], strict=True)]
        lines.append("| zh - en (points) | " + " | ".join(gaps) + " |")
    return lines


def failure_table(run: Run, convs: list[Conversation]) -> list[str]:
    """One row per question some system fails: missing expected and/or unmarked stale."""
    by_key = {(r.system, r.question): r for r in run.results}
    lines = [
        "| question | category | valid_at / known_at | " + " | ".join(SYSTEMS) + " |",
        "|---|---|---|" + "---|" * len(SYSTEMS),
    ]
    for q in (q for conv in convs for q in conv.questions):
        cells = []
        for system in SYSTEMS:
            r = by_key[(system, q.id)]
            bad = ["missing"] * bool(r.missing) + ["stale"] * bool(r.leaked)
            cells.append("+".join(bad) or "ok")
        if any(c != "ok" for c in cells):
            basis = f"{q.valid_at:%Y-%m-%d} / {q.known_at:%Y-%m-%d}"
            lines.append(
                f"| {q.id}: {q.text} | {q.category} | {basis} | " + " | ".join(cells) + " |"
            )
    return lines


def dataset_line(convs: list[Conversation]) -> str:
    turns = [t for c in convs for t in c.turns]
    fillers = sum(t.filler for t in turns)
    questions = [q for c in convs for q in c.questions]
    per = ", ".join(f"{c} {sum(q.category == c for q in questions)}" for c in CATEGORIES)
    return (
        f"{len(convs)} conversations, {len(turns)} user turns ({len(turns) - fillers} memory "
        f"operations, {fillers} small-talk filler), {len(questions)} questions ({per})."
    )


def report(run: Run, convs: list[Conversation]) -> str:
    """RESULTS.md: configuration, dataset, both tables, the failures."""
    options = f"--engine {run.engine} --k {run.k} --max-tokens {run.max_tokens}"
    langs = sorted({c.lang for c in convs})
    if langs != list(LANGS):
        options += " --lang " + " ".join(langs)
    return "\n".join(
        [
            "# Quality benchmark: results",
            "",
            f"`{COMMAND} {options}`",
            "",
            f"Stores: `{run.describe}`. Vector baseline: LangChain `InMemoryVectorStore`, "
            "same MiniLM embeddings, messages sent up to `known_at`, top-k, same token budget.",
            "",
            f"Dataset: {dataset_line(convs)}",
            "",
            "Share of questions passing both checks, per language:",
            "",
            *language_table(run.results),
            "",
            "English, per category:",
            "",
            *both_table(run.results, "en"),
            "",
            "Chinese, per category:",
            "",
            *both_table(run.results, "zh"),
            "",
            *summary_table(run.results),
            "",
            "## Questions some system fails",
            "",
            "`missing`: an expected memory is not in the context; `stale`: a superseded or "
            "not-yet-true memory is in it, unmarked.",
            "",
            *failure_table(run, convs),
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="ladybug", choices=["ladybug", "neo4j"])
    ap.add_argument("--k", type=int, default=10, help="memories recalled per question")
    ap.add_argument("--max-tokens", type=int, default=800, help="context budget (tokens)")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--lang", nargs="*", default=list(LANGS), choices=LANGS, help="languages")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--show", nargs="*", default=[], help="print these questions' contexts")
    args = ap.parse_args(argv)
    convs = load(args.data, args.lang)
    for problem in check(convs):
        print(f"dataset: {problem}", file=sys.stderr)
    run = Run(engine=args.engine, k=args.k, max_tokens=args.max_tokens)
    start = time.perf_counter()
    execute(run, convs)
    text = report(run, convs)
    for key in ((system, qid) for qid in args.show for system in SYSTEMS):
        print(f"--- {key[0]} on {key[1]}:\n{run.contexts.get(key, '(no such question)')}\n")
    args.out.write_text(text, encoding="utf-8")
    print(text)
    timings = ", ".join(f"{label} {secs:.1f}s" for label, secs in run.timings.items())
    print(f"# {time.perf_counter() - start:.0f}s in all: {timings}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
