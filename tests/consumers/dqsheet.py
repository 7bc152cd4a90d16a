"""Roll20's DragonQuest sheet as its sheet workers run, for tests: a model of Roll20's getAttrs/setAttrs/on
with the sheet's workers, each taken from the sheet's own source and cited by the `on(...)` line that
declares it (Roll20/roll20-character-sheets, DragonQuest/DQSheet.html at
f47e4687b3b0d56770b370a2337cd86cdfe4232c; README.md in this folder says why the facts are kept rather than
the file).

JavaScript's arithmetic is kept where the sheet relies on it: `x*1` makes "" 0 and text NaN, and `+` joins
when either side is text (an attribute written by an import is text; one a worker sets is a number).

    sheet = Sheet()
    sheet.import_silently(attributes)   # the VTT Enhancement Suite: setAttrs(..., {silent: true})
    sheet.edit("ps")                    # the player retypes an input: its change event, and what follows
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

Value = str | int | float | None  # None: JavaScript's undefined

#: Each attribute's default in the sheet's HTML (its `value=`), which getAttrs gives for one never set.
DEFAULTS: dict[str, Value] = {
    **dict.fromkeys(
        [
            "ps",
            "md",
            "mdcurr",
            "ag",
            "agcurr",
            "ma",
            "wp",
            "pc",
            "ib",
            "encurr",
            "en",
            "ftcurr",
            "ft",
            "tmr",
            "pro",
            "df",
            "mr",
            "stun",
            "age",
            "aagtot",
            "sdftot",
            "smdtot",
            "pagcalc",
            "ismage",
            "pwgttot",
            "cf",
            "sp",
            "gs",
            "tg",
            "totsp",
            "exp",
            "exptot",
            "wuc-iv",
            "wuc-sc",
            "wuc-base",
            "wuc-dm",
        ],
        "0",
    ),
    "exm": "1.0",
}
ROW_DEFAULTS: dict[str, dict[str, Value]] = {
    "weapon": dict.fromkeys(["iv", "sc", "wgt", "wgtact", "base", "dm", "rg", "ps", "md", "num"], "0"),
    "armour": dict.fromkeys(["wgt", "pro", "ag", "sth", "proact", "agact"], "0"),
    "shield": dict.fromkeys(["rank", "df", "def", "wgt", "dfpr", "md", "mdact"], "0"),
    "possession": {"wgt": "0"},
    "spell": dict.fromkeys(["rank", "main", "exm", "base"], "0") | {"type": "G"},
    "skill": {"rank": "0"},
}
ROW = re.compile(r"^repeating_([a-z]+)_(-[^_]+)_(.+)$")


def number(value: Value) -> float:
    """JavaScript's `value*1`."""
    if value is None:
        return math.nan
    if isinstance(value, int | float):
        return float(value)
    text = value.strip()
    if not text:
        return 0.0
    try:
        return float(text)
    except ValueError:
        return math.nan


def plus(left: Value, right: Value) -> Value:
    """JavaScript's `left + right`: text joins, numbers add."""
    if isinstance(left, str) or isinstance(right, str):
        return text(left) + text(right)
    return number(left) + number(right)


def text(value: Value) -> str:
    """What the sheet shows for a value (JavaScript's String())."""
    if value is None:
        return "undefined"
    if isinstance(value, str):
        return value
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


