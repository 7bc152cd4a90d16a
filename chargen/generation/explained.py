"""The working behind each derived value of a Character (5.3-5.6, 12.3, 17-21), made from the same table
formulas and the same input functions (chargen.rules.combat) that computed the values, and from what the
character holds (chargen.generation.held)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

from chargen.character_file import Item
from chargen.errors import InputError, Problem, shown
from chargen.generation import carried, held
from chargen.generation.equipment import Equipment
from chargen.model import Character, WeaponLine
from chargen.rules import combat as rules
from chargen.rules.characteristics import fatigue_from_endurance, read_band
from chargen.rules.working import MINUS, Term, Working
from chargen.tables import Tables
from chargen.tables.combat_schema import INPUTS, MEANINGS
from chargen.tables.schema import Shield, Weapon
from chargen.vocabulary import EIGHT


@dataclass(frozen=True, slots=True)
class Held:
    """What the character holds when its values are read: the kit, the shield that counts in Defense, and
    the modified Agility and Manual Dexterity every combat value starts from."""

    equipment: Equipment
    ready: held.Ready
    agility: Term
    dexterity: Term


def workings(character: Character, tables: Tables) -> list[Working]:
    """Every derived value's working, in the record's order."""
    kit = _held(character, tables)
    return [
        *_characteristics(character, tables),
        *_combat(character, tables, kit),
        *_weapons(character, tables, kit),
    ]


def _held(character: Character, tables: Tables) -> Held:
    weapons = [Item(name=item.name, rank=item.rank) for item in character.weapons]
    shield = Item(name=character.shield.name, rank=character.shield.rank) if character.shield else None
    equipment = Equipment(weapons, character.armor, shield)
    stats = character.characteristics
    armor = tables.armor.get(character.armor) if character.armor else None
    armor_loss = rules.modified_agility(stats.AG, armor) - stats.AG
    pounds = carried.pounds_of(
        [item.name for item in character.weapons],
        character.armor,
        shield.name if shield else None,
        [(gear.weight or 0) * gear.count for gear in character.equipment],
        (character.race, character.gender),
        tables,
    )
    weight_loss = carried.agility_lost_at(pounds, tables)
    agility = stats.AG + armor_loss - weight_loss
    worn = f"{armor.name}'s {MINUS}{armor.agility_loss}, 18.1" if armor else "no armor"
    weight = f"; {MINUS}{weight_loss} for {pounds:g} lb carried, 82.9" if weight_loss else ""
    shield_entry = tables.shields.get(shield.name) if shield else None
    dexterity = rules.modified_manual_dexterity(stats.MD, shield_entry)
    loss = (
        f"{shield_entry.name}'s {MINUS}{shield_entry.manual_dexterity_loss}, 17.5"
        if shield_entry
        else "no shield"
    )
    return Held(
        equipment,
        held.ready_shield(equipment, tables),
        Term("modified_agility", agility, f"Agility {stats.AG} ({worn}{weight})"),
        Term("modified_md", dexterity, f"Manual Dexterity {stats.MD} ({loss})"),
    )


def _characteristics(character: Character, tables: Tables) -> list[Working]:
    """5.2-5.4, 6.1: each characteristic is the allocation plus race and gender; Fatigue reads 5.3's chart,
    Perception starts at 5.4's base; TMR (5.6) reads the chart at Agility."""
    table = tables.characteristics
    found = []
    for code in EIGHT:
        modifier = character.modifiers[code]
        if code == "FT":
            reading = fatigue_from_endurance(character.characteristics.EN, table.fatigue)
            first = Term("chart", reading.value, f"5.3's chart at Endurance {character.characteristics.EN}")
            rule = table.fatigue.rule
        elif code == "PC":
            first, rule = Term("base", table.perception.base, "5.4's starting Perception"), "5.4"
        else:
            first, rule = Term("allocated", character.allocation[code], "5.2's allocation"), "5.2, 6.1"
        terms = (first, Term("race", modifier.race, "6.4-6.9"), Term("gender", modifier.gender, "6.1"))
        value = character.characteristics.get(code)
        found.append(Working(key=f"characteristics.{code}", label=code, value=value, rule=rule, terms=terms))
    return [*found, _tmr(character, tables, character.characteristics.AG, "tmr", "TMR unarmored")]


