"""Names the whole program shares, listed once: characteristic codes, genders, hands, paper sizes and the
character file's version. The CLI, the file schema, the tables' schema, the record and the batch all read
them from here."""

from __future__ import annotations

from typing import Literal, get_args

SCHEMA_VERSION = 1

#: The six primary characteristics a player allocates points to (5.2), in the book's order.
PRIMARIES = ("PS", "MD", "AG", "EN", "MA", "WP")
#: The eight characteristics every character has (rule 3), in the book's order.
EIGHT = (*PRIMARIES, "FT", "PC")

#: The most points a character file holds in a characteristic (or in a count), and the highest Rank it holds:
#: chargen reads back no more than this, so no table may make a character past them.
MAX_POINTS = 10_000
MAX_RANK = 100
#: Entries one list of a character file may hold (weapons, equipment, skills, languages, spells, notes,
#: rolls, ...): what a record prints in some pages (docs/performance.md), so that a small file cannot ask
#: for a record of thousands of pages; past it the file is refused in one line, before anything is built.
MAX_ENTRIES = 200

GenderId = Literal["male", "female"]
GENDERS: tuple[str, ...] = get_args(GenderId)

HandId = Literal["right", "left", "ambidextrous"]

PaperName = Literal["letter", "a4"]
PAPERS: tuple[str, ...] = get_args(PaperName)

#: The file key (and CLI option) that names the archetype a rolled character follows; `strategy` is its
#: old spelling, still read.
ARCHETYPE_KEY = "archetype"
OLD_ARCHETYPE_KEY = "strategy"
