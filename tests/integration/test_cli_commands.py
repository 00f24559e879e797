"""The command line's contract: --version, --json on every read, the fact-editing commands,
help on every option, refusals that create nothing, and an honest import report."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import pytest

from bitemporal_core import __version__
from bitemporal_core.interfaces import cli
from bitemporal_core.interfaces.cli import main

AT = ["--at", "2023-10-26T10:00:00Z", "--valid-from", "2023-10-26T00:00:00Z"]


def run(db: Path, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["--store", str(db), "-n", "alice", *argv], out=out)
    return code, out.getvalue()


def run_json(db: Path, *argv: str) -> Any:
    code, out = run(db, *argv, "--json")
    assert code == 0, out
    return json.loads(out)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"bitemporal-memory {__version__}"


def test_every_option_has_help() -> None:
    def walk(parser: argparse.ArgumentParser, where: str) -> list[str]:
        missing = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    missing += walk(child, f"{where} {name}")
            elif not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{where}: {'/'.join(action.option_strings) or action.dest}")
        return missing

    assert walk(cli._parser(), "bitemporal-memory") == []


def test_edit_commands_and_json_reads(tmp_path: Path) -> None:
    db = tmp_path / "m.lbdb"
    (like,) = run_json(db, "remember", "I enjoy eating apples.", *AT)["facts"]
    (allergy,) = run_json(
        db, "supersede", like["id"], "I am allergic to apples.", "--at", "2023-10-27T09:00:00Z"
    )["facts"]
    assert allergy["supersedes"] == like["id"]
    (trip,) = run_json(
        db,
        "remember",
        "I will be on a business trip in Paris.",
        "--at",
        "2024-05-10T08:00:00Z",
        "--valid-from",
        "2024-06-03T00:00:00Z",
        "--valid-to",
        "2024-06-10T00:00:00Z",
    )["facts"]
    (fixed,) = run_json(
        db,
        "correct",
        trip["id"],
        "--valid-from",
        "2024-06-05T00:00:00Z",
        "--at",
        "2024-05-20T12:00:00Z",
    )["facts"]
    assert fixed["version"] == 2 and fixed["valid_from"] == "2024-06-05T00:00:00+00:00"
    (gone,) = run_json(db, "retract", trip["id"])["facts"]
    assert gone["superseded_at"] is not None

    recalled = run_json(db, "recall", "apples", "--valid-at", "2023-10-26T12:00:00Z")
    assert [h["fact"]["text"] for h in recalled["hits"]] == ["I enjoy eating apples."]
    assert recalled["valid_at"] == "2023-10-26T12:00:00+00:00" and recalled["known_at"]
    assert recalled["hits"][0]["concepts"] == ["apples"]  # display forms, never 'appl'
    context = run_json(db, "recall", "apples", "--context")
    assert "I am allergic to apples." in context["context"]
    history = run_json(db, "history", trip["id"])
    assert [v["version"] for v in history["versions"]] == [1, 2]
    assert run_json(db, "history", like["id"])["superseded_by"] == [allergy["id"]]
    timeline = run_json(db, "timeline")
    assert {v["id"] for v in timeline["versions"]} == {like["id"], allergy["id"], trip["id"]}
    info = run_json(db, "info")
    assert info["namespaces"] == ["alice"] and "extractor=" in info["store"]

    code, out = run(db, "recall", "apples")
    assert code == 0 and "[apples]" in out and "appl]" not in out
    code, out = run(db, "history", trip["id"])
    assert "v2  I will be on a business trip in Paris." in out
    assert "believed  2024-05-20 12:00 -> " in out and "(no longer believed)" in out


def test_correct_needs_a_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.lbdb"
    (fact,) = run_json(db, "remember", "I like tea.")["facts"]
    assert run(db, "correct", fact["id"])[0] == 1
    assert "correct needs --text, --valid-from or --valid-to" in capsys.readouterr().err
    assert run_json(db, "history", fact["id"])["versions"][0]["version"] == 1


def test_fact_commands_honour_the_namespace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "m.lbdb"
    (tea,) = run_json(db, "remember", "I like tea.")["facts"]  # alice's
    for argv in (
        ["history", tea["id"]],
        ["supersede", tea["id"], "I like coffee."],
        ["correct", tea["id"], "--text", "I like green tea."],
        ["retract", tea["id"]],
        ["forget", "--fact", tea["id"]],
    ):
        assert main(["--store", str(db), "-n", "bob", *argv]) == 1, argv
        err = capsys.readouterr().err
        assert err == f"error: no fact with id {tea['id']!r} in namespace 'bob'\n", argv
        assert main(["--store", str(db), *argv]) == 1  # nor in "default"
        assert "in namespace 'default'" in capsys.readouterr().err
    lineage = run_json(db, "history", tea["id"])
    assert len(lineage["versions"]) == 1 and lineage["versions"][0]["superseded_at"] is None
    code, out = run(db, "forget", "--fact", tea["id"])
    assert code == 0 and out.startswith("forgot ")


@pytest.mark.parametrize(
    "argv",
    [
        ["info"],
        ["recall", "tea"],
        ["history", "f1"],
        ["timeline"],
        ["export"],
        ["view", "--no-open"],
        ["forget"],
        ["supersede", "f1", "x"],
        ["correct", "f1", "--text", "x"],
        ["retract", "f1"],
    ],
)
def test_a_missing_store_is_an_error_and_creates_nothing(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "deep" / "er" / "m.lbdb"
    assert main(["--store", str(missing), *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: no store at {missing}") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_import_reports_what_it_wrote_and_skipped(tmp_path: Path) -> None:
    lines = [
        {
            "text": f"I visited museum number {i}.",
            "at": f"2024-01-{i + 1:02d}T10:00:00Z",
            "id": f"m{i}",
        }
        for i in range(4)
    ]
    src = tmp_path / "messages.jsonl"
    src.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    db = tmp_path / "m.lbdb"
    assert run_json(db, "import", str(src)) == {
        "messages": 4,
        "facts_written": 4,
        "messages_skipped": 0,
    }
    code, out = run(db, "import", str(src))
    assert code == 0
    assert (
        out.strip() == "imported 4 messages: wrote 0 facts, skipped 4 messages already remembered"
    )
    more = [*lines, {"text": "I saw a new museum.", "at": "2024-02-01T10:00:00Z", "id": "m9"}]
    src.write_text("\n".join(json.dumps(x) for x in more) + "\n")
    assert run_json(db, "import", str(src)) == {
        "messages": 5,
        "facts_written": 1,
        "messages_skipped": 4,
    }
