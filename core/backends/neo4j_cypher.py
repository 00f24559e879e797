"""Every Cypher statement the Neo4j engine runs, as named constants; values are $parameters.

Same graph model as the embedded engine: open intervals are stored as END_OF_TIME (`$eot`),
so visibility is a plain range predicate the (namespace, valid_from) and
(namespace, recorded_at) range indexes can serve. Labels and relationship types are fixed here
and never come from input.
"""

from __future__ import annotations

# --- schema (idempotent; each statement runs in its own transaction) -------------------------
CONSTRAINTS = (
    "CREATE CONSTRAINT bt_namespace_name IF NOT EXISTS FOR (n:Namespace) REQUIRE n.name IS UNIQUE",
    "CREATE CONSTRAINT bt_fact_id IF NOT EXISTS FOR (f:Fact) REQUIRE f.id IS UNIQUE",
    "CREATE CONSTRAINT bt_version_id IF NOT EXISTS FOR (v:Version) REQUIRE v.id IS UNIQUE",
    "CREATE CONSTRAINT bt_concept_id IF NOT EXISTS FOR (c:Concept) REQUIRE c.id IS UNIQUE",
    "CREATE CONSTRAINT bt_term_id IF NOT EXISTS FOR (t:Term) REQUIRE t.id IS UNIQUE",
    "CREATE CONSTRAINT bt_message_id IF NOT EXISTS FOR (m:Message) REQUIRE m.id IS UNIQUE",
    "CREATE CONSTRAINT bt_summary_id IF NOT EXISTS FOR (s:Summary) REQUIRE s.id IS UNIQUE",
)
INDEXES = (
    "CREATE INDEX bt_version_ns_valid IF NOT EXISTS FOR (v:Version) ON (v.namespace, v.valid_from)",
    "CREATE INDEX bt_version_ns_recorded IF NOT EXISTS"
    " FOR (v:Version) ON (v.namespace, v.recorded_at)",
    "CREATE INDEX bt_version_supersedes IF NOT EXISTS FOR (v:Version) ON (v.supersedes)",
    "CREATE INDEX bt_fact_ns IF NOT EXISTS FOR (f:Fact) ON (f.namespace)",
    "CREATE INDEX bt_fact_supersedes IF NOT EXISTS FOR (f:Fact) ON (f.supersedes)",
    "CREATE INDEX bt_concept_ns IF NOT EXISTS FOR (c:Concept) ON (c.namespace)",
    "CREATE INDEX bt_term_ns IF NOT EXISTS FOR (t:Term) ON (t.namespace)",
    "CREATE INDEX bt_message_ns_seq IF NOT EXISTS FOR (m:Message) ON (m.namespace, m.seq)",
    "CREATE FULLTEXT INDEX bt_version_text IF NOT EXISTS FOR (v:Version) ON EACH [v.text]",
)
SCHEMA = CONSTRAINTS + INDEXES
AWAIT_INDEXES = "CALL db.awaitIndexes($seconds)"
# Created on the first write that carries embeddings (the dimension is known only then).
VECTOR_INDEX = "bt_version_embedding"
CREATE_VECTOR_INDEX = (
    "CREATE VECTOR INDEX bt_version_embedding IF NOT EXISTS FOR (v:Version) ON v.embedding"
    " OPTIONS {indexConfig: {`vector.dimensions`: $dim, `vector.similarity_function`: 'cosine'}}"
)
VECTOR_INDEX_DIMS = (
    "SHOW VECTOR INDEXES YIELD name, options WHERE name = 'bt_version_embedding'"
    " RETURN options.indexConfig.`vector.dimensions`"
)


def _us(prop: str) -> str:
    """A datetime property as exact epoch microseconds: returning integers instead of
    DateTime values makes result rows several times cheaper to serialize and hydrate."""
    return f"{prop}.epochMillis * 1000 + {prop}.microsecond % 1000"  # epochMillis floors


