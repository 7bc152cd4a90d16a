"""build_sheet: the Character Record's view model (chargen.render.sheet) made from the typed Character
(chargen.model) and the rules tables, box by box."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Union

from chargen.errors import InputError
from chargen.model import characteristics_raised
from chargen.render import captions, lookup, skill_boxes
from chargen.render.errors import RenderError
from chargen.render.history import fitted_history
from chargen.render.in_play import in_play
from chargen.render.numbers import DASH, num, pounds, signed, weight
from chargen.render.page_fit import fitted_to_pages
from chargen.render.sheet import (
    CHARACTERISTICS,
    Aspect,
    CarriedRow,
    CharacteristicRow,
    EffectRow,
    Item,
    Sheet,
    WeaponRow,
)
from chargen.render.tracks import tracks
from chargen.values.added import shown_added

if TYPE_CHECKING:
    from chargen.model import ArmorLine, Character, Combat, ShieldLine, UnarmedLine, WeaponLine
    from chargen.tables import Tables

#: What the record prints for a creation's value a character as it stands does not know.
UNKNOWN = "unknown"


#: What the renderer takes: the typed Character, or a character file's mapping as chargen wrote it.
Renderable = Union["Character", Mapping[str, object]]


def as_character(character: Renderable, tables: Tables | None = None) -> Character:
    """A mapping is read into the typed Character first; a missing or mistyped field is a RenderError."""
    from chargen.character_reading import from_document
    from chargen.model import Character

    if isinstance(character, Character):
        return character
    if not isinstance(character, Mapping):
        raise RenderError(f"a character file must be a mapping, not {type(character).__name__}")
    try:
        return from_document(character, "character file", tables)
    except InputError as error:
        raise RenderError(str(error)) from None


def build_sheet(given: Renderable, tables: Tables, version: str, *, explain: bool = False) -> Sheet:
    """The view model of one Character Record; an id the tables do not know is a RenderError naming it.
    `explain`: with every value's working, each value linked to its own (chargen.render.working_rows)."""
    from chargen.render.working_rows import annotated

    character = as_character(given, tables)
    # Fitted to the pages last: the rulings and configurations marked take room on the front page.
    return fitted_to_pages(annotated(_sheet(character, tables, version), character, tables, explain=explain))


def _sheet(character: Character, tables: Tables, version: str) -> Sheet:
    """The record's boxes, as the rules and the tables give them."""
    race_name = lookup.race_name(tables, character.race, character.race_type)
    gender = lookup.gender_name(tables, character.gender)
    combat = character.combat
    race = lookup.race(tables, character.race)
    sheet = Sheet(
        name=character.name,
        subtitle=f"{gender} {race_name}",
        race=race_name,
        identity=_identity(character, tables, race_name, gender),
        life_span=race.life_span or DASH,
        starting_age=race.starting_age or DASH,
        abilities=list(race.abilities),
        in_play=in_play(character, tables),
        characteristics=_characteristics(character, tables),
        characteristics_note=STANDING_NOTE if character.standing is not None else "",
        movement=_movement(character, tables),
        combat=_combat(combat),
        stun=_stun(combat, tables),
        weapons=[_weapon(line, tables, index) for index, line in enumerate(combat.weapons)],
        unarmed=_unarmed(combat.unarmed),
        armor=_armor(combat.armor, tables),
        shield=_shield(combat.shield, tables),
        aspect=_aspect(tables, character.aspect),
        experience=_experience(character, tables),
        carried=(carried := _carried(character, tables)),
        carried_total=_total_weight(carried),
        rule_captions=_rule_captions(character, tables),
        notes=list(character.notes),
        skills=skill_boxes.skills(character, tables),
        languages=skill_boxes.languages(character, tables),
        magic=skill_boxes.magic(character, tables),
        tracks=tracks(character, tables),
        uncharged=skill_boxes.uncharged(character, tables),
        footer=_footer(character, version),
        version=version,
        history=fitted_history(character.history, characteristic_names(tables)),
    )
    return sheet


def _combat(combat: Combat) -> list[Item]:
    return [
        *_defense(combat),
        Item("Initiative", num(combat.initiative), "no weapon"),
        Item("Agility", num(combat.modified_agility), "modified"),
        Item("Manual Dexterity", num(combat.modified_manual_dexterity), "modified"),
    ]


def _movement(character: Character, tables: Tables) -> list[Item]:
    """TMR without and with armor (5.6, 18.1), then a ruleset's own values (a house rule's)."""
    items = [Item("TMR unarmored", num(character.tmr)), Item("TMR armored", num(character.combat.tmr))]
    for _, label, value, _ in shown_added(character, tables):
        items.append(Item(label, DASH if value is None else num(value)))
    return items


