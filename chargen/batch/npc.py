"""One batch NPC: its seeds, its character, its name, and each form it is written in (JSONL line, CSV row,
character file, Character Record, roster card). Pure functions of (plan, number, tables)."""

from __future__ import annotations

import json
import random
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from chargen.batch.mix import Mix, derived_seed
from chargen.errors import ChargenError
from chargen.tables import Tables
from chargen.tables.schema import NameParts

#: The CSV header: what a spreadsheet or a VTT import needs to run the NPC, one column per value.
CSV_COLUMNS = (
    "number",
    "name",
    "archetype",
    "race",
    "race_type",
    "gender",
    "PS",
    "MD",
    "AG",
    "EN",
    "MA",
    "WP",
    "FT",
    "PC",
    "TMR",
    "defense",
    "initiative",
    "weapon",
    "weapon_rank",
    "strike_chance",
    "damage",
    "armor",
    "protection",
    "shield",
    "seed",
)
CHARACTERISTICS = ("PS", "MD", "AG", "EN", "MA", "WP", "FT", "PC")
#: About one NPC in this many gets a byname, when the race has epithets.
EPITHET_ODDS = 4


@dataclass(frozen=True)
class Plan:
    """What every NPC of a run shares; sent to each worker once."""

    run_seed: int
    archetypes: Mix
    races: Mix | None  # None: rolled by 6.3 (three non-human attempts, else human)
    gender: str | None
    count: int
    want_jsonl: bool = False
    want_csv: bool = False
    want_file: bool = False
    want_record: bool = False
    want_card: bool = False
    paper: str = "letter"
    template: str | None = None


@dataclass(frozen=True)
class NpcOutput:
    """One NPC in every form the run asked for (None where not asked)."""

    number: int
    jsonl: str | None
    csv_row: tuple[str, ...] | None
    file_name: str | None
    file_text: str | None
    record_pdf: bytes | None
    card: dict[str, Any] | None


def make_character(plan: Plan, number: int, tables: Tables) -> dict[str, Any]:
    """NPC `number` (1-based) of the run's seed: the same character whatever the count or the jobs."""
    from chargen import api

    seed = derived_seed(plan.run_seed, number, "character")
    draws = random.Random(derived_seed(plan.run_seed, number, "mix"))
    archetype = plan.archetypes.draw(draws)
    race = plan.races.draw(draws) if plan.races is not None else None
    try:
        document = api.roll(
            seed=seed, gender=plan.gender, race=race, strategy=archetype, equip="give", tables=tables
        )
    except ChargenError as error:
        raise ChargenError(f"NPC {number} (seed {seed}, {archetype}): {error}") from None
    # The name is the batch's own (bynames, fewer namesakes). A name in a character file is a given, so
    # the file still rebuilds to itself; the key keeps its place in the document.
    names = tables.names.get(document["race"]) or tables.names.get("human")
    if names is not None:
        name_draws = random.Random(derived_seed(plan.run_seed, number, "name"))
        document["name"] = npc_name(names, document["gender"], name_draws)
    return document


def npc_name(parts: NameParts, gender: str, rng: random.Random) -> str:
    """First name, family name, and now and then a byname. Always four draws, whatever is used."""
    first = rng.choice(parts.male if gender == "male" else parts.female)
    family = rng.choice(parts.family) if parts.family else ""
    epithet = rng.choice(parts.epithets) if parts.epithets else ""
    wants_epithet = rng.randrange(EPITHET_ODDS) == 0 and bool(epithet)
    if not wants_epithet:
        return f"{first} {family}".strip()
    if family and family[0].isupper():
        return f"{first} {family} {epithet}"
    return f"{first} {epithet}"  # "the Red Eye the Cruel" reads badly: the byname stands alone


