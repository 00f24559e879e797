"""The Cypher only the LadybugDB engine runs, as named constants (values are $parameters), and
`SHARED`, the statements of `backends.cypher` in LadybugDB's dialect.

LadybugDB's MERGE under UNWIND scans the whole node table, so writes check existence with
primary-key lookups and CREATE new nodes; recall reads come from the recall index (`index`).
"""

from __future__ import annotations

from bitemporal_core.backends.cypher import RECALLABLE, Dialect, Statements

SCHEMA = (
    "CREATE NODE TABLE IF NOT EXISTS Namespace(name STRING PRIMARY KEY, last_tx TIMESTAMP,"
    " t_index INT64, msg_seq INT64, n_versions INT64, total_length INT64)",
    "CREATE NODE TABLE IF NOT EXISTS Fact(id STRING PRIMARY KEY, namespace STRING,"
    " supersedes STRING, created_at TIMESTAMP)",
    "CREATE NODE TABLE IF NOT EXISTS Version(id STRING PRIMARY KEY, fact_id STRING,"
    " namespace STRING, text STRING, valid_from TIMESTAMP, valid_to TIMESTAMP,"
    " recorded_at TIMESTAMP, superseded_at TIMESTAMP, version INT64, said_at TIMESTAMP,"
    " source STRING,"
    " speaker STRING, session STRING, kind STRING, supersedes STRING, t_index INT64,"
    " length INT64, embedding FLOAT[])",
    "CREATE NODE TABLE IF NOT EXISTS Concept(id STRING PRIMARY KEY, namespace STRING,"
    " key STRING, display STRING, t_index INT64)",
    "CREATE NODE TABLE IF NOT EXISTS Term(id STRING PRIMARY KEY, namespace STRING, stem STRING)",
    "CREATE NODE TABLE IF NOT EXISTS Message(id STRING PRIMARY KEY, msg_id STRING,"
    " namespace STRING, session STRING, role STRING, text STRING, at TIMESTAMP, seq INT64)",
    "CREATE NODE TABLE IF NOT EXISTS Summary(id STRING PRIMARY KEY, namespace STRING,"
    " key STRING, text STRING, recorded_at TIMESTAMP, superseded_at TIMESTAMP)",
    "CREATE REL TABLE IF NOT EXISTS VERSION_OF(FROM Version TO Fact)",
    "CREATE REL TABLE IF NOT EXISTS SUMMARISES(FROM Summary TO Concept)",
    "CREATE REL TABLE IF NOT EXISTS SUPERSEDES(FROM Fact TO Fact)",
    "CREATE REL TABLE IF NOT EXISTS MENTIONS(FROM Version TO Concept)",
    "CREATE REL TABLE IF NOT EXISTS RELATED(FROM Concept TO Concept, strength INT64,"
    " t_index INT64)",
    "CREATE REL TABLE IF NOT EXISTS HAS_TERM(FROM Version TO Term, tf INT64)",
    "CREATE REL TABLE IF NOT EXISTS FROM_MESSAGE(FROM Version TO Message)",
    # memory lifecycle (ALTER ... IF NOT EXISTS also upgrades files written before it)
    "ALTER TABLE Fact ADD IF NOT EXISTS uses INT64 DEFAULT 0",
    "ALTER TABLE Fact ADD IF NOT EXISTS last_used TIMESTAMP",
    "ALTER TABLE Version ADD IF NOT EXISTS archived_at TIMESTAMP",
    "ALTER TABLE Version ADD IF NOT EXISTS language STRING",
    "CREATE REL TABLE IF NOT EXISTS ABSTRACTS(FROM Version TO Version)",
    "CREATE REL TABLE IF NOT EXISTS INFERRED(FROM Concept TO Concept, type STRING,"
    " confidence DOUBLE, provenance STRING, recorded_at TIMESTAMP)",
)

BEGIN = "BEGIN TRANSACTION"
BEGIN_READ = "BEGIN TRANSACTION READ ONLY"
COMMIT = "COMMIT"
ROLLBACK = "ROLLBACK"

# The statements both engines share, as LadybugDB runs them (see `backends.cypher`).
SHARED = Statements(Dialect())

# --- namespace clock -------------------------------------------------------------------------
READ_CLOCK = "MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index"
MERGE_NAMESPACE = (
    "MERGE (n:Namespace {name: $ns}) ON CREATE SET n.last_tx = $zero, n.t_index = 0,"
    " n.msg_seq = 0, n.n_versions = 0, n.total_length = 0"
    " RETURN n.last_tx, n.t_index, n.msg_seq"
)

