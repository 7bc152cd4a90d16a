"""12, 17, 87: the file's advancement ledger, applied in order to the character as created.

An award puts Experience into the bank (12); a raise spends it on a characteristic, a weapon or shield held,
Unarmed Combat, a skill, a language or a spell, "and a change is made on his Character Record" (17). A raise
is an input of the values: the characteristics and Ranks it raises are what every derived value reads (the
pipeline derives the character from the raised ones). What it costs is the file's `cost` (the GM's figure),
else the GM's Cost Chart (87.7, not in the seeds: `abilities.experience.cost_chart`) times the race
multiplier (6.x); chargen never makes a cost up. Each entry is checked against the character as it stood
before it, and every problem of the ledger is told at once."""

from __future__ import annotations

from dataclasses import dataclass, replace

from chargen.all_problems import reads
from chargen.character_file import Award, Raise
from chargen.errors import InputError, KeyPath, Problem
from chargen.generation.abilities import FileAbilities
from chargen.generation.decisions import Decisions
from chargen.generation.equipment_check import rank_problem, shield_rank_problem
from chargen.generation.ledger_costs import chart_price
from chargen.generation.ledger_targets import Standing, Target, target_of
from chargen.model import Character, Characteristics, HistoryLine, MagicRanked, Ranked, characteristics_raised
from chargen.rules.experience import RaceCosts, race_costs
from chargen.tables import Tables
from chargen.vocabulary import MAX_POINTS, MAX_RANK
from chargen.yamlio import MAX_NUMBER


@dataclass(frozen=True, slots=True)
class Ledger:
    """The ledger applied: the characteristics and Ranks as they stand after it, how much each
    characteristic was raised, and one history line an entry."""

    standing: Standing
    raised: dict[str, int]
    history: list[HistoryLine]


@reads("advancement")
def ledger_step(
    decided: Decisions, chosen: FileAbilities | None, stats: Characteristics, tables: Tables
) -> Ledger | None:
    """The file's ledger applied to the character the steps made (`stats` its characteristics as created,
    `chosen` the file's own abilities, which stand in place of those bought); None when it has none."""
    entries = decided.spec.advancement
    if not entries:
        return None
    bank, total = _experience(decided)
    standing = _created(decided, chosen, stats, bank, total)
    return applied(entries, standing, race_costs(tables.races[decided.born.race.race]), tables)


def _experience(decided: Decisions) -> tuple[int | None, int | None]:
    """The bank and the Experience earned in all before the ledger: a character as it stands has them from
    its file (12), any other from 8.5's Experience (its bank after 8.6 comes with its abilities)."""
    given = decided.spec.standing
    if given is None:
        assert decided.heritage is not None  # only a character as it stands has no 8.1-8.5
        return None, decided.heritage.experience_points
    if given.experience_bank is None:
        problem = "the ledger adds to and spends from the bank: give the bank as it stands"
        raise InputError(Problem(("standing", "experience_bank"), problem, "12"))
    return given.experience_bank, given.experience_total


def _created(
    decided: Decisions,
    chosen: FileAbilities | None,
    stats: Characteristics,
    given_bank: int | None,
    total: int | None,
) -> Standing:
    """The character as created: its kit, and what with_abilities makes of the file's abilities and the
    bought ones, with the bank 8.6 leaves (the whole 8.5 Experience when nothing was bought)."""
    equipment, spec = decided.kit.equipment, decided.spec
    if chosen is not None:
        skills, languages, spells, bank = chosen.skills, chosen.languages, chosen.spells, chosen.bank
        college = chosen.college
    elif spec.abilities_given:
        skills, languages, spells, bank, college = [], [], [], None, None
    else:
        made = decided.abilities
        skills, languages, spells, bank = list(made.skills), [], list(made.spells), made.experience_bank
        college = made.college
    if given_bank is not None:
        bank = given_bank
    return Standing(
        characteristics=dict(stats.items()),
        weapons=list(equipment.weapons),
        shield=equipment.shield,
        unarmed_rank=spec.unarmed_rank,
        skills=list(skills),
        languages=list(languages),
        spells=list(spells),
        college=college,
        race=decided.born.race.race,
        bank=(total or 0) if bank is None else bank,
        total=total,
    )


