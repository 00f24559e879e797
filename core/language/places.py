"""Place names, so that a phrasing may read a home only where its value is a place ("this
york flat" is a home in York, "this damp flat" is none; docs/design.md, "Memory formation").

The names are GeoNames' towns and cities (`data/places.txt`, written by
`tools/places/build.py`). A name that is also an English word ("nice", "reading") is a place
only when written with a capital; any name written with capitals is taken as one, for the
districts and villages the list does not hold.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

__all__ = ["is_place"]

_WORD = re.compile(r"[A-Za-z][\w'.-]*")
_LEADING = ("the ", "new ")  # "the new truro flat": the place is truro


@cache
def _names() -> frozenset[str]:
    """The names that are places however written: not those marked "=", English words that
    name a place only when capitalised (which `is_place` takes as a place anyway)."""
    text = resources.files("bitemporal_core.language").joinpath("data", "places.txt")
    lines = text.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and line[0] not in "#=")


def is_place(value: str) -> bool:
    """Whether `value` names a place: a listed name, or words that each begin with a capital
    ("Hyde Park", "Clifton")."""
    text = value.strip()
    words = text.split()
    if not words or not all(_WORD.fullmatch(w) and not w.endswith("'s") for w in words):
        return False  # "my mum's flat" is no place
    if all(w[0].isupper() for w in words):
        return True
    lowered = text.lower()
    for lead in _LEADING:
        if lowered.startswith(lead) and lowered[len(lead) :] in _names():
            return True
    return lowered in _names()
