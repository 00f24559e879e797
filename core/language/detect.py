"""Which language a statement is in, told from its script (docs/chinese.md, "Language").

Two languages are analysed: English (``"en"``) and Chinese (``"zh"``). A statement is Chinese
when it has at least as many Han characters as Latin words ("我在Google上班" is Chinese, "I met
小王 today" English); anything else, including other scripts, is analysed as English, as before
Chinese existed. Mixed text is analysed per script inside the statement's language: Han runs by
the Chinese segmenter, Latin runs by English rules (`script_runs`).
"""

from __future__ import annotations

import re
from typing import Final, Literal

from bitemporal_core.errors import InvalidInput

__all__ = [
    "AUTO",
    "LANGUAGES",
    "Language",
    "check_language",
    "has_han",
    "language_of",
    "script_runs",
]

Language = Literal["en", "zh"]
LANGUAGES: Final[tuple[Language, ...]] = ("en", "zh")
"""The languages statements are analysed in."""
AUTO: Final = "auto"
"""The `language=` value that detects the language of each statement from its script."""

# CJK Unified Ideographs with extension A, compatibility ideographs and 〇.
_HAN_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3007"
_HAN = re.compile(f"[{_HAN_CLASS}]")
_LATIN_WORD = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ\u00c0-\u024f]+")
_RUN = re.compile(f"(?P<zh>[{_HAN_CLASS}]+)|(?P<en>[^{_HAN_CLASS}]+)")


def has_han(text: str) -> bool:
    """True if `text` holds a Han character (Chinese, simplified or traditional)."""
    return _HAN.search(text) is not None


def language_of(text: str) -> Language:
    """The language of one statement from its script: "zh" when its Han characters are at
    least as many as its Latin words, else "en"."""
    if not has_han(text):
        return "en"
    han = len(_HAN.findall(text))
    return "zh" if han >= len(_LATIN_WORD.findall(text)) else "en"


def script_runs(text: str) -> list[tuple[int, int, Language]]:
    """`text` cut where the script changes: `(start, end, "zh")` for each run of Han characters,
    `(start, end, "en")` for each run of anything else (Latin, digits, spaces, punctuation)."""
    return [
        (m.start(), m.end(), "zh" if m.lastgroup == "zh" else "en") for m in _RUN.finditer(text)
    ]


def check_language(value: object, *, auto: bool = True) -> str:
    """A `language=` option: "en", "zh" or (when `auto`) "auto"; anything else is refused."""
    allowed = (*LANGUAGES, AUTO) if auto else LANGUAGES
    if not isinstance(value, str) or value not in allowed:
        shown = repr(value) if isinstance(value, str) and len(value) <= 20 else type(value).__name__
        raise InvalidInput(f"language must be one of {', '.join(allowed)}; not {shown}")
    return value
