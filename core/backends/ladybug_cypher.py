"""Every Cypher statement the LadybugDB engine runs, as named constants; values are $parameters.

Open intervals are stored as END_OF_TIME (`$eot`) so visibility is a plain range predicate.
"""

from __future__ import annotations

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
    "CREATE REL TABLE IF NOT EXISTS ABSTRACTS(FROM Version TO Version)",
    "CREATE REL TABLE IF NOT EXISTS INFERRED(FROM Concept TO Concept, type STRING,"
    " confidence DOUBLE, provenance STRING, recorded_at TIMESTAMP)",
)

BEGIN = "BEGIN TRANSACTION"
BEGIN_READ = "BEGIN TRANSACTION READ ONLY"
COMMIT = "COMMIT"
ROLLBACK = "ROLLBACK"

_V = (
    "v.id, v.fact_id, v.namespace, v.text, v.valid_from, v.valid_to, v.recorded_at,"
    " v.superseded_at, v.version, v.source, v.speaker, v.session, v.kind, v.supersedes,"
    " v.t_index, v.said_at"
)
_VISIBLE = (
    "v.recorded_at <= $known_at AND v.superseded_at > $known_at"
    " AND v.valid_from <= $valid_at AND v.valid_to > $valid_at"
)
# Recall reads also filter by statement kind and hide versions archived by `prune` (as known
# at the basis): the parameters of `RecallFilter.params()`.
_RECALLABLE = (
    _VISIBLE + " AND (v.archived_at IS NULL OR v.archived_at > $known_at OR $with_archived)"
    " AND ($any_kind OR v.kind IN $kinds)"
)

# --- namespace clock -------------------------------------------------------------------------
READ_NAMESPACE = (
    "MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index, n.msg_seq,"
    " n.n_versions, n.total_length"
)
READ_CLOCK = "MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index"
MERGE_NAMESPACE = (
    "MERGE (n:Namespace {name: $ns}) ON CREATE SET n.last_tx = $zero, n.t_index = 0,"
    " n.msg_seq = 0, n.n_versions = 0, n.total_length = 0"
    " RETURN n.last_tx, n.t_index, n.msg_seq"
)
UPDATE_NAMESPACE = (
    "MATCH (n:Namespace {name: $ns}) SET n.last_tx = $last_tx, n.t_index = $t_index,"
    " n.msg_seq = $msg_seq, n.n_versions = n.n_versions + $n_versions,"
    " n.total_length = n.total_length + $length"
)
LIST_NAMESPACES = "MATCH (n:Namespace) RETURN n.name ORDER BY n.name"

# --- writes ----------------------------------------------------------------------------------
CLOSE_VERSIONS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.id}) WHERE v.superseded_at = $eot"
    " SET v.superseded_at = r.at RETURN count(v)"
)
LINK_SUPERSEDES = (
    "UNWIND $rows AS r MATCH (a:Fact {id: r.id}) WITH a, r MATCH (b:Fact {id: r.supersedes})"
    " CREATE (a)-[:SUPERSEDES]->(b)"
)
# Optional names arrive as '' (never a valid name) rather than NULL: LadybugDB plans a
# statement again on every call when a parameter holds a NULL (about 1 ms for these).
_CREATE_VERSION = (
    " CREATE (v:Version {id: r.id, fact_id: r.fact_id, namespace: $ns,"
    " text: r.text, valid_from: r.valid_from, valid_to: r.valid_to, recorded_at: r.at,"
    " superseded_at: $eot, version: r.version, said_at: r.said_at,"
    " source: nullif(r.source, ''), speaker: nullif(r.speaker, ''),"
    " session: nullif(r.session, ''), kind: r.kind, supersedes: nullif(r.supersedes, ''),"
    " t_index: r.t_index,"
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
LINK_MENTIONS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.v}) WITH v, r MATCH (c:Concept {id: r.c})"
    " CREATE (v)-[:MENTIONS]->(c)"
)
RELATE_CONCEPTS = (
    "UNWIND $rows AS r MATCH (a:Concept {id: r.a}) WITH a, r MATCH (b:Concept {id: r.b})"
    " MERGE (a)-[e:RELATED]->(b) ON CREATE SET e.strength = r.n, e.t_index = r.t_index"
    " ON MATCH SET e.strength = e.strength + r.n, e.t_index = r.t_index"
)
EXISTING_TERMS = "UNWIND $ids AS i MATCH (t:Term {id: i}) RETURN t.id"
CREATE_TERMS = "UNWIND $rows AS r CREATE (:Term {id: r.t, namespace: $ns, stem: r.stem})"
LINK_TERMS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.v}) WITH v, r MATCH (t:Term {id: r.t})"
    " CREATE (v)-[:HAS_TERM {tf: r.tf}]->(t)"
)
EXISTING_MESSAGES = "UNWIND $ids AS i MATCH (m:Message {id: i}) RETURN m.id"
WRITE_MESSAGES = (
    "UNWIND $rows AS r CREATE (m:Message {id: r.id, msg_id: r.msg_id, namespace: $ns,"
    " session: nullif(r.session, ''), role: nullif(r.role, ''), text: r.text, at: r.at,"
    " seq: r.seq})"
    " WITH m, r UNWIND r.versions AS vid MATCH (v:Version {id: vid})"
    " CREATE (v)-[:FROM_MESSAGE]->(m)"
)

