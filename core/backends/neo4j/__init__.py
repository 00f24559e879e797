"""The server engine: Neo4j 5.26 LTS or newer."""

from bitemporal_core.backends.neo4j.engine import Neo4jBackend

__all__ = ["Neo4jBackend"]
