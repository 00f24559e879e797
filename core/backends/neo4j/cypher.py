"""The Cypher only the Neo4j engine runs, as named constants (values are $parameters), and
`SHARED`, the statements of `backends.cypher` in Neo4j's dialect.

Same graph model as the embedded engine: open intervals are stored as END_OF_TIME (`$eot`),
so visibility is a plain range predicate the (namespace, valid_from) and
(namespace, recorded_at) range indexes can serve. Labels and relationship types are fixed here
and never come from input.
"""

from __future__ import annotations

from bitemporal_core.backends.cypher import RECALLABLE, Dialect, Statements, not_null
from bitemporal_core.errors import EmbeddingMismatch

# --- schema (idempotent; each statement runs in its own transaction) -------------------------
CONSTRAINTS = (
    "CREATE CONSTRAINT bt_namespace_name IF NOT EXISTS FOR (n:Namespace) REQUIRE n.name IS UNIQUE",
    "CREATE CONSTRAINT bt_fact_id IF NOT EXISTS FOR (f:Fact) REQUIRE f.id IS UNIQUE",
    "CREATE CONSTRAINT bt_version_id IF NOT EXISTS FOR (v:Version) REQUIRE v.id IS UNIQUE",
    "CREATE CONSTRAINT bt_concept_id IF NOT EXISTS FOR (c:Concept) REQUIRE c.id IS UNIQUE",
    "CREATE CONSTRAINT bt_term_id IF NOT EXISTS FOR (t:Term) REQUIRE t.id IS UNIQUE",
    "CREATE CONSTRAINT bt_message_id IF NOT EXISTS FOR (m:Message) REQUIRE m.id IS UNIQUE",
    "CREATE CONSTRAINT bt_summary_id IF NOT EXISTS FOR (s:Summary) REQUIRE s.id IS UNIQUE",
    "CREATE CONSTRAINT bt_entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE",
    "CREATE CONSTRAINT bt_claimkey_id IF NOT EXISTS FOR (k:ClaimKey) REQUIRE k.id IS UNIQUE",
    "CREATE CONSTRAINT bt_claim_id IF NOT EXISTS FOR (c:Claim) REQUIRE c.id IS UNIQUE",
    "CREATE CONSTRAINT bt_tail_id IF NOT EXISTS FOR (s:SessionTail) REQUIRE s.id IS UNIQUE",
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
    "CREATE INDEX bt_claim_ns IF NOT EXISTS FOR (c:Claim) ON (c.namespace)",
    "CREATE INDEX bt_entity_ns IF NOT EXISTS FOR (e:Entity) ON (e.namespace)",
    "CREATE INDEX bt_claimkey_ns IF NOT EXISTS FOR (k:ClaimKey) ON (k.namespace)",
    "CREATE INDEX bt_tail_ns IF NOT EXISTS FOR (s:SessionTail) ON (s.namespace)",
    "CREATE FULLTEXT INDEX bt_version_text IF NOT EXISTS FOR (v:Version) ON EACH [v.text]",
    # forgetting a namespace deletes its summaries in batches (a label scan without it)
    "CREATE INDEX bt_summary_ns IF NOT EXISTS FOR (s:Summary) ON (s.namespace)",
)
SCHEMA = CONSTRAINTS + INDEXES
AWAIT_INDEXES = "CALL db.awaitIndexes($seconds)"
# One vector index per dimension, so namespaces of different embedders share a database: a
# version's embedding also gives it the label of its dimension (`vector_label`), and each
# label has its own index (`vector_index`), created on the first write of that dimension.
VECTOR_DIM_MAX = 4096  # Neo4j's largest vector index dimension
LABEL_EMBEDDED = "UNWIND $ids AS id MATCH (v:Version {id: id}) SET v:$($label)"
# Stored as a float32 array (half a list of floats' size) by the procedure made for it; the
# vector index keeps its own quantized copy (`vector.quantization.enabled`).
SET_EMBEDDINGS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.id})"
    " CALL db.create.setNodeVectorProperty(v, 'embedding', r.embedding)"
)
VECTOR_INDEX_EXISTS = "SHOW VECTOR INDEXES YIELD name WHERE name = $name RETURN name"


def _dim(dim: int) -> int:
    if isinstance(dim, bool) or not isinstance(dim, int) or not 1 <= dim <= VECTOR_DIM_MAX:
        raise EmbeddingMismatch(
            f"Neo4j indexes vectors of 1 to {VECTOR_DIM_MAX} dimensions, not {dim}"
        )
    return dim


