"""Every notebook in `notebooks/` runs top to bottom in a fresh kernel, offline, and is kept in
git without outputs.

The kernel is this interpreter (the venv's) running `ipykernel`, whatever kernel specs the
machine has installed, so a fresh venv made by `make` needs no further setup. Notebooks named
`*neo4j*` run against the test server (`NEO4J_URI`, `NEO4J_USER`, `NEO4J_PASSWORD`) and skip,
or fail under CI=true, without one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT, neo4j_settings

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager  # noqa: E402
from jupyter_client.manager import AsyncKernelManager  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT = 120  # seconds per cell
# Variables that would let a notebook reach a real model: the demos must run offline.
ONLINE = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY")

pytestmark = pytest.mark.timeout(600)  # a whole notebook, kernel start included


class VenvKernelSpecs(KernelSpecManager):
    """Resolves every kernel name to this interpreter running ipykernel."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return KernelSpec(
            argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            display_name="Python 3 (bitemporal-memory tests)",
            language="python",
            resource_dir=str(Path(__file__).parent),
            name=kernel_name,
        )


def kernel_env() -> dict[str, str]:
    """The test environment, offline, with the Neo4j settings made explicit."""
    env = {k: v for k, v in os.environ.items() if k not in ONLINE}
    env["NEO4J_URI"], env["NEO4J_USER"], env["NEO4J_PASSWORD"] = neo4j_settings()
    env.pop("MPLBACKEND", None)  # the kernel's inline backend, as in Jupyter
    env["HF_HUB_OFFLINE"] = "1"
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # ipykernel's debugger: no frozen-modules note
    return env


def params() -> list[Any]:
    out = []
    for path in NOTEBOOKS:
        marks = [pytest.mark.neo4j] if "neo4j" in path.stem else []
        out.append(pytest.param(path, marks=marks, id=path.stem))
    return out


def test_the_five_demos_exist() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_quickstart_time_travel.ipynb",
        "02_langchain_agent.ipynb",
        "03_llamaindex_chat_engine.ipynb",
        "04_neo4j.ipynb",
        "05_chinese.ipynb",
    ]


def test_a_chinese_font_for_the_pictures() -> None:
    """`.ci/run` installs fonts-wqy-zenhei; elsewhere a machine without a CJK font skips (the
    notebooks still run: Chinese labels then show as boxes)."""
    from bitemporal_core import cjk_font

    found = cjk_font()
    if found is None and os.environ.get("CI") != "true":
        pytest.skip("no font with Chinese glyphs installed (apt-get install fonts-wqy-zenhei)")
    assert found is not None


@pytest.mark.parametrize("path", params())
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    book = nbformat.read(path, as_version=4)
    nbformat.validate(book)
    for cell in book.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: cell {cell.id} has outputs"
            assert cell.execution_count is None, f"{path.name}: cell {cell.id} was executed"
    assert "widgets" not in book.metadata


@pytest.mark.parametrize("path", params())
def test_notebook_runs_top_to_bottom(
    path: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if "neo4j" in path.stem:
        request.getfixturevalue("neo4j_driver")  # skips (or fails under CI) without a server
    book = nbformat.read(path, as_version=4)
    km = AsyncKernelManager(kernel_name="python3", kernel_spec_manager=VenvKernelSpecs())
    client = nbclient.NotebookClient(
        book,
        km=km,
        timeout=CELL_TIMEOUT,
        startup_timeout=120,
        allow_errors=False,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    # raises CellExecutionError on the first failing cell; the kernel is shut down either way
    client.execute(env=kernel_env(), cleanup_kc=True)
    ran = [c for c in book.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in ran), "every code cell ran"
    errors = [o for c in ran for o in c.outputs if o.output_type == "error"]
    assert errors == []
    if path.stem.startswith(("01", "04", "05")):  # the pictures: PNGs from the inline backend
        images = [o for c in ran for o in c.outputs if "image/png" in o.get("data", {})]
        assert len(images) >= 2