LINK_MESSAGES = (
    "UNWIND $rows AS r MATCH (m:Message {id: r.m}) WITH m, r MATCH (v:Version {id: r.v})"
    " CREATE (v)-[:FROM_MESSAGE]->(m)"
)

CLOSE_SUMMARIES = (
    "UNWIND $rows AS r MATCH (c:Concept {id: r.c})<-[:SUMMARISES]-(s:Summary)"
    " WHERE s.superseded_at = $eot SET s.superseded_at = r.at"
)
WRITE_SUMMARIES = (
    "UNWIND $rows AS r MATCH (c:Concept {id: r.c}) CREATE (s:Summary {id: r.id,"
    " namespace: $ns, key: r.key, text: r.text, recorded_at: r.at, superseded_at: $eot})"
    " CREATE (s)-[:SUMMARISES]->(c)"
)

# --- reads -----------------------------------------------------------------------------------
LINEAGE = (
    "MATCH (v:Version)-[:VERSION_OF]->(f:Fact {id: $id}) RETURN " + _V + ","
    " f.namespace, f.supersedes ORDER BY v.version, v.recorded_at"
)
SUPERSEDED_BY = "MATCH (g:Fact)-[:SUPERSEDES]->(f:Fact {id: $id}) RETURN g.id ORDER BY g.id"
SNAPSHOT = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND "
    + _VISIBLE
    + " RETURN "
    + _V
    + " ORDER BY v.valid_from, v.recorded_at, v.id"
)
VERSIONS_ALL = (
    "MATCH (v:Version) WHERE v.namespace = $ns RETURN "
    + _V
    + " ORDER BY v.valid_from, v.recorded_at, v.id"
)
VERSIONS_KNOWN = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.recorded_at <= $known_at"
    " AND v.superseded_at > $known_at RETURN " + _V + " ORDER BY v.valid_from, v.recorded_at, v.id"
)
# The recall index (`_ladybug_index`): a namespace's read model, read once per process.
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
VERSIONS_BY_ID = "UNWIND $ids AS i MATCH (v:Version {id: i}) RETURN " + _V
SET_EMBEDDINGS = "UNWIND $rows AS r MATCH (v:Version {id: r.id}) SET v.embedding = r.embedding"
# Exact cosine inside the engine, filtered by namespace and basis (the vector extension
# downloads on first use, so it is not relied on). One statement per supported dimension.
VECTOR_DIMS = (32, 64, 128, 256, 384, 512, 768, 1024, 1536, 3072, 4096)
VECTOR_SEARCH = {
    dim: "MATCH (v:Version) WHERE v.namespace = $ns AND v.embedding IS NOT NULL AND "
    + _RECALLABLE
    + " WITH v, array_cosine_similarity(CAST(v.embedding AS FLOAT["
    + str(dim)
    + "]), $vector) AS score RETURN "
    + _V
    + ", score ORDER BY score DESC LIMIT $k"
    for dim in VECTOR_DIMS
}
MENTION_COUNTS = (
    "UNWIND $ids AS i MATCH (c:Concept {id: i})<-[:MENTIONS]-(v:Version) RETURN c.key, count(v)"
)
SUMMARIES_KNOWN = (
    "UNWIND $ids AS i MATCH (c:Concept {id: i})<-[:SUMMARISES]-(s:Summary)"
    " WHERE s.recorded_at <= $known_at AND s.superseded_at > $known_at RETURN c.key, s.text"
)
CONCEPTS_OF_NAMESPACE = (
    "MATCH (c:Concept) WHERE c.namespace = $ns RETURN c.key, c.display, c.t_index"
    " ORDER BY c.t_index DESC, c.key LIMIT $limit"
)
MESSAGES_ALL = (
    "MATCH (m:Message) WHERE m.namespace = $ns RETURN m.msg_id, m.namespace, m.session, m.role,"
    " m.text, m.at, m.seq ORDER BY m.seq"
)
MESSAGES_SESSION = (
    "MATCH (m:Message) WHERE m.namespace = $ns AND m.session = $session RETURN m.msg_id,"
    " m.namespace, m.session, m.role, m.text, m.at, m.seq ORDER BY m.seq"
)

