"""Where the rules tables and templates live: inside an installed wheel, or at the top of a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def tables_dir() -> Path:
    return _data_dir("tables")


def templates_dir() -> Path:
    return _data_dir("templates")
