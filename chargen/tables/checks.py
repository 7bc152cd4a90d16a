"""Checks that span tables: every die value has exactly one row, every id a table names exists."""

from __future__ import annotations

from collections.abc import Iterator

from chargen.tables.loader import Tables, covers

Problem = tuple[str, tuple[str | int, ...], str]


def cross_check(tables: Tables) -> Iterator[Problem]:
    yield from _characteristics(tables)
    yield from _tracks(tables)
    yield from _races_and_aspects(tables)
    yield from _heritage(tables)
    yield from _equipment(tables)
    from chargen.tables.abilities_checks import abilities_check

    yield from abilities_check(tables)
    from chargen.tables.groups_schema import groups_check

    yield from groups_check(tables)


def _characteristics(tables: Tables) -> Iterator[Problem]:
    generation = tables.characteristics.point_generation
    rolls = sorted(row.roll for row in generation.rows)
    low, high = generation.dice.low, generation.dice.high
    if rolls != list(range(low, high + 1)):
        yield (
            "characteristics",
            ("point_generation", "rows"),
            f"needs one row for each roll of {generation.dice} ({low}-{high})",
        )
    points = [row.points for row in generation.rows]
    if len(set(points)) != len(points):
        yield "characteristics", ("point_generation", "rows"), "two rows give the same points total"
    for key in ("fatigue", "tmr"):
        table = getattr(tables.characteristics, key)
        gap = covers(table.rows, table.rows[0].low if table.rows else 0, max(r.high for r in table.rows))
        if gap:
            yield "characteristics", (key, "rows"), gap
    codes = [item.code for item in tables.characteristics.optional]
    if len(set(codes)) != len(codes):
        yield "characteristics", ("optional",), "two optional characteristics share a code"


def _races_and_aspects(tables: Tables) -> Iterator[Problem]:
    if "human" not in tables.races:
        yield "races", ("races",), "the human race is required (6.3: a player may always be human)"
    for race_id, race in tables.races.items():
        if race.fixed_aspect and race.fixed_aspect not in tables.aspects:
            yield "races", ("races", race_id, "fixed_aspect"), f"unknown aspect {race.fixed_aspect!r}"
        if race.types and race.type_dice:
            gap = covers(race.types.values(), race.type_dice.low, race.type_dice.high, race.type_dice)
            if gap:
                yield "races", ("races", race_id, "types"), gap
        if race_id not in tables.names:
            yield "names", ("names",), f"no names for race {race_id!r}"
    dice = tables.aspect_file.dice
    gap = covers(tables.aspects.values(), dice.low, dice.high, dice)
    if gap:
        yield "aspects", ("aspects",), gap
    for aspect_id, aspect in tables.aspects.items():
        if aspect.kind not in tables.aspect_file.effects:
            yield "aspects", ("aspects", aspect_id, "kind"), f"no effects listed for kind {aspect.kind!r}"


def _heritage(tables: Tables) -> Iterator[Problem]:
    heritage = tables.heritage
    dice = heritage.social_status.dice
    gap = covers(heritage.social_status.rows.values(), dice.low, dice.high, dice)
    if gap:
        yield "heritage", ("social_status", "rows"), gap
    for status in heritage.social_status.rows:
        band = heritage.birth_order.bands.get(status)
        if band is None:
            yield "heritage", ("birth_order", "bands"), f"no order-of-birth row for {status!r}"
        elif not 0 <= band.bastard <= band.legitimate <= heritage.birth_order.dice.high:
            yield (
                "heritage",
                ("birth_order", "bands", status),
                f"bands must rise: 0 <= bastard <= legitimate <= {heritage.birth_order.dice.high} "
                f"({heritage.birth_order.dice})",
            )
    for key in ("sibling_rank", "starting_allotment"):
        table = getattr(heritage, key)
        rows = table.rows.values() if isinstance(table.rows, dict) else table.rows
        gap = covers(rows, table.dice.low, table.dice.high, table.dice)
        if gap:
            yield "heritage", (key, "rows"), gap