def _tmr(character: Character, tables: Tables, agility: int, key: str, label: str) -> Working:
    """5.6: TMR read from the chart at (modified) Agility, a giant's from its type's average (14.1)."""
    table = tables.characteristics.tmr
    row = read_band(table.rows, agility)
    if row is None:
        lowest = min(table.rows, key=lambda band: band.low)
        row = lowest if agility < lowest.low else max(table.rows, key=lambda band: band.high)
    source = f"5.6's chart at Agility {agility}"
    types = tables.races[character.race].types
    average = types[character.race_type].average_tmr if character.race_type in types else None
    if average is not None:
        shift = row.value - table.average
        source += f": the giant's average {average} {'+' if shift >= 0 else MINUS} {abs(shift)} (14.1)"
        chart = average + shift
    else:
        chart = row.value
    terms = (Term("chart", chart, source), Term("race", character.modifiers["TMR"].race, "6.4-6.9"))
    value = character.tmr if key == "tmr" else character.combat.tmr
    return Working(key=key, label=label, value=value, rule=table.rule, terms=terms, minimum=table.minimum)


def _terms(kind: str, values: tuple[int | None, ...], sources: dict[str, str]) -> tuple[Term, ...]:
    """The inputs of a formula of `kind`, each with where it came from (else what it means)."""
    return tuple(
        Term(name, value, sources.get(name) or MEANINGS.get(name, ""))
        for name, value in zip(INPUTS[kind], values, strict=True)
    )


def _combat(character: Character, tables: Tables, kit: Held) -> list[Working]:
    combat, stats, rules_file = character.combat, character.characteristics, tables.combat
    agility, dexterity = kit.agility, kit.dexterity
    found = [
        Working(
            key="modified_agility",
            label="modified Agility",
            value=combat.modified_agility,
            rule="18.1",
            terms=_agility_terms(character, tables, kit),
        ),
        _dexterity(character, tables, kit),
        *_defense(character, tables, kit),
        _tmr(character, tables, agility.value or 0, "combat.tmr", "TMR armored"),
    ]
    if rules_file.movement.sprint_formula is not None and combat.sprint_tmr is not None:
        found.append(
            Working(
                key="sprint_tmr",
                label="TMR sprinting",
                value=combat.sprint_tmr,
                rule=rules_file.movement.rule,
                formula=rules_file.movement.sprint_formula,
                terms=(Term("tmr", combat.tmr, "TMR armored"),),
            )
        )
    found.append(
        Working(
            key="initiative",
            label="Initiative",
            value=combat.initiative,
            rule=rules_file.initiative.rule,
            formula=rules_file.initiative.compiled,
            terms=_terms(
                "initiative",
                (agility.value, stats.PC, 0, 0),
                {"modified_agility": agility.source, "perception": "Perception", "rank": "no weapon"},
            ),
        )
    )
    found += _stun(character, tables, dexterity)
    return found


def _agility_terms(character: Character, tables: Tables, kit: Held) -> tuple[Term, ...]:
    stats = character.characteristics
    armor = tables.armor.get(character.armor) if character.armor else None
    armor_loss = stats.AG - rules.modified_agility(stats.AG, armor)
    weight_loss = stats.AG - armor_loss - (kit.agility.value or 0)
    return (
        Term("agility", stats.AG, "Agility"),
        Term("armor", -armor_loss, f"{armor.name} worn" if armor else "no armor"),
        Term("weight", -weight_loss, "weight carried (82.9)"),
    )