_V = (
    f"v.id, v.fact_id, v.namespace, v.text, {_us('v.valid_from')}, {_us('v.valid_to')},"
    f" {_us('v.recorded_at')}, {_us('v.superseded_at')}, v.version, v.source, v.speaker,"
    f" v.session, v.kind, v.supersedes, v.t_index, {_us('v.said_at')}"
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
CLOCK = (
    "OPTIONAL MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index, datetime.transaction()"
)
READ_NAMESPACE = (
    "MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index, n.msg_seq,"
    " n.n_versions, n.total_length"
)
# The first statement of every write: creates the namespace if needed and takes its write lock
# (a real property change, removed again by UNLOCK/UPDATE_NAMESPACE), so concurrent writers of
# one namespace serialize and read its counters only once they hold the lock. A writer that
# waited for `forget` holds a deleted node whose counters read as null: the last column says so
# and the writer merges again (a fresh namespace).
LOCK_NAMESPACE = (
    "MERGE (n:Namespace {name: $ns}) ON CREATE SET n.last_tx = $zero, n.t_index = 0,"
    " n.msg_seq = 0, n.n_versions = 0, n.total_length = 0"
    " SET n._lock = true"
    " RETURN coalesce(n.last_tx, $zero), coalesce(n.t_index, 0), coalesce(n.msg_seq, 0),"
    " n.t_index IS NULL"
)
UPDATE_NAMESPACE = (
    "MATCH (n:Namespace {name: $ns}) SET n.last_tx = $last_tx, n.t_index = $t_index,"
    " n.msg_seq = $msg_seq, n.n_versions = n.n_versions + $n_versions,"
    " n.total_length = n.total_length + $length REMOVE n._lock"
)
LIST_NAMESPACES = "MATCH (n:Namespace) RETURN n.name ORDER BY n.name"

# --- writes ----------------------------------------------------------------------------------
# Bulk writes: the rows of every batch of a chunk, each with its batch's time (r.at) and
# t_index (r.t_index); MERGE on client ids, so a retried transaction writes nothing twice.
CLOSE_VERSIONS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.id}) WHERE v.superseded_at = $eot"
    " SET v.superseded_at = r.at RETURN count(v)"
)
MERGE_FACTS = (
    "UNWIND $rows AS r MERGE (f:Fact {id: r.id}) ON CREATE SET f.namespace = $ns,"
    " f.supersedes = r.supersedes, f.created_at = r.at"
)
LINK_SUPERSEDES = (
    "UNWIND $rows AS r MATCH (a:Fact {id: r.id}), (b:Fact {id: r.supersedes})"
    " MERGE (a)-[:SUPERSEDES]->(b)"
)
MERGE_VERSIONS = (
    "UNWIND $rows AS r MERGE (v:Version {id: r.id}) ON CREATE SET v.fact_id = r.fact_id,"
    " v.namespace = $ns, v.text = r.text, v.valid_from = r.valid_from, v.valid_to = r.valid_to,"
    " v.recorded_at = r.at, v.superseded_at = $eot, v.version = r.version,"
    " v.said_at = r.said_at, v.source = r.source, v.speaker = r.speaker,"
    " v.session = r.session, v.kind = r.kind, v.supersedes = r.supersedes,"
    " v.t_index = r.t_index, v.length = r.length"
    " WITH v, r MATCH (f:Fact {id: r.fact_id}) MERGE (v)-[:VERSION_OF]->(f)"
)
SET_EMBEDDINGS = "UNWIND $rows AS r MATCH (v:Version {id: r.id}) SET v.embedding = r.embedding"
# A new concept takes the t_index of the batch that first names it; a concept that new
# statements mention takes the last such batch's (r.touch), else keeps its own.
MERGE_CONCEPTS = (
    "UNWIND $rows AS r MERGE (c:Concept {id: r.id}) ON CREATE SET c.namespace = $ns,"
    " c.key = r.key, c.display = r.display, c.t_index = r.t_index"
    " SET c.t_index = coalesce(r.touch, c.t_index)"
)
# Strength is incremented by the database, under the namespace lock: no lost updates.
RELATE_CONCEPTS = (
    "UNWIND $rows AS r MATCH (a:Concept {id: r.a}), (b:Concept {id: r.b})"
    " MERGE (a)-[e:RELATED]->(b) ON CREATE SET e.strength = r.n, e.t_index = r.t_index"
    " ON MATCH SET e.strength = e.strength + r.n, e.t_index = r.t_index"
)
LINK_MENTIONS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.v}), (c:Concept {id: r.c})"
    " MERGE (v)-[:MENTIONS]->(c)"
)
MERGE_TERMS = (
    "UNWIND $rows AS r MERGE (t:Term {id: r.id}) ON CREATE SET t.namespace = $ns, t.stem = r.stem"
)
LINK_TERMS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.v}), (t:Term {id: r.t})"
    " MERGE (v)-[h:HAS_TERM]->(t) ON CREATE SET h.tf = r.tf "
)
MERGE_MESSAGES = (
    "UNWIND $rows AS r MERGE (m:Message {id: r.id}) ON CREATE SET m.msg_id = r.msg_id,"
    " m.namespace = $ns, m.session = r.session, m.role = r.role, m.text = r.text,"
    " m.at = r.at, m.seq = r.seq"
)
LINK_MESSAGES = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.v}), (m:Message {id: r.m})"
    " MERGE (v)-[:FROM_MESSAGE]->(m)"
)

