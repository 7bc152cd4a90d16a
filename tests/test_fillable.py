"""--fillable: the record's values that change in play are PDF form fields; filled with pypdf,
poppler draws them where a person reads them; empty, the record looks as the printed one does."""

from __future__ import annotations

import subprocess
from io import BytesIO
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader, PdfWriter

from chargen import api
from chargen.batch.npc import field_prefix
from chargen.cli import cli, main
from tests.render_fixtures import build, record_pdf, tables
from tests.render_fixtures.pdf_text import find_phrases, pdf_words

pytestmark = pytest.mark.slow  # PDFs

EXAMPLES = Path(__file__).resolve().parent / "examples"
#: A caster's character file (a batch adept's: a college, a talent the race grants, spells).
CASTER = Path(__file__).resolve().parent / "render_fixtures" / "caster.yaml"


def caster() -> object:
    """A caster's character file (a batch adept: a college, talents and spells), as chargen builds it."""
    from chargen.model import to_document

    text = (CASTER).read_text(encoding="utf-8")
    return to_document(api.build(text, "caster.yaml", tables=tables()))


def field_names(pdf: bytes) -> list[str]:
    """Every form field's name, in the order of the file's /AcroForm."""
    form = PdfReader(BytesIO(pdf)).trailer["/Root"]["/AcroForm"]
    return [str(field.get_object()["/T"]) for field in form["/Fields"]]


def pngs(pdf: bytes, folder: Path, stem: str) -> list[Image.Image]:
    """The pages as poppler draws them at 60 dpi."""
    (folder / f"{stem}.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "60", "-png", f"{stem}.pdf", stem], cwd=folder, check=True)
    return [Image.open(path).convert("RGB") for path in sorted(folder.glob(f"{stem}-*.png"))]


def filled(pdf: bytes, values: dict[str, str]) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(BytesIO(pdf)))
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize("fixture", ["human", "giant", "caster"])
def test_the_empty_fillable_record_looks_as_the_printed_one(fixture: str, tmp_path: Path) -> None:
    character = caster() if fixture == "caster" else build(fixture)
    plain = pngs(record_pdf(character), tmp_path, "plain")
    fillable = pngs(record_pdf(character, fillable=True), tmp_path, "fillable")
    assert len(plain) == len(fillable)
    for number, (one, other) in enumerate(zip(plain, fillable, strict=True), start=1):
        assert ImageChops.difference(one, other).getbbox() is None, f"page {number} differs"


def test_the_fields_hold_what_changes_in_play() -> None:
    character = caster()
    names = field_names(record_pdf(character, fillable=True))
    assert len(names) == len(set(names))
    en, ft = character["characteristics"]["EN"], character["characteristics"]["FT"]  # type: ignore[index]
    expected = {
        "endurance_current",
        "fatigue_current",
        *(f"endurance_box_{left}" for left in range(en)),
        *(f"fatigue_box_{left}" for left in range(ft)),
        "wounds_1_endurance",
        "wounds_1_fatigue",
        "wounds_1_grievous",
        "experience_points",
        "experience_bank",
        "silver_pennies",
        "equipment_1",
        "skills_1",
        "skills_1_rank",
        "spells_1",
        "spells_1_rank",
        "languages_1",
        "languages_1_rank",
        "notes_1",
    }
    assert expected <= set(names)
    boxes = [name for name in names if "_box_" in name]
    assert len(boxes) == en + ft
    reader = PdfReader(BytesIO(record_pdf(character, fillable=True)))
    kinds = {str(field["/T"]): str(field.get("/FT")) for field in reader.get_fields().values()}
    assert {kinds[name] for name in boxes} == {"/Btn"}  # the boxes are checkboxes
    assert kinds["notes_1"] == kinds["endurance_current"] == "/Tx"


def test_filled_fields_are_drawn_where_the_values_are_read(tmp_path: Path) -> None:
    character = build("human")
    pdf = record_pdf(character, fillable=True)
    values = {
        "endurance_current": "17",
        "experience_points": "1234",
        "silver_pennies": "987",
        "notes_1": "Owes Anselm forty pennies",
        "skills_1": "Navigator",
        "wounds_1_grievous": "Broken arm",
        "endurance_box_19": "/on",
    }
    done = filled(pdf, values)
    words = pdf_words(done)
    rects = _rects(done)
    for name, value in values.items():
        if value.startswith("/"):
            continue
        page, (x0, top, x1, bottom) = rects[name]
        # the record's own text reads too (a "17" may be printed elsewhere): the one phrase in the field
        inside = [
            phrase
            for phrase in find_phrases(words, value)
            if phrase.words[0].page == page
            and x0 - 1 <= phrase.words[0].x0
            and phrase.words[-1].x1 <= x1 + 1
            and top - 1 <= phrase.words[0].y0
            and phrase.words[0].y1 <= bottom + 1
        ]
        assert len(inside) == 1, name
    ticked, blank = _box_darkness(done, tmp_path, ("endurance_box_19", "endurance_box_18"))
    assert ticked > blank * 1.5  # the ticked box is drawn darker than the one beside it


