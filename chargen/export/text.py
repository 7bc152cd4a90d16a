"""The record's text for a tabletop's biography: who the character is (the Who box), the aspect and its
effects (7), the race's life span, starting age and special abilities (6.x), what is in play, and the
character's notes, then a played character's History, every entry of it (12, 17, 87); made from the record's
own view model, so the words are the record's. HTML, escaped, as Roll20's bio and Foundry's biography keep it."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chargen.model import Character
    from chargen.tables import Tables


def record_text_html(character: Character, tables: Tables) -> str:
    import chargen
    from chargen.render.build import build_sheet

    sheet = build_sheet(character, tables, chargen.__version__)
    aspect = sheet.aspect
    rule = f" ({aspect.rule})" if aspect.rule else ""
    # The record's Who box: race, gender, hand, aspect, social status, order of birth (IV)
    who = "".join(f"<li>{escape(item.label)}: {escape(item.value)}</li>" for item in sheet.identity)
    parts = [f"<h2>Who</h2><ul>{who}</ul>", f"<h2>Aspect: {escape(aspect.name)}{escape(rule)}</h2>"]
    if aspect.rows:
        rows = "".join(f"<li>{escape(row.when)}: {escape(row.effect)}</li>" for row in aspect.rows)
        parts.append(f"<ul>{rows}</ul>")
    window = ". ".join(text for text in (aspect.window, aspect.note) if text)
    if window:
        parts.append(f"<p>{escape(window)}</p>")
    parts.append(f"<h2>Race: {escape(sheet.race)}</h2>")
    parts.append(
        f"<p>Life span {escape(sheet.life_span)}; starting age {escape(sheet.starting_age)} (IV, 8)</p>"
    )
    if sheet.abilities:
        parts.append("<ul>" + "".join(f"<li>{escape(text)}</li>" for text in sheet.abilities) + "</ul>")
    if sheet.in_play:
        items = "".join(
            f"<li>{escape(item.label)}: {escape(item.value)}"
            + (f" ({escape(item.note)})" if item.note else "")
            + "</li>"
            for item in sheet.in_play
        )
        parts.append(f"<h2>In play</h2><ul>{items}</ul>")
    if sheet.notes:
        parts.append("<h2>Notes</h2>" + "".join(f"<p>{escape(note)}</p>" for note in sheet.notes))
    for key, ruled in (character.overrides or {}).items():  # the GM's values, each said to be the GM's
        parts.append(
            f"<p>{escape(key)} {ruled.value}: the GM's ({escape(ruled.reason)}); the rules give {ruled.computed}</p>"
        )
    parts.extend(_history(character, tables))
    return "".join(parts)


def _history(character: Character, tables: Tables) -> list[str]:
    """The record's History box, every entry (the notes have no page to fit), and the bank after it."""
    from chargen.render import skill_boxes
    from chargen.render.build import characteristic_names
    from chargen.render.history import history_rows

    if not character.history:
        return []
    lines = []
    for row in history_rows(character.history, characteristic_names(tables)):
        cost = f", {row.charged}" if row.charged else ""
        lines.append(
            f"<li>{escape(row.when)}: {escape(row.change)}, {row.experience}{cost}; bank {row.bank}</li>"
        )
    total = "" if character.experience_total is None else f"; {character.experience_total} earned in all (12)"
    bank = f"<p>Experience Point Bank {skill_boxes.bank(character, tables)[0]}{total}</p>"
    return ["<h2>History</h2><ul>" + "".join(lines) + "</ul>", bank]
