"""A namespace's embeddings in the recall read model, kept compact: int8 codes with a scale
per row, a quarter of float32's memory.

Each vector is stored as the unit vector it points along (cosine is all a search asks), its
components divided by the largest one's 1/127 and rounded, so a component is off by at most
half a step (the row's scale / 2): a cosine by at most the sum of the query's components
times that, a few thousandths for sentence embeddings (docs/design.md, "Compact
embeddings"). A search converts the codes a block at a time into a buffer the thread keeps (a
fresh multi-megabyte array per block costs its page faults every time, several times the
product), so it never holds a float copy of the whole matrix and runs as fast as a float32
product: both are bound by reading memory. The database keeps every embedding as float32;
this is only the read model.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["UnitRows"]

_BLOCK = 8_192  # rows quantized at once when many are stored together
_BUFFER_BYTES = 1 << 20  # a search's conversion buffer, per thread: 682 rows at 384 dimensions
_STEPS = 127
_buffers = threading.local()


def _buffer(dim: int) -> npt.NDArray[np.float32]:
    """This thread's conversion buffer for rows of `dim` floats."""
    buffer: npt.NDArray[np.float32] | None = getattr(_buffers, "floats", None)
    if buffer is None or buffer.shape[1] != dim:
        buffer = np.empty((max(16, _BUFFER_BYTES // (4 * max(1, dim))), dim), np.float32)
        _buffers.floats = buffer
    return buffer


class UnitRows:
    """Unit vectors as int8 rows and a float32 scale each (zero rows: no vector)."""

    __slots__ = ("codes", "scales")

    def __init__(self, codes: npt.NDArray[np.int8], scales: npt.NDArray[np.float32]) -> None:
        self.codes = codes
        self.scales = scales

    @classmethod
    def empty(cls, capacity: int, dim: int) -> UnitRows:
        """Room for `capacity` vectors of `dim` dimensions, all zero."""
        return cls(np.zeros((capacity, dim), np.int8), np.zeros(capacity, np.float32))

    @classmethod
    def from_floats(cls, matrix: npt.ArrayLike) -> UnitRows:
        """Rows of floats (any lengths along them), each stored as its unit vector."""
        floats = np.asarray(matrix, np.float32)
        rows = cls.empty(*floats.shape)
        rows.set_many(range(len(floats)), floats)
        return rows

    @property
    def dim(self) -> int:
        return int(self.codes.shape[1])

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def nbytes(self) -> int:
        return int(self.codes.nbytes + self.scales.nbytes)

    def grown(self, capacity: int, keep: int) -> UnitRows:
        """A copy with room for `capacity` rows, the first `keep` kept."""
        rows = UnitRows.empty(capacity, self.dim)
        rows.codes[:keep], rows.scales[:keep] = self.codes[:keep], self.scales[:keep]
        return rows

    def set(self, i: int, vector: Sequence[float]) -> None:
        """Store `vector` (of `dim` floats) at row `i`."""
        self._put(slice(i, i + 1), np.asarray(vector, np.float32)[None, :])

    def set_many(
        self, rows: Sequence[int], vectors: Sequence[Sequence[float]] | npt.NDArray[np.float32]
    ) -> None:
        """Store each of `vectors` (of `dim` floats) at its row, quantized a block at a time."""
        for start in range(0, len(rows), _BLOCK):
            at = np.asarray(rows[start : start + _BLOCK], np.int64)
            self._put(at, np.asarray(vectors[start : start + _BLOCK], np.float32))

    def _put(self, rows: slice | npt.NDArray[np.int64], floats: npt.NDArray[np.float32]) -> None:
        norms = np.linalg.norm(floats, axis=1)
        unit = floats / np.where(norms > 0, norms, 1.0)[:, None]
        top = np.abs(unit).max(axis=1) if unit.shape[1] else np.zeros(len(unit), np.float32)
        scales = np.where(top > 0, top / _STEPS, 0.0).astype(np.float32)
        codes = np.rint(unit / np.where(scales > 0, scales, 1.0)[:, None])
        self.codes[rows] = np.clip(codes, -_STEPS, _STEPS).astype(np.int8)
        self.scales[rows] = scales

    def scores(self, query: Sequence[float], n: int) -> npt.NDArray[np.float32]:
        """Cosine of the first `n` rows with `query` (0 for rows without a vector)."""
        q = np.asarray(query, np.float32)
        norm = float(np.linalg.norm(q))
        if norm:
            q = q / norm
        out = np.empty(n, np.float32)
        buffer = _buffer(self.dim)
        for start in range(0, n, len(buffer)):
            stop = min(n, start + len(buffer))
            floats = buffer[: stop - start]
            np.copyto(floats, self.codes[start:stop], casting="unsafe")
            np.dot(floats, q, out=out[start:stop])
        out *= self.scales[:n]
        return out

    def arrays(self, n: int) -> dict[str, Any]:
        """The first `n` rows as the arrays a saved file holds (see `from_arrays`)."""
        return {"codes": self.codes[:n], "scales": self.scales[:n]}

    @classmethod
    def from_arrays(cls, saved: Any, rows: int) -> UnitRows | None:
        """Rows read back from a saved file of `rows` rows (float32 rows of an older file are
        converted), or None when the file does not hold them."""
        if "codes" in saved and "scales" in saved:
            codes, scales = saved["codes"], saved["scales"]
            ok = codes.dtype == np.int8 and scales.dtype == np.float32 and codes.ndim == 2
            ok = ok and scales.ndim == 1 and bool(np.isfinite(scales).all())
            return cls(codes, scales) if ok and len(codes) == len(scales) == rows else None
        if "vectors" in saved:
            floats = saved["vectors"]
            ok = floats.dtype == np.float32 and floats.ndim == 2 and len(floats) == rows
            return cls.from_floats(floats) if ok else None
        return None