# --- writes ----------------------------------------------------------------------------------
# Optional names arrive as '' (never a valid name) rather than NULL: LadybugDB plans a
# statement again on every call when a parameter holds a NULL (about 1 ms for these).
_CREATE_VERSION = (
    " CREATE (v:Version {id: r.id, fact_id: r.fact_id, namespace: $ns,"
    " text: r.text, valid_from: r.valid_from, valid_to: r.valid_to, recorded_at: r.at,"
    " superseded_at: $eot, version: r.version, said_at: r.said_at,"
    " source: nullif(r.source, ''), speaker: nullif(r.speaker, ''),"
    " session: nullif(r.session, ''), kind: r.kind, supersedes: nullif(r.supersedes, ''),"
    " t_index: r.t_index, language: r.language,"
    " length: r.length})"
    " CREATE (v)-[:VERSION_OF]->(f)"
)
# A new lineage and its first version in one statement (CREATE is far cheaper than MERGE).
WRITE_NEW_FACTS = (
    "UNWIND $rows AS r CREATE (f:Fact {id: r.fact_id, namespace: $ns,"
    " supersedes: nullif(r.fact_supersedes, ''), created_at: r.at})" + _CREATE_VERSION
)
WRITE_VERSIONS = "UNWIND $rows AS r MATCH (f:Fact {id: r.fact_id})" + _CREATE_VERSION
# LadybugDB's MERGE under UNWIND scans the whole node table, so existence is checked with
# primary-key lookups and new nodes are CREATEd.
EXISTING_CONCEPTS = "UNWIND $ids AS i MATCH (c:Concept {id: i}) RETURN c.id"
CREATE_CONCEPTS = (
    "UNWIND $rows AS r CREATE (:Concept {id: r.c, namespace: $ns, key: r.key,"
    " display: r.display, t_index: r.t_index})"
)
TOUCH_CONCEPTS = "UNWIND $rows AS r MATCH (c:Concept {id: r.c}) SET c.t_index = r.t_index"
EXISTING_TERMS = "UNWIND $ids AS i MATCH (t:Term {id: i}) RETURN t.id"
CREATE_TERMS = "UNWIND $rows AS r CREATE (:Term {id: r.t, namespace: $ns, stem: r.stem})"
EXISTING_MESSAGES = "UNWIND $ids AS i MATCH (m:Message {id: i}) RETURN m.id"
WRITE_MESSAGES = (
    "UNWIND $rows AS r CREATE (m:Message {id: r.id, msg_id: r.msg_id, namespace: $ns,"
    " session: nullif(r.session, ''), role: nullif(r.role, ''), text: r.text, at: r.at,"
    " seq: r.seq})"
    " WITH m, r UNWIND r.versions AS vid MATCH (v:Version {id: vid})"
    " CREATE (v)-[:FROM_MESSAGE]->(m)"
)


# --- reads -----------------------------------------------------------------------------------
# The recall index (`index`): a namespace's read model, read once per process.
INDEX_VERSIONS = (
    "MATCH (v:Version) WHERE v.namespace = $ns RETURN v.id, v.valid_from, v.valid_to,"
    " v.recorded_at, v.superseded_at, v.archived_at, v.kind, v.length"
)
INDEX_POSTINGS = (
    "MATCH (v:Version)-[h:HAS_TERM]->(t:Term) WHERE t.namespace = $ns RETURN t.id, v.id, h.tf AS n"
)
INDEX_MENTIONS = (
    "MATCH (v:Version)-[:MENTIONS]->(c:Concept) WHERE c.namespace = $ns RETURN c.id, v.id"
)
INDEX_CONCEPTS = (
    "MATCH (c:Concept) WHERE c.namespace = $ns RETURN c.id, c.key, c.display, c.t_index"
)
INDEX_RELATED = (
    "MATCH (a:Concept)-[e:RELATED]->(b:Concept) WHERE a.namespace = $ns"
    " RETURN a.id, b.id, e.strength, e.t_index"
)
COUNT_SUMMARIES = "MATCH (s:Summary) WHERE s.namespace = $ns RETURN count(s)"
INDEX_VECTORS = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.embedding IS NOT NULL RETURN v.id, v.embedding"
)
# Exact cosine inside the engine, filtered by namespace and basis (the vector extension
# downloads on first use, so it is not relied on). One statement per supported dimension.
VECTOR_DIMS = (32, 64, 128, 256, 384, 512, 768, 1024, 1536, 3072, 4096)
VECTOR_SEARCH = {
    dim: "MATCH (v:Version) WHERE v.namespace = $ns AND v.embedding IS NOT NULL AND "
    + RECALLABLE
    + " WITH v, array_cosine_similarity(CAST(v.embedding AS FLOAT["
    + str(dim)
    + "]), $vector) AS score RETURN "
    + SHARED.V
    + ", score ORDER BY score DESC LIMIT $k"
    for dim in VECTOR_DIMS
}


# --- forgetting ------------------------------------------------------------------------------
FORGET_NS_VERSIONS = "MATCH (v:Version) WHERE v.namespace = $ns DETACH DELETE v RETURN count(*)"
FORGET_NS_FACTS = "MATCH (f:Fact) WHERE f.namespace = $ns DETACH DELETE f RETURN count(*)"
FORGET_NS_CONCEPTS = "MATCH (c:Concept) WHERE c.namespace = $ns DETACH DELETE c RETURN count(*)"
FORGET_NS_TERMS = "MATCH (t:Term) WHERE t.namespace = $ns DETACH DELETE t RETURN count(*)"
FORGET_NS_MESSAGES = "MATCH (m:Message) WHERE m.namespace = $ns DETACH DELETE m RETURN count(*)"
FORGET_NS_SUMMARIES = "MATCH (s:Summary) WHERE s.namespace = $ns DETACH DELETE s RETURN count(*)"


# --- memory lifecycle (operational metadata; never read by snapshots or histories) -----------
EXISTING_INFERRED = (
    "UNWIND $rows AS r MATCH (a:Concept {id: r.a})-[e:INFERRED]->(b:Concept {id: r.b})"
    " WHERE e.type = r.type SET e.confidence = r.confidence, e.provenance = r.provenance,"
    " e.recorded_at = $at RETURN a.id, b.id, e.type"
)
CREATE_INFERRED = (
    "UNWIND $rows AS r MATCH (a:Concept {id: r.a}) WITH a, r MATCH (b:Concept {id: r.b})"
    " CREATE (a)-[:INFERRED {type: r.type, confidence: r.confidence,"
    " provenance: r.provenance, recorded_at: $at}]->(b)"
)


__all__ = [name for name in dir() if name.isupper() and not name.startswith("_")]