def _defense(combat: Combat) -> list[Item]:
    """Defense, and a house rule's postures beside it; "—" where the tables give no value for it."""
    items = [Item("Defense", DASH if combat.defense is None else num(combat.defense))]
    for posture, value in (combat.defense_postures or {}).items():
        items.append(Item(f"Defense, {posture.replace('_', ' ')}", DASH if value is None else num(value)))
    return items


def _rule_captions(character: Character, tables: Tables) -> list[str]:
    """How the weapon lines were worked out, from the table numbers used (17.1, 20.2, 12.3, 21, 18.1)."""
    lines = [
        captions.strike_chance(tables.combat),
        captions.damage(tables.combat),
        captions.initiative(tables.combat),
        captions.unarmed(tables.combat),
    ]
    defense = captions.defense(tables.combat)
    if defense:
        lines.append(defense)
    if tables.combat.damage_increase.code in character.optional:
        lines.append(captions.damage_increase(tables.combat))
    if character.combat.armor is not None:
        lines.append(f"Armor weight: {captions.armor_weight(tables.armor_file, character.gender)} (18.1).")
    return lines


def _stun(combat: Combat, tables: Tables) -> list[Item]:
    """19 and 17.3, each caption written from the same table numbers the value was worked out with."""
    return [
        Item("Stun threshold", num(combat.stun_threshold), captions.stun_threshold(tables.combat)),
        Item("Stun recovery", num(combat.stun_recovery), captions.stun_recovery(tables.combat)),
        Item("Breakage / drop", num(combat.breakage_check), captions.breakage_check(tables.combat)),
    ]


def _identity(character: Character, tables: Tables, race_name: str, gender: str) -> list[Item]:
    heritage = character.heritage
    status, birth = UNKNOWN, UNKNOWN  # a character as it stands: its 8.1-8.4 are not known
    if heritage is not None:
        status = lookup.social_status_name(tables, heritage.social_status)
        birth = lookup.birth_order_name(tables, heritage.birth_order)
    if heritage is not None and heritage.sibling_rank:
        birth = f"{birth}, {lookup.sibling_rank_name(tables, heritage.sibling_rank).lower()} of the children"
    player = [Item("Player", character.player)] if character.player else []
    campaign = [Item("Campaign", character.campaign)] if character.campaign else []
    return [
        *player,
        *campaign,
        Item("Race", race_name),
        Item("Gender", gender),
        Item("Primary hand", lookup.hand_name(tables, character.hand)),
        Item("Aspect", lookup.aspect_name(tables, character.aspect) if character.aspect else UNKNOWN),
        Item("Social status", status),
        Item("Order of birth", birth),
    ]


def characteristic_names(tables: Tables) -> dict[str, str]:
    """The record's name for each characteristic's code, the optional ones' too (PS: Physical Strength)."""
    return dict(CHARACTERISTICS) | dict(lookup.optional_characteristics(tables))


#: Under a character's characteristics as it stands (imported, or played elsewhere): its allocation (5.2) is
#: not known, and the race's and gender's modifiers (6.1, 6.4-6.9) are in the values already.
STANDING_NOTE = (
    "As it stands: each value starts from its file's, the race's and gender's modifiers already in it; "
    "the allocation (5.2) is not known."
)


def _characteristics(character: Character, tables: Tables) -> list[CharacteristicRow]:
    names = characteristic_names(tables).items()
    rows = []
    for code, label in names:
        value = character.characteristics.get(code)
        if value is None:
            continue
        allocated = character.allocation.get(code) if character.allocation else None
        modifier = character.modifiers.get(code)
        rows.append(
            CharacteristicRow(
                code=code,
                name=label,
                allocated=DASH if allocated is None else num(allocated),
                race=signed(modifier.race if modifier else None),
                gender=signed(modifier.gender if modifier else None),
                final=num(value),
                raised=_raised(character, code),
            )
        )
    return rows


def _raised(character: Character, code: str) -> str:
    """What the ledger's raises added to a characteristic (17, 87), signed; "" when nothing raised any."""
    raised = characteristics_raised(character.history)
    return signed(raised.get(code)) if raised else ""


def _weapon(line: WeaponLine, tables: Tables, index: int) -> WeaponRow:
    entry = lookup.weapon(tables, line.name, f"combat.weapons[{index}].name")
    return WeaponRow(
        name=entry.name,
        rank="unranked" if line.rank is None else num(line.rank),
        strike_chance=num(line.strike_chance),
        damage=line.damage,
        two_handed_damage=line.two_handed_damage or "",
        damage_increase=captions.damage_increase_note(line.increase, tables.combat.damage_increase.rule),
        initiative=num(line.initiative),
        range=DASH if entry.range is None else num(entry.range),
        damage_class=entry.damage_class or DASH,
        use=entry.use,
        endurance=line.endurance_damage or DASH,
        grievous=line.grievous_injury or DASH,
    )