def applied(entries: list[Award | Raise], standing: Standing, costs: RaceCosts, tables: Tables) -> Ledger:
    """Each entry in order; every problem raised at once (an entry refused is not applied)."""
    history: list[HistoryLine] = []
    problems: list[Problem] = []
    for index, entry in enumerate(entries):
        path: KeyPath = ("advancement", index)
        if isinstance(entry, Award):
            if max(standing.bank, standing.total or 0) + entry.award > MAX_NUMBER:
                told = f"the Experience would pass {MAX_NUMBER:,}, more than a character file holds"
                problems.append(Problem(path, told, "12"))
                continue
            standing.bank += entry.award
            if standing.total is not None:  # unknown as it stands: an award does not make it known
                standing.total += entry.award
            history.append(
                HistoryLine(
                    kind="award", experience=entry.award, bank=standing.bank, note=entry.note, date=entry.date
                )
            )
            continue
        line = _raise(path, entry, standing, costs, tables, problems)
        if line is not None:
            history.append(line)
    if problems:
        raise InputError(problems)
    return Ledger(standing, characteristics_raised(history), history)


def _raise(
    path: KeyPath, entry: Raise, standing: Standing, costs: RaceCosts, tables: Tables, found: list[Problem]
) -> HistoryLine | None:
    """One raise checked against the character as it stands and applied; None (its problems in `found`)
    when refused."""
    target = target_of((*path, "raise"), entry.raise_, standing, tables)
    if isinstance(target, Problem):
        found.append(target)
        return None
    problems = _limits((*path, "to"), target, entry.to, standing, tables)
    cost, charged = _cost(path, entry, target, costs, tables, problems)
    if cost is not None and cost > standing.bank:
        problems.append(
            Problem(
                (*path, "cost") if entry.cost is not None else path,
                f"{target.label} to {entry.to} costs {cost} Experience Points but the bank holds "
                f"{standing.bank}: {cost - standing.bank} short",
                "17",
                cost,
            )
        )
    found.extend(problems)
    if problems or cost is None:
        return None
    _apply(target, entry.to, standing, tables)
    standing.bank -= cost
    return HistoryLine(
        kind="raise",
        what=target.kind,
        name=target.name,
        label=target.label,
        before=target.before,
        after=entry.to,
        experience=-cost,
        charged=charged,
        bank=standing.bank,
        note=entry.note,
        date=entry.date,
    )


def _limits(path: KeyPath, target: Target, to: int, standing: Standing, tables: Tables) -> list[Problem]:
    """17, 87: a raise goes up; 20.2 and 17.5: no Rank past the weapon's (or shield's) maximum, nor without
    its PS and MD; a GM's maximum Rank for a skill, language or spell."""
    if target.before is not None and to <= target.before:
        what = "is" if target.kind == "characteristic" else "is Rank"
        message = f"{target.label} {what} {target.before} already; `to` is what it is raised to"
        return [Problem(path, message, "17", to)]
    most = MAX_POINTS if target.kind == "characteristic" else MAX_RANK
    if to > most:  # what a file holds (chargen.vocabulary): past it the record is not read back
        return [Problem(path, f"{to} is more than a character file holds ({most})", value=to)]
    stats = standing.characteristics
    if target.kind == "weapon":
        problem = rank_problem(tables.weapons[target.name], to, stats["PS"], stats["MD"])
        return [] if problem is None else [Problem(path, problem, value=to)]
    if target.kind == "shield":
        problem = shield_rank_problem(target.name, to, tables)
        return [] if problem is None else [Problem(path, problem, "17.5 and 20.2", to)]
    maximum = _table_maximum(target, tables)
    if maximum is not None and to > maximum:
        return [Problem(path, f"Rank {to} is above the table's maximum of {maximum}", None, to)]
    return []


