"""Memory formation on every engine, stop 60's rules (docs/design.md, "Memory formation"): a
home named by a place before the word for it ("this york flat"); a habit ended by a frame of
abstinence over its words; a change said outright of a slot no fact holds replaces the
latest fact no slot read that names the slot's kind; a partner called "my other half"; a
phone that "dies" is no pet's death; and the readings added."""

from __future__ import annotations

import pytest

from bitemporal_core import MemoryStore

from ._said import still_true


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a home named by its place before "flat", then a move
        (
            "the radiators in this york flat never work",
            "moved to Hull last weekend, the new place is warm",
        ),
        # a habit ended by abstinence over its words
        (
            "I'm on about twenty roll-ups a week",
            "three weeks with no cigarettes now, the gum helps",
        ),
        (
            "my brother likes a pint of real ale after work",
            "my brother's been off the booze since january",
        ),
        # a change said outright replaces what no slot read of that slot
        (
            "took out home insurance with Hastings in may",
            "switched my home insurance to Sheilas Wheels",
        ),
        # a relative's word with its apostrophe dropped opens the clause ("dads out")
        (
            "dads out fishing again, he goes every sunday",
            "dad sold his rods, hes done with fishing",
        ),
        # "migrated" is a change
        (
            "I keep all my recipes in Evernote",
            "migrated all my recipes to Notion, Evernote got slow",
        ),
        # the readings added
        (
            "renewed my pure gym membership last week",
            "cancelled pure gym, trying the council pool next",
        ),
        ("making 41k at the moment", "got the raise, 46k starting this month"),
        (
            "I'm a junior surveyor at a firm in town",
            "they promoted me to senior surveyor today",
        ),
    ],
)
def test_a_later_statement_retires_the_earlier(store: MemoryStore, old: str, new: str) -> None:
    kept, current = still_true(store, old, new)
    assert not kept and current


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the partner smokes, the speaker's habit is theirs
        ("I still have the odd cigarette at weekends", "my other half smokes in the garden"),
        # a laptop that dies ends no pet
        ("we have a rescue greyhound called Bolt", "my laptop dies after an hour on battery"),
        # "this cramped flat" names no place: the home stands
        ("I live in Leeds near the canal", "the boiler in this cramped flat keeps failing"),
    ],
)
def test_a_later_statement_leaves_the_earlier(store: MemoryStore, old: str, new: str) -> None:
    assert still_true(store, old, new)[0]
