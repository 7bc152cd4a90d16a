"""The HTML record reads at phone width: at 420 px no word of the record is broken across
lines (a box too narrow for its words breaks them letter by letter).

Headless Chromium opens no window narrower than 500 px: the page is shown at 500 px (the phone layout's
media query applies below 760 px) with its body held to 420 px."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from chargen import api
from chargen.render import render_html
from chargen.tables import Tables
from tests.render_fixtures import human
from tests.test_record_history import PLAYED
from tests.test_render_browser import FLAGS, chromium  # noqa: F401 (the fixture)
from tests.test_skills_record import ADEPT

pytestmark = pytest.mark.slow  # a server or a browser

# Every word of four letters or more (a hyphen may break a compound), in every text node, sits on one line.
CHECK = """
<script>
function check() {
  var broken = [], words = 0;
  var walker = document.createTreeWalker(document.querySelector(".sheet"), NodeFilter.SHOW_TEXT);
  var range = document.createRange();
  while (walker.nextNode()) {
    var node = walker.currentNode, text = node.textContent, re = /[^\\s-]{4,}/g, m;
    while ((m = re.exec(text)) !== null) {
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      var lines = {};
      var rects = range.getClientRects();
      for (var i = 0; i < rects.length; i++) if (rects[i].width > 0) lines[Math.round(rects[i].top)] = 1;
      words++;
      if (Object.keys(lines).length > 1) broken.push(m[0]);
    }
  }
  var out = document.createElement("pre");
  out.id = "phone-result";
  out.textContent = JSON.stringify({words: words, broken: broken, width: document.body.clientWidth});
  document.body.appendChild(out);
}
document.fonts.ready.then(check);
</script>
"""


def phone_report(chromium: str, tmp_path: Path, page: str) -> dict[str, object]:  # noqa: F811
    testable = page.replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';", 1)
    path = tmp_path / "record.html"
    testable = testable.replace("</head>", "<style>body { width: 420px; }</style></head>", 1)
    path.write_text(testable.replace("</body>", CHECK + "</body>", 1), encoding="utf-8")
    flags = [flag for flag in FLAGS if not flag.startswith("--window-size")] + ["--window-size=500,900"]
    result = subprocess.run(
        [chromium, *flags, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", path.as_uri()],
        capture_output=True,
        timeout=180,
        check=False,
    )
    match = re.search(r'<pre id="phone-result">(.*?)</pre>', result.stdout.decode("utf-8"), re.S)
    assert match, result.stderr.decode("utf-8", "replace")[-2000:]
    report: dict[str, object] = json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return report


@pytest.mark.parametrize("which", ["typical", "elf adept", "played"])
def test_no_word_is_broken_at_phone_width(
    chromium: str,  # noqa: F811
    tables: Tables,
    tmp_path: Path,
    which: str,
) -> None:
    files = {"elf adept": (ADEPT, "adept.yaml"), "played": (PLAYED, "rolf.yaml")}
    character = human() if which == "typical" else api.build(*files[which])
    report = phone_report(chromium, tmp_path, render_html(character, tables))
    assert report["width"] == 420
    assert isinstance(report["words"], int) and report["words"] > 300
    assert report["broken"] == []