# Every version linked to the given messages (re-imports skip what was remembered).
REMEMBERED = (
    "UNWIND $ids AS id MATCH (m:Message {id: id})<-[:FROM_MESSAGE]-(v:Version)"
    " RETURN " + _V + ", m.msg_id, m.text"
)
SESSIONS = (
    "MATCH (m:Message) WHERE m.namespace = $ns AND m.session IS NOT NULL"
    " RETURN m.session, min(m.seq) AS first ORDER BY first"
)
DELETE_SESSION_MESSAGES = (
    "MATCH (m:Message) WHERE m.namespace = $ns AND m.session = $session"
    " DETACH DELETE m RETURN count(*)"
)
DELETE_MESSAGES_BY_ID = "UNWIND $ids AS i MATCH (m:Message {id: i}) DETACH DELETE m RETURN count(*)"

# --- forgetting ------------------------------------------------------------------------------
FORGET_NS_VERSIONS = "MATCH (v:Version) WHERE v.namespace = $ns DETACH DELETE v RETURN count(*)"
FORGET_NS_FACTS = "MATCH (f:Fact) WHERE f.namespace = $ns DETACH DELETE f RETURN count(*)"
FORGET_NS_CONCEPTS = "MATCH (c:Concept) WHERE c.namespace = $ns DETACH DELETE c RETURN count(*)"
FORGET_NS_TERMS = "MATCH (t:Term) WHERE t.namespace = $ns DETACH DELETE t RETURN count(*)"
FORGET_NS_MESSAGES = "MATCH (m:Message) WHERE m.namespace = $ns DETACH DELETE m RETURN count(*)"
FORGET_NS_SUMMARIES = "MATCH (s:Summary) WHERE s.namespace = $ns DETACH DELETE s RETURN count(*)"
FORGET_NS_NODE = "MATCH (n:Namespace {name: $ns}) DETACH DELETE n RETURN count(*)"
# A summary may quote a forgotten fact: every summary of a concept it mentioned goes too.
FORGET_SUMMARIES_OF = (
    "UNWIND $ids AS i MATCH (c:Concept {id: i})<-[:SUMMARISES]-(s:Summary) DETACH DELETE s"
)

