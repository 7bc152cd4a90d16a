"""One file name for a character everywhere (the page's downloads, `chargen new`'s offer, `batch --out`):
chargen.names.file_name, which keeps letters of any script (þ, ó, é) and lets nothing leave its folder."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pytest

from chargen.names import FILE_NAME_LENGTH, file_name
from chargen.web.app import create_app, shared
from chargen.web.saved import Saved

EXAMPLES = Path(__file__).parent / "examples"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Þóra Eldrún", "þóra-eldrún"),
        ("Sharga the Red Eye", "sharga-the-red-eye"),
        ("Éowyn Ö'Brien", "éowyn-ö-brien"),
        ("../../etc/passwd", "etc-passwd"),
        (".hidden", "hidden"),
        ("Rolf <b>the</b> Barbarian", "rolf-b-the-b-barbarian"),
        ("", "character"),
        ("!!!", "character"),
    ],
)
def test_a_file_name_keeps_letters_and_stays_in_its_folder(name: str, expected: str) -> None:
    assert file_name(name) == expected


def test_a_long_name_is_cut_and_a_batch_names_its_own_fallback() -> None:
    assert len(file_name("Ælfgifu " * 20)) <= FILE_NAME_LENGTH
    assert file_name("", "npc") == "npc"


def test_the_pages_download_keeps_the_letters(tmp_path: Path) -> None:
    app = create_app(saved=Saved(tmp_path))
    client = app.test_client()
    rolf = (EXAMPLES / "rolf.yaml").read_text(encoding="utf-8")
    text = rolf.replace("name: Rolf the Barbarian", "name: Þóra Eldrún")
    assert client.post("/open", data={"text": text}).status_code == 303
    answer = client.get("/open/character.yaml")
    disposition = answer.headers["Content-Disposition"]
    shared(app).close()
    assert "filename*=UTF-8''" in disposition
    assert unquote(disposition.split("filename*=UTF-8''")[1]) == "þóra-eldrún.yaml"
    assert 'filename="ora-eldrun.yaml"' in disposition  # the plain name beside it, for an old browser
