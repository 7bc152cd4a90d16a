"""Every value the sheet shows that the rules give otherwise: the sheet's figure, the rules' (worked out
for the imported character as chargen's Roll20 export would show it, chargen.export.roll20_shown) and the
rule, for the values tables/import_roll20.yaml lists. docs/roll20.md says where the sheet's scripts differ
from the rules (its stun, a Strike Chance short of a weapon's MD, a slung shield, its load table)."""

from __future__ import annotations

from dataclasses import dataclass

from chargen.export.roll20_shown import character_shown
from chargen.export.targets import Compared, roll20_compared
from chargen.importing.sheet import SheetCharacter
from chargen.model import Character, WeaponLine
from chargen.render import lookup
from chargen.tables import Tables


@dataclass(frozen=True, slots=True)
class Difference:
    """One value the sheet shows otherwise than the rules: the sheet's attribute, what the record calls
    the value, the sheet's figure, the rules' and the rule."""

    attribute: str
    label: str
    sheet: str
    rules: str
    rule: str

    @property
    def text(self) -> str:
        return f"Roll20 sheet: {self.label} {self.sheet}, the rules give {self.rules} ({self.rule})."


def differences(sheet: SheetCharacter, character: Character, tables: Tables) -> list[Difference]:
    """The sheet's values against the rules', in the sheet's order: the character's, then each weapon's."""
    compared = roll20_compared()
    ours = character_shown(character, tables)
    found = [
        _difference(name, item.label, item, sheet.text(name), ours.get(name))
        for name, item in compared.shown.items()
    ]
    for row, line in zip(sheet.section("weapon"), character.combat.weapons, strict=True):
        weapon = lookup.weapon(tables, line.name, "weapons").name
        for name, item in compared.weapon.items():
            found.append(
                _difference(
                    row.attribute(name), f"{weapon} {item.label}", item, row.text(name), _line(line, name)
                )
            )
    return [difference for difference in found if difference is not None]


def _line(line: WeaponLine, name: str) -> int | None:
    """A weapon line's value where the sheet's row shows it (as chargen.export.roll20_shown writes it)."""
    return {"sc": line.strike_chance, "iv": line.initiative}.get(name)


def _difference(attribute: str, label: str, item: Compared, theirs: str, ours: object) -> Difference | None:
    """A difference where the sheet shows a figure and the rules give another; none where either has
    no figure (a value the sheet never worked out is not one it shows otherwise)."""
    if not theirs or ours is None or _same(theirs, ours):
        return None
    return Difference(attribute, label, theirs, str(ours), item.rule)


def _same(theirs: str, ours: object) -> bool:
    try:
        return float(theirs) == float(str(ours))
    except ValueError:
        return theirs == str(ours)