FACT_TOUCHES = (
    "MATCH (v:Version)-[:VERSION_OF]->(f:Fact {id: $id})"
    " OPTIONAL MATCH (v)-[:MENTIONS]->(c:Concept)"
    " OPTIONAL MATCH (v)-[:HAS_TERM]->(t:Term)"
    " OPTIONAL MATCH (v)-[:FROM_MESSAGE]->(m:Message)"
    " RETURN collect(DISTINCT v.id), collect(DISTINCT c.id), collect(DISTINCT t.id),"
    " collect(DISTINCT m.id), f.namespace"
)
FORGET_VERSIONS = "UNWIND $ids AS i MATCH (v:Version {id: i}) DETACH DELETE v"
FORGET_FACT = "MATCH (fact:Fact {id: $id}) DETACH DELETE fact"
UNLINK_SUPERSEDES = "MATCH (g:Fact) WHERE g.supersedes = $id SET g.supersedes = NULL"
UNLINK_VERSION_SUPERSEDES = "MATCH (v:Version) WHERE v.supersedes = $id SET v.supersedes = NULL"
FORGET_ORPHAN_CONCEPTS = (
    "UNWIND $ids AS i MATCH (c:Concept {id: i})"
    " WHERE NOT EXISTS { MATCH (c)<-[:MENTIONS]-(:Version) }"
    " DETACH DELETE c"
)
FORGET_ORPHAN_TERMS = (
    "UNWIND $ids AS i MATCH (t:Term {id: i})"
    " WHERE NOT EXISTS { MATCH (t)<-[:HAS_TERM]-(:Version) }"
    " DETACH DELETE t"
)
FORGET_ORPHAN_MESSAGES = (
    "UNWIND $ids AS i MATCH (m:Message {id: i})"
    " WHERE NOT EXISTS { MATCH (m)<-[:FROM_MESSAGE]-(:Version) } DETACH DELETE m"
)


# --- memory lifecycle (operational metadata; never read by snapshots or histories) -----------
WRITE_ABSTRACTS = (
    "UNWIND $rows AS r MATCH (a:Version {id: r.a}) WITH a, r MATCH (b:Version {id: r.b})"
    " CREATE (a)-[:ABSTRACTS]->(b)"
)
ABSTRACTION_MEMBERS = (
    "UNWIND $ids AS i MATCH (a:Version {id: i})-[:ABSTRACTS]->(b:Version) RETURN a.id, b.id"
)
CITING = (
    "MATCH (a:Version)-[:ABSTRACTS]->(:Version)-[:VERSION_OF]->(:Fact {id: $id})"
    " RETURN DISTINCT a.fact_id"
)
# The current abstractions quoting some version of the given facts (closed when one changes).
CITING_CURRENT = (
    "UNWIND $ids AS i MATCH (a:Version)-[:ABSTRACTS]->(:Version)-[:VERSION_OF]->(:Fact {id: i})"
    " WHERE a.superseded_at = $eot RETURN DISTINCT a.id"
)
RECORD_USE = (
    "UNWIND $rows AS r MATCH (f:Fact {id: r.id}) WHERE f.namespace = $ns"
    " SET f.uses = coalesce(f.uses, 0) + r.n, f.last_used = $at"
)
USAGE = (
    "UNWIND $ids AS i MATCH (f:Fact {id: i}) WHERE f.namespace = $ns"
    " RETURN f.id, coalesce(f.uses, 0), f.last_used"
)
ARCHIVE = (
    "UNWIND $ids AS i MATCH (v:Version)-[:VERSION_OF]->(f:Fact {id: i})"
    " WHERE f.namespace = $ns AND v.archived_at IS NULL SET v.archived_at = $at"
    " RETURN count(DISTINCT f.id)"
)
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
_INFERRED_ROW = "a.key, b.key, e.type, e.confidence, e.provenance, e.recorded_at"
INFERRED_ALL = (
    "MATCH (a:Concept)-[e:INFERRED]->(b:Concept) WHERE a.namespace = $ns RETURN " + _INFERRED_ROW
)
INFERRED_FROM = (
    "UNWIND $ids AS i MATCH (a:Concept {id: i})-[e:INFERRED]->(b:Concept) RETURN " + _INFERRED_ROW
)
INFERRED_TO = (
    "UNWIND $ids AS i MATCH (a:Concept)-[e:INFERRED]->(b:Concept {id: i}) RETURN " + _INFERRED_ROW
)

RAW_SCAN = (
    "MATCH (n:Namespace) RETURN n",
    "MATCH (n:Fact) RETURN n",
    "MATCH (n:Version) RETURN n",
    "MATCH (n:Concept) RETURN n",
    "MATCH (n:Term) RETURN n",
    "MATCH (n:Message) RETURN n",
    "MATCH (n:Summary) RETURN n",
)

__all__ = [name for name in dir() if name.isupper()]