# --- reads (a composite index needs a predicate on each key, hence IS NOT NULL) --------------
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
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.valid_from IS NOT NULL RETURN "
    + _V
    + " ORDER BY v.valid_from, v.recorded_at, v.id"
)
VERSIONS_KNOWN = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.recorded_at <= $known_at"
    " AND v.superseded_at > $known_at RETURN " + _V + " ORDER BY v.valid_from, v.recorded_at, v.id"
)
CONCEPTS_BY_ID = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id}) RETURN c.id, c.key, c.display, c.t_index"
)
NEIGHBOURS = (
    "UNWIND $ids AS id MATCH (s:Concept {id: id})-[:RELATED]-(c:Concept)"
    " WHERE c.t_index >= $low AND c.t_index <= $high"
    " RETURN DISTINCT c.id, c.key, c.display, c.t_index ORDER BY c.t_index DESC LIMIT $limit"
)
EDGES_AMONG = (
    "UNWIND $ids AS id MATCH (a:Concept {id: id})-[e:RELATED]->(b:Concept)"
    " WHERE b.id IN $ids RETURN a.key, b.key, e.strength, e.t_index"
)
MENTIONS_OF = (
    "UNWIND range(0, size($ids) - 1) AS i MATCH (c:Concept {id: $ids[i]})"
    " CALL (c) { MATCH (c)<-[:MENTIONS]-(v:Version) WHERE "
    + _RECALLABLE
    + " RETURN v ORDER BY v.valid_from DESC, v.recorded_at DESC LIMIT $limit }"
    " RETURN " + _V + ", i"
)
TERM_DF = "UNWIND $ids AS id MATCH (t:Term {id: id}) RETURN t.stem, COUNT { (t)<-[:HAS_TERM]-() }"
POSTINGS = (
    "UNWIND $ids AS id MATCH (t:Term {id: id})<-[h:HAS_TERM]-(v:Version) WHERE "
    + _RECALLABLE
    + " RETURN v.id, v.length, t.stem, h.tf"
)
VERSIONS_BY_ID = "UNWIND $ids AS id MATCH (v:Version {id: id}) RETURN " + _V
# Vector recall: the native index with over-fetch, then namespace and basis filters; or an exact
# scan of the namespace (served by the namespace range index) when that set is small.
VECTOR_QUERY = (
    "CALL db.index.vector.queryNodes('bt_version_embedding', $fetch, $vector)"
    " YIELD node AS v, score WHERE v.namespace = $ns AND "
    + _RECALLABLE
    + " RETURN "
    + _V
    + ", score ORDER BY score DESC LIMIT $k"
)
VECTOR_EXACT = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.valid_from <= $valid_at"
    " AND v.embedding IS NOT NULL AND v.recorded_at <= $known_at AND v.superseded_at > $known_at"
    " AND v.valid_to > $valid_at"
    " AND (v.archived_at IS NULL OR v.archived_at > $known_at OR $with_archived)"
    " AND ($any_kind OR v.kind IN $kinds)"
    " WITH v, vector.similarity.cosine(v.embedding, $vector) AS score"
    " RETURN " + _V + ", score ORDER BY score DESC LIMIT $k"
)
NAMESPACE_SIZE = "MATCH (n:Namespace {name: $ns}) RETURN n.n_versions"
CONCEPTS_OF_NAMESPACE = (
    "MATCH (c:Concept) WHERE c.namespace = $ns RETURN c.key, c.display, c.t_index"
    " ORDER BY c.t_index DESC, c.key LIMIT $limit"
)
MESSAGES_ALL = (
    "MATCH (m:Message) WHERE m.namespace = $ns AND m.seq IS NOT NULL RETURN m.msg_id,"
    " m.namespace, m.session, m.role, m.text, " + _us("m.at") + ", m.seq ORDER BY m.seq"
)
MESSAGES_SESSION = (
    "MATCH (m:Message) WHERE m.namespace = $ns AND m.seq IS NOT NULL AND m.session = $session"
    " RETURN m.msg_id,"
    " m.namespace, m.session, m.role, m.text, " + _us("m.at") + ", m.seq ORDER BY m.seq"
)
# Every version linked to the given messages (re-imports skip what was remembered).
REMEMBERED = (
    "UNWIND $ids AS id MATCH (m:Message {id: id})<-[:FROM_MESSAGE]-(v:Version)"
    " RETURN " + _V + ", m.msg_id, m.text"
)
SESSIONS = (
    "MATCH (m:Message) WHERE m.namespace = $ns AND m.seq IS NOT NULL AND m.session IS NOT NULL"
    " RETURN m.session, min(m.seq) AS first ORDER BY first"
)
DELETE_SESSION_MESSAGES = (
    "MATCH (m:Message) WHERE m.namespace = $ns AND m.seq IS NOT NULL AND m.session = $session"
    " DETACH DELETE m RETURN count(*)"
)
DELETE_MESSAGES_BY_ID = (
    "UNWIND $ids AS id MATCH (m:Message {id: id}) DETACH DELETE m RETURN count(*)"
)

