"""Pluggable providers: embedders, LLM clients and token counters (no storage, no ranking)."""
