"""The record's template is extendable as docs/record.md says: a block per box, the page's
example template overrides one block and renders, and the documented context is the view model's own."""

from __future__ import annotations

import re
from pathlib import Path

from chargen import api
from chargen.render import render_html
from chargen.render.context_doc import context_reference
from chargen.render.fetcher import with_policy
from chargen.render.html import read_asset
from chargen.tables import Tables

REPO = Path(__file__).resolve().parent.parent
PAGE = (REPO / "docs" / "record.md").read_text(encoding="utf-8")
EXAMPLE = REPO / "tests" / "examples" / "table-talk.html.j2"
BOXES = [
    name.replace("-", "_")
    for name in re.findall(r'<section class="box(?: [\w-]+)* ([\w-]+)">', read_asset("record.html.j2"))
]


def test_every_box_has_its_block_and_the_page_names_them_all() -> None:
    template = read_asset("record.html.j2")
    blocks = re.findall(r"{% block (\w+) %}", template)
    assert set(BOXES) <= set(blocks) and len(BOXES) >= 17
    for block in blocks:
        assert f"`{block}`" in PAGE.split("## Your own layout", 1)[1].split("```", 1)[0]


def test_the_page_example_template_is_the_tested_one() -> None:
    assert f"```jinja\n{EXAMPLE.read_text(encoding='utf-8')}```" in PAGE


def test_overriding_one_block_changes_that_box_only(tables: Tables) -> None:
    character = api.roll(seed=42)
    ours = render_html(character, tables)
    theirs = render_html(character, tables, template=EXAMPLE)
    assert "<h2>Table talk</h2>" in theirs and "Table talk" not in ours
    assert "<h2>Notes</h2>" in ours and "<h2>Notes</h2>" not in theirs
    before, after = ours.split('<section class="box pencil notes">')
    mine_before, mine_after = theirs.split('<section class="box pencil notes">')
    # everything up to the box is the same page, with the policy put first in any GM's page
    assert mine_before.rstrip() == with_policy(before).rstrip()
    assert after.split("</section>", 1)[1] == mine_after.split("</section>", 1)[1]


def test_the_documented_context_is_the_view_models() -> None:
    assert context_reference() in PAGE