def test_each_box_is_named_by_the_number_it_prints() -> None:
    """`endurance_box_10` is the box printed "10" (what is left once it is ticked), for every box."""
    pdf = record_pdf(build("human"), fillable=True)
    words = pdf_words(pdf)
    boxes = {name: place for name, place in _rects(pdf).items() if "_box_" in name}
    assert len(boxes) > 20
    for name, (page, (x0, top, x1, bottom)) in boxes.items():
        inside = [
            word.text
            for word in words
            if word.page == page
            and x0 - 1 <= word.x0
            and word.x1 <= x1 + 1
            and top - 1 <= word.y0
            and word.y1 <= bottom + 1
        ]
        assert inside == [name.rsplit("_", 1)[1]], name


def _rects(pdf: bytes) -> dict[str, tuple[int, tuple[float, float, float, float]]]:
    """Each field's page and box, in poppler's coordinates (points from the top left)."""
    reader = PdfReader(BytesIO(pdf))
    found = {}
    for number, page in enumerate(reader.pages):
        height = float(page.mediabox.height)
        for annotation in page.get("/Annots", []):
            widget = annotation.get_object()
            x0, y0, x1, y1 = (float(v) for v in widget["/Rect"])
            found[str(widget["/T"])] = (
                number,
                (min(x0, x1), height - max(y0, y1), max(x0, x1), height - min(y0, y1)),
            )
    return found


def _box_darkness(pdf: bytes, folder: Path, names: tuple[str, str]) -> tuple[int, int]:
    """How much ink poppler puts inside each of two checkboxes of page 1."""
    page = pngs(pdf, folder, "ticked")[0].convert("L")
    rects = _rects(pdf)
    ink = []
    for name in names:
        x0, top, x1, bottom = (value * 60 / 72 for value in rects[name][1])
        crop = page.crop((int(x0) + 1, int(top) + 1, int(x1) - 1, int(bottom) - 1))
        ink.append(crop.width * crop.height * 255 - ImageStat.Stat(crop).sum[0])
    return ink[0], ink[1]


def test_every_record_command_takes_fillable(tmp_path: Path) -> None:
    runner = CliRunner()
    rolf = str(EXAMPLES / "rolf.yaml")
    out = {name: str(tmp_path / f"{name}.pdf") for name in ("roll", "build", "render", "plain")}
    commands = {
        "roll": ["roll", "--seed", "3", "--pdf", out["roll"], "--fillable", "-o", str(tmp_path / "r.yaml")],
        "build": ["build", rolf, "--pdf", out["build"], "--fillable", "-o", str(tmp_path / "b.yaml")],
        "render": ["render", rolf, "--pdf", out["render"], "--fillable"],
    }
    for name, arguments in commands.items():
        result = runner.invoke(cli, arguments)
        assert result.exit_code == 0, (name, result.output)
        assert "notes_1" in field_names(Path(out[name]).read_bytes())
    assert runner.invoke(cli, ["render", rolf, "--pdf", out["plain"]]).exit_code == 0
    assert "/AcroForm" not in PdfReader(out["plain"]).trailer["/Root"]


@pytest.mark.parametrize(
    "arguments",
    [
        ["roll", "--seed", "3", "--fillable", "-o", "r.yaml"],
        ["render", str(EXAMPLES / "rolf.yaml"), "--html", "r.html", "--fillable"],
        ["batch", "-n", "2", "--seed", "1", "--jsonl", "n.jsonl", "--fillable"],
    ],
)
def test_fillable_without_a_pdf_is_refused_and_nothing_is_written(
    arguments: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--fillable makes a PDF's fields: without --pdf it would make nothing, so it is refused, not ignored."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(arguments)
    assert exit_info.value.code == 2
    assert (
        capsys.readouterr().err
        == "chargen: error: --fillable: makes the PDF's form fields; give --pdf FILE too\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_batch_pdf_of_20_npcs_has_unique_field_names(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "batch",
            "-n",
            "20",
            "--seed",
            "5",
            "--pdf",
            str(tmp_path / "npcs.pdf"),
            "--fillable",
            "-q",
            "-j",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    pdf = (tmp_path / "npcs.pdf").read_bytes()
    names = field_names(pdf)
    assert len(names) == len(set(names))
    prefixes = {name.split("_", 1)[0] for name in names}
    assert prefixes == {f"npc{number:02d}" for number in range(1, 21)}
    assert {f"npc{number:02d}_notes_1" for number in range(1, 21)} <= set(names)
    # every field is a widget of a page of the file, and pypdf reads them all back
    assert len(PdfReader(BytesIO(pdf)).get_fields() or {}) == len(names)


@pytest.mark.parametrize(
    ("number", "count", "prefix"),
    [(1, 1, "npc1_"), (7, 9, "npc7_"), (7, 20, "npc07_"), (10, 10, "npc10_"), (42, 1000, "npc0042_")],
)
def test_a_batch_names_each_records_fields_after_its_number(number: int, count: int, prefix: str) -> None:
    """The fast guard of the batch's field names (the PDF test above is the slow one): as wide as the last
    number, so every prefix of one batch is distinct and none is the start of another's."""
    assert field_prefix(number, count) == prefix
    names = [field_prefix(each, count) for each in range(1, count + 1)]
    assert len(set(names)) == count
    assert not any(a != b and b.startswith(a) for a in names[:50] for b in names[:50])
