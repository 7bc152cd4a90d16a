"""The evaluation of the value graph for a Character: every derived value (5.3-5.6, 12.3, 17-21, a ruleset's
own) with its working, made from the same table formulas and the same input functions (chargen.rules.combat)
that computed the values, and from what the character holds (chargen.generation.held)."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.formulas import Formula
from chargen.generation import held
from chargen.generation.ledger_raised import created, raised_terms
from chargen.model import Character
from chargen.rules import combat as rules
from chargen.rules.characteristics import FatigueReading, tmr_chart_row
from chargen.rules.combat import Known
from chargen.rules.working import MINUS, Node, Term, Working
from chargen.tables import Tables
from chargen.tables.schema import Shield
from chargen.values.added import added_workings, graph_values
from chargen.values.graph import Holding, Sheet, characteristics, defense_inputs, holding_of
from chargen.values.rows import Held, formula_terms, named_terms, weapon_workings
from chargen.vocabulary import EIGHT


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The graph evaluated for one character: every value with its working, in the record's order. Each
    door reads what it shows from here (the record, explain, the GM's rulings)."""

    values: tuple[Working, ...]

    def by_key(self) -> dict[str, Working]:
        return {item.key: item for item in self.values}

    def row_keys(self) -> dict[int, str]:
        """Each weapon line's name in keys (`weapons.dagger-2`), by its place among the weapons."""
        return {item.node.row: item.node.row_key for item in self.values if item.node.row is not None}


def evaluate(character: Character, tables: Tables) -> Evaluation:
    """Every derived value of `character` with its working, the GM's values marked as the GM's."""
    return Evaluation(tuple(_workings(character, tables)))


def _workings(character: Character, tables: Tables) -> list[Working]:
    sheet = Sheet.of_character(character)
    stats, fatigue = characteristics(sheet, tables)
    kit = _held(character, tables, holding_of(sheet, stats, tables))
    found = [
        *_characteristics(character, tables, fatigue),
        *_combat(character, tables, kit),
        *weapon_workings(character, tables, kit),
    ]
    ruled = character.overrides or {}
    if ruled:  # the GM's value shown, the rules' own kept beside it
        found = [
            item.overridden(ruled[item.key].value, ruled[item.key].reason) if item.key in ruled else item
            for item in found
        ]
    return found


def _held(character: Character, tables: Tables, holding: Holding) -> Held:
    """What the character holds, with its modified Agility and Manual Dexterity said in words."""
    stats = character.characteristics
    armor, weight_loss, shield = holding.armor, holding.weight_loss, holding.shield
    worn = f"{armor.name}'s {MINUS}{armor.agility_loss}, 18.1" if armor else "no armor"
    weight = f"; {MINUS}{weight_loss} for {holding.pounds:g} lb carried, 82.9" if weight_loss else ""
    loss = f"{shield.name}'s {MINUS}{shield.manual_dexterity_loss}, 17.5" if shield else "no shield"
    return Held(
        holding,
        holding.equipment,
        holding.ready,
        Term("modified_agility", holding.agility, f"Agility {stats.AG} ({worn}{weight})"),
        Term("modified_md", holding.dexterity, f"Manual Dexterity {stats.MD} ({loss})"),
        graph_values(stats, character.tmr, character.combat, tables),
    )


def _characteristics(character: Character, tables: Tables, fatigue: FatigueReading) -> list[Working]:
    """5.2-5.4, 6.1: each characteristic is the allocation plus race and gender; Fatigue reads 5.3's chart,
    Perception starts at 5.4's base; TMR (5.6) reads the chart at Agility. A character as it stands has
    each as its file gives it (race, gender and any raise in it; its creation is not known)."""
    found = []
    for code in EIGHT:
        modifier = character.modifiers[code]
        value = character.characteristics.get(code)
        terms: tuple[Term, ...] = (
            Term("standing", created(character, code), "the file's, its creation unknown"),
        )
        rule = STANDING
        if character.standing is None:
            first, rule = _first_term(character, code, tables, fatigue)
            terms = (first, Term("race", modifier.race, "6.4-6.9"), Term("gender", modifier.gender, "6.1"))
        terms += raised_terms(character, code)  # 17, 87: the ledger's raises
        found.append(
            Working(
                node=Node(code, row_key="characteristics"), label=code, value=value, rule=rule, terms=terms
            )
        )
    return [*found, _tmr(character, tables, character.characteristics.AG, Node("tmr"), "TMR unarmored")]