@dataclass
class Sheet:
    attrs: dict[str, Value] = field(default_factory=dict)
    rows: dict[str, list[str]] = field(default_factory=dict)  # each section's row ids, in order
    events: int = 0

    def get(self, name: str, row: str | None = None) -> Value:
        """getAttrs for one name; "repeating_<section>_<name>" inside a row's event means that row's."""
        full = self._full(name, row)
        if full in self.attrs:
            return self.attrs[full]
        match = ROW.match(full)
        if match:
            section, _, short = match.groups()
            return ROW_DEFAULTS.get(section, {}).get(short, "")
        return DEFAULTS.get(full, "")

    def import_silently(self, attributes: dict[str, str]) -> None:
        for name, value in attributes.items():
            self._store(name, value)

    def edit(self, name: str) -> None:
        """The player retypes an input's value: its change event, and every event the workers' setAttrs
        raise in turn (Roll20 raises a change for each attribute a worker sets to a new value)."""
        self._run(deque([name]))

    def section(self, section: str) -> list[str]:
        return list(self.rows.get(section, []))

    def set(self, values: dict[str, Value], row: str | None = None, queue: deque[str] | None = None) -> None:
        for name, value in values.items():
            full = self._full(name, row)
            changed = self.attrs.get(full, object()) != value
            self._store(full, value)
            if changed and queue is not None:
                queue.append(full)

    def _store(self, full: str, value: Value) -> None:
        self.attrs[full] = value
        match = ROW.match(full)
        if match:
            section, row_id, _ = match.groups()
            ids = self.rows.setdefault(section, [])
            if row_id not in ids:
                ids.append(row_id)

    def _full(self, name: str, row: str | None) -> str:
        if row is None or not name.startswith("repeating_") or ROW.match(name):
            return name
        section, short = name[len("repeating_") :].split("_", 1)
        return f"repeating_{section}_{row}_{short}"

    def _run(self, queue: deque[str]) -> None:
        while queue:
            name = queue.popleft()
            self.events += 1
            if self.events > 100_000:
                raise RuntimeError("the sheet's workers do not settle")
            match = ROW.match(name)
            event, row = (f"{match[1]}:{match[3]}", match[2]) if match else (name, None)
            for worker in WORKERS:
                if event in worker.on:
                    worker.run(self, row, queue)


Run = Callable[[Sheet, "str | None", "deque[str]"], None]


@dataclass(frozen=True)
class Worker:
    on: tuple[str, ...]  # the attributes (a repeating one as "section:name") whose change runs it
    run: Run


WORKERS: list[Worker] = []


def worker(*on: str) -> Callable[[Run], Run]:
    def register(run: Run) -> Run:
        WORKERS.append(Worker(on, run))
        return run

    return register


def _rank_or_none(value: Value) -> float | None:
    """The sheet's `if (rank == "") rank = undefined; if (rank != undefined) rank = rank*1`."""
    return None if value in ("", None) else number(value)


