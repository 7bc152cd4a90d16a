"""What the Roll20 DragonQuest sheet shows beside its inputs, with chargen's own figures.

The sheet works these out in its scripts when an input changes; an import through the VTT Enhancement
Suite changes nothing as far as the scripts know (it writes silently), so without them the sheet would
show 0 or nothing. Each value here is the record's (Defense 17.5, TMR 5.6 and 18.1, Initiative 12.3,
stun threshold 19, each weapon's Strike Chance 17.1 and Initiative), or text the sheet composes from
inputs chargen wrote, in the sheet's own wording. docs/roll20.md lists where the sheet's scripts, once
the player edits an input, work a value out otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chargen.export.targets import roll20_names

if TYPE_CHECKING:
    from chargen.model import Character, WeaponLine
    from chargen.tables import Tables


def description_shown(inputs: dict[str, object]) -> dict[str, object]:
    """The sheet's Description and History lines, as its scripts word them from the inputs written."""
    hand, gender, race = (str(inputs[name]) for name in ("hand", "gender", "race"))
    order = inputs.get("order")
    return {
        "descrip": f"{hand[:1].upper()}{hand[1:].lower()} {gender.lower()} {race.lower()}",
        "stat-age": f"{inputs['age']} y.o." if inputs.get("age") is not None else None,
        "stat-pb": f"PB: {inputs['pb']}" if inputs.get("pb") is not None else None,
        "hsum-aspect": inputs["aspect"],
        "hsum-status": inputs["status"],
        "hsum-legit": inputs["legit"],
        "hsum-order": f"You are your parents' {order} child." if order else "",
    }


def character_shown(character: Character, tables: Tables) -> dict[str, object]:
    """The record's combat values where the sheet shows them, and the totals of the rows written."""
    combat = character.combat
    armor, shield = combat.armor, combat.shield
    return {
        "agcurr": combat.modified_agility,
        "mdcurr": combat.modified_manual_dexterity,
        "ib": combat.initiative,
        "tmr": combat.tmr,
        "df": combat.defense,
        "stun": combat.stun_threshold,
        "pro": armor.protection if armor else 0,
        "aagtot": -armor.agility_loss if armor else 0,
        "sdftot": shield.defense_per_rank * (shield.rank or 0) if shield else 0,
        "smdtot": -shield.manual_dexterity_loss if shield else 0,
        "pagcalc": 0,  # chargen's rules have no load table (see load_note)
        "ismage": 1 if character.college is not None else 0,
        "totsp": character.silver_pennies,
        **_unarmed_shown(character, tables),
    }


def _unarmed_shown(character: Character, tables: Tables) -> dict[str, object]:
    """Unarmed Combat (21): its Base Chance and damage modifier, and the record's Strike Chance and IV."""
    combat, rules = character.combat, tables.combat.unarmed
    strength = character.characteristics.PS
    modifier = rules.damage_formula.function(strength)
    line = combat.unarmed
    return {
        "wuc-base": rules.chance_formula.function(combat.modified_agility, strength),
        "wuc-dm": modifier,
        "wuc-sum-dm": modifier,
        "wuc-iv": line.initiative,
        "wuc-sum-iv": line.initiative,
        "wuc-sc": line.strike_chance,
        "wuc-sum-sc": line.strike_chance,
        "wuc-sum-rank": "-" if character.unarmed_rank is None else character.unarmed_rank,
    }


def weapon_shown(line: WeaponLine, inputs: dict[str, object]) -> dict[str, object]:
    """A weapon row's Initiative and Strike Chance as the record prints them, and its summary line."""
    use = "".join(str(inputs[name]) for name in ("user", "usem", "usec") if inputs[name] != "0")
    rank = inputs["rank"] if inputs["rank"] != "" else "-"
    return {
        "iv": line.initiative,
        "sc": line.strike_chance,
        "wgtact": inputs["wgt"],  # one carried
        "sum-name": inputs["name"],
        "sum-use": use,
        "sum-range": inputs["rg"],
        "sum-iv": line.initiative,
        "sum-sc": line.strike_chance,
        "sum-dm": inputs["dm"],
        "sum-cl": inputs["cl"],
        "sum-rank": f"{rank}/{inputs['rankmax'] if inputs['rankmax'] is not None else '-'}",
    }


def armour_shown(inputs: dict[str, object]) -> dict[str, object]:
    return {
        "proact": inputs["pro"],
        "agact": inputs["ag"],
        "sum-type": inputs["type"],
        "sum-pro": inputs["pro"],
        "sum-ag": inputs["ag"],
        "sum-sth": inputs["sth"],
        "sum-equip": "Y",
    }


def shield_shown(inputs: dict[str, object]) -> dict[str, object]:
    """The shield's Defense, its Rank times its Defense per Rank (17.5)."""
    rank, per_rank = inputs["rank"], inputs["dfpr"]
    assert isinstance(rank, int) and isinstance(per_rank, int)
    return {
        "df": rank * per_rank,
        "def": rank * per_rank,
        "mdact": inputs["md"],
        "sum-type": inputs["type"],
        "sum-rank": rank,
        "sum-df": rank * per_rank,
        "sum-md": inputs["md"],
        "sum-equip": "Y",
    }


def spell_shown(inputs: dict[str, object]) -> dict[str, object]:
    return {
        "sum-name": inputs["name"],
        "sum-rank": inputs["rank"],
        "sum-rit": "Y" if inputs["rit"] == "on" else "N",
    }


def sheet_load_loss(strength: int, pounds: float) -> int | None:
    """The Agility the sheet's load table takes for `pounds` at `strength`; None: all of it."""
    load = roll20_names().load
    band = next(b for b in load.bands if b.start <= strength and (b.below is None or strength < b.below))
    if pounds > band.limits[-1]:
        return None
    passed = [loss for limit, loss in zip(band.limits, load.losses, strict=False) if pounds > limit]
    return passed[-1] if passed else 0


def sheet_pounds(character: Character, tables: Tables) -> float:
    """The weight the sheet adds up from what the export writes: each row's, and the money's. The rows'
    weights are the tables' (a weapon's and shield's), the record's (armor for the race's size and gender,
    18.1) and the player's (each equipment line's weight times its count)."""
    combat = character.combat
    weapons = sum(tables.weapons[line.name].weight or 0 for line in combat.weapons)
    armor = combat.armor.weight if combat.armor else 0
    shield = tables.shields[combat.shield.name].weight if combat.shield else 0
    gear = sum(float(item.weight * item.count) for item in character.equipment if item.weight is not None)
    return weapons + armor + shield + gear + character.silver_pennies / roll20_names().load.coins_per_pound


def load_note(character: Character, tables: Tables) -> str:
    """What the sheet's load table will do to Agility once it counts everything carried: a weight of each
    kind and the money retyped (the import writes no weight totals)."""
    pounds = sheet_pounds(character, tables)
    loss = sheet_load_loss(character.characteristics.PS, pounds)
    if loss == 0:
        return "The sheet's load table takes nothing off Agility for what is carried."
    taken = "all of Agility" if loss is None else f"{loss} off Agility"
    return (
        f"Once a weight of each kind carried and the money are retyped, the sheet's own load table takes "
        f"{taken} for the {pounds:g} pounds it adds up; chargen's rules have no load table (82.9 is not "
        "in its tables): "
        "delete the weights on the sheet to keep the record's Agility."
    )