def _table_maximum(target: Target, tables: Tables) -> int | None:
    """A GM's maximum Rank for a skill, language or spell (none in the seeds)."""
    abilities = tables.abilities
    if target.kind == "skill":
        entry: object = abilities.skills.get(target.name)
    elif target.kind == "language":
        entry = abilities.languages.entries.get(target.name)
    else:
        entry = abilities.magic.entries.get(target.name)
    maximum = getattr(entry, "max_rank", None)
    return maximum if isinstance(maximum, int) else None


def _cost(
    path: KeyPath, entry: Raise, target: Target, costs: RaceCosts, tables: Tables, problems: list[Problem]
) -> tuple[int | None, str | None]:
    """The entry's own cost (the GM's), else the chart's times the race multiplier, else a problem saying
    what is missing and how to give it. A cost the file gives that is the chart's figure (as `build -o`
    writes it in) is told as the chart's: the file built again gives the same history."""
    price = chart_price(target, entry.to, costs, tables)
    if entry.cost is not None:
        return entry.cost, "chart" if entry.cost == price.cost else "given"
    if price.cost is not None:
        return price.cost, "chart"
    problems.append(
        Problem(
            path,
            f"no cost known for {target.label} to {entry.to}: {price.missing}; give the GM's figure as "
            "`cost:` or a ruleset's chart (the Experience Cost Chart, 87.7, is not in the seeds)",
            "17, 87",
            entry.raise_,
        )
    )
    return None, None


def _apply(target: Target, to: int, standing: Standing, tables: Tables) -> None:
    if target.kind == "characteristic":
        standing.characteristics[target.name] = to
    elif target.kind == "weapon":
        standing.weapons = [
            item.model_copy(update={"rank": to}) if item.name == target.name else item
            for item in standing.weapons
        ]
        shield = standing.shield
        if shield is not None and tables.shields[shield.name].weapon == target.name:
            # 17.5: a shield that is also a weapon (the Main-Gauche) has one Rank as both
            standing.shield = shield.model_copy(update={"rank": to})
    elif target.kind == "shield" and standing.shield is not None:
        standing.shield = standing.shield.model_copy(update={"rank": to})
    elif target.kind == "unarmed":
        standing.unarmed_rank = to
    elif target.kind == "spell":
        standing.spells = _ranked_magic(standing.spells, target, to, tables)
    else:
        have = standing.skills if target.kind == "skill" else standing.languages
        ranked = [Ranked(item.name, to) if item.name == target.name else item for item in have]
        if target.before is None:
            ranked.append(Ranked(target.name, to))
        if target.kind == "skill":
            standing.skills = ranked
        else:
            standing.languages = ranked


def _ranked_magic(spells: list[MagicRanked], target: Target, to: int, tables: Tables) -> list[MagicRanked]:
    if target.before is None:
        return [*spells, MagicRanked(target.name, to, tables.abilities.magic.entries[target.name].kind)]
    return [MagicRanked(item.name, to, item.kind) if item.name == target.name else item for item in spells]


def raised_decisions(decided: Decisions, ledger: Ledger) -> Decisions:
    """The steps' decisions with the ledger's raises in: the characteristics raised and the Ranks of the
    weapons, shield and Unarmed Combat, as every derived value reads them."""
    standing = ledger.standing
    equipment = replace(decided.kit.equipment, weapons=standing.weapons, shield=standing.shield)
    spec = decided.spec.model_copy(update={"unarmed_rank": standing.unarmed_rank})
    return replace(decided, spec=spec, kit=replace(decided.kit, equipment=equipment), raised=ledger.raised)


def with_ledger(character: Character, ledger: Ledger | None) -> Character:
    """The character with the skills, languages and spells the ledger raised, its bank after it, the
    Experience earned in all (8.5's and every award) and its history."""
    if ledger is None:
        return character
    standing = ledger.standing
    return replace(
        character,
        unarmed_rank=standing.unarmed_rank,
        skills=standing.skills,
        languages=standing.languages,
        spells=standing.spells,
        experience_bank=standing.bank,
        experience_total=standing.total,
        history=ledger.history,
    )
