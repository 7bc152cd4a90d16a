"""tables/export_roll20.yaml and tables/export_foundry.yaml, read into typed objects."""

from __future__ import annotations

from functools import lru_cache

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from chargen.paths import tables_dir


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Roll20Source(_Strict):
    repo: str
    path: str
    commit: str
    version: str


class LoadBand(_Strict):
    """From a PS (below a PS, where given), the pounds above which the sheet takes each loss in turn. The
    limits rise; where the sheet's own table does not, `quirk` says so and the sheet's numbers are kept,
    since the export tells what the sheet will do."""

    start: int = Field(alias="from")
    below: int | None = None
    limits: list[float]
    quirk: str | None = None

    @model_validator(mode="after")
    def _rising(self) -> LoadBand:
        falls = [(a, b) for a, b in zip(self.limits, self.limits[1:], strict=False) if b < a]
        if falls and self.quirk is None:
            low, high = falls[0]
            raise ValueError(
                f"load band from PS {self.start}: limit {high:g} after {low:g} (limits rise, or `quirk` "
                "says the sheet's own table falls there)"
            )
        if self.quirk is not None and not falls:
            raise ValueError(f"load band from PS {self.start}: `quirk` given, but its limits rise")
        return self


class SheetLoad(_Strict):
    """The sheet's own load table (tables/export_roll20.yaml says why chargen has none)."""

    coins_per_pound: int
    losses: list[int]
    bands: list[LoadBand]


class Roll20Names(_Strict):
    """The DragonQuest sheet's attribute names and <select> values (DQSheet.html)."""

    source: Roll20Source
    inputs: dict[str, list[str]]
    repeating: dict[str, list[str]]
    computed: list[str]
    computed_rows: dict[str, list[str]]
    load: SheetLoad
    aspect: dict[str, str]
    status: dict[str, str]
    legit: dict[str, str]
    skill_type: dict[str, str]


class SourceFile(_Strict):
    path: str
    commit: str


class FoundrySource(_Strict):
    repo: str
    files: list[SourceFile]


class FoundryNames(_Strict):
    source: FoundrySource
    dtypes: list[str]
    groups: dict[str, str]


class Compared(_Strict):
    """A value the sheet shows: what the record calls it, and the rule that gives it."""

    label: str
    rule: str


class Roll20Import(_Strict):
    """tables/import_roll20.yaml: the sheet's values `chargen import` holds against the rules'."""

    shown: dict[str, Compared]
    weapon: dict[str, Compared]


def _read(name: str) -> object:
    return yaml.safe_load((tables_dir() / f"{name}.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def roll20_names() -> Roll20Names:
    return Roll20Names.model_validate(_read("export_roll20"))


@lru_cache(maxsize=1)
def foundry_names() -> FoundryNames:
    return FoundryNames.model_validate(_read("export_foundry"))


@lru_cache(maxsize=1)
def roll20_compared() -> Roll20Import:
    return Roll20Import.model_validate(_read("import_roll20"))
