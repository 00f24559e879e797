"""The Cypher both engines run, written once: constant statements, and `Statements`, the ones
built from an engine's `Dialect` (how it returns a time, what lets it use an index, whether a
link is created or merged).

Values are always `$parameters`; labels, relationship types and the dialect's fragments are
fixed strings of this package, never input. Open intervals are stored as END_OF_TIME (`$eot`),
so visibility is a plain range predicate.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

__all__ = [
    "ABSTRACTION_MEMBERS",
    "ARCHIVE",
    "CITING",
    "CITING_CURRENT",
    "CLOSE_SUMMARIES",
    "CLOSE_VERSIONS",
    "CONCEPTS_OF_NAMESPACE",
    "DELETE_MESSAGES_BY_ID",
    "FACT_TOUCHES",
    "FORGET_FACT",
    "FORGET_NS_NODE",
    "FORGET_ORPHAN_CONCEPTS",
    "FORGET_ORPHAN_MESSAGES",
    "FORGET_ORPHAN_TERMS",
    "FORGET_SUMMARIES_OF",
    "FORGET_VERSIONS",
    "LIST_NAMESPACES",
    "MENTION_COUNTS",
    "READ_NAMESPACE",
    "RECALLABLE",
    "RECORD_USE",
    "SET_EMBEDDINGS",
    "SUMMARIES_KNOWN",
    "SUPERSEDED_BY",
    "UNLINK_SUPERSEDES",
    "UNLINK_VERSION_SUPERSEDES",
    "VISIBLE",
    "WRITE_SUMMARIES",
    "Dialect",
    "Statements",
    "not_null",
]

VISIBLE = (
    "v.recorded_at <= $known_at AND v.superseded_at > $known_at"
    " AND v.valid_from <= $valid_at AND v.valid_to > $valid_at"
)
# Recall reads also filter by statement kind and hide versions archived by `prune` (as known
# at the basis): the parameters of `RecallFilter.params()`.
RECALLABLE = (
    VISIBLE + " AND (v.archived_at IS NULL OR v.archived_at > $known_at OR $with_archived)"
    " AND ($any_kind OR v.kind IN $kinds)"
)

# --- namespaces ------------------------------------------------------------------------------
READ_NAMESPACE = (
    "MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index, n.msg_seq,"
    " n.n_versions, n.total_length"
)
LIST_NAMESPACES = "MATCH (n:Namespace) RETURN n.name ORDER BY n.name"

# --- writes ----------------------------------------------------------------------------------
CLOSE_VERSIONS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.id}) WHERE v.superseded_at = $eot"
    " SET v.superseded_at = r.at RETURN count(v)"
)
SET_EMBEDDINGS = "UNWIND $rows AS r MATCH (v:Version {id: r.id}) SET v.embedding = r.embedding"
# A concept summary replaces the concept's current one (closed at the batch's time).
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
SUPERSEDED_BY = "MATCH (g:Fact)-[:SUPERSEDES]->(f:Fact {id: $id}) RETURN g.id ORDER BY g.id"
CONCEPTS_OF_NAMESPACE = (
    "MATCH (c:Concept) WHERE c.namespace = $ns RETURN c.key, c.display, c.t_index"
    " ORDER BY c.t_index DESC, c.key LIMIT $limit"
)
SUMMARIES_KNOWN = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id})<-[:SUMMARISES]-(s:Summary)"
    " WHERE s.recorded_at <= $known_at AND s.superseded_at > $known_at RETURN c.key, s.text"
)
MENTION_COUNTS = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id})<-[:MENTIONS]-(v:Version) RETURN c.key, count(v)"
)
DELETE_MESSAGES_BY_ID = (
    "UNWIND $ids AS id MATCH (m:Message {id: id}) DETACH DELETE m RETURN count(*)"
)

# --- forgetting one lineage ------------------------------------------------------------------
FACT_TOUCHES = (
    "MATCH (v:Version)-[:VERSION_OF]->(f:Fact {id: $id})"
    " OPTIONAL MATCH (v)-[:MENTIONS]->(c:Concept)"
    " OPTIONAL MATCH (v)-[:HAS_TERM]->(t:Term)"
    " OPTIONAL MATCH (v)-[:FROM_MESSAGE]->(m:Message)"
    " RETURN collect(DISTINCT v.id), collect(DISTINCT c.id), collect(DISTINCT t.id),"
    " collect(DISTINCT m.id), f.namespace"
)
# A summary may quote a forgotten fact: every summary of a concept it mentioned goes too.
FORGET_SUMMARIES_OF = (
    "UNWIND $ids AS id MATCH (c:Concept {id: id})<-[:SUMMARISES]-(s:Summary) DETACH DELETE s"
)
FORGET_VERSIONS = "UNWIND $ids AS id MATCH (v:Version {id: id}) DETACH DELETE v"
FORGET_FACT = "MATCH (fact:Fact {id: $id}) DETACH DELETE fact"
UNLINK_SUPERSEDES = "MATCH (g:Fact) WHERE g.supersedes = $id SET g.supersedes = NULL"
UNLINK_VERSION_SUPERSEDES = "MATCH (v:Version) WHERE v.supersedes = $id SET v.supersedes = NULL"
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
FORGET_NS_NODE = "MATCH (n:Namespace {name: $ns}) DETACH DELETE n RETURN count(*)"

# --- memory lifecycle (operational metadata; never read by snapshots or histories) -----------
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
ARCHIVE = (
    "UNWIND $ids AS id MATCH (v:Version)-[:VERSION_OF]->(f:Fact {id: id})"
    " WHERE f.namespace = $ns AND v.archived_at IS NULL SET v.archived_at = $at"
    " RETURN count(DISTINCT f.id)"
)


def _same(prop: str) -> str:
    return prop


def _nothing(prop: str) -> str:
    return ""


def not_null(prop: str) -> str:
    """The `indexed` fragment of an engine whose composite indexes need a predicate on each
    key."""
    return " AND " + prop + " IS NOT NULL"


@attrs.frozen(kw_only=True)
class Dialect:
    """What differs in the shared statements from engine to engine.

    Attributes:
        time: how a time property is returned (Neo4j: epoch microseconds, cheaper to read).
        indexed: a predicate that lets the engine's composite index serve a read on a
            property (Neo4j needs `IS NOT NULL` on each key), or "".
        link: the verb that writes a relationship: CREATE, or MERGE where a retried
            transaction must not write it twice.
        unlock: what ends the namespace update (Neo4j removes its write lock).
        node: what returns a whole node's properties (for the tests' raw scans).
    """

    time: Callable[[str], str] = _same
    indexed: Callable[[str], str] = _nothing
    link: str = "CREATE"
    unlock: str = ""
    node: str = "n"


class Statements:
    """The statements both engines share whose text depends on the engine's `Dialect`."""

    def __init__(self, dialect: Dialect) -> None:
        t, link = dialect.time, dialect.link
        times = [t("v." + name) for name in ("valid_from", "valid_to", "recorded_at")]
        v = (
            "v.id, v.fact_id, v.namespace, v.text, "
            + ", ".join(times)
            + ", "
            + t("v.superseded_at")
            + ", v.version, v.source, v.speaker, v.session, v.kind,"
            " v.supersedes, v.t_index, " + t("v.said_at")
        )
        self.V = v  # the 16 columns of a version, in the order `rows.fact_from_row` reads
        order = " ORDER BY v.valid_from, v.recorded_at, v.id"
        self.LINEAGE = (
            "MATCH (v:Version)-[:VERSION_OF]->(f:Fact {id: $id}) RETURN " + v + ","
            " f.namespace, f.supersedes ORDER BY v.version, v.recorded_at"
        )
        self.SNAPSHOT = "MATCH (v:Version) WHERE v.namespace = $ns AND " + VISIBLE
        self.SNAPSHOT += " RETURN " + v + order
        self.VERSIONS_ALL = "MATCH (v:Version) WHERE v.namespace = $ns"
        self.VERSIONS_ALL += dialect.indexed("v.valid_from") + " RETURN " + v + order
        self.VERSIONS_KNOWN = (
            "MATCH (v:Version) WHERE v.namespace = $ns AND v.recorded_at <= $known_at"
            " AND v.superseded_at > $known_at RETURN " + v + order
        )
        self.VERSIONS_BY_ID = "UNWIND $ids AS id MATCH (v:Version {id: id}) RETURN " + v
        # Every version linked to the given messages (re-imports skip what was remembered).
        self.REMEMBERED = (
            "UNWIND $ids AS id MATCH (m:Message {id: id})<-[:FROM_MESSAGE]-(v:Version)"
            " RETURN " + v + ", m.msg_id, m.text"
        )
        self._messages(dialect)
        self.UPDATE_NAMESPACE = (
            "MATCH (n:Namespace {name: $ns}) SET n.last_tx = $last_tx, n.t_index = $t_index,"
            " n.msg_seq = $msg_seq, n.n_versions = n.n_versions + $n_versions,"
            " n.total_length = n.total_length + $length" + dialect.unlock
        )
        self.USAGE = (
            "UNWIND $ids AS id MATCH (f:Fact {id: id}) WHERE f.namespace = $ns"
            " RETURN f.id, coalesce(f.uses, 0), " + t("f.last_used")
        )
        edge = " RETURN a.key, b.key, e.type, e.confidence, e.provenance, " + t("e.recorded_at")
        self.INFERRED_ALL = "MATCH (a:Concept)-[e:INFERRED]->(b:Concept) WHERE a.namespace = $ns"
        self.INFERRED_ALL += edge
        self.INFERRED_FROM = "UNWIND $ids AS id MATCH (a:Concept {id: id})-[e:INFERRED]->"
        self.INFERRED_FROM += "(b:Concept)" + edge
        self.INFERRED_TO = "UNWIND $ids AS id MATCH (a:Concept)-[e:INFERRED]->"
        self.INFERRED_TO += "(b:Concept {id: id})" + edge
        self._links(link)
        labels = ("Namespace", "Fact", "Version", "Concept", "Term", "Message", "Summary")
        self.RAW_SCAN = {x: "MATCH (n:" + x + ") RETURN " + dialect.node for x in labels}

    def _messages(self, dialect: Dialect) -> None:
        seq = dialect.indexed("m.seq")
        columns = " RETURN m.msg_id, m.namespace, m.session, m.role, m.text, "
        columns += dialect.time("m.at") + ", m.seq"
        of_ns = "MATCH (m:Message) WHERE m.namespace = $ns" + seq
        self.MESSAGES_ALL = of_ns + columns + " ORDER BY m.seq"
        self.MESSAGES_SESSION = of_ns + " AND m.session = $session" + columns + " ORDER BY m.seq"
        # The last `$limit` messages, newest first (what a new statement is said after).
        self.MESSAGES_LAST_ALL = self.MESSAGES_ALL + " DESC LIMIT $limit"
        self.MESSAGES_LAST_SESSION = self.MESSAGES_SESSION + " DESC LIMIT $limit"
        self.SESSIONS = of_ns + " AND m.session IS NOT NULL"
        self.SESSIONS += " RETURN m.session, min(m.seq) AS first ORDER BY first"
        self.DELETE_SESSION_MESSAGES = of_ns + " AND m.session = $session"
        self.DELETE_SESSION_MESSAGES += " DETACH DELETE m RETURN count(*)"

    def _links(self, link: str) -> None:
        """Relationships between nodes that exist, one per row: the second node is matched
        after the first (LadybugDB plans `MATCH (a), (b)` as a product)."""
        then = " WITH a, r MATCH "
        rows = "UNWIND $rows AS r MATCH "
        self.LINK_SUPERSEDES = rows + "(a:Fact {id: r.id})" + then + "(b:Fact {id: r.supersedes})"
        self.LINK_SUPERSEDES += " " + link + " (a)-[:SUPERSEDES]->(b)"
        self.LINK_MENTIONS = rows + "(a:Version {id: r.v})" + then + "(b:Concept {id: r.c})"
        self.LINK_MENTIONS += " " + link + " (a)-[:MENTIONS]->(b)"
        self.LINK_TERMS = rows + "(a:Version {id: r.v})" + then + "(b:Term {id: r.t})"
        self.LINK_TERMS += " " + link + " (a)-[:HAS_TERM {tf: r.tf}]->(b)"
        self.LINK_MESSAGES = rows + "(a:Version {id: r.v})" + then + "(b:Message {id: r.m})"
        self.LINK_MESSAGES += " " + link + " (a)-[:FROM_MESSAGE]->(b)"
        self.WRITE_ABSTRACTS = rows + "(a:Version {id: r.a})" + then + "(b:Version {id: r.b})"
        self.WRITE_ABSTRACTS += " " + link + " (a)-[:ABSTRACTS]->(b)"
        # Strength is incremented by the database, under the namespace's write lock.
        self.RELATE_CONCEPTS = (
            rows + "(a:Concept {id: r.a})" + then + "(b:Concept {id: r.b})"
            " MERGE (a)-[e:RELATED]->(b) ON CREATE SET e.strength = r.n, e.t_index = r.t_index"
            " ON MATCH SET e.strength = e.strength + r.n, e.t_index = r.t_index"
        )