def _dexterity(character: Character, tables: Tables, kit: Held) -> Working:
    """17.5: a prepared shield lowers Manual Dexterity; a two-handed weapon is used with it slung (20)."""
    stats = character.characteristics
    shield: Shield | None = None
    if character.shield is not None:
        shield = tables.shields.get(character.shield.name)
    loss = shield.manual_dexterity_loss if shield else 0
    held_text, other = "", ""
    if shield is not None and loss:
        held_text = f"with the {shield.name} prepared (17.5)"
        other = f"{stats.MD} with it slung, as for a two-handed weapon (20)"
    return Working(
        key="modified_manual_dexterity",
        label="modified Manual Dexterity",
        value=character.combat.modified_manual_dexterity,
        rule="17.5",
        terms=(
            Term("manual_dexterity", stats.MD, "Manual Dexterity"),
            Term("shield", -loss, f"the {shield.name}'s loss" if shield else "no shield"),
        ),
        held=held_text,
        other=other,
    )


def _defense(character: Character, tables: Tables, kit: Held) -> list[Working]:
    """17.5 (and a house rule's postures): Defense with what is held ready."""
    rules_file = tables.combat
    shield, shield_id, shield_rank = kit.ready
    weapon, weapon_rank = held.held_weapon(kit.equipment, tables)
    inputs = rules.defense_inputs(
        kit.agility.value or 0,
        shield,
        shield_rank,
        weapon,
        weapon_rank,
        fallback=rules_file.defense.defensive_modifier_fallback,
    )
    held_text, other = _defense_held(character, tables, kit)
    name = shield.name if shield else "no shield"
    sources = {
        "modified_agility": kit.agility.source,
        "shield_defense_per_rank": f"{name} (17.5)",
        "shield_rank": f"Rank with the {name}" if shield else "no shield",
    }
    terms = _terms("defense", inputs, sources)
    combat = character.combat
    found = [
        Working(
            key="defense",
            label="Defense",
            value=combat.defense,
            rule=rules_file.defense.rule,
            formula=rules_file.defense.compiled,
            terms=terms,
            held=held_text,
            other=other,
        )
    ]
    for posture, formula in rules_file.defense.posture_formulas.items():
        found.append(
            Working(
                key=f"defense_postures.{posture}",
                label=f"Defense, {posture.replace('_', ' ')}",
                value=(combat.defense_postures or {}).get(posture),
                rule=rules_file.defense.rule,
                formula=formula,
                terms=terms,
                held=held_text,
            )
        )
    del shield_id
    return found


def _defense_held(character: Character, tables: Tables, kit: Held) -> tuple[str, str]:
    """Which shield Defense counts, in words, and Defense with the other configuration (note of held)."""
    shield, _, _ = kit.ready
    if held.two_handed_first(kit.equipment, tables) and character.shield is not None:
        first = tables.weapons[character.weapons[0].name].name
        carried_shield = tables.shields.get(character.shield.name)
        slung = carried_shield.name if carried_shield else character.shield.name
        notes = held.defense_notes(kit.equipment, kit.agility.value or 0, character.combat.defense, tables)
        other = notes[0].split("; ", 1)[1].rstrip(".") if notes else ""
        return f"with the {first} in both hands, the {slung} slung (20)", other
    if shield is not None:
        return f"with the {shield.name} prepared (17.5)", ""
    return "", ""


def _stun(character: Character, tables: Tables, dexterity: Term) -> list[Working]:
    combat, stats, rules_file = character.combat, character.characteristics, tables.combat
    stun = rules_file.stun
    return [
        Working(
            key="stun_threshold",
            label="Stun threshold",
            value=combat.stun_threshold,
            rule=stun.rule,
            formula=stun.threshold_formula,
            terms=(Term("endurance", stats.EN, "Endurance"),),
        ),
        Working(
            key="stun_recovery",
            label="Stun recovery",
            value=combat.stun_recovery,
            rule=stun.rule,
            formula=stun.recovery_formula,
            terms=(Term("willpower", stats.WP, "Willpower"), Term("fatigue", stats.FT, "Fatigue")),
        ),
        Working(
            key="breakage_check",
            label="Breakage / drop",
            value=combat.breakage_check,
            rule=rules_file.breakage.rule,
            formula=rules_file.breakage.check_formula,
            terms=(dexterity,),
        ),
    ]