#: Where a characteristic of a character as it stands comes from: its file, not a rule's working.
STANDING = "as it stands"


def _first_term(character: Character, code: str, tables: Tables, fatigue: FatigueReading) -> tuple[Term, str]:
    """What race and gender are added to: 5.3's Fatigue chart, 5.4's base Perception, 5.2's allocation."""
    table = tables.characteristics
    if code == "FT":  # read at Endurance as created: 3.7, Fatigue is raised on its own
        endurance = created(character, "EN")
        return Term("chart", fatigue.value, f"5.3's chart at Endurance {endurance}"), table.fatigue.rule
    if code == "PC":
        return Term("base", table.perception.base, "5.4's starting Perception"), "5.4"
    assert character.allocation is not None  # every character but one as it stands has its 5.2
    return Term("allocated", character.allocation[code], "5.2's allocation"), "5.2, 6.1"


def _tmr(character: Character, tables: Tables, agility: int, node: Node, label: str) -> Working:
    """5.6: TMR read from the chart at (modified) Agility, plus the race's modifier; a giant's starts from
    its type's average, moved as the chart moves from the human average (14.1's Cloud Giant: 13 + 1)."""
    table = tables.characteristics.tmr
    row = tmr_chart_row(agility, table)
    chart = f"5.6's chart at Agility {agility}"
    types = tables.races[character.race].types
    kind = types.get(character.race_type or "")
    average = kind.average_tmr if kind is not None else None
    race = Term("race", character.modifiers["TMR"].race, "6.4-6.9")
    terms: tuple[Term, ...] = (Term("chart", row.value, chart), race)
    rule = table.rule
    if kind is not None and average is not None:
        shift = row.value - table.average
        terms = (
            Term("average", average, f"the {kind.name} giant's average TMR (14.1)"),
            Term(
                "agility",
                shift,
                f"{chart} reads {row.value}: {_signed(shift)} on the human average {table.average}",
            ),
            race,
        )
        rule = f"{table.rule}, 14.1"
    value = character.combat.tmr if node.row_key else character.tmr
    return Working(node=node, label=label, value=value, rule=rule, terms=terms, minimum=table.minimum)


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"{MINUS} {-value}"


def _combat(character: Character, tables: Tables, kit: Held) -> list[Working]:
    combat, agility = character.combat, kit.agility
    found = [
        Working(
            node=Node("modified_agility"),
            label="modified Agility",
            value=combat.modified_agility,
            rule="18.1",
            terms=_agility_terms(character, kit),
        ),
        _dexterity(character, tables, kit),
        *_defense(character, tables, kit),
        _tmr(character, tables, agility.value or 0, Node("tmr", row_key="combat"), "TMR armored"),
        *added_workings(character, tables),  # a ruleset's own, after the TMRs as on the record
        _initiative(character, tables, kit),
    ]
    found += _stun(character, tables, kit)
    return found


def _initiative(character: Character, tables: Tables, kit: Held) -> Working:
    """12.3's Initiative with no weapon prepared."""
    combat, rules_file, agility = character.combat, tables.combat, kit.agility
    sources = {"modified_agility": agility.source, "perception": "Perception", "rank": "no weapon"}
    inputs = (agility.value, character.characteristics.PC, 0, 0)
    return Working(
        node=Node("initiative"),
        label="Initiative",
        value=combat.initiative,
        rule=rules_file.initiative.rule,
        formula=rules_file.initiative.compiled,
        terms=formula_terms(rules_file.initiative.compiled, inputs, sources, kit.known),
    )


def _agility_terms(character: Character, kit: Held) -> tuple[Term, ...]:
    armor = kit.holding.armor
    return (
        Term("agility", character.characteristics.AG, "Agility"),
        Term("armor", -(armor.agility_loss if armor else 0), f"{armor.name} worn" if armor else "no armor"),
        Term("weight", -kit.holding.weight_loss, "weight carried (82.9)"),
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
        node=Node("modified_manual_dexterity"),
        label="modified Manual Dexterity",
        value=character.combat.modified_manual_dexterity,
        rule="17.5",
        terms=(
            Term("manual_dexterity", stats.MD, "Manual Dexterity"),
            Term("shield", -loss, f"the {shield.name}'s loss" if shield else "no shield"),
        ),
        held=held_text,
        other=other,
        alternative=stats.MD if other else None,
    )


