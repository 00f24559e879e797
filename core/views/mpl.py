"""matplotlib for the pictures of `views`: imported on first use, headless-safe.

On a machine without a display (and outside IPython/Jupyter) the non-interactive Agg backend
is selected, unless `MPLBACKEND` says otherwise or pyplot was already imported.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterable
from typing import Any

from bitemporal_core.errors import ConfigurationError

__all__ = ["CJK_FONTS", "axes", "cjk_font", "fonts_for", "mpl", "pyplot", "short"]

_LABEL_CHARS = 42
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Droid Sans Fallback",
    "Microsoft YaHei",
    "SimHei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Heiti SC",
    "Arial Unicode MS",
)
"""Fonts with simplified Chinese glyphs, in order of preference (Linux, Windows, macOS)."""


def _headless() -> bool:
    """Nothing could show a window: no display, and not inside IPython or Jupyter."""
    if "IPython" in sys.modules or "ipykernel" in sys.modules:
        return False
    if sys.platform in ("darwin", "win32"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def pyplot() -> Any:
    """`matplotlib.pyplot`, imported on first use (Agg when headless and nothing chosen)."""
    matplotlib = mpl("matplotlib")
    pyplot_loaded = "matplotlib.pyplot" in sys.modules
    if not pyplot_loaded and not os.environ.get("MPLBACKEND") and _headless():
        matplotlib.use("Agg")
    return mpl("matplotlib.pyplot")


def mpl(module: str) -> Any:
    """A matplotlib module (untyped here: matplotlib's own hints are partial)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ConfigurationError(
            "plots need matplotlib: pip install 'bitemporal-memory[plot]'"
        ) from e


def axes(ax: Any, size: tuple[float, float]) -> Any:
    """The given Axes, or the Axes of a new figure of `size` inches."""
    if ax is not None:
        return ax
    _, new = pyplot().subplots(figsize=size, layout="constrained")
    return new


def short(text: str, limit: int = _LABEL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


_CJK_FILE = re.compile(r"wqy|cjk|sourcehan|droidsansfallback|simhei|msyh|pingfang", re.I)


def _installed(fm: Any) -> str | None:
    names = {f.name for f in fm.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in names), None)


def cjk_font() -> str | None:
    """Make matplotlib draw Chinese labels: the first installed font of `CJK_FONTS` follows the
    default sans-serif font in the font family list (Latin glyphs keep the default font).
    Returns its name, or None when none is installed (Chinese characters then show as empty
    boxes; install one, e.g. ``apt-get install fonts-wqy-zenhei`` or ``fonts-noto-cjk``)."""
    matplotlib, fm = mpl("matplotlib"), mpl("matplotlib.font_manager")
    found = _installed(fm)
    if found is None:  # matplotlib's font cache may predate the font's installation
        for path in fm.findSystemFonts():
            if _CJK_FILE.search(os.path.basename(path)):
                fm.fontManager.addfont(path)
        found = _installed(fm)
    if found is not None:  # a family list: each glyph from the first font that has it
        first = [f for f in matplotlib.rcParams["font.sans-serif"] if f != found][:1]
        matplotlib.rcParams["font.family"] = [*first, found]
    return found


_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def fonts_for(labels: Iterable[str]) -> None:
    """Before drawing `labels`: a CJK font when one of them holds Chinese (see `cjk_font`)."""
    if any(_HAN.search(label) for label in labels):
        cjk_font()
