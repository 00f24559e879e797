"""matplotlib for the pictures of `views`: imported on first use, headless-safe.

On a machine without a display (and outside IPython/Jupyter) the non-interactive Agg backend
is selected, unless `MPLBACKEND` says otherwise or pyplot was already imported.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

from bitemporal_core.errors import ConfigurationError

__all__ = ["axes", "mpl", "pyplot", "short"]

_LABEL_CHARS = 42


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
