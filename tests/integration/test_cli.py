"""The `bitemporal-memory` command on the embedded engine, in-process and as a console script."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bitemporal_core.interfaces.cli import main


def run(store: Path, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["--store", str(store), *argv], out=out)
    return code, out.getvalue()


def test_remember_recall_history_timeline_export_forget(tmp_path: Path) -> None:
    db = tmp_path / "m.lbdb"
    code, out = run(
        db,
        "-n",
        "alice",
        "remember",
        "I enjoy eating apples.",
        "--at",
        "2023-10-26T10:00:00Z",
        "--valid-from",
        "2023-10-26T00:00:00Z",
    )
    assert code == 0 and "I enjoy eating apples." in out
    fact_id = out.split()[0]
    code, out = run(
        db,
        "-n",
        "alice",
        "recall",
        "apples",
        "--valid-at",
        "2023-10-26T12:00:00Z",
        "--known-at",
        "2023-10-27T00:00:00Z",
    )
    assert code == 0 and "I enjoy eating apples." in out
    code, out = run(db, "-n", "alice", "recall", "apples", "--valid-at", "2023-10-25T12:00:00Z")
    assert code == 0 and "no memories" in out
    code, out = run(db, "-n", "alice", "history", fact_id)
    assert out.startswith(f"Fact {fact_id} in namespace 'alice': 1 version")
    assert "valid     2023-10-26 00:00 -> open" in out
    code, out = run(db, "-n", "alice", "timeline")
    assert fact_id in out
    export = tmp_path / "facts.jsonl"
    assert run(db, "-n", "alice", "export", "--output", str(export))[0] == 0
    assert [json.loads(line)["text"] for line in export.read_text().splitlines()] == [
        "I enjoy eating apples."
    ]
    code, out = run(db, "info")
    assert "extractor=" in out and "namespaces: alice" in out
    code, out = run(db, "-n", "alice", "forget")
    assert code == 0 and "forgot" in out
    assert run(db, "-n", "alice", "timeline")[1] == ""


def test_import_jsonl_with_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        {
            "text": f"I visited museum number {i}.",
            "at": f"2024-01-{i + 1:02d}T10:00:00Z",
            "speaker": "user",
            "id": f"m{i}",
        }
        for i in range(5)
    ]
    src = tmp_path / "messages.jsonl"
    src.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    code, out = run(tmp_path / "m.lbdb", "-n", "bob", "import", str(src))
    assert code == 0 and "imported 5 messages: wrote 5 facts, skipped 0" in out
    assert "import" in capsys.readouterr().err  # the progress bar
    code, out = run(tmp_path / "m.lbdb", "-n", "bob", "recall", "museum number 3", "-k", "1")
    assert "museum number 3" in out


def test_errors_are_one_line_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "m.lbdb"
    assert run(db, "remember", "I like tea.", "--at", "2024-01-01T00:00:00")[0] == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert run(db, "history", "no-such-fact")[0] == 1
    assert "no fact" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "x"}\n')
    assert run(db, "import", str(bad))[0] == 1
    assert "bad.jsonl:1" in capsys.readouterr().err


def test_read_only_reads_and_refuses_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "m.lbdb"
    assert run(db, "remember", "I enjoy eating apples.")[0] == 0
    code, out = run(db, "--read-only", "recall", "apples")
    assert code == 0 and "I enjoy eating apples." in out
    assert run(db, "--read-only", "remember", "I moved to Rome.")[0] == 1
    assert "read-only" in capsys.readouterr().err
    assert "Rome" not in run(db, "timeline")[1]
    assert run(tmp_path / "none.lbdb", "--read-only", "recall", "x")[0] == 1
    assert not (tmp_path / "none.lbdb").exists()


def test_keys_seal_the_store_and_forget_destroys_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--keys DIR`: the file holds no text of the namespace; reading needs the same keys;
    `forget` destroys the namespace's key."""
    db, keys = tmp_path / "m.lbdb", tmp_path / "keys"
    assert run(db, "--keys", str(keys), "remember", "Zorbleq enjoys eating apples.")[0] == 0
    code, out = run(db, "--keys", str(keys), "recall", "apples")
    assert code == 0 and "Zorbleq enjoys eating apples." in out
    assert b"Zorbleq" not in b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert run(db, "--keys", str(tmp_path / "other"), "recall", "apples")[0] == 1
    assert "key" in capsys.readouterr().err
    assert len(list(keys.iterdir())) == 1
    assert run(db, "--keys", str(keys), "forget")[0] == 0
    assert list(keys.iterdir()) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_demo_answers_differ_by_basis(lang: str) -> None:
    out = io.StringIO()
    assert main(["--memory", "demo", "--lang", lang], out=out) == 0
    sections = out.getvalue().split("\n== ")
    answers = [s for s in sections if "recall(" in s]
    assert len(answers) == 4
    assert len({s.split("\n", 2)[2] for s in answers}) == 4, "each basis answers differently"
    assert "extractor=" in sections[0]
    assert f"[{lang}]" in answers[0]


def test_chinese_demo_story() -> None:
    out = io.StringIO()
    assert main(["--memory", "demo", "--lang", "zh"], out=out) == 0
    now, then, trip, believed = [s for s in out.getvalue().split("\n== ") if "recall(" in s]
    assert "我对苹果过敏。" in now and "我喜欢吃苹果。" not in now
    assert "我喜欢吃苹果。" in then
    trip_text = "下个月三号到十号我要去巴黎出差。"
    assert trip_text not in now and trip_text in trip
    # before the correction the trip was believed to run from June 3 (read from the text)
    assert trip_text in believed and "[2024-06-03 -> 2024-06-11]" in believed


@pytest.mark.slow
def test_console_script(tmp_path: Path) -> None:
    exe = shutil.which("bitemporal-memory", path=str(Path(sys.executable).parent))
    assert exe, "the console script is installed with the package"
    assert run(tmp_path / "s.lbdb", "remember", "I like tea.")[0] == 0
    done = subprocess.run(
        [exe, "--store", str(tmp_path / "s.lbdb"), "recall", "x", "--valid-at", "yesterday"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error: --valid-at: not an ISO-8601 time")
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_recall_in_a_fresh_process_loads_no_language_model(tmp_path: Path) -> None:
    """A question is read by the built-in tagger: `recall` answers without importing spaCy,
    whose import and load are most of a fresh process's first recall."""
    db = tmp_path / "m.lbdb"
    assert run(db, "remember", "My sister Anna moved to Berlin last spring.")[0] == 0
    child = (
        "import sys\n"
        "from bitemporal_core.interfaces.cli import main\n"
        f"code = main(['--store', {str(db)!r}, 'recall', 'Where does my sister live?'])\n"
        "print('spacy loaded' if 'spacy' in sys.modules else 'no spacy', code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=120, check=True
    )
    assert "My sister Anna moved to Berlin last spring." in done.stdout
    assert done.stdout.rstrip().endswith("no spacy 0")
