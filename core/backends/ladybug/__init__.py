"""The embedded engine: LadybugDB, on disk or in memory."""

from bitemporal_core.backends.ladybug.engine import LadybugBackend

__all__ = ["LadybugBackend"]
