"""The sheet's character as a chargen character file as it stands (`standing:`): its characteristics,
Experience and money as the sheet holds them, its race, gender, hand and aspect, its weapons, armor and
shield with their Ranks, its skills, languages and magic; its creation (the 5.1 roll, 5.2's allocation,
8.1-8.5's dice), which the sheet does not hold, left unknown. The sheet's names are read as the file reader
reads a person's (chargen.names: `Hand & Half` is the hand-and-a-half), and its <select> values by
tables/export_roll20.yaml, the table the export writes them from, read backwards."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from textwrap import wrap
from typing import Any, TypeVar

from pydantic import ValidationError

from chargen.character_file import (
    NAME_LENGTH,
    Ability,
    CharacterInput,
    Gear,
    Item,
    MagicAbility,
    Standing,
    StandingCharacteristics,
)
from chargen.errors import InputError, KeyPath, Problem, shown
from chargen.export.targets import roll20_names
from chargen.importing.sheet import SheetCharacter, SheetRow
from chargen.names import resolve, unknown_problem
from chargen.tables import Tables
from chargen.vocabulary import MAX_POINTS, MAX_RANK
from chargen.yamlio import MAX_NUMBER

T = TypeVar("T")
#: The sheet's characteristics, by chargen's code: `en` and `ft` are the full values (`encurr`, `ftcurr`
#: what is left of them in play).
CODES = ("PS", "MD", "AG", "EN", "MA", "WP", "PC", "FT")
#: "Rope x2" (with the multiplication sign): a line of equipment chargen's export writes with its count (chargen.render.skill_boxes.gear).
COUNTED = re.compile(r"^(.*\S)\s*\u00d7(\d{1,4})$")
#: A value the rules need that the sheet does not hold: refused rather than made up.
MISSING = "missing: the sheet gives no value, and chargen makes none up"
#: What a row of the sheet's spell list is, from the kind chargen's export writes first in its `desc`.
KINDS = ("talent", "spell", "ritual")


@dataclass
class Reading:
    """The file the sheet gives, and where each part of it came from on the sheet (for messages)."""

    spec: CharacterInput
    origins: dict[KeyPath, str] = field(default_factory=dict)


@dataclass
class _Reader:
    sheet: SheetCharacter
    source: str
    tables: Tables
    problems: list[Problem] = field(default_factory=list)
    origins: dict[KeyPath, str] = field(default_factory=dict)

    def problem(self, attribute: str, message: str, value: object = None) -> None:
        self.problems.append(Problem(label=f"{self.source}: {attribute}", message=message, value=value))

    def number(self, attribute: str, text: str, highest: int, *, required: bool = True) -> int | None:
        """A whole number the sheet holds (`15`, `15.0`), from 0 to `highest`; "" is none."""
        if not text:
            if required:
                self.problem(attribute, MISSING)
            return None
        try:
            value = float(text) if len(text) <= 20 else None
        except ValueError:
            value = None
        if value is None or not value.is_integer() or not 0 <= value <= highest:
            self.problem(attribute, f"{shown(text)} is not a whole number from 0 to {highest:,}", text)
            return None
        return int(value)

    def name(self, attribute: str, text: str, entries: Mapping[Any, Any], what: str) -> str | None:
        if not text:
            self.problem(attribute, MISSING)
            return None
        found = resolve(text, entries)
        if found is None:
            self.problems.append(unknown_problem(f"{self.source}: {attribute}", text, entries, what))
        return found

    def made(self, attribute: str, path: KeyPath, factory: Callable[[], T]) -> T | None:
        """A part of the file, checked as the file reader checks it; its problem named by the attribute."""
        self.origins[path] = attribute
        try:
            return factory()
        except ValidationError as error:
            first = error.errors()[0]
            where = (*path, *first["loc"])
            found = (self.origins.get(where[:length]) for length in range(len(where), len(path), -1))
            self.problem(
                next((item for item in found if item), attribute), str(first["msg"]), first.get("input")
            )
            return None


def read_character(sheet: SheetCharacter, source: str, tables: Tables) -> Reading:
    """The character file of `sheet`, every problem of it raised at once."""
    reader = _Reader(sheet, source, tables)
    race, race_type = _race(reader)
    weapons = [
        item for index, row in enumerate(sheet.section("weapon")) if (item := _weapon(reader, index, row))
    ]
    skills, languages = _skills(reader)
    college, spells = _magic(reader, race)
    standing = _standing(reader)
    notes = _money_notes(sheet)
    reader.origins.update({("notes",): "rpnotes", ("name",): "name"})
    spec = reader.made(
        "name",
        (),
        lambda: CharacterInput(
            name=sheet.name.strip() or None,
            gender=_gender(reader),
            race=race,
            race_type=race_type,
            hand=reader.name(
                "hand", sheet.text("hand"), reader.tables.birthrights.hands.names, "a hand (6.2)"
            ),
            aspect=_aspect(reader),
            standing=standing,
            weapons=weapons,
            armor=_worn(reader, "armour", tables.armor, "on the Armor Chart (18.1)"),
            shield=_shield(reader),
            unarmed_rank=reader.number("wuc-rank", sheet.text("wuc-rank"), MAX_RANK, required=False),
            equipment=_equipment(reader),
            skills=skills,
            languages=languages,
            college=college,
            spells=spells,
            notes=[*_player_notes(sheet), *notes] or None,
        ),
    )
    if reader.problems or spec is None:
        raise InputError(reader.problems)
    return Reading(spec, reader.origins)


def _gender(reader: _Reader) -> str | None:
    genders = reader.tables.birthrights.genders
    return reader.name("gender", reader.sheet.text("gender"), genders, "a gender (6.1)")


def _race(reader: _Reader) -> tuple[str | None, str | None]:
    """The sheet's race as the export names it: `Elf`, or a giant's or shape-changer's `Giant (Cloud (Air))`."""
    text = reader.sheet.text("race")
    typed = re.fullmatch(r"([^(]*[^(\s])\s*\((.+)\)", text)
    race = reader.name("race", typed.group(1) if typed else text, reader.tables.races, "a race (6.3)")
    if race is None or typed is None:
        return race, None
    types = reader.tables.races[race].types
    return race, reader.name("race", typed.group(2), types, f"a {reader.tables.races[race].name} type")