def _weapons(character: Character, tables: Tables, kit: Held) -> list[Working]:
    found = _unarmed(character, tables, kit)
    seen: dict[str, int] = {}
    for line in character.combat.weapons:
        seen[line.name] = seen.get(line.name, 0) + 1
        key = line.name if seen[line.name] == 1 else f"{line.name}-{seen[line.name]}"
        found += _weapon(character, tables, kit, line, f"weapons.{key}")
    return found


def _weapon(character: Character, tables: Tables, kit: Held, line: WeaponLine, key: str) -> list[Working]:
    """17.1, 20.2, 12.3: one weapon's Strike Chance, damage and Initiative."""
    weapon = tables.weapons[line.name]
    stats, rules_file = character.characteristics, tables.combat
    dexterity = rules.dexterity_for(weapon, stats.MD, kit.dexterity.value or 0)
    inputs = rules.strike_inputs(
        weapon.base_chance, weapon.md, weapon.ps, dexterity, line.rank, stats.MD, stats.PS
    )
    rank = f"Rank {line.rank}" if line.rank is not None else "unranked"
    sources = {
        "base": f"the {weapon.name}'s Base Chance (20.2)",
        "md": "Manual Dexterity",
        "modified_md": _weapon_dexterity_source(character, tables, weapon, kit),
        "md_minimum": f"the {weapon.name}'s minimum MD",
        "ps_minimum": f"the {weapon.name}'s minimum PS",
        "rank": rank,
        "ps": "Physical Strength",
    }
    found = [
        Working(
            key=f"{key}.strike_chance",
            label=f"{weapon.name} Strike Chance",
            value=line.strike_chance,
            rule=rules_file.strike_chance.rule,
            formula=rules.strike_formula(line.rank, rules_file),
            terms=_terms("strike", inputs, sources),
            held=_weapon_held(character, tables, weapon),
        ),
        Working(
            key=f"{key}.initiative",
            label=f"{weapon.name} Initiative",
            value=line.initiative,
            rule=rules_file.initiative.rule,
            formula=rules_file.initiative.compiled,
            terms=_terms(
                "initiative",
                (kit.agility.value, stats.PC, line.rank or 0, 0),
                {"modified_agility": kit.agility.source, "perception": "Perception", "rank": rank},
            ),
        ),
    ]
    return [*found, *_damage(tables, weapon, line, key, stats.PS)]


def _weapon_dexterity_source(character: Character, tables: Tables, weapon: Weapon, kit: Held) -> str:
    if weapon.hands == "2" and character.shield is not None:
        return f"Manual Dexterity {character.characteristics.MD}: in both hands, the shield slung (20)"
    return kit.dexterity.source


def _weapon_held(character: Character, tables: Tables, weapon: Weapon) -> str:
    if character.shield is None or character.shield.name not in tables.shields:
        return ""
    shield = tables.shields[character.shield.name]
    if weapon.hands == "2":
        return f"in both hands, the {shield.name} slung (20)"
    return f"with the {shield.name} prepared (17.5)"


def _damage(tables: Tables, weapon: Weapon, line: WeaponLine, key: str, ps: int) -> list[Working]:
    """20.2: the damage modifier (one-handed, and for a (1-2) weapon in two hands); none for a variable one."""
    rules_file = tables.combat
    found = []
    for two_handed, suffix, printed in (
        (False, "damage", line.damage),
        (True, "two_handed_damage", line.two_handed_damage),
    ):
        inputs = rules.damage_inputs(weapon, ps, two_handed)
        if inputs is None or printed is None or (two_handed and weapon.hands != "1-2"):
            continue
        if line.increase is not None:
            continue  # 18.5's increase is added on top (chargen.rules.damage_increase)
        found.append(
            Working(
                key=f"{key}.{suffix}",
                label=f"{weapon.name} damage" + (" two-handed" if two_handed else ""),
                value=rules.weapon_damage_modifier(weapon, ps, rules_file, two_handed),
                shown=printed,
                rule=rules_file.damage.rule,
                formula=rules_file.damage.compiled,
                terms=_terms(
                    "damage",
                    inputs,
                    {"modifier": f"the {weapon.name}'s damage modifier (20.2)", "ps": "Physical Strength"},
                ),
            )
        )
    return found


