"""Chinese text normalised for analysis, keeping its length (docs/chinese.md, "Normalisation").

Full-width letters, digits, punctuation and the ideographic space are folded to ASCII, and
traditional characters become simplified with OpenCC's character-level ``t2s`` (when
`opencc-pyo3` is installed; OpenCC was measured with no error on this project's traditional
sentences). The result has exactly the length of the input, so a span found in it (a word, a
time expression) is the same span of what the user wrote, and the stored text stays as written.
"""

from __future__ import annotations

import functools
import importlib
import threading
from typing import Any

from bitemporal_core.language.detect import has_han

__all__ = ["converter_name", "normalise"]

_FOLD = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_lock = threading.Lock()
_converter: list[Any] = []  # [OpenCC or None] once looked up


def _t2s() -> Any:
    """OpenCC's traditional -> simplified converter, or None if opencc-pyo3 is not installed."""
    with _lock:
        if not _converter:
            try:
                _converter.append(importlib.import_module("opencc_pyo3").OpenCC("t2s"))
            except ImportError:
                _converter.append(None)
        return _converter[0]


def converter_name() -> str | None:
    """ "opencc-t2s" when traditional characters are converted, else None."""
    return None if _t2s() is None else "opencc-t2s"


@functools.lru_cache(maxsize=1024)  # analysis, keyword terms and valid time read one statement
def normalise(text: str) -> str:
    """`text` with full-width forms folded and traditional characters simplified, of the same
    length, so offsets into it are offsets into `text`."""
    folded = text.translate(_FOLD)
    converter = _t2s() if has_han(folded) else None
    if converter is None:
        return folded
    converted = str(converter.convert(folded))
    if len(converted) == len(folded):
        return converted
    # A phrase rule changed the length: convert character by character instead.
    out = []
    for ch in folded:
        single = str(converter.convert(ch))
        out.append(single if len(single) == 1 else ch)
    return "".join(out)