def _aspect(reader: _Reader) -> str | None:
    """7.1's aspect by the sheet's <select> value (tables/export_roll20.yaml), or its name; none given,
    unknown."""
    text = reader.sheet.text("aspect")
    if not text:
        return None
    by_sheet = {value: aspect for aspect, value in roll20_names().aspect.items()}
    return by_sheet.get(text) or reader.name("aspect", text, reader.tables.aspects, "an aspect (7.1)")


def _standing(reader: _Reader) -> Standing | None:
    sheet = reader.sheet
    values = {code: reader.number(code.lower(), sheet.text(code.lower()), MAX_POINTS) for code in CODES}
    beauty = reader.number("pb", sheet.text("pb"), MAX_POINTS, required=False)
    bank = reader.number("exp", sheet.text("exp"), MAX_NUMBER, required=False)
    total = reader.number("exptot", sheet.text("exptot"), MAX_NUMBER, required=False)
    silver = reader.number("sp", sheet.text("sp") or "0", MAX_NUMBER)
    if None in values.values() or silver is None:
        return None
    return reader.made(
        "ps",
        ("standing",),
        lambda: Standing(
            characteristics=StandingCharacteristics(**values, PB=beauty),
            experience_bank=bank,
            experience_total=total,
            silver_pennies=silver,
        ),
    )


def _weapon(reader: _Reader, index: int, row: SheetRow) -> Item | None:
    attribute = row.attribute("name")
    name = reader.name(attribute, row.text("name"), reader.tables.weapons, "on the Weapons Chart (20.2)")
    # "" is an unranked weapon, as the export writes one (17.1)
    rank = reader.number(row.attribute("rank"), row.text("rank"), MAX_RANK, required=False)
    if name is None:
        return None
    reader.origins[("weapons", index, "rank")] = row.attribute("rank")
    return reader.made(attribute, ("weapons", index), lambda: Item(name=name, rank=rank))


def _worn_row(reader: _Reader, section: str) -> SheetRow | None:
    """The armor (or shield) row the sheet marks worn: the first equipped."""
    return next((row for row in reader.sheet.section(section) if row.text("equip") == "on"), None)


def _worn(reader: _Reader, section: str, entries: Mapping[str, Any], what: str) -> str | None:
    row = _worn_row(reader, section)
    if row is None:
        return None
    reader.origins[("armor",) if section == "armour" else ("shield",)] = row.attribute("type")
    return reader.name(row.attribute("type"), row.text("type"), entries, what)


def _shield(reader: _Reader) -> Item | None:
    name = _worn(reader, "shield", reader.tables.shields, "on the Shield Chart (17.5)")
    row = _worn_row(reader, "shield")
    if row is None or name is None:
        return None
    rank = reader.number(row.attribute("rank"), row.text("rank"), MAX_RANK, required=False)
    # The sheet's shield Rank is 0 by default, and chargen's export writes an unranked shield so: 0 is
    # read as no Rank (17.5's Defense is the same; a ruleset's that counts Rank 0 is named if it differs).
    return Item(name=name, rank=rank or None)