def vector_label(dim: int) -> str:
    """The label of versions whose embedding has `dim` dimensions."""
    return f"Embedding{_dim(dim)}"


def vector_index(dim: int) -> str:
    """The name of the vector index over the versions of `dim` dimensions."""
    return f"bt_version_embedding_{_dim(dim)}"


def create_vector_index(dim: int) -> str:
    """The schema statement of `vector_index(dim)` (a label cannot be a parameter there;
    `dim` is an int checked by `_dim`, never text from input)."""
    return (
        "CREATE VECTOR INDEX " + vector_index(dim) + " IF NOT EXISTS"
        " FOR (v:" + vector_label(dim) + ") ON v.embedding OPTIONS {indexConfig:"
        " {`vector.dimensions`: $dim, `vector.similarity_function`: 'cosine',"
        " `vector.quantization.enabled`: true}}"
    )


def _us(prop: str) -> str:
    """A datetime property as exact epoch microseconds: returning integers instead of
    DateTime values makes result rows several times cheaper to serialize and hydrate."""
    return prop + ".epochMillis * 1000 + " + prop + ".microsecond % 1000"  # epochMillis floors


# The statements both engines share, as Neo4j runs them (see `backends.cypher`): times as
# epoch microseconds, a predicate on each key of a composite index, idempotent links (a
# transaction the driver retries after a lost acknowledgement writes nothing twice).
SHARED = Statements(
    Dialect(
        time=_us,
        indexed=not_null,
        link="MERGE",
        unlock=" REMOVE n._lock",
        node="properties(n)",
        hint_concepts=" USING INDEX a:Concept(namespace)",
    )
)
_V = SHARED.V

# --- namespace clock -------------------------------------------------------------------------
CLOCK = (
    "OPTIONAL MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index, datetime.transaction()"
)
# The first statement of every write: creates the namespace if needed and takes its write lock
# (a real property change, removed again by UNLOCK/UPDATE_NAMESPACE), so concurrent writers of
# one namespace serialize and read its counters only once they hold the lock. A writer that
# waited for `forget` holds a deleted node whose counters read as null: the last column says so
# and the writer merges again (a fresh namespace).
LOCK_NAMESPACE = (
    "MERGE (n:Namespace {name: $ns}) ON CREATE SET n.last_tx = $zero, n.t_index = 0,"
    " n.msg_seq = 0, n.n_versions = 0, n.total_length = 0, n.claim_keys = true,"
    " n.session_tails = true SET n._lock = true"
    " RETURN coalesce(n.last_tx, $zero), coalesce(n.t_index, 0), coalesce(n.msg_seq, 0),"
    " n.t_index IS NULL"
)

