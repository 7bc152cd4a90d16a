"""The record's In play box: what rule 3's record carries beyond the charts, each with its rule, for the
characters it applies to (15.1-15.3 Agility, racial stealth with the armor's, racial magic resistance,
21 kicks, the Secondary hand of 6.2 and 17.6, 16.5 knockout rolls per weapon). Numbers come from
tables/record.yaml and tables/races.yaml."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chargen.render import lookup
from chargen.render.numbers import num, signed
from chargen.render.sheet import Item
from chargen.rules.combat import roll_range
from chargen.rules.knockout import knockout_high

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables


def in_play(character: Character, tables: Tables) -> list[Item]:
    record = tables.record
    race = lookup.race(tables, character.race)
    combat = character.combat
    items = [
        Item("Agility " + num(combat.modified_agility), band.effect, band.rule)
        for band in record.agility
        if band.low <= combat.modified_agility <= band.high
    ]
    carried = tables.characteristics.weight_carried
    if not carried.rows:  # beside modified Agility: what it does not count (82.9's table is not given)
        items.append(Item("Weight carried", "not counted", f"{carried.note} ({carried.rule})"))
    armor = combat.armor.stealth_adjustment if combat.armor is not None else 0
    if race.stealth or armor:
        parts = [f"{signed(race.stealth)}% race ({race.rule})"] if race.stealth else []
        parts += [f"{signed(armor)}% armor (18.1)"] if armor else []
        items.append(Item("Stealth", f"{signed(race.stealth + armor)}%", ", ".join(parts)))
    tmr = _tmr(character, tables)
    if tmr is not None:
        items.append(tmr)
    if race.magic_resistance:
        items.append(Item("Magic resistance", f"{signed(race.magic_resistance)}%", f"race ({race.rule})"))
    # 21's kick Rank as combat.yaml gives it (a ruleset changes it there: seed 004 kicks from Rank 4).
    kick_rank = tables.combat.unarmed.kick_from_rank
    if combat.unarmed.rank is not None and combat.unarmed.rank >= kick_rank:
        note = f"Unarmed Rank {num(kick_rank)} or more ({record.kick.rule})"
        items.append(Item("Kick", "may kick: same Base Chance and damage, may Trip", note))
    if character.hand != "ambidextrous":
        hand = record.secondary_hand
        value = (
            f"{signed(hand.strike_chance)} Strike Chance; {signed(hand.multiple_strike)} in a multiple strike"
        )
        items.append(Item("Secondary hand", value, hand.rule))
    knockout = _knockout(character, tables)
    if knockout is not None:
        items.append(knockout)
    return items


def _tmr(character: Character, tables: Tables) -> Item | None:
    """A giant's TMR read around its type's average (14.1), or the race table's note on TMR."""
    race = lookup.race(tables, character.race)
    race_type = race.types.get(character.race_type or "")
    if race_type is not None and race_type.average_tmr is not None:
        note = (
            f"{tables.characteristics.tmr.rule} chart around the {race_type.name} giant's average TMR "
            f"{num(race_type.average_tmr)} in place of {num(tables.characteristics.tmr.average)} (14.1)"
        )
        return Item("TMR", num(character.tmr), note)
    if race.tmr_note:
        return Item("TMR", num(character.tmr), race.tmr_note)
    return None


def _knockout(character: Character, tables: Tables) -> Item | None:
    """16.5: the Strike Checks that knock out with each weapon that allows it, at its Strike Chance."""
    knockout = tables.record.knockout
    figures = []
    for index, line in enumerate(character.combat.weapons):
        entry = lookup.weapon(tables, line.name, f"combat.weapons[{index}].name")
        if line.name in knockout.barred_weapons or entry.group in knockout.barred_groups:
            continue
        high = knockout_high(line.strike_chance, knockout, tables.combat.special_damage)
        if high is not None:
            figures.append(f"{entry.name} {roll_range(high)}")
    if not figures:
        return None
    reading = ", read off the 18.2 chart" if knockout.reading == "chart" else ""
    note = (
        f"{knockout.rule}: at or under {num(knockout.percent)}% of the Modified Strike Chance{reading}; "
        "here at the weapon's Strike Chance, before Defense"
    )
    return Item("Knockout", "; ".join(figures), note)
