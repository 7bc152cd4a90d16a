"""One batch NPC: its seeds, its character, its name, and each form it is written in (JSONL line, CSV row,
character file, Character Record, roster card). Pure functions of (plan, number, tables)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chargen import api
from chargen.batch.groups import GroupPlan
from chargen.batch.mix import Mix, derived_seed
from chargen.errors import ChargenError
from chargen.jsontext import character_line
from chargen.model import Character, UnarmedLine, WeaponLine
from chargen.names import file_name as name_for_file
from chargen.tables import Tables
from chargen.tables.schema import NameParts
from chargen.vocabulary import EIGHT

if TYPE_CHECKING:  # made only for a roster or stat blocks (chargen.views.cards)
    from chargen.views.cards import RosterCard


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
#: About one NPC in this many gets a byname, when the race has epithets.
EPITHET_ODDS = 4


@dataclass(frozen=True, slots=True)
class Plan:
    """What every NPC of a run shares; sent to each worker once."""

    run_seed: int
    archetypes: Mix
    races: Mix | None  # None: rolled by 6.3 (three non-human attempts, else human)
    gender: str | None
    count: int
    wanted: frozenset[str] = frozenset()  # the kinds of output asked for (chargen.output_kinds.BATCH_KINDS)
    paper: str = "letter"
    template: str | None = None
    fillable: bool = False  # records with form fields, named per NPC (chargen.render.form)
    export: str | None = None  # a virtual tabletop's JSON per NPC (chargen.export): "roll20" or "foundry"
    group: GroupPlan | None = None  # set: the archetypes come from the group, not from `archetypes`

    @property
    def want_record(self) -> bool:
        """Whether each NPC's Character Record is made (slow: the batch reports every NPC done)."""
        return "records" in self.wanted


@dataclass(frozen=True, slots=True)
class NpcOutput:
    """One NPC in every form the run asked for (None where not asked)."""

    number: int
    jsonl: str | None
    csv_row: tuple[str, ...] | None
    file_name: str | None
    file_text: str | None
    record_pdf: bytes | None
    card: RosterCard | None
    export_name: str | None = None
    export_text: str | None = None

    def __reduce__(self) -> tuple[type[NpcOutput], tuple[object, ...]]:
        # Pickled by every worker, unpickled by the batch process for every NPC: as a call of the class
        # with the values in order (half the time of dataclasses' per-field state, both ways).
        values = (self.number, self.jsonl, self.csv_row, self.file_name, self.file_text, self.record_pdf)
        return NpcOutput, (*values, self.card, self.export_name, self.export_text)


def make_character(plan: Plan, number: int, tables: Tables) -> Character:
    """NPC `number` (1-based) of the run's seed: the same character whatever the count or the jobs. A
    group's leader is the candidate with the most 5.1 points of `best_of` (chargen.batch.groups)."""
    if plan.group is not None and plan.group.is_leader(number):
        purposes = ["character", *(f"character-{k}" for k in range(1, plan.group.best_of))]
        candidates = [_rolled(plan, number, tables, purpose) for purpose in purposes]
        return max(
            candidates, key=lambda candidate: candidate.points.total if candidate.points else 0
        )  # max keeps the first of equals
    return _rolled(plan, number, tables, "character")


def _rolled(plan: Plan, number: int, tables: Tables, purpose: str) -> Character:
    seed = derived_seed(plan.run_seed, number, purpose)
    archetype, race = _mixed(plan, number)

    def name(race: str, gender: str) -> str | None:
        # The name is the batch's own (bynames, fewer namesakes), from the NPC's own name seed. A name in
        # a character file is a given, so the file still rebuilds to itself.
        names = tables.names.get(race) or tables.names.get("human")
        if names is None:
            return None
        return npc_name(names, gender, random.Random(derived_seed(plan.run_seed, number, "name")))

    try:
        return api.roll_checked(
            seed=seed, gender=plan.gender, race=race, archetype=archetype, tables=tables, namer=name
        )
    except ChargenError as error:
        raise ChargenError(f"NPC {number} (seed {seed}, {archetype}): {error}") from None


