"""The Cypher only the LadybugDB engine runs, as named constants (values are $parameters), and
`SHARED`, the statements of `backends.cypher` in LadybugDB's dialect.

LadybugDB has only primary-key indexes, and plans a statement as a lookup only where each row
starts from one: `UNWIND $rows AS r MATCH (x {id: r.id})` is a lookup per row, but a MERGE under
UNWIND, an `IN $list`, or a relationship followed from an UNWIND variable is a join with a scan
of the whole table (every namespace's rows). So writes check existence with primary-key
lookups and CREATE new nodes, reads that follow relationships start from one `$id` per
statement (`Dialect(one_start=True)`), and recall reads come from the recall index (`index`).
`tests/contract/test_plans.py` EXPLAINs every statement a workload runs to keep it so.
"""

from __future__ import annotations

from bitemporal_core.backends.cypher import (
    CONCEPTS_OF_NAMESPACE,
    LIST_NAMESPACES,
    RECALLABLE,
    Dialect,
    Statements,
)

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
    # memory formation: claims about entities, reasons of supersessions
    "ALTER TABLE Version ADD IF NOT EXISTS category STRING",
    "ALTER TABLE Namespace ADD IF NOT EXISTS recent STRING[]",
    "ALTER TABLE Namespace ADD IF NOT EXISTS embedding_dim INT64",
    "ALTER TABLE Fact ADD IF NOT EXISTS cited BOOLEAN",
    "ALTER TABLE SUPERSEDES ADD IF NOT EXISTS reason STRING",
    "ALTER TABLE SUPERSEDES ADD IF NOT EXISTS confidence DOUBLE",
    "ALTER TABLE SUPERSEDES ADD IF NOT EXISTS at TIMESTAMP",
    "ALTER TABLE SUPERSEDES ADD IF NOT EXISTS undone_at TIMESTAMP",
    "CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, namespace STRING,"
    " key STRING, name STRING, kind STRING)",
    "CREATE NODE TABLE IF NOT EXISTS Claim(id STRING PRIMARY KEY, namespace STRING,"
    " subject STRING, slot STRING, value STRING, value_keys STRING, positive BOOLEAN,"
    " one_value BOOLEAN, claim_mode STRING, context_keys STRING, rule STRING, version STRING,"
    " entity STRING)",
    "CREATE REL TABLE IF NOT EXISTS CLAIMS(FROM Version TO Claim)",
    # as-of reads: which mentions moved a concept's t_index, when an inferred edge was replaced
    "ALTER TABLE MENTIONS ADD IF NOT EXISTS touch INT64",
    "ALTER TABLE INFERRED ADD IF NOT EXISTS superseded_at TIMESTAMP",
    "CREATE REL TABLE IF NOT EXISTS ABOUT(FROM Claim TO Entity)",
    # claims found by lookup keys (`services.claims.held_keys`), in namespaces created since
    "CREATE NODE TABLE IF NOT EXISTS ClaimKey(id STRING PRIMARY KEY, namespace STRING)",
    "CREATE REL TABLE IF NOT EXISTS KEYS(FROM ClaimKey TO Claim)",
    "ALTER TABLE Namespace ADD IF NOT EXISTS claim_keys BOOLEAN",
    # each session's last two messages, in namespaces created since (`backends.cypher.TAILED`)
    "CREATE NODE TABLE IF NOT EXISTS SessionTail(id STRING PRIMARY KEY, namespace STRING,"
    " last STRING, prev STRING, last_seq INT64)",
    "ALTER TABLE Namespace ADD IF NOT EXISTS session_tails BOOLEAN",
)

BEGIN = "BEGIN TRANSACTION"
BEGIN_READ = "BEGIN TRANSACTION READ ONLY"
COMMIT = "COMMIT"
ROLLBACK = "ROLLBACK"
# The write-ahead log's size at which the engine folds it into the file: small while single
# messages are written (lookups slow down as the log grows), larger while a bulk import writes
# chunks of hundreds (fewer, larger checkpoints). Measured in benchmarks/RESULTS.md.
WAL_SMALL_BYTES = 4 * 2**20
WAL_BULK_BYTES = 16 * 2**20
WAL_SMALL = f"CALL checkpoint_threshold={WAL_SMALL_BYTES}"
WAL_BULK = f"CALL checkpoint_threshold={WAL_BULK_BYTES}"

# The statements both engines share, as LadybugDB runs them (see `backends.cypher`).
SHARED = Statements(Dialect(one_start=True))

