"""Every kind of file chargen writes, as data: the option that asks for it, the endings its name may have,
its media type, and what a person calls it. The commands' options and their checks (chargen.output), the
batch (chargen.batch), the walk's questions (chargen.walkthrough.outputs) and the page's downloads read
this one table."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath


@dataclass(frozen=True)
class OutputKind:
    key: str
    option: str  # the command-line option that asks for it
    endings: tuple[str, ...]  # what its file name may end in, the usual one first; () for a folder
    media_types: tuple[str, ...]  # each ending's media type, in the order of `endings`
    label: str  # what it is, in a question, a message or a download's link
    help: str = ""  # what `chargen batch --help` says of a batch's output (`BATCH_KINDS`)
    metavar: str = "FILE"
    standard_output: bool = True  # may be written to standard output (-)

    @property
    def folder(self) -> bool:
        return not self.endings

    def media_type(self, name: str) -> str:
        """The media type of a file of this kind named `name` (by its ending; else the usual one's)."""
        ending = PurePath(name).suffix.lower()
        index = self.endings.index(ending) if ending in self.endings else 0
        return self.media_types[index]


def _kinds(*kinds: OutputKind) -> dict[str, OutputKind]:
    return {kind.key: kind for kind in kinds}


#: Every kind, by key. `records` is a batch's --pdf (every NPC's record in one file), `pdf` one record's.
KINDS = _kinds(
    OutputKind("yaml", "--output", (".yaml", ".yml"), ("application/yaml",) * 2, "character file"),
    OutputKind("json", "--output", (".json",), ("application/json",), "character file"),
    OutputKind("html", "--html", (".html", ".htm"), ("text/html",) * 2, "HTML page of the Character Record"),
    OutputKind("pdf", "--pdf", (".pdf",), ("application/pdf",), "PDF of the Character Record"),
    OutputKind("vtt", "--output", (".json",), ("application/json",), "virtual tabletop JSON"),
    OutputKind(
        "jsonl",
        "--jsonl",
        (".jsonl", ".ndjson"),
        ("application/x-ndjson",) * 2,
        "JSONL, one character file a line",
        "One character file a line, as JSON (- for standard output; the default without other outputs).",
    ),
    OutputKind(
        "csv",
        "--csv",
        (".csv",),
        ("text/csv",),
        "CSV, one row an NPC",
        "One row an NPC, with a header (- for standard output).",
    ),
    OutputKind(
        "out",
        "--out",
        (),
        (),
        "one character file (YAML) per NPC",
        "One character file (YAML) per NPC in DIR, e.g. 007-aldric-ashford.yaml.",
        metavar="DIR",
        standard_output=False,
    ),
    OutputKind(
        "records",
        "--pdf",
        (".pdf",),
        ("application/pdf",),
        "every Character Record in one PDF",
        "One PDF with every NPC's Character Record.",
        standard_output=False,
    ),
    OutputKind(
        "roster",
        "--roster",
        (".pdf", ".html", ".htm"),
        ("application/pdf", "text/html", "text/html"),
        "roster",
        "A compact roster, ten NPC cards a page, with Endurance and Fatigue boxes to tick (PDF, or HTML if "
        "FILE ends in .html).",
        standard_output=False,
    ),
    OutputKind(
        "statblock",
        "--statblock",
        (".txt", ".md"),
        ("text/plain", "text/markdown"),
        "stat blocks",
        "A stat block per NPC, as a GM writes it on an index card: text, Markdown if FILE ends in .md (- for "
        "standard output, as text). A group's blocks stand under its heading.",
    ),
    OutputKind(
        "export",
        "--export",
        (),
        (),
        "one virtual tabletop JSON per NPC",
        "One JSON per NPC in DIR, for Roll20 (VTT Enhancement Suite) or Foundry VTT (Simple Worldbuilding).",
        metavar="roll20|foundry DIR",
        standard_output=False,
    ),
)
#: `chargen batch`'s outputs, in the order its summary names them.
BATCH_KINDS = ("jsonl", "csv", "out", "records", "roster", "statblock", "export")