# --- forgetting (a namespace in batches of $batch, then the rest under its lock) ------------
FORGET_NS_BATCHES = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.valid_from IS NOT NULL"
    " WITH v LIMIT $batch DETACH DELETE v RETURN count(*)",
    "MATCH (f:Fact) WHERE f.namespace = $ns WITH f LIMIT $batch DETACH DELETE f RETURN count(*)",
    "MATCH (c:Concept) WHERE c.namespace = $ns WITH c LIMIT $batch DETACH DELETE c RETURN count(*)",
    "MATCH (t:Term) WHERE t.namespace = $ns WITH t LIMIT $batch DETACH DELETE t RETURN count(*)",
    "MATCH (m:Message) WHERE m.namespace = $ns AND m.seq IS NOT NULL"
    " WITH m LIMIT $batch DETACH DELETE m RETURN count(*)",
    "MATCH (s:Summary) WHERE s.namespace = $ns WITH s LIMIT $batch DETACH DELETE s RETURN count(*)",
)
# A summary may quote a forgotten fact: every summary of a concept it mentioned goes too.
FORGET_SUMMARIES_OF = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id})<-[:SUMMARISES]-(s:Summary) DETACH DELETE s"
)
LOCK_EXISTING_NAMESPACE = "MATCH (n:Namespace {name: $ns}) SET n._lock = true RETURN n.name"
FORGET_NS_NODE = "MATCH (n:Namespace {name: $ns}) DETACH DELETE n RETURN count(*)"

LOCK_FACT_NAMESPACE = (
    "MATCH (f:Fact {id: $id}) MATCH (n:Namespace {name: f.namespace}) SET n._lock = true"
    " RETURN n.name"
)
UNLOCK_NAMESPACE = "MATCH (n:Namespace {name: $ns}) REMOVE n._lock"
FACT_TOUCHES = (
    "MATCH (v:Version)-[:VERSION_OF]->(f:Fact {id: $id})"
    " OPTIONAL MATCH (v)-[:MENTIONS]->(c:Concept)"
    " OPTIONAL MATCH (v)-[:HAS_TERM]->(t:Term)"
    " OPTIONAL MATCH (v)-[:FROM_MESSAGE]->(m:Message)"
    " RETURN collect(DISTINCT v.id), collect(DISTINCT c.id), collect(DISTINCT t.id),"
    " collect(DISTINCT m.id)"
)
FORGET_VERSIONS = "UNWIND $ids AS id MATCH (v:Version {id: id}) DETACH DELETE v"
FORGET_FACT = "MATCH (fact:Fact {id: $id}) DETACH DELETE fact"
UNLINK_SUPERSEDES = "MATCH (g:Fact) WHERE g.supersedes = $id REMOVE g.supersedes"
UNLINK_VERSION_SUPERSEDES = "MATCH (v:Version) WHERE v.supersedes = $id REMOVE v.supersedes"
FORGET_ORPHAN_CONCEPTS = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id})"
    " WHERE NOT EXISTS { MATCH (c)<-[:MENTIONS]-(:Version) } DETACH DELETE c"
)
FORGET_ORPHAN_TERMS = (
    "UNWIND $ids AS id MATCH (t:Term {id: id})"
    " WHERE NOT EXISTS { MATCH (t)<-[:HAS_TERM]-(:Version) } DETACH DELETE t"
)
FORGET_ORPHAN_MESSAGES = (
    "UNWIND $ids AS id MATCH (m:Message {id: id})"
    " WHERE NOT EXISTS { MATCH (m)<-[:FROM_MESSAGE]-(:Version) } DETACH DELETE m"
)

