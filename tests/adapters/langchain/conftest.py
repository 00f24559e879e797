"""Fixtures of the LangChain adapter tests."""

from __future__ import annotations

import pytest

from .fakes import RecordingChatModel


@pytest.fixture
def model() -> RecordingChatModel:
    """A fresh recording fake chat model."""
    return RecordingChatModel()