def _defense(character: Character, tables: Tables, kit: Held) -> list[Working]:
    """17.5 (and a house rule's postures): Defense with what is held ready."""
    rules_file = tables.combat
    held_text, other, alternative = _defense_held(character, tables, kit)
    combat = character.combat
    found = [
        Working(
            node=Node("defense"),
            label="Defense",
            value=combat.defense,
            rule=rules_file.defense.rule,
            formula=rules_file.defense.compiled,
            terms=_defense_terms(tables, kit, rules_file.defense.compiled),
            held=held_text,
            other=other,
            alternative=alternative,
        )
    ]
    for posture, formula in rules_file.defense.posture_formulas.items():
        found.append(
            Working(
                node=Node(posture, row_key="defense_postures"),
                label=f"Defense, {posture.replace('_', ' ')}",
                value=(combat.defense_postures or {}).get(posture),
                rule=rules_file.defense.rule,
                formula=formula,
                terms=_defense_terms(tables, kit, formula),
                held=held_text,
            )
        )
    return found


def _defense_terms(tables: Tables, kit: Held, formula: Formula) -> tuple[Term, ...]:
    """The defense formulas' inputs from what is held ready, as the graph read them."""
    shield = kit.ready[0]
    inputs = defense_inputs(kit.holding, tables)
    name = shield.name if shield else "no shield"
    sources = {
        "modified_agility": kit.agility.source,
        "shield_defense_per_rank": f"{name} (17.5)",
        "shield_rank": f"Rank with the {name}" if shield else "no shield",
    }
    return formula_terms(formula, inputs, sources, kit.known)


def _defense_held(character: Character, tables: Tables, kit: Held) -> tuple[str, str, int | None]:
    """Which shield Defense counts, in words, and Defense with the other configuration (in words and its
    value) where the first weapon leaves the shield slung (20)."""
    shield, _, _ = kit.ready
    if held.two_handed_first(kit.equipment, tables) and kit.equipment.shield is not None:
        shield_item = kit.equipment.shield
        first = tables.weapons[character.weapons[0].name].name
        carried_shield = tables.shields.get(shield_item.name)
        if carried_shield is None:
            return "", "", None
        agility = kit.agility.value or 0
        with_shield = held.defense_with_shield(kit.equipment, shield_item, agility, tables, kit.known)
        other = f"with the {carried_shield.name} and a one-handed weapon it is {'—' if with_shield is None else with_shield} (17.5)"
        return f"with the {first} in both hands, the {carried_shield.name} slung (20)", other, with_shield
    if shield is not None and character.shield is None:
        return f"the {shield.name} as weapon and shield at once (17.5's note)", "", None
    if shield is not None:
        return f"with the {shield.name} prepared (17.5)", "", None
    return "", "", None


def _stun(character: Character, tables: Tables, kit: Held) -> list[Working]:
    combat, stats, rules_file, known = character.combat, character.characteristics, tables.combat, kit.known
    stun, check = rules_file.stun, rules_file.breakage.check_formula
    breakage = _breakage_held(character, tables, known)
    return [
        Working(
            node=Node("stun_threshold"),
            label="Stun threshold",
            value=combat.stun_threshold,
            rule=stun.rule,
            formula=stun.threshold_formula,
            terms=(
                Term("endurance", stats.EN, "Endurance"),
                *named_terms(stun.threshold_formula, 1, known),
            ),
        ),
        Working(
            node=Node("stun_recovery"),
            label="Stun recovery",
            value=combat.stun_recovery,
            rule=stun.rule,
            formula=stun.recovery_formula,
            terms=(
                Term("willpower", stats.WP, "Willpower"),
                Term("fatigue", stats.FT, "Fatigue"),
                *named_terms(stun.recovery_formula, 2, known),
            ),
        ),
        Working(
            node=Node("breakage_check"),
            label="Breakage / drop",
            value=combat.breakage_check,
            rule=rules_file.breakage.rule,
            formula=check,
            terms=(kit.dexterity, *named_terms(check, 1, known)),
            held=breakage[0],
            other=breakage[1],
            alternative=breakage[2],
        ),
    ]


def _breakage_held(character: Character, tables: Tables, known: Known) -> tuple[str, str, int | None]:
    """17.3 reads modified MD: with a shield that lowers it, the check with the shield slung (20) too."""
    shield = tables.shields.get(character.shield.name) if character.shield else None
    if shield is None or not shield.manual_dexterity_loss:
        return "", "", None
    slung = rules.breakage_check(character.characteristics.MD, tables.combat, known)
    other = f"{slung} with it slung, as for a two-handed weapon (20)"
    return f"with the {shield.name} prepared (17.5)", other, slung