# on("change:agcurr change:pc"): the Initiative base
@worker("agcurr", "pc")
def _ib(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    sheet.set({"ib": number(sheet.get("agcurr")) + number(sheet.get("pc"))}, queue=queue)


#: on("change:agcurr change:tmrracemod"): TMR from the current Agility, from each AG up; under 3, 0.
TMR_STEPS = ((27, 99), (26, 8), (22, 7), (18, 6), (13, 5), (9, 4), (5, 3), (3, 2))


@worker("agcurr", "tmrracemod")
def _tmr(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    agility = number(sheet.get("agcurr"))
    tmr = next((value for start, value in TMR_STEPS if agility >= start), 0)
    sheet.set({"tmr": tmr + number(sheet.get("tmrracemod"))}, queue=queue)


# on("change:repeating_college:college") and updateIsmage: a mage is anyone with a college named
@worker("college:college")
def _ismage(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    named = [sheet.get(f"repeating_college_{row_id}_college") for row_id in sheet.section("college")]
    sheet.set({"ismage": 1 if any(value != "" for value in named) else 0}, queue=queue)


# on("change:wp change:ismage"): Magic Resistance, WP, +20 for one who is not a mage
@worker("wp", "ismage")
def _mr(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    bonus = 20 if number(sheet.get("ismage")) == 0 else 0
    sheet.set({"mr": number(sheet.get("wp")) + bonus}, queue=queue)


# on("change:md change:smdtot")
@worker("md", "smdtot")
def _mdcurr(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    sheet.set({"mdcurr": number(sheet.get("md")) + number(sheet.get("smdtot"))}, queue=queue)


# on("change:sdftot change:agcurr")
@worker("sdftot", "agcurr")
def _df(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    sheet.set({"df": number(sheet.get("sdftot")) + number(sheet.get("agcurr"))}, queue=queue)


# on("change:en"): "Stunned on", Math.ceil(en/3)
@worker("en")
def _stun(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    sheet.set({"stun": math.ceil(number(sheet.get("en")) / 3)}, queue=queue)


# on("change:aagtot change:ag change:pagcalc"): a load of -99 takes all of Agility
@worker("aagtot", "ag", "pagcalc")
def _agcurr(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    agility, armour, load = (number(sheet.get(name)) for name in ("ag", "aagtot", "pagcalc"))
    if load == -99:
        load = -agility - armour
    sheet.set({"agcurr": agility + armour + load}, queue=queue)


# on("change:agcurr change:ps"): Unarmed Combat's base and damage
@worker("agcurr", "ps")
def _unarmed_base(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    strength = number(sheet.get("ps"))
    bonus = strength - 15 if strength > 15 else 0
    damage = math.floor(bonus / 3) - 4
    base = number(sheet.get("agcurr")) * 2 + bonus
    sheet.set({"wuc-base": base, "wuc-dm": damage, "wuc-sum-dm": damage}, queue=queue)


# on("change:wuc-rank change:ib")
@worker("wuc-rank", "ib")
def _unarmed_iv(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    rank = sheet.get("wuc-rank")
    iv = number(sheet.get("ib")) + number(0 if rank in ("", None) else rank)
    sheet.set({"wuc-iv": iv, "wuc-sum-iv": iv}, queue=queue)


# on("change:wuc-rank change:wuc-base change:mdcurr")
@worker("wuc-rank", "wuc-base", "mdcurr")
def _unarmed_sc(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    rank = _rank_or_none(sheet.get("wuc-rank"))
    extra = 0.0 if rank is None else rank * 4 + number(sheet.get("mdcurr"))
    sc = number(sheet.get("wuc-base")) + extra
    sheet.set({"wuc-sc": sc, "wuc-sum-sc": sc}, queue=queue)


# on("change:wuc-rank"): the summary's Rank
@worker("wuc-rank")
def _unarmed_rank(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    rank = sheet.get("wuc-rank")
    sheet.set({"wuc-sum-rank": "-" if rank in ("", None) else rank}, queue=queue)


# on("change:repeating_weapon:rank"): the row's IV only (not its summary)
@worker("weapon:rank")
def _weapon_iv(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    rank = sheet.get("repeating_weapon_rank", row)
    iv = number(0 if rank is None else rank) + number(sheet.get("ib"))
    sheet.set({"repeating_weapon_iv": iv}, row, queue)


# on("change:ib"): meant to set every weapon's IV and summary IV, but its `key.slice(0, -5)` cuts "_rank"
# with its "_", so it sets "repeating_weapon_<id>iv" and "..._<id>sum-iv", which nothing shows
@worker("ib")
def _weapons_iv(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    ib = number(sheet.get("ib"))
    for row_id in sheet.section("weapon"):
        rank = sheet.get(f"repeating_weapon_{row_id}_rank")
        iv = ib + number(0 if rank in ("", None) else rank)
        cut = f"repeating_weapon_{row_id}"
        sheet.set({f"{cut}iv": iv, f"{cut}sum-iv": iv}, queue=queue)


# on("change:repeating_weapon:base change:repeating_weapon:rank"): the row's SC only (not its summary)
@worker("weapon:base", "weapon:rank")
def _weapon_sc(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    rank = _rank_or_none(sheet.get("repeating_weapon_rank", row))
    extra = 0.0 if rank is None else rank * 4 + number(sheet.get("mdcurr"))
    sheet.set({"repeating_weapon_sc": number(sheet.get("repeating_weapon_base", row)) + extra}, row, queue)


# on("change:mdcurr"): every weapon's SC and summary SC; `(rank*4) + mdcurr` adds mdcurr as it is kept
@worker("mdcurr")
def _weapons_sc(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    mdcurr = sheet.get("mdcurr")
    for row_id in sheet.section("weapon"):
        rank = _rank_or_none(sheet.get(f"repeating_weapon_{row_id}_rank"))
        extra: Value = 0 if rank is None else plus(rank * 4, mdcurr)
        sc = plus(number(sheet.get(f"repeating_weapon_{row_id}_base")), extra)
        sheet.set({"repeating_weapon_sc": sc, "repeating_weapon_sum-sc": sc}, row_id, queue)


# on("change:repeating_weapon:num change:repeating_weapon:wgt")
@worker("weapon:num", "weapon:wgt")
def _weapon_weight(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    count, pounds = (number(sheet.get(f"repeating_weapon_{name}", row)) for name in ("num", "wgt"))
    sheet.set({"repeating_weapon_wgtact": count * (pounds * 10000) / 10000}, row, queue)


def _equipped(sheet: Sheet, section: str, row: str | None) -> float:
    equip = sheet.get(f"repeating_{section}_equip", row)
    return 1.0 if equip == "on" else number(equip)


def _row_total(sheet: Sheet, section: str, name: str) -> float:
    return sum(number(sheet.get(f"repeating_{section}_{row_id}_{name}")) for row_id in sheet.section(section))


# on("change:repeating_armour:pro change:repeating_armour:equip")
@worker("armour:pro", "armour:equip")
def _armour_protection(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    worn = number(sheet.get("repeating_armour_pro", row)) * _equipped(sheet, "armour", row)
    sheet.set({"repeating_armour_proact": worn}, row, queue)


# on("change:repeating_armour:proact remove:repeating_armour")
@worker("armour:proact")
def _protection(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    sheet.set({"pro": _row_total(sheet, "armour", "proact")}, queue=queue)


# on("change:repeating_armour:ag change:repeating_armour:equip")
@worker("armour:ag", "armour:equip")
def _armour_agility(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    worn = number(sheet.get("repeating_armour_ag", row)) * _equipped(sheet, "armour", row)
    sheet.set({"repeating_armour_agact": worn}, row, queue)


# on("change:repeating_armour:agact remove:repeating_armour")
@worker("armour:agact")
def _armour_agility_total(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    sheet.set({"aagtot": _row_total(sheet, "armour", "agact")}, queue=queue)


# on("change:repeating_shield:rank change:repeating_shield:dfpr change:repeating_shield:equip")
@worker("shield:rank", "shield:dfpr", "shield:equip")
def _shield_defense(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    own = number(sheet.get("repeating_shield_rank", row)) * number(sheet.get("repeating_shield_dfpr", row))
    values: dict[str, Value] = {"repeating_shield_df": own * _equipped(sheet, "shield", row)}
    values["repeating_shield_def"] = own
    sheet.set(values, row, queue)


# on("change:repeating_shield:df remove:repeating_shield")
@worker("shield:df")
def _shield_defense_total(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    sheet.set({"sdftot": _row_total(sheet, "shield", "df")}, queue=queue)


# on("change:repeating_shield:md change:repeating_shield:equip")
@worker("shield:md", "shield:equip")
def _shield_dexterity(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    worn = number(sheet.get("repeating_shield_md", row)) * _equipped(sheet, "shield", row)
    sheet.set({"repeating_shield_mdact": worn}, row, queue)


# on("change:repeating_shield:mdact remove:repeating_shield")
@worker("shield:mdact")
def _shield_dexterity_total(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    sheet.set({"smdtot": _row_total(sheet, "shield", "mdact")}, queue=queue)


# on("change:repeating_weapon:wgtact remove:repeating_weapon") and the armours', shields' and
# possessions' alike (their `wgt`): each section's pounds, added in ten-thousandths
def _weight_worker(section: str, name: str, total: str) -> None:
    @worker(f"{section}:{name}")
    def _weights(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
        pounds = sum(
            number(sheet.get(f"repeating_{section}_{row_id}_{name}")) * 10000
            for row_id in sheet.section(section)
        )
        sheet.set({total: pounds / 10000}, queue=queue)


for _section, _name, _total in (
    ("weapon", "wgtact", "wwgttot"),
    ("armour", "wgt", "awgttot"),
    ("shield", "wgt", "swgttot"),
    ("possession", "wgt", "pwgttot"),
):
    _weight_worker(_section, _name, _total)


# on("change:wwgttot change:awgttot change:swgttot change:monwgt change:pwgttot")
@worker("wwgttot", "awgttot", "swgttot", "monwgt", "pwgttot")
def _weight_total(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    names = ("wwgttot", "awgttot", "swgttot", "monwgt", "pwgttot")
    sheet.set({"wgttot": sum(number(sheet.get(name)) for name in names)}, queue=queue)


#: on("change:ps change:wgttot"): the load table, (from PS, below PS or None, the nine limits in pounds).
LOAD_BANDS = (
    (37, 40, (65, 95, 135, 170, 207.5, 247.5, 280, 307.5, 325)),
    (33, None, (55, 80, 110, 140, 180, 220, 245, 262.5, 275)),
    (28, None, (45, 65, 85, 105, 140, 180, 205, 260, 250)),
    (24, None, (35, 50, 65, 85, 120, 160, 185, 207.5, 225)),
    (21, None, (25, 40, 55, 70, 100, 140, 165, 185, 200)),
    (18, None, (17.5, 25, 35, 50, 75, 105, 125, 140, 150)),
    (13, None, (12.5, 17.5, 25, 40, 60, 80, 95, 112.5, 125)),
    (9, None, (5, 12.5, 17.5, 25, 46, 60, 75, 90, 100)),
    (6, None, (0, 5, 12.5, 17.5, 25, 40, 55, 67.5, 75)),
    (3, None, (0, 0, 5, 14, 21.5, 30, 37.5, 45, 50)),
    (-math.inf, None, (0,) * 9),
)
#: The load's effect past each limit in turn; past the ninth, -99 (all of Agility).
LOAD_LOSSES = (-1, -2, -3, -5, -7, -9, -10, -12, -99)


@worker("ps", "wgttot")
def _load(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    strength, pounds = number(sheet.get("ps")), number(sheet.get("wgttot"))
    limits = next(
        (
            limits
            for start, below, limits in LOAD_BANDS
            if strength >= start and (below is None or strength < below)
        ),
        None,
    )
    loss = 0
    if limits is not None:
        passed = [loss for limit, loss in zip(limits, LOAD_LOSSES, strict=True) if pounds > limit]
        loss = passed[-1] if passed else 0
    sheet.set({"pagcalc": loss}, queue=queue)


# on("change:cf change:sp change:gs change:tg"): the money's weight and its worth in Silver Pennies
@worker("cf", "sp", "gs", "tg")
def _money(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    cf, sp, gs, tg = (number(sheet.get(name)) for name in ("cf", "sp", "gs", "tg"))
    sheet.set(
        {"monwgt": (cf * 4 + sp + gs + tg * 2) / 16, "totsp": cf / 4 + sp + gs * 12 + tg * 252}, queue=queue
    )


# on("change:hist-options-flag"): the description panel's lines, whatever the flag; an age the sheet
# has (its default "0" when none is set) is shown as "<age> y.o."
@worker("hist-options-flag")
def _description_lines(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
    age = sheet.get("age")
    sheet.set({"stat-age": "" if age is None else f"{text(age)} y.o."}, queue=queue)


# on("change:repeating_weapon:options-flag") and on("change:repeating_spell:options-flag"): closing a
# row's panel (flag 0) copies its values into its summary line as they are: a weapon's range (`rg`, its
# default "0" for one with none set), a spell's type, Rank and cast chance (`main`)
def _summary_worker(section: str, copied: tuple[tuple[str, str], ...]) -> None:
    @worker(f"{section}:options-flag")
    def _summary(sheet: Sheet, row: str | None, queue: deque[str]) -> None:
        if number(sheet.get(f"repeating_{section}_options-flag", row)) != 0:
            return
        values = {
            f"repeating_{section}_sum-{short}": sheet.get(f"repeating_{section}_{name}", row)
            for short, name in copied
        }
        sheet.set(values, row, queue)


_summary_worker("weapon", (("range", "rg"), ("iv", "iv"), ("sc", "sc"), ("dm", "dm"), ("cl", "cl")))
_summary_worker("spell", (("name", "name"), ("type", "type"), ("rank", "rank"), ("main", "main")))
