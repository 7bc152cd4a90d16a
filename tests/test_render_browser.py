"""The HTML record in a real browser (headless Chromium): nothing overflows its box, and it prints.

Chromium is Debian's `chromium` package. Without it, these tests skip, except on CI (CI=true), where a
missing browser is a failure.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from chargen.tables import Tables
from tests.render_fixtures import crowded, human, record_html
from tests.render_fixtures.fields import expected_fields
from tests.render_fixtures.pdf_text import pdf_fields

pytestmark = pytest.mark.slow  # a server or a browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1100,1400",
    "--virtual-time-budget=10000",
]

# Runs once the fonts are in; writes every overflowing element into <pre id="overflow-result">.
CHECK = """
<script>
function describe(el) {
  return el.tagName.toLowerCase() + (el.className ? "." + String(el.className).split(" ").join(".") : "")
    + " \\"" + (el.textContent || "").trim().slice(0, 30) + "\\"";
}
function check() {
  var bad = [];
  var sheet = document.querySelector(".sheet");
  var edge = sheet.getBoundingClientRect();
  var all = sheet.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {
    var el = all[i];
    var style = getComputedStyle(el);
    if (style.display === "inline" || style.display === "none") continue;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      bad.push(describe(el) + " is " + el.scrollWidth + "px wide in a " + el.clientWidth + "px box");
    if (el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1)
      bad.push(describe(el) + " is " + el.scrollHeight + "px tall in a " + el.clientHeight + "px box");
    var box = el.getBoundingClientRect();
    if (box.right > edge.right + 0.5 || box.left < edge.left - 0.5)
      bad.push(describe(el) + " sticks out of the sheet");
  }
  var out = document.createElement("pre");
  out.id = "overflow-result";
  out.textContent = JSON.stringify({checked: all.length, fonts: document.fonts.status, bad: bad});
  document.body.appendChild(out);
}
document.fonts.ready.then(check);
</script>
"""


@pytest.fixture(scope="module")
def chromium() -> str:
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed; CI must install Debian's chromium package")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return CHROMIUM


def run_chromium(chromium: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    profile = tmp_path / "profile"
    return subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        timeout=180,
        check=False,
    )


def overflow_report(chromium: str, tmp_path: Path, page: str) -> dict[str, object]:
    # The record forbids scripts (Content-Security-Policy); the test page allows its own checker only.
    assert "default-src 'none';" in page
    testable = page.replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';", 1)
    testable = testable.replace("</body>", CHECK + "</body>", 1)
    path = tmp_path / "record.html"
    path.write_text(testable, encoding="utf-8")
    result = run_chromium(chromium, tmp_path, "--dump-dom", path.as_uri())
    match = re.search(r'<pre id="overflow-result">(.*?)</pre>', result.stdout.decode("utf-8"), re.S)
    assert match, result.stderr.decode("utf-8", "replace")[-2000:]
    report: dict[str, object] = json.loads(
        match.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    )
    return report


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("which", ["human", "crowded"])
def test_nothing_overflows_its_box(chromium: str, tmp_path: Path, which: str, paper: str) -> None:
    character = human() if which == "human" else crowded()
    report = overflow_report(chromium, tmp_path, record_html(character, paper=paper))
    assert report["fonts"] == "loaded"
    assert isinstance(report["checked"], int) and report["checked"] > 200
    assert report["bad"] == []


def test_browser_prints_the_record(chromium: str, tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "record.html"
    character = human()
    path.write_text(record_html(character), encoding="utf-8")
    pdf = tmp_path / "printed.pdf"
    result = run_chromium(
        chromium, tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", path.as_uri()
    )
    assert pdf.exists(), result.stderr.decode("utf-8", "replace")[-2000:]
    reader = pypdf.PdfReader(io.BytesIO(pdf.read_bytes()))
    assert 1 <= len(reader.pages) <= 2
    front = reader.pages[0].extract_text()
    assert "Rolf the Barbarian" in front
    wanted = expected_fields(character, tables)
    assert pdf_fields(pdf.read_bytes(), list(wanted)) == wanted
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
