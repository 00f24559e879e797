"""`bitemporal-memory view`: a self-contained page, rendered by a real headless Chromium.

Chromium is Debian's package (`/usr/bin/chromium`; `.ci/run` installs it), driven by
Playwright with `executable_path` (Playwright's own browser download is not used). Without
it the test skips, except under CI=true.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from bitemporal_core import MemoryStore
from bitemporal_core.interfaces.cli import main
from bitemporal_core.interfaces.demo import replay
from bitemporal_core.views.page import PALETTE

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HIGHLIGHT = (0xFF, 0xF4, 0xD6)  # the hovered fact's rows (.version.lineage .hit)
NODE = (0xA0, 0xCB, 0xE8)  # concept nodes
pytestmark = pytest.mark.timeout(300)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs Debian's chromium package for the page test")
        pytest.skip("no chromium (apt-get install -y chromium)")
    return found


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    """The demo conversation's namespace, written by `bitemporal-memory view`."""
    db = tmp_path / "m.lbdb"
    with MemoryStore.embedded(db) as store:
        replay(store)
    out = io.StringIO()
    page = tmp_path / "page.html"
    argv = ["--store", str(db), "-n", "demo", "view", "--no-open", "--output", str(page)]
    assert main(argv, out=out) == 0
    assert out.getvalue().strip() == f"wrote {page}"
    return page


def test_page_is_self_contained(page_file: Path) -> None:
    html = page_file.read_text(encoding="utf-8")
    assert "<svg" in html and 'id="lineages"' in html
    assert not re.search(r"<script[^>]+src=|<link\b|@import|url\(", html)
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", html)
    # concepts by display form, not by stem
    assert ">Anna<" in html and ">apples<" in html and ">appl<" not in html


def test_a_missing_store_is_refused_and_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "m.lbdb"
    assert main(["--store", str(missing), "view", "--no-open"]) == 1
    assert not missing.parent.exists()


def _count(image: Any, color: tuple[int, int, int], tolerance: int = 6) -> int:
    rgb = image.convert("RGB")
    data = rgb.tobytes()
    pixels = (data[i : i + 3] for i in range(0, len(data), 3))
    return sum(
        1 for p in pixels if all(abs(a - b) <= tolerance for a, b in zip(p, color, strict=True))
    )


def _rgb(hex_color: str) -> tuple[int, int, int]:
    return int(hex_color[1:3], 16), int(hex_color[3:5], 16), int(hex_color[5:7], 16)


def test_chromium_renders_both_pictures_and_hover_shows_history(
    page_file: Path, tmp_path: Path
) -> None:
    executable = chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    image_module = pytest.importorskip("PIL.Image")
    requests: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1400, "height": 1000},
        )
        try:
            page = browser.new_page()
            page.on("request", lambda r: requests.append(r.url))
            page.goto(page_file.as_uri())
            page.wait_for_selector("body[data-ready=true]")
            timeline = page.locator("#timeline-svg")
            before = image_module.open(io.BytesIO(timeline.screenshot()))
            graph = image_module.open(io.BytesIO(page.locator("#graph").screenshot()))
            # every version is a row; the trip's two versions are the last two
            rows = page.locator(".version")
            assert rows.count() == 6
            rows.nth(5).hover()
            panel = page.inner_text("#history")
            after = image_module.open(io.BytesIO(timeline.screenshot()))
            hovered = page.locator(".version.hovered").count()
            lineage = page.locator(".version.lineage").count()
        finally:
            browser.close()
    assert requests == [page_file.as_uri()]  # nothing but the page itself was fetched
    # The timeline: one colour per fact, bars as long as their validity (the sister and the
    # allergy are open-ended: long; the week-long trip is short on a scale reaching now).
    sister, allergy, trip = (_count(before, _rgb(c)) for c in PALETTE[1:4])
    assert sister > 3000 and allergy > 3000 and 5 < trip < 400
    assert _count(graph, NODE) > 7 * 60  # seven concept nodes, drawn
    # Hovering the corrected trip shows both of its versions with both intervals.
    assert "I will be on a business trip in Paris." in panel
    assert "v1" in panel and "v2" in panel
    assert "2024-06-03 00:00 → 2024-06-10 00:00" in panel  # valid, as first believed
    assert "2024-06-05 00:00 → 2024-06-10 00:00" in panel  # valid, as corrected
    assert "2024-05-10 08:00 → 2024-05-20 12:00" in panel  # when v1 was believed
    assert "2024-05-20 12:00 → now" in panel
    assert (hovered, lineage) == (1, 2)
    assert _count(before, HIGHLIGHT) == 0 and _count(after, HIGHLIGHT) > 2000