def _mixed(plan: Plan, number: int) -> tuple[str, str | None]:
    """NPC `number`'s archetype (its place in a group's, or the run's mix) and race. A mix of one choice
    draws nothing that matters (its draw is its only choice), so the mix RNG is seeded only when something
    is drawn."""
    fixed_archetype = plan.group.archetype_of(number) if plan.group is not None else plan.archetypes.fixed
    fixed_race = plan.races.fixed if plan.races is not None else None
    if fixed_archetype is not None and (plan.races is None or fixed_race is not None):
        return fixed_archetype, fixed_race
    draws = random.Random(derived_seed(plan.run_seed, number, "mix"))
    drawn = plan.archetypes.draw(draws)  # drawn even in a group: the race's draw stays where it was
    return fixed_archetype or drawn, plan.races.draw(draws) if plan.races is not None else None


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
    character = make_character(plan, number, tables)
    wanted = plan.wanted
    file_name = record = text = None
    stem = f"{number:0{len(str(plan.count))}d}-{name_for_file(character.name, 'npc')}"
    if "out" in wanted:
        from chargen.character_file import dump_document

        file_name = f"{stem}.yaml"
        text = dump_document(character, "yaml")
    if "records" in wanted:
        record = _record_pdf(plan, number, character, tables)
    card = None
    if "roster" in wanted or "statblock" in wanted:
        from chargen.views.cards import roster_card

        card = roster_card(number, character, tables, plan.group)
    export_name = export_text = None
    if plan.export is not None:
        from chargen.export import export_json

        export_name = f"{stem}.json"
        export_text = export_json(character, tables, plan.export)
    return NpcOutput(
        number=number,
        jsonl=json_line(character) if "jsonl" in wanted else None,
        csv_row=csv_row(number, character) if "csv" in wanted else None,
        file_name=file_name,
        file_text=text,
        record_pdf=record,
        card=card,
        export_name=export_name,
        export_text=export_text,
    )


def field_prefix(number: int, count: int) -> str:
    """What NPC `number`'s form fields are named after in a batch of `count`: `npc07_` of 20, its number
    as wide as the batch's last, so that the records' fields, joined in one PDF, never share a name."""
    return f"npc{number:0{len(str(count))}d}_"


def _record_pdf(plan: Plan, number: int, character: Character, tables: Tables) -> bytes:
    """NPC `number`'s Character Record, its form fields (if any) named for it."""
    from pathlib import Path

    from chargen.render import render_pdf
    from chargen.tables.memo import forget

    template = Path(plan.template) if plan.template else None
    record = render_pdf(
        character,
        tables,
        paper=plan.paper,
        template=template,
        fillable=plan.fillable,
        field_prefix=field_prefix(number, plan.count),
    )
    # A record's layout takes far longer than the microseconds the roll's memos save: kept, they would
    # grow with every distinct character of a long batch.
    forget(tables)
    return record


def json_line(character: Character) -> str:
    """The whole character file on one line: a JSONL line is itself a character file `chargen build` reads."""
    return character_line(character) + "\n"


def best_weapon(character: Character) -> WeaponLine | UnarmedLine:
    """The weapon with the highest Strike Chance (the first listed on a tie); unarmed when none."""
    weapons = character.combat.weapons
    if not weapons:
        return character.combat.unarmed
    return max(weapons, key=lambda weapon: weapon.strike_chance)  # max keeps the first of equals


def csv_row(number: int, character: Character) -> tuple[str, ...]:
    combat = character.combat
    weapon = best_weapon(character)
    armor = combat.armor
    values: dict[str, str | int | None] = {
        "number": number,
        "name": character.name,
        "archetype": character.archetype,
        "race": character.race,
        "race_type": character.race_type,
        "gender": character.gender,
        **{code: character.characteristics.get(code) for code in EIGHT},
        "TMR": character.tmr,
        "defense": combat.defense,
        "initiative": combat.initiative,
        "weapon": weapon.name if isinstance(weapon, WeaponLine) else "unarmed",
        "weapon_rank": weapon.rank,
        "strike_chance": weapon.strike_chance,
        "damage": weapon.damage,
        "armor": armor.name if armor else None,
        "protection": armor.protection if armor else 0,
        "shield": character.shield.name if character.shield else None,
        "seed": character.seed,
    }
    return tuple("" if values[column] is None else str(values[column]) for column in CSV_COLUMNS)