# --- namespace clock -------------------------------------------------------------------------
READ_CLOCK = "MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index"
MERGE_NAMESPACE = (
    "MERGE (n:Namespace {name: $ns}) ON CREATE SET n.last_tx = $zero, n.t_index = 0,"
    " n.msg_seq = 0, n.n_versions = 0, n.total_length = 0, n.claim_keys = true,"
    " n.session_tails = true RETURN n.last_tx, n.t_index, n.msg_seq"
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
    " t_index: r.t_index, length: r.length, language: r.language,"
    " category: r.category})"
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
EXISTING_TAILS = "UNWIND $ids AS i MATCH (s:SessionTail {id: i}) RETURN s.id"
CREATE_TAILS = (
    "UNWIND $rows AS r CREATE (:SessionTail {id: r.id, namespace: $ns, last: '', prev: '',"
    " last_seq: -1})"
)
WRITE_MESSAGES = (
    "UNWIND $rows AS r CREATE (m:Message {id: r.id, msg_id: r.msg_id, namespace: $ns,"
    " session: nullif(r.session, ''), role: nullif(r.role, ''), text: r.text, at: r.at,"
    " seq: r.seq})"
    " WITH m, r UNWIND r.versions AS vid MATCH (v:Version {id: vid})"
    " CREATE (v)-[:FROM_MESSAGE]->(m)"
)


EXISTING_ENTITIES = "UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN e.id"
CREATE_ENTITIES = (
    "UNWIND $rows AS r CREATE (:Entity {id: r.id, namespace: $ns, key: r.key, name: r.name,"
    " kind: r.kind})"
)
# A fact some version of which an abstraction quotes is marked `cited` when the ABSTRACTS
# link is written, so a retirement asks which abstractions quote a fact only for marked facts:
# the question itself is planned as a pass over the whole Version table (50 ms at 445k
# versions). `FACT_COLUMNS` tells a file written before the mark, whose links are marked once.
FACT_COLUMNS = "CALL TABLE_INFO('Fact') RETURN name"
MARK_CITED = "MATCH (:Version {id: $id})-[:VERSION_OF]->(f:Fact) SET f.cited = true"
MARK_ALL_CITED = (
    "MATCH (:Version)-[:ABSTRACTS]->(:Version)-[:VERSION_OF]->(f:Fact) SET f.cited = true"
)
CITED = "MATCH (f:Fact {id: $id}) WHERE f.cited RETURN f.id"
EXISTING_CLAIM_KEYS = "UNWIND $ids AS i MATCH (k:ClaimKey {id: i}) RETURN k.id"
CREATE_CLAIM_KEYS = "UNWIND $rows AS r CREATE (:ClaimKey {id: r.id, namespace: $ns})"
LINK_CLAIM_KEYS = (
    "UNWIND $rows AS r MATCH (k:ClaimKey {id: r.k}) WITH k, r MATCH (c:Claim {id: r.c})"
    " CREATE (k)-[:KEYS]->(c)"
)
WRITE_CLAIMS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.v}) WITH v, r MATCH (e:Entity {id: r.e})"
    " CREATE (c:Claim {id: r.id, namespace: $ns, subject: r.subject, slot: r.slot,"
    " value: r.value, value_keys: r.value_keys, positive: r.positive,"
    " one_value: r.one_value, claim_mode: r.claim_mode, context_keys: r.context_keys,"
    " rule: r.rule, version: r.v, entity: r.e})"
    " CREATE (v)-[:CLAIMS]->(c) CREATE (c)-[:ABOUT]->(e)"
)