# --- writes ----------------------------------------------------------------------------------
MERGE_FACTS = (
    "UNWIND $rows AS r MERGE (f:Fact {id: r.id}) ON CREATE SET f.namespace = $ns,"
    " f.supersedes = r.supersedes, f.created_at = r.at"
)
MERGE_VERSIONS = (
    "UNWIND $rows AS r MERGE (v:Version {id: r.id}) ON CREATE SET v.fact_id = r.fact_id,"
    " v.namespace = $ns, v.text = r.text, v.valid_from = r.valid_from, v.valid_to = r.valid_to,"
    " v.recorded_at = r.at, v.superseded_at = $eot, v.version = r.version,"
    " v.said_at = r.said_at, v.source = r.source, v.speaker = r.speaker,"
    " v.session = r.session, v.kind = r.kind, v.supersedes = r.supersedes,"
    " v.t_index = r.t_index, v.length = r.length,"
    " v.language = r.language,"
    " v.category = r.category"
    " WITH v, r MATCH (f:Fact {id: r.fact_id}) MERGE (v)-[:VERSION_OF]->(f)"
)
# A new concept takes the t_index of the batch that first names it; a concept that new
# statements mention takes the last such batch's (r.touch), else keeps its own.
MERGE_CONCEPTS = (
    "UNWIND $rows AS r MERGE (c:Concept {id: r.id}) ON CREATE SET c.namespace = $ns,"
    " c.key = r.key, c.display = r.display, c.t_index = r.t_index"
    " SET c.t_index = coalesce(r.touch, c.t_index)"
)
MERGE_ENTITIES = (
    "UNWIND $rows AS r MERGE (e:Entity {id: r.id}) ON CREATE SET e.namespace = $ns,"
    " e.key = r.key, e.name = r.name, e.kind = r.kind"
)
MERGE_CLAIMS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.v}), (e:Entity {id: r.e})"
    " MERGE (c:Claim {id: r.id}) ON CREATE SET c.namespace = $ns, c.subject = r.subject,"
    " c.slot = r.slot, c.value = r.value, c.value_keys = r.value_keys, c.positive = r.positive,"
    " c.one_value = r.one_value, c.claim_mode = r.claim_mode,"
    " c.context_keys = r.context_keys, c.rule = r.rule, c.version = r.v, c.entity = r.e"
    " MERGE (v)-[:CLAIMS]->(c) MERGE (c)-[:ABOUT]->(e)"
)
MERGE_CLAIM_KEYS = (
    "UNWIND $rows AS r MERGE (k:ClaimKey {id: r.k}) ON CREATE SET k.namespace = $ns"
    " WITH k, r MATCH (c:Claim {id: r.c}) MERGE (k)-[:KEYS]->(c)"
)
MERGE_TERMS = (
    "UNWIND $rows AS r MERGE (t:Term {id: r.id}) ON CREATE SET t.namespace = $ns, t.stem = r.stem"
)
MERGE_TAILS = (
    "UNWIND $rows AS r MERGE (s:SessionTail {id: r.id}) ON CREATE SET s.namespace = $ns,"
    " s.last = '', s.prev = '', s.last_seq = -1"
)
MERGE_MESSAGES = (
    "UNWIND $rows AS r MERGE (m:Message {id: r.id}) ON CREATE SET m.msg_id = r.msg_id,"
    " m.namespace = $ns, m.session = r.session, m.role = r.role, m.text = r.text,"
    " m.at = r.at, m.seq = r.seq"
)

