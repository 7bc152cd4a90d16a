"""The shipped fallback fonts: a record with Hebrew, Arabic, Greek and Cyrillic names is
byte-identical whatever fonts the machine has, and embeds only chargen's own fonts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.paths import templates_dir

pytestmark = pytest.mark.slow  # PDFs

ROOT = Path(__file__).parents[1]
NAMES = {
    "hebrew": "דוד בן ישי",
    "arabic": "علي بن أحمد",
    "greek": "Ἀλέξανδρος",
    "cyrillic": "Владимир",
}
SHIPPED = {
    "Record-Garamond",
    "Record-Garamond-Italic",
    "Noto-Serif",
    "Noto-Serif-Hebrew",
    "Noto-Naskh-Arabic",
}


def record(folder: Path, fontconfig: str) -> bytes:
    """A record made in a fresh process whose fontconfig sees `fontconfig` (a <dir> or nothing)."""
    folder.mkdir()
    config = folder / "fonts.conf"
    config.write_text(f'<?xml version="1.0"?>\n<fontconfig>{fontconfig}</fontconfig>\n', encoding="utf-8")
    name = " ".join(NAMES.values())
    result = subprocess.run(
        [sys.executable, "-m", "chargen", "roll", "--seed", "3", "--name", name, "--pdf", "hero.pdf"],
        cwd=folder,
        capture_output=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT), "FONTCONFIG_FILE": str(config)},
    )
    assert result.returncode == 0, result.stderr
    return (folder / "hero.pdf").read_bytes()


def embedded_fonts(pdf: bytes) -> set[str]:
    """Every font the PDF's pages use, without the subset tag (`ABCDEF+`)."""
    from io import BytesIO

    from pypdf import PdfReader

    names: set[str] = set()
    for page in PdfReader(BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+", 1)[-1])
    return names


@pytest.mark.skipif(not Path("/usr/share/fonts").is_dir(), reason="needs a machine with some fonts")
def test_the_record_is_the_same_with_few_fonts_or_many(tmp_path: Path) -> None:
    few = record(tmp_path / "few", "")
    many = record(tmp_path / "many", "<dir>/usr/share/fonts</dir><dir>/usr/local/share/fonts</dir>")
    assert few == many
    fonts = embedded_fonts(few)
    assert fonts <= SHIPPED, fonts
    assert {"Noto-Serif-Hebrew", "Noto-Naskh-Arabic"} <= fonts


def test_the_fallback_fonts_are_shipped_with_their_licence() -> None:
    fallback = templates_dir() / "fonts" / "fallback"
    assert sorted(path.name for path in fallback.glob("*.ttf")) == [
        "NotoNaskhArabic-Regular.ttf",
        "NotoSerif-Regular.ttf",
        "NotoSerifHebrew-Regular.ttf",
    ]
    assert "SIL OPEN FONT LICENSE Version 1.1" in (fallback / "OFL.txt").read_text(encoding="utf-8")


def test_the_fallback_fonts_cover_the_scripts_of_a_name() -> None:
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    fallback = templates_dir() / "fonts" / "fallback"
    covered: set[int] = set()
    for path in fallback.glob("*.ttf"):
        covered |= set(TTFont(path).getBestCmap())
    for script, name in NAMES.items():
        missing = {letter for letter in name if not letter.isspace() and ord(letter) not in covered}
        assert not missing, f"{script}: {missing}"
