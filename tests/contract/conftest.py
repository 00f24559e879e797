"""Fixtures of the contract tier: every test runs on each engine, plain and sealed."""

from __future__ import annotations

from .._stores import store_plain_and_sealed

__all__ = ["store_plain_and_sealed"]