def _unarmed(line: UnarmedLine) -> WeaponRow:
    return WeaponRow(
        name="Unarmed",
        rank="unranked" if line.rank is None else num(line.rank),
        strike_chance=num(line.strike_chance),
        damage=line.damage,
        two_handed_damage="",
        damage_increase="",
        initiative=num(line.initiative),
        range=DASH,
        damage_class=DASH,
        use="C",  # 21: unarmed combat is close combat
        endurance=line.endurance_damage or DASH,
        grievous=line.grievous_injury or DASH,
    )


def _armor(armor: ArmorLine | None, tables: Tables) -> list[Item]:
    if armor is None:
        return [Item("Armor", "none")]
    stealth = armor.stealth_adjustment
    return [
        Item("Armor", lookup.armor(tables, armor.name).name),
        Item("Protection", num(armor.protection)),
        Item("Agility loss", num(armor.agility_loss)),
        Item("Stealth", signed(stealth) if stealth else "no change"),
    ]


def _shield(shield: ShieldLine | None, tables: Tables) -> list[Item]:
    if shield is None:
        return [Item("Shield", "none")]
    return [
        Item("Shield", lookup.shield(tables, shield.name).name),
        Item("Rank", "unranked" if shield.rank is None else num(shield.rank)),
        Item("Defense per Rank", num(shield.defense_per_rank)),
        Item("MD loss", num(shield.manual_dexterity_loss)),
    ]


def _aspect(tables: Tables, aspect_id: str | None) -> Aspect:
    if aspect_id is None:  # a character as it stands whose file gives no aspect (7.1)
        return Aspect(name=UNKNOWN, rule="", window="", note="", rows=[])
    effects = lookup.aspect_effects(tables, aspect_id)
    return Aspect(
        name=lookup.aspect_name(tables, aspect_id),
        rule=effects.rule,
        window=effects.window,
        note=effects.note,
        rows=[EffectRow(when, signed(effect)) for when, effect in effects.rows],
    )


def _experience(character: Character, tables: Tables) -> list[Item]:
    earned = Item("Experience Points", _known(character.experience_points))
    if character.standing is not None:  # 8.5's is not known: what the file says was earned in all (12)
        earned = Item("Experience Points", _known(character.experience_total), "earned in all, as it stands")
    return [
        earned,
        Item("Experience Point Bank", *skill_boxes.bank(character, tables)),
        *_experience_total(character),
        Item("Experience multiplier", f"\u00d7{num(character.experience_multiplier)}"),
        Item("Silver Pennies", num(character.silver_pennies)),
        Item("Starting silver", _known(character.starting_silver)),
    ]


def _known(value: int | None) -> str:
    """A creation's value, or "unknown" for a character as it stands (never made up)."""
    return UNKNOWN if value is None else num(value)


def _experience_total(character: Character) -> list[Item]:
    """A played character's Experience earned in all, beside the bank: 8.5's and every award (12)."""
    if not character.history or character.experience_total is None or character.standing is not None:
        return []  # one as it stands shows its total as its Experience Points
    return [Item("Experience total", num(character.experience_total), "8.5's and every award (12)")]


def _carried(character: Character, tables: Tables) -> list[CarriedRow]:
    rows = []
    for index, item in enumerate(character.weapons):
        entry = lookup.weapon(tables, item.name, f"weapons[{index}].name")
        rows.append(CarriedRow(entry.name, entry.weight_text or weight(entry.weight), entry.weight))
    armor = character.combat.armor
    if armor is not None:
        rows.append(
            CarriedRow(lookup.armor(tables, armor.name).name, weight(armor.weight), pounds(armor.weight))
        )
    shield = character.combat.shield
    if shield is not None:
        entry_shield = lookup.shield(tables, shield.name)
        rows.append(CarriedRow(entry_shield.name, weight(entry_shield.weight), pounds(entry_shield.weight)))
    rows.extend(CarriedRow(row.name, row.weight, row.pounds) for row in skill_boxes.gear(character))
    return rows


def _total_weight(rows: list[CarriedRow]) -> str:
    total = sum(row.pounds for row in rows if row.pounds is not None)
    return weight(round(total, 1))


def _footer(character: Character, version: str) -> list[Item]:
    items = [Item("chargen", version)]
    if character.seed is not None:
        items.append(Item("seed", str(character.seed)))
    if character.rules:
        items.append(Item("rules", " + ".join(used["name"] for used in character.rules)))
    if character.archetype is not None:
        items.append(Item("archetype", character.archetype))
    if character.rolls:
        parts = []
        for key, value in character.rolls.items():
            shown = "/".join(str(v) for v in value) if isinstance(value, list) else str(value)
            parts.append(f"{key} {shown}")
        items.append(Item("rolls", " \u00b7 ".join(parts)))
    return items