# --- reads (a composite index needs a predicate on each key, hence IS NOT NULL) --------------
CONCEPTS_BY_ID = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id}) RETURN c.id, c.key, c.display, c.t_index"
)
NEIGHBOURS = (
    "UNWIND $ids AS id MATCH (s:Concept {id: id})-[:RELATED]-(c:Concept)"
    " WHERE c.t_index >= $low AND c.t_index <= $high"
    " WITH DISTINCT c RETURN c.id, c.key, c.display, c.t_index"
    " ORDER BY c.t_index DESC, c.id LIMIT $limit"
)
# A pair's strength is the sum of its RELATED increments (one edge per write), up to $top.
EDGES_AMONG = (
    "UNWIND $ids AS id MATCH (a:Concept {id: id})-[e:RELATED]->(b:Concept)"
    " WHERE b.id IN $ids AND e.t_index <= $top"
    " RETURN a.key, b.key, sum(e.strength), max(e.t_index)"
)
# The graph as known at t_index $top (a read at an earlier known_at): a concept's t_index then
# is the largest its mentions moved it to by $top (mentions written before touches were
# recorded count at their version's t_index); a neighbour is one related by then.
_TOUCHED = (
    " CALL (c) { MATCH (c)<-[m:MENTIONS]-(v:Version) WITH coalesce(m.touch, v.t_index) AS t"
    " WHERE t >= 0 AND t <= $top RETURN max(t) AS t }"
)
CONCEPTS_BY_ID_AT = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id})" + _TOUCHED + " WITH c, t WHERE t IS NOT NULL"
    " RETURN c.id, c.key, c.display, t"
)
NEIGHBOURS_AT = (
    "UNWIND $ids AS id MATCH (s:Concept {id: id})-[e:RELATED]-(c:Concept)"
    " WHERE e.t_index <= $top WITH DISTINCT c" + _TOUCHED + " WITH c, t"
    " WHERE t >= $low AND t <= $high RETURN c.id, c.key, c.display, t"
    " ORDER BY t DESC, c.id LIMIT $limit"
)
# The namespace's t_index as known at $known_at: that of the versions recorded last by then.
TOP_KNOWN = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.recorded_at <= $known_at"
    " WITH v ORDER BY v.recorded_at DESC LIMIT 1 MATCH (w:Version)"
    " WHERE w.namespace = $ns AND w.recorded_at = v.recorded_at RETURN max(w.t_index)"
)
MENTIONS_OF = (
    "UNWIND range(0, size($ids) - 1) AS i MATCH (c:Concept {id: $ids[i]})"
    " CALL (c) { MATCH (c)<-[:MENTIONS]-(v:Version) WHERE "
    + RECALLABLE
    + " RETURN v ORDER BY v.valid_from DESC, v.recorded_at DESC, v.id DESC LIMIT $limit }"
    " RETURN " + _V + ", i"
)
TERM_DF = "UNWIND $ids AS id MATCH (t:Term {id: id}) RETURN t.stem, COUNT { (t)<-[:HAS_TERM]-() }"
# BM25 statistics as known at $known_at: postings of versions recorded by then, and what was
# recorded later (taken off the namespace's running totals).
TERM_DF_KNOWN = (
    "UNWIND $ids AS id MATCH (t:Term {id: id}) RETURN t.stem,"
    " COUNT { (t)<-[:HAS_TERM]-(v:Version) WHERE v.recorded_at <= $known_at }"
)
RECORDED_AFTER = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.recorded_at > $known_at"
    " RETURN count(v), sum(v.length)"
)
POSTINGS = (
    "UNWIND $ids AS id MATCH (t:Term {id: id})<-[h:HAS_TERM]-(v:Version) WHERE "
    + RECALLABLE
    + " RETURN v.id, v.length, t.stem, h.tf"
)
# Vector recall: the native index with over-fetch, then namespace and basis filters; or an exact
# scan of the namespace (served by the namespace range index) when that set is small.
VECTOR_QUERY = (
    "CALL db.index.vector.queryNodes($index, $fetch, $vector)"
    " YIELD node AS v, score WHERE v.namespace = $ns AND "
    + RECALLABLE
    + " RETURN "
    + _V
    + ", score ORDER BY score DESC LIMIT $k"
)
VECTOR_EXACT = (
    "MATCH (v:Version) WHERE v.namespace = $ns AND v.valid_from <= $valid_at"
    " AND v.embedding IS NOT NULL AND size(v.embedding) = size($vector)"
    " AND v.recorded_at <= $known_at AND v.superseded_at > $known_at"
    " AND v.valid_to > $valid_at"
    " AND (v.archived_at IS NULL OR v.archived_at > $known_at OR $with_archived)"
    " AND (($any_kind AND v.kind <> 'talk') OR v.kind IN $kinds)"
    " WITH v, vector.similarity.cosine(v.embedding, $vector) AS score"
    " RETURN " + _V + ", score ORDER BY score DESC LIMIT $k"
)
NAMESPACE_SIZE = "MATCH (n:Namespace {name: $ns}) RETURN n.n_versions, n.embedding_dim, n.last_tx"

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
    "MATCH (c:Claim) WHERE c.namespace = $ns WITH c LIMIT $batch DETACH DELETE c RETURN count(*)",
    "MATCH (e:Entity) WHERE e.namespace = $ns WITH e LIMIT $batch DETACH DELETE e RETURN count(*)",
    "MATCH (k:ClaimKey) WHERE k.namespace = $ns WITH k LIMIT $batch DETACH DELETE k"
    " RETURN count(*)",
    "MATCH (s:SessionTail) WHERE s.namespace = $ns WITH s LIMIT $batch DELETE s RETURN count(*)",
)
LOCK_EXISTING_NAMESPACE = "MATCH (n:Namespace {name: $ns}) SET n._lock = true RETURN n.name"

LOCK_FACT_NAMESPACE = (
    "MATCH (f:Fact {id: $id}) MATCH (n:Namespace {name: f.namespace}) SET n._lock = true"
    " RETURN n.name"
)
UNLOCK_NAMESPACE = "MATCH (n:Namespace {name: $ns}) REMOVE n._lock"

# --- memory lifecycle (operational metadata; never read by snapshots or histories) -----------
# A refresh closes the pair's current edge of the type and records a new one (as-of reads).
WRITE_INFERRED = (
    "UNWIND $rows AS r MATCH (a:Concept {id: r.a}), (b:Concept {id: r.b})"
    " OPTIONAL MATCH (a)-[old:INFERRED {type: r.type}]->(b) WHERE old.superseded_at IS NULL"
    " SET old.superseded_at = $at WITH DISTINCT a, b, r"
    " CREATE (a)-[e:INFERRED {type: r.type, confidence: r.confidence,"
    " provenance: r.provenance, recorded_at: $at}]->(b) RETURN count(e)"
)


__all__ = [name for name in dir() if name.isupper() and not name.startswith("_")] + [
    "create_vector_index",
    "vector_index",
    "vector_label",
]