# --- memory lifecycle (operational metadata; never read by snapshots or histories) -----------
WRITE_ABSTRACTS = (
    "UNWIND $rows AS r MATCH (a:Version {id: r.a}), (b:Version {id: r.b})"
    " MERGE (a)-[:ABSTRACTS]->(b)"
)
ABSTRACTION_MEMBERS = (
    "UNWIND $ids AS id MATCH (a:Version {id: id})-[:ABSTRACTS]->(b:Version) RETURN a.id, b.id"
)
CITING = (
    "MATCH (a:Version)-[:ABSTRACTS]->(:Version)-[:VERSION_OF]->(:Fact {id: $id})"
    " RETURN DISTINCT a.fact_id"
)
# The current abstractions quoting some version of the given facts (closed when one changes).
CITING_CURRENT = (
    "UNWIND $ids AS id MATCH (a:Version)-[:ABSTRACTS]->(:Version)-[:VERSION_OF]->(:Fact {id: id})"
    " WHERE a.superseded_at = $eot RETURN DISTINCT a.id"
)
RECORD_USE = (
    "UNWIND $rows AS r MATCH (f:Fact {id: r.id}) WHERE f.namespace = $ns"
    " SET f.uses = coalesce(f.uses, 0) + r.n, f.last_used = $at"
)
USAGE = (
    "UNWIND $ids AS id MATCH (f:Fact {id: id}) WHERE f.namespace = $ns"
    " RETURN f.id, coalesce(f.uses, 0), " + _us("f.last_used")
)
ARCHIVE = (
    "UNWIND $ids AS id MATCH (v:Version)-[:VERSION_OF]->(f:Fact {id: id})"
    " WHERE f.namespace = $ns AND v.archived_at IS NULL SET v.archived_at = $at"
    " RETURN count(DISTINCT f)"
)
WRITE_INFERRED = (
    "UNWIND $rows AS r MATCH (a:Concept {id: r.a}), (b:Concept {id: r.b})"
    " MERGE (a)-[e:INFERRED {type: r.type}]->(b)"
    " SET e.confidence = r.confidence, e.provenance = r.provenance, e.recorded_at = $at"
    " RETURN count(e)"
)
_INFERRED_ROW = "a.key, b.key, e.type, e.confidence, e.provenance, " + _us("e.recorded_at")
INFERRED_ALL = (
    "MATCH (a:Concept)-[e:INFERRED]->(b:Concept) WHERE a.namespace = $ns RETURN " + _INFERRED_ROW
)
INFERRED_FROM = (
    "UNWIND $ids AS id MATCH (a:Concept {id: id})-[e:INFERRED]->(b:Concept) RETURN " + _INFERRED_ROW
)
INFERRED_TO = (
    "UNWIND $ids AS id MATCH (a:Concept)-[e:INFERRED]->(b:Concept {id: id}) RETURN " + _INFERRED_ROW
)

RAW_SCAN = (
    "MATCH (n:Namespace) RETURN properties(n)",
    "MATCH (n:Fact) RETURN properties(n)",
    "MATCH (n:Version) RETURN properties(n)",
    "MATCH (n:Concept) RETURN properties(n)",
    "MATCH (n:Term) RETURN properties(n)",
    "MATCH (n:Message) RETURN properties(n)",
    "MATCH (n:Summary) RETURN properties(n)",
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
MENTION_COUNTS = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id})"
    " RETURN c.key, COUNT { (c)<-[:MENTIONS]-(:Version) }"
)
SUMMARIES_KNOWN = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id})<-[:SUMMARISES]-(s:Summary)"
    " WHERE s.recorded_at <= $known_at AND s.superseded_at > $known_at RETURN c.key, s.text"
)

__all__ = [name for name in dir() if name.isupper() and not name.startswith("_")]
