"""The precompiled look-ups (chargen.tables.index) give what reading the rows one by one gives."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TypeVar

from chargen import api
from chargen.generation.characteristics import raisable_places
from chargen.rules.allocation import point_row_for_roll, within_limits
from chargen.rules.characteristics import read_band
from chargen.tables import Tables, row_for
from chargen.values import lines

Line = TypeVar("Line")


def test_each_die_result_reads_the_row_a_scan_finds(tables: Tables) -> None:
    heritage, index = tables.heritage, tables.index
    read = [
        (index.social_status, heritage.social_status.rows.items(), heritage.social_status.dice),
        (index.sibling_rank, heritage.sibling_rank.rows.items(), heritage.sibling_rank.dice),
        (index.allotment, enumerate(heritage.starting_allotment.rows), heritage.starting_allotment.dice),
        (index.aspect, tables.aspects.items(), tables.aspect_file.dice),
    ]
    for race_id, race in tables.races.items():
        if race.types and race.type_dice is not None:
            read.append((index.race_types[race_id], race.types.items(), race.type_dice))
    for look_up, rows, dice in read:
        pairs = list(rows)
        for roll in range(dice.low, dice.high + 1):
            assert look_up(roll) == row_for(pairs, roll, "test")
    generation = tables.characteristics.point_generation
    for roll in range(generation.dice.low, generation.dice.high + 1):
        assert index.point_rows[roll] == point_row_for_roll(generation.rows, roll)


def test_bands_read_as_a_scan_reads_them_past_both_ends(tables: Tables) -> None:
    characteristics = tables.characteristics
    for look_up, rows in (
        (tables.index.fatigue, characteristics.fatigue.rows),
        (tables.index.tmr, characteristics.tmr.rows),
    ):
        for value in range(-5, 60):
            assert look_up(value) == read_band(rows, value)


def test_the_place_table_answers_as_the_5_2_check(tables: Tables) -> None:
    limits = tables.characteristics.allocation_limits
    for row in tables.characteristics.point_generation.rows:
        maximum = row.maximum
        raisable = raisable_places(maximum, 6, tables)
        # Every spread of six values over the levels maximum-3 .. maximum that keeps 5.2.
        for values in itertools.combinations_with_replacement(range(maximum - 3, maximum + 1), 6):
            named = dict(zip("abcdef", values, strict=True))
            if not within_limits(named, maximum, limits):
                continue
            counts = tuple(values.count(maximum - below) for below in range(3))
            for below in (1, 2, 3):
                if maximum - below not in values:
                    continue
                raised = dict(named)
                key = next(code for code, value in named.items() if value == maximum - below)
                raised[key] += 1
                assert raisable[counts][below - 1] == within_limits(raised, maximum, limits)


def afresh(tables: Tables, work: Callable[[], Line]) -> Line:
    """`work()` with nothing kept (chargen.tables.memo): every line, term and Initiative worked out anew."""
    saved = dict(tables.memos)
    tables.memos.clear()
    try:
        return work()
    finally:
        tables.memos.clear()
        tables.memos.update(saved)


def test_the_record_lines_kept_per_tables_are_the_lines_worked_out_afresh(tables: Tables) -> None:
    """weapon_line and unarmed_line keep each line, and the terms and Initiatives lines share, for what they
    read: for every weapon and Rank, over values of each characteristic they read, the kept line is the one a
    fresh working gives (a value left out of a key would hand one character another's line)."""
    hero = api.roll(seed=1, tables=tables).characteristics
    for strength, dexterity, shield_loss, agility, perception in itertools.product(
        (8, 16, 24), (12, 15), (0, 3), (5, 15), (5, 12)
    ):
        stats = replace(hero, PS=strength, MD=dexterity, PC=perception)
        held = dexterity - shield_loss
        for rank in (None, 0, 2):
            for name in tables.weapons:
                read = (name, rank, stats.MD, stats.PS, stats.PC, held, agility, (), tables)
                fresh = afresh(tables, partial(lines.weapon_line, *read))
                assert lines.weapon_line(*read) == fresh
            read_unarmed = (rank, stats.MD, stats.PS, stats.PC, held, agility, (), tables)
            fresh_unarmed = afresh(tables, partial(lines.unarmed_line, *read_unarmed))
            assert lines.unarmed_line(*read_unarmed) == fresh_unarmed
