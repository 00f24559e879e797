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
    "CLAIM_KEYED",
    "CLEAR_RECENT",
    "CLOSE_VERSIONS",
    "CONCEPTS_OF_NAMESPACE",
    "DELETE_MESSAGES_BY_ID",
    "FACT_SIZE",
    "FORGET_CLAIMS",
    "FORGET_FACT",
    "FORGET_NS_NODE",
    "FORGET_TAIL",
    "FORGET_VERSIONS",
    "LIST_NAMESPACES",
    "READ_NAMESPACE",
    "RECALLABLE",
    "RECENT",
    "RECORD_USE",
    "SESSION_TAIL",
    "SET_CLAIM_KEYED",
    "SET_RECENT",
    "TAILED",
    "UNCOUNT_VERSIONS",
    "UNDO_FACT_LINKS",
    "UNDO_LINKS",
    "UPDATE_TAILS",
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
    " AND (($any_kind AND v.kind <> 'talk') OR v.kind IN $kinds)"
)

# --- namespaces ------------------------------------------------------------------------------
READ_NAMESPACE = (
    "MATCH (n:Namespace {name: $ns}) RETURN n.last_tx, n.t_index, n.msg_seq,"
    " n.n_versions, n.total_length"
)
LIST_NAMESPACES = "MATCH (n:Namespace) RETURN n.name ORDER BY n.name"

# --- writes (each row starts from a primary-key lookup) --------------------------------------
CLOSE_VERSIONS = (
    "UNWIND $rows AS r MATCH (v:Version {id: r.id}) WHERE v.superseded_at = $eot"
    " SET v.superseded_at = r.at RETURN count(v)"
)
# A namespace's embedding dimension, fixed by its first write that carries embeddings.
NAMESPACE_DIM = "MATCH (n:Namespace {name: $ns}) RETURN n.embedding_dim"
SET_NAMESPACE_DIM = "MATCH (n:Namespace {name: $ns}) SET n.embedding_dim = $dim"
WRITE_SUMMARIES = (
    "UNWIND $rows AS r MATCH (c:Concept {id: r.c}) CREATE (s:Summary {id: r.id,"
    " namespace: $ns, key: r.key, text: r.text, recorded_at: r.at, superseded_at: $eot})"
    " CREATE (s)-[:SUMMARISES]->(c)"
)

# --- reads -----------------------------------------------------------------------------------
# Undo an automatic update: the link stays (history), marked undone.
UNDO_LINKS = (
    "UNWIND $rows AS r MATCH (a:Fact {id: r.fact})-[s:SUPERSEDES]->(b:Fact {id: r.replaced})"
    " WHERE s.undone_at IS NULL SET s.undone_at = r.at RETURN count(s)"
)
UNDO_FACT_LINKS = (
    "UNWIND $rows AS r MATCH (a:Fact {id: r.fact}) WHERE a.supersedes = r.replaced"
    " SET a.supersedes = NULL"
)
SET_RECENT = "MATCH (n:Namespace {name: $ns}) SET n.recent = $recent"
# Whether the namespace's claims are stored under lookup keys (set when it is created).
CLAIM_KEYED = "MATCH (n:Namespace {name: $ns}) RETURN n.claim_keys"
SET_CLAIM_KEYED = "MATCH (n:Namespace {name: $ns}) SET n.claim_keys = true"
# The last two messages of each session, kept on a `SessionTail` node (by primary key), so the
# message a new one is said after is found without reading the namespace's messages; set when
# the namespace is created (`session_tails`), so a session without a tail has no messages.
TAILED = "MATCH (n:Namespace {name: $ns}) RETURN n.session_tails"
SESSION_TAIL = "MATCH (s:SessionTail {id: $id}) RETURN s.last, s.prev"
UPDATE_TAILS = (
    "UNWIND $rows AS r MATCH (s:SessionTail {id: r.id}) WHERE s.last_seq < r.seq"
    " SET s.prev = CASE WHEN r.prev = '' THEN s.last ELSE r.prev END, s.last = r.last,"
    " s.last_seq = r.seq"
)
FORGET_TAIL = "MATCH (s:SessionTail {id: $id}) DELETE s"
RECENT = "MATCH (n:Namespace {name: $ns}) RETURN n.recent"
CLEAR_RECENT = "MATCH (n:Namespace {name: $ns}) SET n.recent = NULL"
CONCEPTS_OF_NAMESPACE = (
    "MATCH (c:Concept) WHERE c.namespace = $ns RETURN c.key, c.display, c.t_index"
    " ORDER BY c.t_index DESC, c.key LIMIT $limit"
)
DELETE_MESSAGES_BY_ID = (
    "UNWIND $ids AS id MATCH (m:Message {id: id}) DETACH DELETE m RETURN count(*)"
)