# --- reads -----------------------------------------------------------------------------------
# The recall index (`index`): a namespace's read model, read once per process.
INDEX_VERSIONS = (
    "MATCH (v:Version) WHERE v.namespace = $ns RETURN v.id, v.valid_from, v.valid_to,"
    " v.recorded_at, v.superseded_at, v.archived_at, v.kind, v.length, v.t_index"
)
INDEX_POSTINGS = (
    "MATCH (v:Version)-[h:HAS_TERM]->(t:Term) WHERE t.namespace = $ns RETURN t.id, v.id, h.tf AS n"
)
# A mention's touch (the t_index it moved its concept to, -1 for none); mentions written before
# touches were recorded count as touching at their version's t_index.
INDEX_MENTIONS = (
    "MATCH (v:Version)-[m:MENTIONS]->(c:Concept) WHERE c.namespace = $ns"
    " RETURN c.id, v.id, coalesce(m.touch, v.t_index)"
)
INDEX_CONCEPTS = (
    "MATCH (c:Concept) WHERE c.namespace = $ns RETURN c.id, c.key, c.display, c.t_index"
)
# Each write adds its co-mentions as a RELATED edge of its own (`SHARED.RELATE_CONCEPTS`: a
# MERGE or a read of the existing edge would scan, a CREATE is two lookups); the recall index
# adds a pair's edges up as it reads them.
INDEX_RELATED = (
    "MATCH (a:Concept)-[e:RELATED]->(b:Concept) WHERE a.namespace = $ns"
    " RETURN a.id, b.id, e.strength, e.t_index"
)
COUNT_SUMMARIES = "MATCH (s:Summary) WHERE s.namespace = $ns RETURN count(s)"
SET_EMBEDDINGS = "UNWIND $rows AS r MATCH (v:Version {id: r.id}) SET v.embedding = r.embedding"
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
FORGET_NS_CLAIMS = "MATCH (c:Claim) WHERE c.namespace = $ns DETACH DELETE c RETURN count(*)"
FORGET_NS_ENTITIES = "MATCH (e:Entity) WHERE e.namespace = $ns DETACH DELETE e RETURN count(*)"
FORGET_NS_CLAIM_KEYS = "MATCH (k:ClaimKey) WHERE k.namespace = $ns DETACH DELETE k RETURN count(*)"
FORGET_NS_TAILS = "MATCH (s:SessionTail) WHERE s.namespace = $ns DELETE s RETURN count(*)"

# The rewrite of a file after a deletion (`erase`). The parser takes the folder only as a
# string literal, not a $parameter: `erase` fills in a path it checked to hold no quote.
EXPORT_DATABASE = "EXPORT DATABASE '{folder}'"
IMPORT_DATABASE = "IMPORT DATABASE '{folder}'"


# --- memory lifecycle (operational metadata; never read by snapshots or histories) -----------
# One edge per statement: both ends are primary-key lookups.
# A refresh closes the current edge of the pair and type; the new one is created after it.
CLOSE_INFERRED = (
    "MATCH (a:Concept {id: $a})-[e:INFERRED]->(b:Concept {id: $b})"
    " WHERE e.type = $type AND e.superseded_at IS NULL SET e.superseded_at = $at"
)
CREATE_INFERRED = (
    "UNWIND $rows AS r MATCH (a:Concept {id: r.a}) WITH a, r MATCH (b:Concept {id: r.b})"
    " CREATE (a)-[:INFERRED {type: r.type, confidence: r.confidence,"
    " provenance: r.provenance, recorded_at: $at}]->(b)"
)


# Statements over a whole namespace. LadybugDB has no secondary index, so each reads the
# tables of every namespace (the recall index reads a namespace once per process; the others
# are the namespace-wide reads and deletes of the port).
NAMESPACE_SCANS = frozenset(
    (
        INDEX_VERSIONS,
        INDEX_POSTINGS,
        INDEX_MENTIONS,
        INDEX_CONCEPTS,
        INDEX_RELATED,
        COUNT_SUMMARIES,
        INDEX_VECTORS,
        *VECTOR_SEARCH.values(),
        FORGET_NS_VERSIONS,
        FORGET_NS_FACTS,
        FORGET_NS_CONCEPTS,
        FORGET_NS_TERMS,
        FORGET_NS_MESSAGES,
        FORGET_NS_SUMMARIES,
        FORGET_NS_CLAIMS,
        FORGET_NS_ENTITIES,
        FORGET_NS_CLAIM_KEYS,
        FORGET_NS_TAILS,
        SHARED.NAMESPACE_CLAIMS,
        SHARED.SNAPSHOT,
        SHARED.VERSIONS_ALL,
        SHARED.VERSIONS_KNOWN,
        SHARED.MESSAGES_ALL,
        SHARED.MESSAGES_SESSION,
        SHARED.MESSAGES_LAST_ALL,
        SHARED.MESSAGES_LAST_SESSION,
        SHARED.MESSAGES_OF_SESSIONS,
        SHARED.SESSIONS,
        SHARED.DELETE_SESSION_MESSAGES,
        SHARED.INFERRED_ALL,
        CONCEPTS_OF_NAMESPACE,
        LIST_NAMESPACES,
    )
)

__all__ = [name for name in dir() if name.isupper() and not name.startswith("_")]
