"""LangChain adapters over the bitemporal core (DESIGN §7); thin, no storage logic."""

from __future__ import annotations

__all__: list[str] = []
