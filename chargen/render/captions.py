"""The record's captions: each formula written from the same table numbers the value was worked out with,
so a house rule in an exported table prints its own caption beside its own number."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chargen.formulas import Formula
    from chargen.model import DamageIncrease
    from chargen.tables.schema import ArmorFile, CombatFile

TIMES = "\u00d7"
MINUS = "\u2212"
NO_BREAK = "\u00a0"


def _times(multiplier: int | float, term: str) -> str:
    """`2 x WP` (with a times sign); a multiplier of 1 is left out."""
    return term if multiplier == 1 else f"{_number(multiplier)} {TIMES} {term}"


def _number(value: int | float) -> str:
    shown = str(int(value)) if float(value).is_integer() else str(value)
    return shown.replace("-", MINUS)


def _signed(value: int | float) -> str:
    return f"+ {_number(value)}" if value >= 0 else f"{MINUS} {_number(-value)}"


def _book() -> CombatFile:
    """The book's combat table, to tell a changed formula (a ruleset's or an edited copy's) from the book's."""
    from chargen.tables import load_tables

    return load_tables().combat


def _changed(label: str, rule: str, formulas: dict[str, tuple[Formula, str]]) -> str | None:
    """`Initiative (house rule, 12.3): modified agility + perception + 1 x rank` when any of `formulas`
    (name: (formula, the book's text)) differs from the book's; None when all are the book's."""
    from chargen.formulas import shown

    if all(formula.text == book for formula, book in formulas.values()):
        return None
    parts = [f"{name + ' = ' if name else ''}{shown(formula)}" for name, (formula, _) in formulas.items()]
    return f"{label} (house rule, {rule}): {'; '.join(parts)}."


def _one(label: str, rule: str, formula: Formula, book: str, caption: str) -> str:
    """The caption of a value worked out by one formula: the book's words, or a changed formula written out."""
    return _changed(label, rule, {"": (formula, book)}) or caption


def stun_threshold(rules: CombatFile) -> str:
    """19: more than EN / divisor from one strike Stuns."""
    stun = rules.stun
    caption = f"damage from one strike that Stuns (over EN \u00f7 {stun.endurance_divisor})"
    return _one("Stun", stun.rule, stun.threshold_formula, _book().stun.threshold, caption)


def stun_recovery(rules: CombatFile) -> str:
    """19: D100 at multiplier x Willpower + Fatigue or less."""
    stun = rules.stun
    caption = f"{_times(stun.recovery_willpower_multiplier, 'WP')} + FT"
    return _one("Recovery", stun.rule, stun.recovery_formula, _book().stun.recovery, caption)


def breakage_check(rules: CombatFile) -> str:
    """17.3: D100 at multiplier x modified Manual Dexterity or less."""
    breakage = rules.breakage
    caption = _times(breakage.manual_dexterity_multiplier, "modified MD")
    return _one("Breakage", breakage.rule, breakage.check_formula, _book().breakage.check, caption)


def strike_chance(rules: CombatFile) -> str:
    """17.1 and 20.2: the ranked terms and the MD shortfall penalty."""
    terms = rules.strike_chance
    book = _book().strike_chance
    formulas = {
        "ranked": (terms.ranked_formula, book.ranked),
        "unranked": (terms.unranked_formula, book.unranked),
    }
    changed = _changed("Strike Chance", terms.rule, formulas)
    if changed:
        return changed
    ranked = ["Base Chance"]
    if terms.adds_modified_manual_dexterity:
        ranked.append("modified MD")
    ranked.append(_times(terms.rank_multiplier, "Rank"))
    return (
        f"Strike Chance: {' + '.join(ranked)} ({terms.rule}); unranked, Base Chance alone; "
        f"{MINUS}{terms.md_shortfall_penalty} per point of MD below the weapon's."
    )


def initiative(rules: CombatFile) -> str:
    """12.3: modified Agility + Perception + the prepared weapon's Rank."""
    terms = rules.initiative
    changed = _changed("Initiative", terms.rule, {"": (terms.compiled, _book().initiative.formula)})
    if changed:
        return changed
    return f"Initiative: modified AG + PC + {_times(terms.rank_multiplier, 'Rank')} ({terms.rule})."


def defense(rules: CombatFile) -> str | None:
    """17.5: the book's Defense needs no caption; a changed formula, or a house rule's postures, print theirs."""
    terms = rules.defense
    formulas = {"": (terms.compiled, _book().defense.formula)}
    formulas |= {name.replace("_", " "): (formula, "") for name, formula in terms.posture_formulas.items()}
    changed = _changed("Defense", terms.rule, formulas)
    fallback = terms.defensive_modifier_fallback
    if changed and fallback is not None:  # the ruleset's stated reading, where its tables give no number
        changed += f" Where the tables give none: a weapon's defensive modifier {_number(fallback)}, a shield's its defense per Rank."
    return changed


def damage(rules: CombatFile) -> str:
    """20.2: the PS shortfall and the two-handed bonus."""
    terms = rules.damage
    changed = _changed("Damage", terms.rule, {"modifier": (terms.compiled, _book().damage.formula)})
    if changed:
        return changed
    return (
        f"Damage: {MINUS}{terms.penalty_per_strength_point_short} per point of PS below the weapon's; "
        f"{_signed(terms.two_handed_bonus).replace(' ', '')} two-handed ({terms.rule})."
    )


def unarmed(rules: CombatFile) -> str:
    """21: base chance and damage steps."""
    terms = rules.unarmed
    book = _book().unarmed
    formulas = {
        "Base Chance": (terms.chance_formula, book.chance),
        "damage modifier": (terms.damage_formula, book.damage),
    }
    changed = _changed("Unarmed", terms.rule, formulas)
    legs = f" Trips from Rank {terms.trip_from_rank}; kicks from Rank {terms.kick_from_rank}."  # seed 004
    return (changed or _unarmed_book(rules)) + (legs if terms.trip_from_rank != book.trip_from_rank else "")


def _unarmed_book(rules: CombatFile) -> str:
    terms = rules.unarmed
    above = f"PS above {terms.strength_threshold}"
    return (
        f"Unarmed: {_times(terms.agility_multiplier, 'modified AG')} + {terms.chance_per_strength_point} per "
        f"point of {above}; D10 {_signed(terms.damage_modifier)}, +1 per {terms.strength_points_per_damage} "
        f"full points of {above} ({terms.rule})."
    )


def armor_weight(chart: ArmorFile, gender: str) -> str:
    """18.1: the weight multiple, adjusted for gender, times the race's size number."""
    adjustment = chart.weight_adjustment_by_gender.get(gender, 0)  # type: ignore[call-overload]
    multiple = "chart multiple" if not adjustment else f"(chart multiple {_signed(adjustment)})"
    return f"{multiple} {TIMES} size"


def damage_increase(rules: CombatFile) -> str:
    """18.5 (optional), under the weapons of a character whose file chose it."""
    terms = rules.damage_increase
    return (
        f"Damage increase ({terms.rule}, optional): +1 per {terms.strength_points_per_bonus} full points of PS "
        f"above the weapon's, each +1 adding {terms.breakage_per_bonus} rolls below {terms.breaks_on} that may "
        f"break it and lowering the highest Modified Strike Chance to match; not when thrown or fired. Or, "
        f"chosen per weapon, +1 per {terms.rank_per_bonus} Ranks."
    )


def damage_increase_note(increase: DamageIncrease | None, rule: str) -> str:
    """A weapon line's 18.5 figures: the bonus and its system; for Physical Strength, the breakage rolls, the
    highest Modified Strike Chance and the damage when thrown. Each phrase is held together (no-break spaces),
    so a narrow Damage column wraps between phrases only. Empty without a bonus."""
    if increase is None or not increase.bonus:
        return ""
    source = "PS" if increase.system == "strength" else "Rank"
    phrases = [f"+{increase.bonus} for {source} ({rule})"]
    if increase.breaks_on is not None:
        phrases.append(f"breaks on {increase.breaks_on}")
    if increase.strike_chance_cap is not None:
        phrases.append(f"Strike Chance at most {_number(increase.strike_chance_cap)}")
    if increase.thrown_damage is not None:
        phrases.append(f"thrown {increase.thrown_damage}")
    return "; ".join(phrase.replace(" ", NO_BREAK) for phrase in phrases)
