"""The value graph's one evaluation of a character's values (5.2-5.6, 12.3, 14.1, 17-21, a ruleset's own):
each worked out once from what the character is and holds (its Sheet). The Character's derived fields are
taken from it, and the workings (chargen.values.evaluation) read the same state: what the character holds,
its modified Agility and Manual Dexterity, 5.3's chart reading."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from chargen.character_file import Item
from chargen.generation import carried, held
from chargen.generation.decisions import Decisions
from chargen.generation.equipment import Equipment
from chargen.generation.ledger_raised import with_raised
from chargen.model import (
    Character,
    Characteristics,
    Combat,
    Modifier,
    ShieldLine,
    UnarmedLine,
    WeaponLine,
    characteristics_raised,
)
from chargen.rules import combat as rules
from chargen.rules.characteristics import FatigueReading, fatigue_from_endurance, perception, tmr_from_agility
from chargen.rules.damage_increase import with_damage_increase
from chargen.tables import Tables
from chargen.tables.schema import Armor, Shield
from chargen.values.added import characteristic_values, worked_added
from chargen.values.lines import Named, armor_line, unarmed_line, weapon_line
from chargen.values.names import POSTURE_PREFIX, formula_name
from chargen.values.pins import NO_PINS, Pins, pinned_line
from chargen.vocabulary import EIGHT


@dataclass(slots=True)  # made every roll, never changed (decisions.py: why not frozen)
class Sheet:
    """What the values are worked out from: the allocation (5.2), what race and gender add (6.x, each and
    in all), the optional characteristics (5.5), who the character is, what it carries (the pounds of its
    other gear, 82.9) and the optional rules chosen (18.5); from a roll's decisions or a finished
    Character."""

    allocation: Mapping[str, int]
    modifiers: Mapping[str, Modifier]
    total: Mapping[str, int]
    optional: Mapping[str, int]
    race: str
    race_type: str | None
    gender: str
    equipment: Equipment
    gear: Sequence[float]
    unarmed_rank: int | None
    chosen: Sequence[str]
    # A character as it stands: its characteristics as its file gives them, in place of 5.2-5.4's.
    standing: Characteristics | None = None
    # 17, 87: what the ledger raised each characteristic by, after the allocation and the modifiers.
    raised: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of_decisions(cls, decided: Decisions) -> Sheet:
        born, spec = decided.born, decided.spec
        standing = spec.standing.stats() if spec.standing is not None else None
        return cls(
            allocation=decided.points.allocation if decided.points is not None else {},
            modifiers=decided.modifiers.each,
            total=decided.modifiers.total,
            optional=decided.optional,
            race=born.race.race,
            race_type=born.race_type,
            gender=born.gender,
            equipment=decided.kit.equipment,
            gear=[(gear.weight or 0) * gear.count for gear in spec.equipment],
            unarmed_rank=spec.unarmed_rank,
            chosen=spec.optional,
            standing=standing,
            raised=decided.raised,
        )

    @classmethod
    def of_character(cls, character: Character) -> Sheet:
        weapons = [Item(name=item.name, rank=item.rank, increase=item.increase) for item in character.weapons]
        shield = character.shield
        given = character.standing.characteristics if character.standing is not None else None
        return cls(
            allocation=character.allocation or {},
            modifiers=character.modifiers,
            total={code: item.race + item.gender for code, item in character.modifiers.items()},
            optional=character.characteristics.optional,
            race=character.race,
            race_type=character.race_type,
            gender=character.gender,
            equipment=Equipment(
                weapons, character.armor, Item(name=shield.name, rank=shield.rank) if shield else None
            ),
            gear=[(gear.weight or 0) * gear.count for gear in character.equipment],
            unarmed_rank=character.unarmed_rank,
            chosen=character.optional,
            standing=_given(given) if given is not None else None,
            raised=characteristics_raised(character.history),
        )


@dataclass(slots=True)  # made every roll, never changed (decisions.py: why not frozen)
class Holding:
    """What the character holds when its values are read: the kit, the shield that counts in Defense
    (17.5, 20), the armor and the pounds carried, and the modified Agility (18.1, 82.9) and Manual Dexterity
    (17.5) every combat value starts from."""

    equipment: Equipment
    ready: held.Ready
    armor: Armor | None
    shield: Shield | None
    pounds: float  # 0 while 82.9's table is empty: nothing is lost for weight
    weight_loss: int
    agility: int
    dexterity: int


@dataclass(slots=True)  # made every roll, never changed (decisions.py: why not frozen)
class Graph:
    """The graph evaluated: the characteristics with 5.3's chart reading, the unarmored TMR, what is held,
    and the combat values (a ruleset's own among them)."""

    characteristics: Characteristics
    fatigue: FatigueReading
    tmr: int
    holding: Holding
    combat: Combat
    values: dict[str, int | None]  # every value a formula may name, by that name (chargen.values.names)


def graph(sheet: Sheet, tables: Tables, pins: Pins = NO_PINS) -> Graph:
    """Every derived value of `sheet`, each worked out once (the GM's where `pins` holds them, and what
    reads those worked out from them)."""
    stats, fatigue = characteristics(sheet, tables)
    holding = holding_of(sheet, stats, tables)
    tmr = pins.whole("tmr_unarmored", tmr_for(stats.AG, sheet, tables))
    combat, known = combat_of(sheet, stats, holding, tmr, tables, pins)
    return Graph(stats, fatigue, tmr, holding, combat, known)


def characteristics(sheet: Sheet, tables: Tables) -> tuple[Characteristics, FatigueReading]:
    """The eight characteristics (5.2-5.4, 6.1, 6.4-6.9): each the allocation plus what race and gender add;
    Fatigue read from 5.3's chart at Endurance, Perception from 5.4's base; and the optional ones (5.5)."""
    if sheet.standing is not None:  # as its file gives them: no 5.3 reading (its Fatigue is the file's)
        given = sheet.standing
        return with_raised(given, sheet.raised), FatigueReading(given.FT, beyond_table=False)
    table, total, allocation = tables.characteristics, sheet.total, sheet.allocation
    endurance = allocation["EN"] + total["EN"]  # as created: 3.7, Fatigue is raised on its own
    reading = fatigue_from_endurance(endurance, table.fatigue, tables.index.fatigue)
    stats = Characteristics(
        PS=allocation["PS"] + total["PS"],
        MD=allocation["MD"] + total["MD"],
        AG=allocation["AG"] + total["AG"],
        EN=endurance,
        MA=allocation["MA"] + total["MA"],
        WP=allocation["WP"] + total["WP"],
        FT=reading.value + total["FT"],
        PC=perception(table.perception.base, total["PC"]),
        optional=dict(sheet.optional),
    )
    return with_raised(stats, sheet.raised), reading


def _given(values: Mapping[str, int]) -> Characteristics:
    """A character's characteristics as its file gives them as it stands (PB among the optional ones)."""
    eight = {code: values[code] for code in EIGHT}
    return Characteristics(
        **eight, optional={code: value for code, value in values.items() if code not in eight}
    )


def holding_of(sheet: Sheet, stats: Characteristics, tables: Tables) -> Holding:
    """Modified Agility after armor (18.1) and weight carried (82.9, when a GM fills its table), and
    modified Manual Dexterity with the shield carried (17.5)."""
    equipment = sheet.equipment
    armor = tables.armor.get(equipment.armor) if equipment.armor else None
    shield = tables.shields.get(equipment.shield.name) if equipment.shield else None
    pounds = 0.0
    if tables.characteristics.weight_carried.rows:
        pounds = carried.pounds_of(
            [item.name for item in equipment.weapons],
            equipment.armor,
            equipment.shield.name if equipment.shield is not None else None,
            list(sheet.gear),
            (sheet.race, sheet.gender),
            tables,
        )
    weight_loss = carried.agility_lost_at(pounds, tables)
    return Holding(
        equipment=equipment,
        ready=held.ready_shield(equipment, tables),
        armor=armor,
        shield=shield,
        pounds=pounds,
        weight_loss=weight_loss,
        agility=rules.modified_agility(stats.AG, armor) - weight_loss,
        dexterity=rules.modified_manual_dexterity(stats.MD, shield),
    )


def average_tmr(race: str, race_type: str | None, tables: Tables) -> int | None:
    """14.1: the giant type's average TMR, the midpoint of its chart (None: read the human chart)."""
    types = tables.races[race].types
    return types[race_type].average_tmr if race_type in types else None


def tmr_for(agility: int, sheet: Sheet, tables: Tables) -> int:
    """5.6 and 14.1: the TMR read for an Agility, with the race's TMR modifiers and a giant type's chart."""
    return tmr_from_agility(
        agility,
        tables.characteristics.tmr,
        sheet.total["TMR"],
        tables.index.tmr,
        average_tmr(sheet.race, sheet.race_type, tables),
    )


@dataclass(slots=True)  # made every roll, never changed once the Combat is made
class _Steps:
    """One character's combat values as the steps work them out (`known`: by the name a formula gives
    each, so a house rule's formula may name any value worked out before it)."""

    sheet: Sheet
    stats: Characteristics
    holding: Holding
    tables: Tables
    known: dict[str, int | None]
    pins: Pins
    postures: dict[str, int | None] | None = None
    unarmed: UnarmedLine | None = None

    def named(self, step: str) -> Named:
        """The values of the graph the formulas of `step` name (none for the book's: no tuple made)."""
        reads = self.tables.combat.step_reads[step]
        return tuple((name, self.known[name]) for name in reads) if reads else ()


def combat_of(
    sheet: Sheet, stats: Characteristics, holding: Holding, tmr: int, tables: Tables, pins: Pins = NO_PINS
) -> tuple[Combat, dict[str, int | None]]:
    """Section 12 and 17-21 values a Character Record carries, each step in the order the formulas need
    (what one names is worked out before it), and a ruleset's own values on them all."""
    agility, dexterity, combat = holding.agility, holding.dexterity, tables.combat
    steps = _Steps(sheet, stats, holding, tables, characteristic_values(stats), pins)
    known = steps.known
    known |= {"tmr_unarmored": tmr, "modified_agility": agility, "modified_manual_dexterity": dexterity}
    known["tmr_armored"] = armored = pins.whole("tmr_armored", tmr_for(agility, sheet, tables))
    for step in combat.value_order:
        STEPS[step](steps)
    assert steps.unarmed is not None  # the unarmed step is one of every order
    equipment, (ready, ready_id, ready_rank) = holding.equipment, holding.ready
    armor = None
    if holding.armor is not None and equipment.armor is not None:
        armor = armor_line(equipment.armor, tables.races[sheet.race].size, sheet.gender, tables)
    added = worked_added(known, tables, pins.added) if combat.added_formulas else None
    made = Combat(
        modified_agility=agility,
        modified_manual_dexterity=dexterity,
        defense=known["defense"],
        defense_postures=steps.postures,
        tmr=armored,
        initiative=_whole(known["initiative"]),
        unarmed=steps.unarmed,
        weapons=_weapon_lines(steps),
        armor=armor,
        shield=_shield_line(equipment.shield, holding.shield, ready, ready_id, ready_rank),
        stun_threshold=_whole(known["stun_threshold"]),
        stun_recovery=_whole(known["stun_recovery"]),
        breakage_check=_whole(known["breakage_check"]),
        values=added or None,
    )
    return made, known


def _whole(value: int | None) -> int:
    assert value is not None  # worked out by rules.combat.whole, which never gives None
    return value


def _stun_threshold(steps: _Steps) -> None:
    """19: the Stun threshold."""
    threshold = rules.stun_threshold(steps.stats.EN, steps.tables.combat, steps.known)
    steps.known["stun_threshold"] = steps.pins.whole("stun_threshold", threshold)


def _stun_recovery(steps: _Steps) -> None:
    """19: the Stun recovery."""
    stats, known = steps.stats, steps.known
    recovery = rules.stun_recovery(stats.WP, stats.FT, steps.tables.combat, known)
    known["stun_recovery"] = steps.pins.whole("stun_recovery", recovery)


def _breakage(steps: _Steps) -> None:
    """17.3: the breakage and drop check, on modified Manual Dexterity."""
    known = steps.known
    check = rules.breakage_check(steps.holding.dexterity, steps.tables.combat, known)
    known["breakage_check"] = steps.pins.whole("breakage_check", check)


def _defense(steps: _Steps) -> None:
    """17.5 (and a house rule's postures, each a value a formula may name): Defense with what is held."""
    combat, known = steps.tables.combat, steps.known
    inputs = defense_inputs(steps.holding, steps.tables)
    known["defense"] = steps.pins.value("defense", rules.defense_from(inputs, combat, known))
    if combat.defense.postures:
        postures = rules.defense_postures(inputs, combat, known) or {}
        for posture, value in postures.items():
            name = POSTURE_PREFIX + formula_name(posture)
            known[name] = postures[posture] = steps.pins.value(name, value)
        steps.postures = postures


def _initiative(steps: _Steps) -> None:
    """12.3: Initiative with no weapon prepared."""
    known = steps.known
    initiative = rules.initiative_value(
        steps.holding.agility, steps.stats.PC, steps.tables.combat, None, known
    )
    known["initiative"] = steps.pins.whole("initiative", initiative)


def _unarmed(steps: _Steps) -> None:
    """21: the unarmed line, and its Base Chance (a value a formula may name, though not on the record)."""
    stats, holding, tables, known = steps.stats, steps.holding, steps.tables, steps.known
    named = steps.named("unarmed")
    if "unarmed_base_chance" in tables.combat.named:  # not on the record: worked out when a formula names it
        known["unarmed_base_chance"] = rules.unarmed_base_chance(
            holding.agility, stats.PS, tables.combat, known
        )
    line = unarmed_line(
        steps.sheet.unarmed_rank,
        stats.MD,
        stats.PS,
        stats.PC,
        holding.dexterity,
        holding.agility,
        named,
        tables,
    )
    for field_name in ("strike_chance", "initiative"):
        if f"unarmed_{field_name}" in steps.pins.values:
            line = pinned_line(line, field_name, steps.pins.values[f"unarmed_{field_name}"], tables)
    known["unarmed_strike_chance"], known["unarmed_initiative"] = line.strike_chance, line.initiative
    steps.unarmed = line


#: What each step of combat.yaml's value_order works out (chargen.tables.combat_schema.STEP_VALUES).
STEPS: dict[str, Callable[[_Steps], None]] = {
    "stun_threshold": _stun_threshold,
    "stun_recovery": _stun_recovery,
    "breakage_check": _breakage,
    "defense": _defense,
    "initiative": _initiative,
    "unarmed": _unarmed,
}


def defense_inputs(holding: Holding, tables: Tables) -> tuple[int | None, ...]:
    """The Defense formulas' inputs (17.5, a house rule's Defensive Values): modified Agility, the shield
    that counts and its Rank, the first weapon listed and its Rank."""
    shield, _, shield_rank = holding.ready
    return rules.defense_inputs(
        holding.agility,
        shield,
        shield_rank,
        *held.held_weapon(holding.equipment, tables),
        fallback=tables.combat.defense.defensive_modifier_fallback,
    )


def _weapon_lines(steps: _Steps) -> list[WeaponLine]:
    """Each carried weapon's line, with 18.5's damage increase when the file chose it."""
    stats, holding, tables = steps.stats, steps.holding, steps.tables
    weapons, named = holding.equipment.weapons, steps.named("weapons")
    md, ps, pc, dexterity, agility = stats.MD, stats.PS, stats.PC, holding.dexterity, holding.agility
    lines = with_damage_increase(
        [
            weapon_line(item.name, item.rank, md, ps, pc, dexterity, agility, named, tables)
            for item in weapons
        ],
        weapons,
        holding.equipment.shield,
        ps,
        steps.sheet.chosen,
        tables,
        steps.known,
    )
    for (row, field_name), value in steps.pins.rows.items():
        lines[row] = pinned_line(lines[row], field_name, value, tables)
    return lines


def _shield_line(
    carried_shield: Item | None,
    shield: Shield | None,
    ready: Shield | None,
    ready_id: str | None,
    ready_rank: int | None,
) -> ShieldLine | None:
    """17.5: the shield the record shows: the one carried, else a ranked Main-Gauche held ready as one."""
    if carried_shield is None and ready_id is not None:
        carried_shield, shield = Item(name=ready_id, rank=ready_rank), ready
    if shield is None or carried_shield is None:
        return None
    return ShieldLine(
        name=carried_shield.name,
        rank=carried_shield.rank,
        defense_per_rank=shield.defense_per_rank,
        manual_dexterity_loss=shield.manual_dexterity_loss,
    )