def _equipment(reader: _Reader) -> list[Gear]:
    """The possessions with their weights (the export writes a line's count after its name, and its
    weight for them all), then the armor and shields carried but not worn, as the sheet names them."""
    rows = [(row, "name") for row in reader.sheet.section("possession")]
    for section in ("armour", "shield"):
        worn = _worn_row(reader, section)
        rows += [(row, "type") for row in reader.sheet.section(section) if row is not worn]
    found: list[Gear] = []
    for row, key in rows:
        text = row.text(key)
        if not text:  # an empty row of the sheet's list: nothing carried
            continue
        counted = COUNTED.match(text)
        name, count = (counted.group(1), int(counted.group(2))) if counted else (text, 1)
        weight = row.text("wgt")
        pounds = _pounds(reader, row.attribute("wgt"), weight, count) if weight else None
        made = partial(Gear, name=name, weight=pounds, count=count)
        gear = reader.made(row.attribute(key), ("equipment", len(found)), made)
        if gear is not None:
            found.append(gear)
    return found


def _pounds(reader: _Reader, attribute: str, text: str, count: int) -> float | None:
    try:
        total = float(text) if len(text) <= 20 else -1.0
    except ValueError:
        total = -1.0
    if not 0 <= total <= 10_000 * count:
        reader.problem(attribute, f"{shown(text)} is not a weight in pounds", text)
        return None
    each = total / count
    return int(each) if each.is_integer() else each


def _skills(reader: _Reader) -> tuple[list[Ability], list[Ability]]:
    """48-62 and 49: the sheet's skill rows, a language where its type says so; a skill by the sheet's
    type (tables/export_roll20.yaml `skill_type`), else by its notes, as the export writes them."""
    by_type = {value: skill for skill, value in roll20_names().skill_type.items()}
    languages = reader.tables.abilities.languages
    skills: list[Ability] = []
    spoken: list[Ability] = []
    for row in reader.sheet.section("skill"):
        kind, text = row.text("type"), row.text("notes")
        rank = reader.number(row.attribute("rank"), row.text("rank") or "0", MAX_RANK)
        if kind == "language":
            name = resolve(text, languages.entries) or (text if languages.open else None)
            if name is None:
                reader.name(row.attribute("notes"), text, languages.entries, "a language (49)")
            elif rank is not None:
                spoken.append(Ability(name=name, rank=rank))
            continue
        skill = by_type.get(kind) or reader.name(
            row.attribute("notes"), text, reader.tables.abilities.skills, "a skill (48-62)"
        )
        if skill is not None and rank is not None:
            skills.append(Ability(name=skill, rank=rank))
    return skills, spoken


def _magic(reader: _Reader, race: str | None) -> tuple[str | None, list[MagicAbility]]:
    """34-47: the college and each talent, spell and ritual with its Rank; a talent the race grants
    (written without a Rank, 6.4-6.9) is the race's, added again by the build."""
    colleges = reader.sheet.section("college")
    college = None
    if colleges:
        attribute = colleges[0].attribute("college")
        college = reader.name(
            attribute, colleges[0].text("college"), reader.tables.abilities.colleges, "a college (36-47)"
        )
    magic = reader.tables.abilities.magic
    spells = []
    for row in reader.sheet.section("spell"):
        text = row.text("name")
        entry = resolve(text, magic.entries) if text else None
        if entry is not None and race in magic.entries[entry].granted_to and not row.text("rank"):
            continue
        if entry is None and not magic.open:
            reader.name(row.attribute("name"), text, magic.entries, "magic (34-47)")
            continue
        rank = reader.number(row.attribute("rank"), row.text("rank") or "0", MAX_RANK)
        first = row.text("desc").partition(";")[0].strip().lower()
        kind = first if first in KINDS else "ritual" if row.text("rit") == "on" else None
        if entry is None and kind is None:
            kind = "spell"  # a row of the sheet's spell list, kind not said: a spell (34)
        if rank is not None:
            spells.append(MagicAbility(name=entry or text, rank=rank, kind=kind))
    return college, spells


def _player_notes(sheet: SheetCharacter) -> list[str]:
    """The sheet's notes (`rpnotes`), a note a line: its spacing made single, a long line cut at words into
    notes of the most a file's note holds."""
    return [
        part
        for line in sheet.text("rpnotes").splitlines()
        for part in wrap(" ".join(line.split()), NAME_LENGTH)
    ]


def _money_notes(sheet: SheetCharacter) -> list[str]:
    """8.5: chargen counts money in Silver Pennies (`sp`); the seeds give no rate for the sheet's other
    coins, so they are kept as the sheet holds them, in the notes."""
    held = [f"{key} {sheet.text(key)}" for key in ("cf", "gs", "tg") if sheet.text(key) not in ("", "0")]
    if not held:
        return []
    return [f"Roll20 sheet: other coins {', '.join(held)}; chargen counts Silver Pennies only (8.5)."]
