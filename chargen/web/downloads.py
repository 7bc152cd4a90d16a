"""Every file the page offers for one whole character, the same for a finished walk and an opened file:
its file (YAML, JSON), its record (HTML, PDF on Letter or A4, fillable or not) and its exports (Roll20,
Foundry VTT), each the bytes the command line writes (`build`, `render`, `export`), under one name made by
chargen.names.file_name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Response

from chargen.names import file_name
from chargen.web.context import download, server
from chargen.web.jobs import Offered, RulesChoice, record_pdf

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables

#: By the ending the download's address and file name take: its kind, which gives its label and media type.
DOWNLOADS = {
    "yaml": Offered("yaml", "YAML"),
    "json": Offered("json", "JSON"),
    "html": Offered("html"),
    "letter.pdf": Offered("pdf", "Letter"),
    "a4.pdf": Offered("pdf", "A4"),
    # --fillable: what changes in play as form fields, to keep up on a tablet (docs/fillable.md)
    "fillable-letter.pdf": Offered("pdf", "fillable, Letter"),
    "fillable-a4.pdf": Offered("pdf", "fillable, A4"),
    "roll20.json": Offered("vtt", "Roll20"),
    "foundry.json": Offered("vtt", "Foundry VTT"),
}


def character_file(character: Character, tables: Tables, rules: RulesChoice, kind: str) -> Response:
    """The download `kind` (a key of DOWNLOADS) of a whole character."""
    from chargen.character_file import dump_document
    from chargen.render import render_html

    name = file_name(character.name)
    media = DOWNLOADS[kind].media_type(kind)
    if kind in ("yaml", "json"):
        return download(dump_document(character, kind), f"{name}.{kind}", media)
    if kind == "html":
        return download(render_html(character, tables), f"{name}.html", media)
    if kind.endswith(".json"):
        from chargen.export import export_json

        target = kind.removesuffix(".json")
        return download(export_json(character, tables, target), f"{name}-{target}.json", media)
    paper = kind.removesuffix(".pdf")
    fillable = paper.startswith("fillable-")
    text = dump_document(character, "yaml")
    data = server().pool.run(record_pdf, rules, text, paper.removeprefix("fillable-"), fillable)
    return download(data, f"{name}-{paper}.pdf", media)