def _unarmed(character: Character, tables: Tables, kit: Held) -> list[Working]:
    """21: the unarmed Base Chance through 17.1's formulas, its damage and Initiative."""
    line, stats, rules_file = character.combat.unarmed, character.characteristics, tables.combat
    agility = kit.agility.value or 0
    base = rules.unarmed_base_chance(agility, stats.PS, rules_file)
    rank = f"Rank {line.rank}" if line.rank is not None else "unranked"
    dexterity = kit.dexterity.value or 0
    chance_terms = (
        Term("modified_agility", agility, kit.agility.source),
        Term("ps", stats.PS, "Physical Strength"),
    )
    inputs = rules.strike_inputs(base, 0, 0, dexterity, line.rank, stats.MD, stats.PS)
    base_working = Working(
        key="unarmed.base_chance",
        label="Unarmed Base Chance",
        value=base,
        rule=rules_file.unarmed.rule,
        formula=rules_file.unarmed.chance_formula,
        terms=chance_terms,
    )
    return [
        base_working,
        Working(
            key="unarmed.strike_chance",
            label="Unarmed Strike Chance",
            value=line.strike_chance,
            rule=f"{rules_file.unarmed.rule}, {rules_file.strike_chance.rule}",
            formula=rules.strike_formula(line.rank, rules_file),
            terms=_terms(
                "strike",
                inputs,
                {
                    "base": f"the unarmed Base Chance, {base_working.arithmetic()}",
                    "rank": rank,
                    "modified_md": kit.dexterity.source,
                },
            ),
        ),
        Working(
            key="unarmed.damage",
            label="Unarmed damage",
            value=rules.unarmed_damage_modifier(stats.PS, rules_file),
            shown=line.damage,
            rule=rules_file.unarmed.rule,
            formula=rules_file.unarmed.damage_formula,
            terms=(Term("ps", stats.PS, "Physical Strength"),),
        ),
        Working(
            key="unarmed.initiative",
            label="Unarmed Initiative",
            value=line.initiative,
            rule=rules_file.initiative.rule,
            formula=rules_file.initiative.compiled,
            terms=_terms(
                "initiative",
                (agility, stats.PC, line.rank or 0, 0),
                {"modified_agility": kit.agility.source, "perception": "Perception", "rank": rank},
            ),
        ),
    ]


def selected(found: list[Working], names: Sequence[str]) -> list[Working]:
    """The workings `names` name (each a value, as `defense`, or a group, as `weapons.broadsword`), in the
    order asked; all of them for no name. A name no value has is one InputError with the nearest names."""
    if not names:
        return found
    chosen: list[Working] = []
    for name in names:
        wanted = _spelled(name)
        matched = [item for item in found if wanted in _names_of(item)]
        if not matched:
            raise _unknown(name, found)
        chosen += [item for item in matched if item not in chosen]
    return chosen


def _unknown(name: str, found: list[Working]) -> InputError:
    spellings = sorted({item.key for item in found})
    close = difflib.get_close_matches(_spelled(name), spellings, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else f"one of {', '.join(spellings[:12])}, ..."
    message = (
        f"{shown(name)} is not a value chargen works out; {hint} (`chargen explain FILE` lists them all)"
    )
    return InputError(Problem(label="explain", message=message, value=name))


def _spelled(name: str) -> str:
    """A name as people type it: any case, spaces or hyphens for underscores, `combat.` left off."""
    text = "_".join(name.strip().casefold().replace("-", " ").split())
    return text.removeprefix("combat.").replace("._", ".").replace("_.", ".")


def _names_of(item: Working) -> set[str]:
    """The names a working answers to: its key, each group above it, and its label."""
    key = _spelled(item.key)
    parts = key.split(".")
    groups = {".".join(parts[:end]) for end in range(1, len(parts))}
    label = _spelled(item.label)
    short = key.removeprefix("characteristics.")
    return {key, short, label, *(group for group in groups if group != "characteristics")}
