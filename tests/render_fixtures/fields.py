"""Reading a Character Record the way a person does: each labelled box, and the value printed in it.

    expected_fields(character)  what each box must show, worked out by tests/rules_checker.py from the
                                character's choices and rolls only (never from its derived values)
    html_fields(page)           the text of each box in the HTML (its DOM, not the fonts' base64)
    pdf_fields(pdf, keys)       the text at each box in the PDF (tests/render_fixtures/pdf_text.py)

A field key names the box, the row and the column as a person finds them: "combat | Defense",
"characteristics | PS", "weapons | Broadsword | Strike Chance", "carried | Leather".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from chargen.tables import Tables
from tests.rules_charts import SHIELDS
from tests.rules_checker import expected_values

MINUS = "\u2212"
SEP = " | "
#: The boxes whose values are read: the record's caption of each, and the labels read in it.
STATS = ("Defense", "Initiative", "Agility", "Manual Dexterity", "TMR unarmored", "TMR armored")
STUN = ("Stun threshold", "Stun recovery", "Breakage / drop")
PURSE = ("Experience Points", "Experience multiplier", "Silver Pennies", "Starting silver")
COLUMNS = ("Rank", "Strike Chance", "Damage", "Initiative", "Endurance damage", "Grievous Injury")
HEADINGS = {
    "characteristics": "Characteristics",
    "combat": "Combat",
    "weapons": "Weapons",
    "armor": "Armor",
    "shield": "Shield",
    "stun": "Stun & Breakage",
    "purse": "Experience & Money",
}


def num(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace("-", MINUS)


def expected_fields(character: dict[str, Any], tables: Tables) -> dict[str, str]:
    """Every derived value the record prints, as it prints it, from tests/rules_checker.py's own arithmetic."""
    values = expected_values(character, tables)
    stats, combat = values["characteristics"], values["combat"]
    fields = {f"characteristics{SEP}{code}": num(value) for code, value in stats.items()}
    shown = (
        combat["defense"],
        combat["initiative"],
        combat["modified_agility"],
        combat["modified_manual_dexterity"],
        values["tmr"],
        combat["tmr"],
    )
    fields.update({f"combat{SEP}{label}": num(value) for label, value in zip(STATS, shown, strict=True)})
    stun = (combat["stun_threshold"], combat["stun_recovery"], combat["breakage_check"])
    fields.update({f"stun{SEP}{label}": num(value) for label, value in zip(STUN, stun, strict=True)})
    purse = (
        values["experience_points"],
        f"\u00d7{num(values['experience_multiplier'])}",
        values["silver_pennies"],
        values["starting_silver"],
    )
    fields.update({f"purse{SEP}{label}": num(value) for label, value in zip(PURSE, purse, strict=True)})
    if "armor" in combat:
        armor = combat["armor"]
        fields[f"armor{SEP}Protection"] = num(armor["protection"])
        fields[f"armor{SEP}Agility loss"] = num(armor["agility_loss"])
        fields[f"carried{SEP}{tables.armor[armor['name']].name}"] = f"{num(armor['weight'])} lb"
    if "shield" in combat:
        name = combat["shield"]["name"]
        fields[f"carried{SEP}{tables.shields[name].name}"] = f"{SHIELDS[name].weight} lb"
        fields[f"shield{SEP}Defense per Rank"] = num(combat["shield"]["defense_per_rank"])
        fields[f"shield{SEP}MD loss"] = num(combat["shield"]["manual_dexterity_loss"])
    lines = [(tables.weapons[line["name"]].name, line) for line in combat["weapons"]]
    for name, line in [*lines, ("Unarmed", combat["unarmed"])]:
        cells = (
            "unranked" if line.get("rank") is None else num(line["rank"]),
            num(line["strike_chance"]),
            line["damage"],
            num(line["initiative"]),
            line["endurance_damage"] or "\u2014",
            line["grievous_injury"] or "\u2014",
        )
        for column, cell in zip(COLUMNS, cells, strict=True):
            fields[f"weapons{SEP}{name}{SEP}{column}"] = cell
        if "two_handed_damage" in line:
            fields[f"weapons{SEP}{name}{SEP}two-handed"] = line["two_handed_damage"]
    return fields


def derived_field_keys(fields: dict[str, str], character: dict[str, Any], tables: Tables) -> list[str]:
    """The fields holding a value chargen works out into the character: not a weapon's Rank (the player's
    choice), nor the shield's weight (the record reads it from the chart)."""
    chart = (
        {f"carried{SEP}{tables.shields[character['shield']['name']].name}"}
        if "shield" in character
        else set()
    )
    return [key for key in fields if not key.endswith(f"{SEP}Rank") and key not in chart]


# --- HTML ----------------------------------------------------------------------------------------------


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def find_all(self, tag: str, cls: str | None = None) -> list[Node]:
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if child.tag == tag and (cls is None or cls in child.classes()):
                    found.append(child)
                found.extend(child.find_all(tag, cls))
        return found

    def text(self, skip: str | None = None) -> str:
        """The visible text, spaces collapsed; `skip` leaves out elements of that class (a cell's note)."""
        parts = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag not in ("style", "script") and (skip is None or skip not in child.classes()):
                parts.append(child.text(skip))
        return " ".join("".join(parts).split())


class _TreeBuilder(HTMLParser):
    VOID = frozenset({"meta", "link", "br", "img", "hr", "input", "col"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {key: value or "" for key, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(page: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(page)
    builder.close()
    return builder.root


def _section(root: Node, box: str) -> Node:
    sections = [node for node in root.find_all("section", "box") if box in node.classes()]
    assert len(sections) == 1, f"the page has {len(sections)} boxes of class {box!r}"
    return sections[0]


def html_fields(page: str) -> dict[str, str]:
    """Every labelled value on the page, keyed as in `expected_fields`."""
    root = parse_html(page)
    found: dict[str, str] = {}
    for row in _section(root, "characteristics").find_all("tr"):
        code = [th.text() for th in row.find_all("th", "code")]
        if code:
            found[f"characteristics{SEP}{code[0]}"] = row.find_all("td", "final")[0].text()
    for stat in _section(root, "combat").find_all("div", "stat"):
        label = stat.find_all("span", "label")[0].text()
        found[f"combat{SEP}{label}"] = stat.find_all("span", "value")[0].text()
    for box in ("armor", "shield", "stun", "purse"):
        for item in _section(root, box).find_all("div", "item"):
            found[f"{box}{SEP}{item.find_all('dt')[0].text()}"] = item.find_all("dd")[0].text(skip="note")
    table = _section(root, "weapons").find_all("table")[0]
    headers = [th.text() for th in table.find_all("th")]
    for row in table.find_all("tbody")[0].find_all("tr"):
        cells = row.find_all("td")
        name = cells[0].text()
        for header, cell in zip(headers[1:], cells[1:], strict=True):
            found[f"weapons{SEP}{name}{SEP}{header}"] = cell.text(skip="note")
            for note in cell.find_all("span", "note") if header == "Damage" else []:
                found[f"weapons{SEP}{name}{SEP}two-handed"] = note.text().removesuffix(" two-handed")
    for item in _section(root, "carried").find_all("li"):
        names = item.find_all("span", "item-name")
        if names:
            found[f"carried{SEP}{names[0].text()}"] = item.find_all("span", "weight")[0].text()
    return found
