"""The GM's rulings: a file's `overrides:` pinned as values of the graph, each kept with its reason and the
rules' value of that same node (`computed`). The graph is evaluated again with them pinned
(chargen.values.pins), so what depends on a pinned value is worked out from it: a formula that names it,
a ruleset's own values, 18.2's rolls from a Strike Chance."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import replace

from chargen.character_file import Override
from chargen.errors import InputError, Problem
from chargen.model import Character, Overridden
from chargen.rules.working import Node, Working, selected
from chargen.tables import Tables
from chargen.values.evaluation import evaluate
from chargen.values.graph import Sheet, graph
from chargen.values.names import BASE, POSTURE_PREFIX, formula_name
from chargen.values.pins import Pins

EXPERIENCE_BANK = "experience_bank"
#: Values a GM may not rule directly: every combat value is worked out from them, so a ruling belongs on
#: the value that matters at the table (Defense, a Strike Chance) instead.
UNDERLYING = (
    Node("modified_agility"),
    Node("modified_manual_dexterity"),
    Node("base_chance", row_key="unarmed"),
)


def with_overrides(character: Character, given: Mapping[str, Override] | None, tables: Tables) -> Character:
    """`character` with the GM's values pinned in place (its ruleset's own values worked out again from
    them); every key that names no value a GM may rule is one problem (all of them in one InputError)."""
    if not given:
        return character
    found = list(evaluate(character, tables).values)
    problems: list[Problem] = []
    ruled: dict[str, Overridden] = {}
    nodes: dict[str, Node] = {}
    named_by: dict[str, str] = {}  # each value ruled, by the override's name that ruled it first
    for name, override in given.items():
        working = _named(name, found, problems)
        if working is None:
            continue
        if working.key in named_by:  # `defense` and `combat.defense`: two rulings of one value
            first = named_by[working.key]
            also = "" if first == working.key else f" ({working.key})"
            told = f"rules the same value as {first!r}{also}: give one ruling"
            problems.append(_problem(name, told))
            continue
        named_by[working.key] = name
        if working.key == EXPERIENCE_BANK and character.history:
            # 12, 17: a played character's bank is what its ledger leaves; one ruling beside it would leave
            # two banks, the ledger paying from one and the record showing the other.
            told = "a played character's bank is its ledger's: record the GM's award or cost there instead"
            problems.append(Problem(("overrides", name), told, "12, 17"))
            continue
        computed = _rules_bank(character) if working.key == EXPERIENCE_BANK else working.value
        ruled[working.key] = Overridden(value=override.value, reason=override.reason, computed=computed)
        nodes[working.key] = working.node
    if problems:
        raise InputError(problems)
    evaluated = graph(Sheet.of_character(character), tables, _pins(ruled, nodes, tables))
    bank = ruled[EXPERIENCE_BANK].value if EXPERIENCE_BANK in ruled else character.experience_bank
    return replace(
        character, tmr=evaluated.tmr, combat=evaluated.combat, experience_bank=bank, overrides=ruled
    )


#: The name a formula gives each value of the character a GM may rule, by the key an override names.
_NAMES = {key: name for name, (key, _) in BASE.items()}


def _pins(ruled: Mapping[str, Overridden], nodes: Mapping[str, Node], tables: Tables) -> Pins:
    """The rulings as the graph takes them: a ruleset's own values by key, a weapon line's by its place,
    the rest by the name a formula gives them."""
    values, added, rows = {}, {}, {}
    for key, ruling in ruled.items():
        node = nodes[key]
        if key in tables.combat.values:
            added[key] = ruling.value
        elif node.row is not None:
            rows[(node.row, node.name)] = ruling.value
        elif node.row_key == "defense_postures":
            values[POSTURE_PREFIX + formula_name(node.name)] = ruling.value
        elif key in _NAMES:
            values[_NAMES[key]] = ruling.value
    return Pins(values, added, rows)


_BANK = Working(node=Node(EXPERIENCE_BANK), label="Experience Point Bank", value=None, rule="8.6", terms=())


def _named(name: str, found: list[Working], problems: list[Problem]) -> Working | None:
    """The value `name` names, or None with a problem said."""
    if name.strip().casefold().replace("-", "_").replace(" ", "_") == EXPERIENCE_BANK:
        return _BANK
    exact = [item for item in found if item.key.casefold() == name.strip().casefold()]
    if exact:  # `combat.tmr` is the armored TMR, though `tmr` would name both
        return _ruleable(name, exact[0], problems)
    try:
        matched = selected(found, [name])
    except InputError:
        told = f"is not a value chargen works out{_nearest(name, found)} (`chargen explain FILE` lists them)"
        problems.append(_problem(name, told))
        return None
    if len(matched) != 1:
        keys = ", ".join(item.key for item in matched[:4])
        problems.append(_problem(name, f"names {len(matched)} values ({keys}, ...): name one"))
        return None
    return _ruleable(name, matched[0], problems)


def _rules_bank(character: Character) -> int:
    """The Experience Point Bank as the rules leave it (8.6): what is left after buying, or every
    Experience Point when nothing was bought (the record shows the same)."""
    bank = character.experience_bank
    if bank is not None:
        return bank
    # a character as it stands gives no bank and no 8.5 Experience: the rules leave it nothing known
    return character.experience_points or 0


def _nearest(name: str, found: list[Working]) -> str:
    """`; did you mean 'defense'?` for a misspelt value's name (`defence`), by its whole key or its last
    part; '' when none is close."""
    keys = {item.key: item.key for item in found} | {EXPERIENCE_BANK: EXPERIENCE_BANK}
    keys |= {key.rsplit(".", 1)[-1]: key for key in list(keys) if key.rsplit(".", 1)[-1] not in keys}
    close = difflib.get_close_matches(name.strip().casefold(), list(keys), n=1)
    return f"; did you mean {keys[close[0]]!r}?" if close else ""


def _ruleable(name: str, working: Working, problems: list[Problem]) -> Working | None:
    """The working, or None with a problem said when a GM may not rule it directly."""
    if working.node in UNDERLYING or working.node.row_key == "characteristics" or working.shown:
        problems.append(
            _problem(
                name, "is worked into other values: overrule the value that matters instead (Defense, ...)"
            )
        )
        return None
    return working


def _problem(name: str, message: str) -> Problem:
    return Problem(("overrides", name), message, value=name)
