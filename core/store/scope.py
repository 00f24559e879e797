"""Argument helpers of the store's methods."""

from __future__ import annotations

from bitemporal_core.errors import InvalidInput
from bitemporal_core.model import Basis

__all__ = ["resolved_basis"]


def resolved_basis(basis: Basis | None) -> Basis:
    """A checked basis with "now" pinned on both axes where it is open."""
    if basis is not None and not isinstance(basis, Basis):
        raise InvalidInput(f"basis must be a Basis, not {type(basis).__name__}")
    return (basis or Basis()).resolved()