def _equipment(tables: Tables) -> Iterator[Problem]:
    for weapon_id, weapon in tables.weapons.items():
        if weapon.group not in tables.weapon_file.groups:
            yield "weapons", ("weapons", weapon_id, "group"), f"unknown group {weapon.group!r}"
        if weapon.note and weapon.note not in tables.weapon_file.notes:
            yield "weapons", ("weapons", weapon_id, "note"), f"unknown note {weapon.note!r}"
        if weapon.shield and weapon.shield not in tables.shields:
            yield "weapons", ("weapons", weapon_id, "shield"), f"unknown shield {weapon.shield!r}"
    for shield_id, shield in tables.shields.items():
        if shield.weapon and shield.weapon not in tables.weapons:
            yield "shields", ("shields", shield_id, "weapon"), f"unknown weapon {shield.weapon!r}"
    for name, archetype in tables.archetypes.items():
        for index, item in enumerate(archetype.weapons):
            chart = tables.weapons.get(item.name)
            where = ("archetypes", name, "weapons", index)
            if chart is None:
                yield "archetypes", (*where, "name"), f"unknown weapon {item.name!r}"
            elif item.rank is not None and (chart.max_rank is None or item.rank > chart.max_rank):
                yield (
                    "archetypes",
                    (*where, "rank"),
                    f"Rank {item.rank} is above the {chart.name}'s maximum (20.2)",
                )
        for index, armor in enumerate(archetype.armor):
            if armor not in tables.armor:
                yield "archetypes", ("archetypes", name, "armor", index), f"unknown armor {armor!r}"
        for index, item in enumerate(archetype.shield):
            if item.name not in tables.shields:
                yield "archetypes", ("archetypes", name, "shield", index), f"unknown shield {item.name!r}"


def _tracks(tables: Tables) -> Iterator[Problem]:
    """The Endurance and Fatigue a character can reach fit the record's tracks (MOST_TRACK_POINTS boxes,
    a box a point, 3.4 and 3.7): Endurance is 5.1's largest maximum plus the race's (or race type's) and the
    gender's modifiers (6.1, 6.3-6.9); Fatigue is 5.3's reading of that Endurance plus its own modifiers.
    Past it, the largest part of the sum is named (an Endurance past it, not the Fatigue it makes)."""
    from chargen.tables.bounds_schema import MOST_TRACK_POINTS

    named: set[tuple[str, KeyPath]] = set()
    for sums in _track_sums(tables):
        for code, parts in sums:
            total = sum(value for _, _, value in parts)
            if total <= MOST_TRACK_POINTS:
                continue
            table, path, value = max(parts, key=lambda part: part[2])
            if path[-1] == "base":  # 5.3 past its rows: the part is the reading, the file holds its base
                value = tables.characteristics.fatigue.beyond.base
            if (table, path) not in named:
                named.add((table, path))
                yield (
                    table,
                    path,
                    (
                        f"a character's {code} can reach {total} with it (got {value}): the record's tracks "
                        f"hold at most {MOST_TRACK_POINTS} boxes, a box a point (3.4, 3.7)"
                    ),
                )
            break


KeyPath = tuple[str | int, ...]
Part = tuple[str, KeyPath, int]


def _track_sums(tables: Tables) -> Iterator[list[tuple[str, list[Part]]]]:
    """For each race (each type of a race with types), with the gender whose modifier is largest: the parts
    of its largest Endurance, then of its largest Fatigue, each as (table, key path, value)."""
    from chargen.rules.characteristics import fatigue_from_endurance

    top = max((row.maximum for row in tables.characteristics.point_generation.rows), default=0)
    fatigue = tables.characteristics.fatigue
    for race_id, race in tables.races.items():
        for type_id in race.types or [""]:
            where = (race_id, type_id)
            endurance = [
                ("characteristics", ("point_generation", "rows"), top),
                *_modifiers(tables, where, "EN"),
            ]
            reading = fatigue_from_endurance(sum(value for _, _, value in endurance), fatigue)
            largest_row = max((row.value for row in fatigue.rows), default=0)
            read: Part = (
                ("characteristics", ("fatigue", "beyond", "base"), reading.value)
                if reading.beyond_table and reading.value > largest_row
                else ("characteristics", ("fatigue", "rows"), largest_row)
            )
            yield [("EN", endurance), ("FT", [read, *_modifiers(tables, where, "FT")])]


def _modifiers(tables: Tables, where: tuple[str, str], code: str) -> list[Part]:
    """The gender's (the largest), the race's and the race type's modifiers of `code`, as parts of a sum."""
    race_id, type_id = where
    race = tables.races[race_id]
    found = [
        _gender_part(tables, code),
        ("races", ("races", race_id, "modifiers", code), race.modifiers.get(code, 0)),
    ]
    if type_id:
        path = ("races", race_id, "types", type_id, "modifiers", code)
        found.append(("races", path, race.types[type_id].modifiers.get(code, 0)))
    return found


def _gender_part(tables: Tables, code: str) -> Part:
    genders = tables.birthrights.genders
    gender_id, gender = max(genders.items(), key=lambda item: item[1].modifiers.get(code, 0))
    return "birthrights", ("genders", gender_id, "modifiers", code), gender.modifiers.get(code, 0)
