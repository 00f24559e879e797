"""An ending said of someone by name reaches a fact about someone else (docs/design.md,
"Memory formation"): "ravi's quit the spitting images" ends "watching ravi drum for the
spitting images", a fact of the speaker's that names both Ravi and the band; and one who
leaves their work leaves the place they held for others ("Dr Patel has retired" ends "my GP
is Dr Patel")."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bitemporal_core.backends.port import RecallScope
from bitemporal_core.language.claims_en import keys_of
from bitemporal_core.language.people import names_person
from bitemporal_core.language.slots import slot_table
from bitemporal_core.model import Claim, Fact
from bitemporal_core.services.claims import may_retire
from bitemporal_core.services.context import Services

__all__ = ["ended_by_name", "vacated"]

_CANDIDATES = 4  # the best facts by keyword over the name and what was ended


def ended_by_name(
    ctx: Services, scope: RecallScope, claims: Sequence[Claim], gone: Collection[str]
) -> list[tuple[Fact, Claim]]:
    """The current facts an ending of a named person's ends, whoever they are about: each
    names the person and every word of the value ended. One keyword read per such ending;
    statements without one read nothing."""
    found: list[tuple[Fact, Claim]] = []
    for claim in claims:
        if claim.positive or not claim.keys or not may_retire(claim):
            continue
        kind, _, name = claim.subject.partition(":")
        if kind != "person" or not name:
            continue
        terms = [*keys_of(name), *claim.keys]
        for fact, _ in ctx.reads.keyword_search(scope, terms, _CANDIDATES):
            if fact.id in gone or any(f.id == fact.id for f, _ in found):
                continue
            if names_person(fact.text, claim.subject) and set(claim.keys) <= set(
                keys_of(fact.text)
            ):
                found.append((fact, claim))
    return found


def vacated(
    ctx: Services, scope: RecallScope, claims: Sequence[Claim], gone: Collection[str]
) -> list[tuple[Fact, Claim]]:
    """The current facts whose claim on a slot a person holds for others (the slot table's
    `cues.en.held_by_people`: a hairdresser, a GP, a manager) names someone whose own work
    ends (`cues.en.vacating` slots: "Dr Patel has retired", 王老师辞职了): that place is empty
    now. One keyword read and one claims read per such ending."""
    cues = slot_table()["cues"]["en"]
    held_by, vacating = set(cues["held_by_people"]), set(cues["vacating"])
    found: list[tuple[Fact, Claim]] = []
    for claim in claims:
        kind, _, name = claim.subject.partition(":")
        if claim.positive or claim.slot not in vacating or not may_retire(claim):
            continue
        if kind != "person" or not name:
            continue
        keys = set(keys_of(name))
        hits = [f for f, _ in ctx.reads.keyword_search(scope, sorted(keys), _CANDIDATES)]
        hits = [f for f in hits if f.id not in gone and all(f.id != g.id for g, _ in found)]
        held = ctx.facts.version_claims(scope.namespace, [f.version_id for f in hits])
        for fact in hits:
            if any(
                c.positive and c.slot.partition(":")[0] in held_by and keys <= set(c.keys)
                for c in held.get(fact.version_id, ())
            ):
                found.append((fact, claim))
    return found