def make_output(plan: Plan, number: int, tables: Tables) -> NpcOutput:
    document = make_character(plan, number, tables)
    file_name = record = text = None
    if plan.want_file:
        from chargen.character_file import dump_document

        file_name = f"{number:0{len(str(plan.count))}d}-{slug(document['name'])}.yaml"
        text = dump_document(document, "yaml")
    if plan.want_record:
        from pathlib import Path

        from chargen.render import render_pdf

        template = Path(plan.template) if plan.template else None
        record = render_pdf(document, tables, paper=plan.paper, template=template)
    return NpcOutput(
        number=number,
        jsonl=json_line(document) if plan.want_jsonl else None,
        csv_row=csv_row(number, document) if plan.want_csv else None,
        file_name=file_name,
        file_text=text,
        record_pdf=record,
        card=roster_card(number, document, tables) if plan.want_card else None,
    )


def json_line(document: dict[str, Any]) -> str:
    """The whole character file on one line: a JSONL line is itself a character file `chargen build` reads."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


def best_weapon(document: dict[str, Any]) -> dict[str, Any]:
    """The weapon with the highest Strike Chance (the first listed on a tie); unarmed when none."""
    combat = document["combat"]
    weapons: list[dict[str, Any]] = combat.get("weapons") or []
    if not weapons:
        return {"name": "unarmed", "rank": None, **combat["unarmed"]}
    return max(weapons, key=lambda weapon: weapon["strike_chance"])  # max keeps the first of equals


def csv_row(number: int, document: dict[str, Any]) -> tuple[str, ...]:
    combat = document["combat"]
    weapon = best_weapon(document)
    armor = combat.get("armor") or {}
    shield = document.get("shield") or {}
    values: dict[str, Any] = {
        "number": number,
        "name": document["name"],
        "archetype": document.get("strategy"),
        "race": document["race"],
        "race_type": document.get("race_type"),
        "gender": document["gender"],
        **{code: document["characteristics"].get(code) for code in CHARACTERISTICS},
        "TMR": document["tmr"],
        "defense": combat["defense"],
        "initiative": combat["initiative"],
        "weapon": weapon["name"],
        "weapon_rank": weapon.get("rank"),
        "strike_chance": weapon["strike_chance"],
        "damage": weapon["damage"],
        "armor": armor.get("name"),
        "protection": armor.get("protection", 0),
        "shield": shield.get("name"),
        "seed": document.get("seed"),
    }
    return tuple("" if values[column] is None else str(values[column]) for column in CSV_COLUMNS)


def roster_card(number: int, document: dict[str, Any], tables: Tables) -> dict[str, Any]:
    """What a GM reads behind the screen, already in display names: small, so a roster of thousands fits."""
    combat = document["combat"]
    archetype = tables.archetypes.get(document.get("strategy") or "")
    race = tables.races[document["race"]]
    race_type = document.get("race_type")
    weapons = [
        {
            "name": _display(tables.weapons, weapon["name"]),
            "rank": weapon.get("rank"),
            "strike_chance": weapon["strike_chance"],
            "damage": weapon["damage"],
            "initiative": weapon.get("initiative"),
        }
        for weapon in combat.get("weapons") or []
    ]
    armor = combat.get("armor")
    shield = combat.get("shield")
    return {
        "number": number,
        "name": document["name"],
        "archetype": archetype.name if archetype else (document.get("strategy") or ""),
        "race": race.name + (f" ({race_type})" if race_type else ""),
        "gender": document["gender"],
        "characteristics": {code: document["characteristics"].get(code) for code in CHARACTERISTICS},
        "tmr": document["tmr"],
        "defense": combat["defense"],
        "initiative": combat["initiative"],
        "weapons": weapons,
        "unarmed": combat["unarmed"],
        "armor": {"name": _display(tables.armor, armor["name"]), "protection": armor["protection"]}
        if armor
        else None,
        "shield": {"name": _display(tables.shields, shield["name"]), "rank": shield.get("rank")}
        if shield
        else None,
        "seed": document.get("seed"),
    }


def _display(table: dict[str, Any], key: str) -> str:
    entry = table.get(key)
    name = getattr(entry, "name", None)
    return name if isinstance(name, str) else key


def slug(name: str) -> str:
    """`Sharga the Red Eye` -> `sharga-the-red-eye`: ASCII, lower case, safe in any file system."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    words = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return words[:60].rstrip("-") or "npc"
