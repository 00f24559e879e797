"""Runs every case of the shared bitemporal scenarios (docs/design.md, "Time model") on every
engine.

Reads every `*.json` in `../shared/scenarios/`, the project's own in `scenarios/` beside this
file (Chinese), plus every file named in `SCENARIO_FILES` (separated by `os.pathsep`); the op
table in `../shared/scenarios/README.md` is the contract.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bitemporal_core import Basis, BitemporalError, MemoryStore
from bitemporal_core.common.times import parse_time

from ..conftest import SHARED


def _files() -> list[Path]:
    files = sorted((SHARED / "scenarios").glob("*.json"))
    files += sorted((Path(__file__).parent / "scenarios").glob("*.json"))
    extra = os.environ.get("SCENARIO_FILES", "")
    files += [Path(p) for p in extra.split(os.pathsep) if p.strip()]
    return files


def _cases() -> list[Any]:
    params = []
    for path in _files():
        for case in json.loads(path.read_text(encoding="utf-8")):
            params.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    return params


def test_scenarios_found() -> None:
    shared = sorted((SHARED / "scenarios").glob("*.json"))
    assert shared, "no scenario files found in ../shared/scenarios/"


class Runner:
    """Maps a scenario's own fact names to store ids and runs its steps."""

    def __init__(self, store: MemoryStore, namespace: str) -> None:
        self.store = store
        self.namespace = namespace
        self.ids: dict[str, str] = {}

    @staticmethod
    def _times(step: dict[str, Any], *names: str) -> dict[str, Any]:
        return {
            n: parse_time(step[n], n) if step[n] is not None else None for n in names if n in step
        }

    def call(self, step: dict[str, Any]) -> None:
        op = step["op"]
        ns = step.get("namespace", self.namespace)
        if op == "remember":
            kw = self._times(step, "at", "valid_from", "valid_to")
            facts = self.store.remember(step["text"], namespace=ns, **kw)
            assert len(facts) == 1, f"one sentence should make one fact: {facts}"
            self.ids[step["id"]] = facts[0].id
        elif op == "supersede":
            kw = self._times(step, "at", "valid_from", "valid_to")
            fact = self.store.supersede(self._id(step["of"]), step["text"], **kw)
            self.ids[step["id"]] = fact.id
        elif op == "correct":
            kw = self._times(step, "at", "valid_from", "valid_to")
            self.store.correct(self._id(step["fact"]), text=step.get("text"), **kw)
        elif op == "retract":
            self.store.retract(self._id(step["fact"]), **self._times(step, "at"))
        elif op == "forget":
            self.store.forget(namespace=ns)
        else:
            raise AssertionError(f"unknown op {op!r}")

    def _id(self, name: str) -> str:
        return self.ids.get(name, "unknown-" + name)

    def expect(self, step: dict[str, Any]) -> None:
        ns = step.get("namespace", self.namespace)
        basis = Basis(**self._times(step, "valid_at", "known_at"))
        facts = self.store.snapshot(ns, basis=basis)
        by_id = {f.id: f for f in facts}
        names = {v: k for k, v in self.ids.items()}
        got = sorted(names.get(f.id, f"<unnamed {f.text!r}>") for f in facts)
        assert got == sorted(step["current"]), f"at {basis.describe()}"
        assert len(by_id) == len(facts), "one version per fact at a basis"
        for name, text in step.get("texts", {}).items():
            assert by_id[self.ids[name]].text == text

    def expect_error(self, step: dict[str, Any]) -> None:
        ns = step["call"].get("namespace", self.namespace)
        before = self.store.timeline(ns).rows()
        with pytest.raises(BitemporalError) as info:
            self.call(step["call"])
        assert info.value.kind == step["error"], f"{info.value!r}"
        assert self.store.timeline(ns).rows() == before, "a failed call wrote something"

    def run(self, steps: list[dict[str, Any]]) -> None:
        for step in steps:
            op = step["op"]
            if op == "expect":
                self.expect(step)
            elif op == "expect_history":
                assert len(self.store.history(self._id(step["fact"]))) == step["versions"]
            elif op == "expect_error":
                self.expect_error(step)
            else:
                self.call(step)


@pytest.mark.parametrize("case", _cases())
def test_scenario(store: MemoryStore, case: dict[str, Any]) -> None:
    Runner(store, case["namespace"]).run(case["steps"])
