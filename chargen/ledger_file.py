"""How a character file carries a played character (12, 17, 87): the character as created, and its ledger
(`advancement`), each raise with what it cost (the chart's figure written in, so a changed chart never
changes what was spent). Built again, the ledger is applied again to the character as created and gives the
same character: the history is worked out from the ledger, not written."""

from __future__ import annotations

from chargen.model import Character, Document, DocumentValue, HistoryLine

#: The lists of ranked entries a raise may change, by what it raises (a skill, language or spell not yet
#: known is added by its first raise).
_LISTS = {"skill": "skills", "language": "languages", "spell": "spells", "weapon": "weapons"}


def with_ledger_written(document: Document, character: Character) -> Document:
    """`document` (the played character as it stands) with the Ranks the ledger raised as they were
    created and the ledger in place of the history."""
    created = _created_ranks(character.history)
    written: Document = {}
    for key, value in document.items():
        if key == "history":
            written["advancement"] = [_entry(line) for line in character.history]
        elif key == "unarmed_rank" and ("unarmed", "unarmed") in created:
            rank = created[("unarmed", "unarmed")]
            if rank is not None:
                written[key] = rank
        elif key == "shield" and isinstance(value, dict) and (raised := _shield_key(value, created)):
            written[key] = _ranked(value, created[raised])
        elif isinstance(value, list) and key in _LISTS.values():
            kind = next(kind for kind, listed in _LISTS.items() if listed == key)
            entries = _as_created(value, kind, created)
            if entries:
                written[key] = entries
        else:
            written[key] = value
    return written


def _shield_key(
    shield: dict[str, DocumentValue], created: dict[tuple[str, str], int | None]
) -> tuple[str, str] | None:
    """The shield's entry among those raised: its own, or (17.5: one Rank as both) the weapon's it also is
    (the Main-Gauche, one id on both charts)."""
    for key in (("shield", str(shield["name"])), ("weapon", str(shield["name"]))):
        if key in created:
            return key
    return None


def _created_ranks(history: list[HistoryLine]) -> dict[tuple[str, str], int | None]:
    """Each thing raised, by (what, name), with its Rank before its first raise (None: unranked, or not
    known then)."""
    created: dict[tuple[str, str], int | None] = {}
    for line in history:
        if line.kind == "raise" and line.what is not None and line.name is not None:
            created.setdefault((line.what, line.name), line.before)
    return created


def _as_created(
    entries: list[DocumentValue], kind: str, created: dict[tuple[str, str], int | None]
) -> list[DocumentValue]:
    kept: list[DocumentValue] = []
    for entry in entries:
        if not isinstance(entry, dict) or (kind, str(entry["name"])) not in created:
            kept.append(entry)
            continue
        rank = created[(kind, str(entry["name"]))]
        if rank is None and kind != "weapon":
            continue  # learned in play: its first raise adds it
        kept.append(_ranked(entry, rank))
    return kept


def _ranked(entry: dict[str, DocumentValue], rank: int | None) -> dict[str, DocumentValue]:
    """An entry with its Rank as created, in its own key order (no Rank: unranked, the key left out)."""
    ranked: dict[str, DocumentValue] = {"name": entry["name"]}
    if rank is not None:
        ranked["rank"] = rank
    ranked.update((key, value) for key, value in entry.items() if key not in ("name", "rank"))
    return ranked


def _entry(line: HistoryLine) -> DocumentValue:
    """One ledger entry as the file writes it: an award, or a raise with what it cost."""
    entry: dict[str, DocumentValue]
    if line.kind == "award":
        entry = {"award": line.experience}
    else:
        entry = {"raise": line.name, "to": line.after, "cost": -line.experience}
    if line.note is not None:
        entry["note"] = line.note
    if line.date is not None:
        entry["date"] = line.date
    return entry