# --- forgetting one lineage ------------------------------------------------------------------
FORGET_CLAIMS = "UNWIND $ids AS id MATCH (c:Claim {id: id}) DETACH DELETE c"
FORGET_VERSIONS = "UNWIND $ids AS id MATCH (v:Version {id: id}) DETACH DELETE v"
FORGET_FACT = "MATCH (fact:Fact {id: $id}) DETACH DELETE fact"
FORGET_NS_NODE = "MATCH (n:Namespace {name: $ns}) DETACH DELETE n RETURN count(*)"
# A forgotten lineage leaves the namespace's document counts (BM25 statistics, as-of reads).
FACT_SIZE = "MATCH (f:Fact {id: $id})<-[:VERSION_OF]-(v:Version) RETURN count(v), sum(v.length)"
UNCOUNT_VERSIONS = (
    "MATCH (n:Namespace {name: $ns}) SET n.n_versions = n.n_versions - $n,"
    " n.total_length = n.total_length - $length"
)

# --- memory lifecycle (operational metadata; never read by snapshots or histories) -----------
RECORD_USE = (
    "UNWIND $rows AS r MATCH (f:Fact {id: r.id}) WHERE f.namespace = $ns"
    " SET f.uses = coalesce(f.uses, 0) + r.n, f.last_used = $at"
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
        hint_concepts: what makes the engine start a namespace's concept-relationship read from
            its concept index (Neo4j may scan the relationship type when it is small), or "".
        one_start: the engine plans a relationship expansion as a lookup only from one
            `$id` parameter (LadybugDB plans `UNWIND $ids ... MATCH (x {id: id})-[]-()` as a
            join with a scan of a whole table); the statements that start from given ids
            then take `$id`, run once per id (`CypherBackend._from_ids`), instead of `$ids`.
    """

    time: Callable[[str], str] = _same
    indexed: Callable[[str], str] = _nothing
    link: str = "CREATE"
    unlock: str = ""
    node: str = "n"
    hint_concepts: str = ""
    one_start: bool = False


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
            " v.supersedes, v.t_index, " + t("v.said_at") + ", v.language, v.category"
        )
        self.V = v  # the `rows.WIDTH` columns of a version, in the order `fact_from_row` reads
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
        self._from_ids(dialect)
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
        edge += ", " + t("e.superseded_at")  # NULL: current (a refresh closes the one before)
        self.INFERRED_ALL = "MATCH (a:Concept)-[e:INFERRED]->(b:Concept)" + dialect.hint_concepts
        self.INFERRED_ALL += " WHERE a.namespace = $ns"
        self.INFERRED_ALL += edge
        self.INFERRED_FROM = "UNWIND $ids AS id MATCH (a:Concept {id: id})-[e:INFERRED]->"
        self.INFERRED_FROM += "(b:Concept)" + edge
        self.INFERRED_TO = "UNWIND $ids AS id MATCH (a:Concept)-[e:INFERRED]->"
        self.INFERRED_TO += "(b:Concept {id: id})" + edge
        self._links(link)
        self._claims(dialect)
        labels = ["Namespace", "Fact", "Version", "Concept", "Term", "Message", "Summary"]
        labels += ["Claim", "Entity", "ClaimKey", "SessionTail"]
        self.RAW_SCAN = {x: "MATCH (n:" + x + ") RETURN " + dialect.node for x in labels}

    def _claims(self, dialect: Dialect) -> None:
        t = dialect.time
        each, i = ("", "$id") if dialect.one_start else ("UNWIND $ids AS id ", "id")
        claim = "c.subject, c.slot, c.value, c.value_keys, c.positive, c.one_value,"
        claim += " c.claim_mode, c.context_keys, c.rule"
        # A subject's claims, then their versions that are current: two lookups (LadybugDB
        # plans the two-hop pattern as a join with a scan of the Version table).
        self.CLAIMS_ABOUT = each + "MATCH (e:Entity {id: " + i + "})<-[:ABOUT]-(c:Claim)"
        self.CLAIMS_ABOUT += " RETURN c.version, " + claim
        # The claims stored under some lookup keys (`services.claims.held_keys`).
        self.KEYED_CLAIMS = each + "MATCH (k:ClaimKey {id: " + i + "})-[:KEYS]->(c:Claim)"
        self.KEYED_CLAIMS += " RETURN c.version, " + claim
        # Every claim of a namespace, to file those of an older namespace under keys once.
        self.NAMESPACE_CLAIMS = "MATCH (c:Claim) WHERE c.namespace = $ns RETURN c.id, " + claim
        self.CURRENT_VERSIONS = "UNWIND $ids AS id MATCH (v:Version {id: id})"
        self.CURRENT_VERSIONS += " WHERE v.superseded_at = $eot AND v.valid_to > $at"
        self.CURRENT_VERSIONS += " RETURN " + self.V
        self.CLAIMS_OF = (
            each + "MATCH (v:Version {id: " + i + "})-[:CLAIMS]->(c:Claim)"
            " RETURN v.id, " + claim + " ORDER BY c.id"
        )
        change = ", s.reason AS reason, s.confidence AS confidence, " + t("s.at") + " AS at, "
        change += t("s.undone_at") + " AS undone"
        self.CHANGES = "MATCH (g:Fact)-[s:SUPERSEDES]->(f:Fact {id: $id})"
        self.CHANGES += " RETURN g.id AS fact, f.id AS replaced" + change
        self.CHANGES += " UNION ALL MATCH (f:Fact {id: $id})-[s:SUPERSEDES]->(g:Fact)"
        self.CHANGES += " RETURN f.id AS fact, g.id AS replaced" + change

    def _from_ids(self, dialect: Dialect) -> None:
        """Statements that start from each of some given ids and follow relationships: with
        `UNWIND $ids AS id`, or from `$id` on an engine that plans only that well."""
        each, i = ("", "$id") if dialect.one_start else ("UNWIND $ids AS id ", "id")
        self.ONE_START = dialect.one_start
        # The given messages that exist (a lookup per id, on every engine), then every version
        # linked to them (re-imports skip what was remembered).
        self.MESSAGES_FOUND = (
            "UNWIND $ids AS id MATCH (m:Message {id: id}) RETURN m.id, m.msg_id, m.text"
        )
        self.REMEMBERED = each + "MATCH (m:Message {id: " + i + "})<-[:FROM_MESSAGE]-(v:Version)"
        self.REMEMBERED += " RETURN " + self.V + ", m.msg_id, m.text"
        self.SUMMARIES_KNOWN = each + "MATCH (c:Concept {id: " + i + "})<-[:SUMMARISES]-"
        self.SUMMARIES_KNOWN += "(s:Summary) RETURN c.key, s.text, s.recorded_at <= $known_at"
        self.SUMMARIES_KNOWN += " AND s.superseded_at > $known_at"
        self.MENTION_COUNTS = each + "MATCH (c:Concept {id: " + i + "})<-[:MENTIONS]-(v:Version)"
        self.MENTION_COUNTS += " RETURN c.key, count(v)"
        # A concept summary replaces the concept's current one (closed at the batch's time).
        self.CLOSE_SUMMARIES = each + "MATCH (c:Concept {id: " + i + "})<-[:SUMMARISES]-"
        self.CLOSE_SUMMARIES += "(s:Summary) WHERE s.superseded_at = $eot SET s.superseded_at = $at"
        # A summary may quote a forgotten fact: every summary of a concept it mentioned goes too.
        self.FORGET_SUMMARIES_OF = each + "MATCH (c:Concept {id: " + i + "})<-[:SUMMARISES]-"
        self.FORGET_SUMMARIES_OF += "(s:Summary) DETACH DELETE s"
        orphan = " WHERE NOT EXISTS { MATCH (x)<-[:{rel}]-(:Version) } DETACH DELETE x"
        self.FORGET_ORPHANS = {
            label: each + "MATCH (x:" + label + " {id: " + i + "})" + orphan.replace("{rel}", rel)
            for label, rel in (("Concept", "MENTIONS"), ("Term", "HAS_TERM"))
        }
        self.FORGET_ORPHANS["Message"] = each + "MATCH (x:Message {id: " + i + "})"
        self.FORGET_ORPHANS["Message"] += orphan.replace("{rel}", "FROM_MESSAGE")
        self.FORGET_ORPHANS["Entity"] = each + "MATCH (x:Entity {id: " + i + "})"
        self.FORGET_ORPHANS["Entity"] += orphan.replace("(:Version)", "(:Claim)").replace(
            "{rel}", "ABOUT"
        )
        self.FORGET_ORPHANS["ClaimKey"] = each + "MATCH (x:ClaimKey {id: " + i + "})"
        self.FORGET_ORPHANS["ClaimKey"] += (
            " WHERE NOT EXISTS { MATCH (x)-[:KEYS]->(:Claim) } DETACH DELETE x"
        )
        self.ABSTRACTION_MEMBERS = each + "MATCH (a:Version {id: " + i + "})-[:ABSTRACTS]->"
        self.ABSTRACTION_MEMBERS += "(b:Version) RETURN a.id, b.id"
        # The abstractions quoting some version of the given facts (`current`: not closed).
        self.CITING = each + "MATCH (:Fact {id: " + i + "})<-[:VERSION_OF]-(:Version)"
        self.CITING += "<-[:ABSTRACTS]-(a:Version) RETURN a.id, a.fact_id, a.superseded_at = $eot"
        self.ARCHIVE = each + "MATCH (f:Fact {id: " + i + "})<-[:VERSION_OF]-(v:Version)"
        self.ARCHIVE += " WHERE f.namespace = $ns AND v.archived_at IS NULL"
        self.ARCHIVE += " SET v.archived_at = $at RETURN f.id"
        self.FACT_TOUCHES = (
            "MATCH (f:Fact {id: $id})<-[:VERSION_OF]-(v:Version)"
            " OPTIONAL MATCH (v)-[:MENTIONS]->(c:Concept)"
            " OPTIONAL MATCH (v)-[:HAS_TERM]->(t:Term)"
            " OPTIONAL MATCH (v)-[:FROM_MESSAGE]->(m:Message)"
            " OPTIONAL MATCH (v)-[:CLAIMS]->(cl:Claim)"
            " OPTIONAL MATCH (cl)<-[:KEYS]-(ck:ClaimKey)"
            " RETURN collect(DISTINCT v.id), collect(DISTINCT c.id), collect(DISTINCT t.id),"
            " collect(DISTINCT m.id), f.namespace, collect(DISTINCT cl.id),"
            " collect(DISTINCT cl.entity), collect(DISTINCT v.text), collect(DISTINCT ck.id)"
        )
        # Undone links are left out by the caller (LadybugDB plans the filter as a type scan).
        self.SUPERSEDED_BY = "MATCH (f:Fact {id: $id})<-[s:SUPERSEDES]-(g:Fact)"
        self.SUPERSEDED_BY += " RETURN g.id, s.undone_at IS NULL"
        # Before a lineage goes, its successors forget that they superseded it (every version
        # of a successor carries its fact's `supersedes`).
        self.UNLINK_SUPERSEDES = "MATCH (f:Fact {id: $id})<-[:SUPERSEDES]-(g:Fact)"
        self.UNLINK_SUPERSEDES += "<-[:VERSION_OF]-(v:Version) SET g.supersedes = NULL,"
        self.UNLINK_SUPERSEDES += " v.supersedes = NULL"

    def _messages(self, dialect: Dialect) -> None:
        seq = dialect.indexed("m.seq")
        columns = " RETURN m.msg_id, m.namespace, m.session, m.role, m.text, "
        columns += dialect.time("m.at") + ", m.seq"
        of_ns = "MATCH (m:Message) WHERE m.namespace = $ns" + seq
        self.MESSAGES_ALL = of_ns + columns + " ORDER BY m.seq"
        self.MESSAGES_SESSION = of_ns + " AND m.session = $session" + columns + " ORDER BY m.seq"
        self.MESSAGE_BY_ID = "MATCH (m:Message {id: $id})" + columns
        # The last `$limit` messages, newest first (what a new statement is said after).
        self.MESSAGES_LAST_ALL = self.MESSAGES_ALL + " DESC LIMIT $limit"
        self.MESSAGES_LAST_SESSION = self.MESSAGES_SESSION + " DESC LIMIT $limit"
        # Several sessions' messages in one read (a bulk import's first message of each).
        self.MESSAGES_OF_SESSIONS = of_ns + " AND m.session IN $sessions" + columns
        self.MESSAGES_OF_SESSIONS += " ORDER BY m.seq"
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
        self.LINK_SUPERSEDES += " " + link + " (a)-[:SUPERSEDES {reason: r.reason,"
        self.LINK_SUPERSEDES += " confidence: r.confidence, at: r.at}]->(b)"
        self.LINK_MENTIONS = rows + "(a:Version {id: r.v})" + then + "(b:Concept {id: r.c})"
        self.LINK_MENTIONS += " " + link + " (a)-[:MENTIONS {touch: r.touch}]->(b)"
        self.LINK_TERMS = rows + "(a:Version {id: r.v})" + then + "(b:Term {id: r.t})"
        self.LINK_TERMS += " " + link + " (a)-[:HAS_TERM {tf: r.tf}]->(b)"
        self.LINK_MESSAGES = rows + "(a:Version {id: r.v})" + then + "(b:Message {id: r.m})"
        self.LINK_MESSAGES += " " + link + " (a)-[:FROM_MESSAGE]->(b)"
        self.WRITE_ABSTRACTS = rows + "(a:Version {id: r.a})" + then + "(b:Version {id: r.b})"
        self.WRITE_ABSTRACTS += " " + link + " (a)-[:ABSTRACTS]->(b)"
        # Each write adds its co-mentions as a RELATED edge of its own (`merge.relate_rows`): a
        # pair's strength is the sum over its edges, its t_index their largest, and the graph
        # as known at an earlier t_index is the edges up to it.
        self.RELATE_CONCEPTS = rows + "(a:Concept {id: r.a})" + then + "(b:Concept {id: r.b})"
        self.RELATE_CONCEPTS += " " + link + " (a)-[:RELATED {strength: r.n,"
        self.RELATE_CONCEPTS += " t_index: r.t_index}]->(b)"
