"""The command line, checked by its exact output, exit status and files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chargen.cli import main

GOLDEN = Path(__file__).parent / "golden"


def run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    stdin: str | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[int, str, str]:
    if stdin is not None and monkeypatch is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


def test_roll_with_a_seed_matches_the_golden_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["roll", "--seed", "1"], capsys)
    assert (code, err) == (0, "")
    assert out == (GOLDEN / "roll_seed_1.yaml").read_text(encoding="utf-8")


def test_roll_json_with_options_matches_the_golden_file(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "roll",
        "--seed",
        "2024",
        "--race",
        "giant",
        "--gender",
        "female",
        "--archetype",
        "knight",
        "--format",
        "json",
    ]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert out == (GOLDEN / "roll_seed_2024_giant.json").read_text(encoding="utf-8")
    assert json.loads(out)["race"] == "giant"


@pytest.mark.slow  # chargen in a process for each case
def test_roll_is_byte_identical_across_processes() -> None:
    command = [sys.executable, "-m", "chargen", "roll", "--seed", "77", "--optional", "PB"]
    first = subprocess.run(command, capture_output=True, check=True).stdout
    second = subprocess.run(command, capture_output=True, check=True).stdout
    assert first == second
    assert b"PB: " in first and b"beauty: [" in first


def test_build_of_rolled_output_gives_it_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden = GOLDEN / "roll_seed_1.yaml"
    code, out, _ = run(["build", str(golden)], capsys)
    assert code == 0
    assert out == golden.read_text(encoding="utf-8")
    output = tmp_path / "rebuilt.json"
    code, out, _ = run(["build", str(golden), "--format", "json", "-o", str(output)], capsys)
    assert (code, out) == (0, "")
    name = next(line for line in golden.read_text(encoding="utf-8").splitlines() if line.startswith("name: "))
    assert json.loads(output.read_text(encoding="utf-8"))["name"] == name.removeprefix("name: ")


def test_build_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (GOLDEN / "roll_seed_1.yaml").read_text(encoding="utf-8")
    code, out, _ = run(["build", "-"], capsys, stdin=text, monkeypatch=monkeypatch)
    assert (code, out) == (0, text)


def test_validate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    golden = GOLDEN / "roll_seed_1.yaml"
    assert run(["validate", str(golden)], capsys) == (0, f"{golden}: valid\n", "")
    stale = tmp_path / "stale.yaml"
    stale.write_text(golden.read_text(encoding="utf-8").replace("tmr: 6\n", "tmr: 9\n", 1), encoding="utf-8")
    code, out, err = run(["validate", str(stale)], capsys)
    assert (code, out) == (2, "")
    assert (
        err
        == f"chargen: error: {stale}:50:6: tmr: file says 9 but the rules give 6; leave it out and build works it out, or keep a GM's value under overrides: with a reason\n"
    )


BAD_INPUTS = {
    "allocation_5_2": (
        "allocation: {PS: 23, MD: 8, AG: 7, EN: 23, MA: 5, WP: 22}\n",
        "bad.yaml:1:13: allocation: PS 23 and EN 23 are both at the maximum 23; rule 5.2 allows one",
    ),
    "allocation_sum": (
        "allocation: {PS: 23, MD: 9, AG: 9, EN: 22, MA: 5, WP: 22}\nrolls: {points: 9}\n",
        "bad.yaml:1:13: allocation: the six add up to 90, not the 88 Characteristic Points; rule 5.2 spends all",
    ),
    "rank_above_maximum": (
        "allocation: {PS: 20, MD: 15, AG: 13, EN: 20, MA: 5, WP: 15}\nweapons: [{name: broadsword, rank: 7}]\n"
        "equipment_given: true\n",
        "bad.yaml:2:36: weapons[0].rank: Rank 7 is above the Broadsword's maximum Rank 6; rule 20.2",
    ),
    "rank_without_strength": (
        "allocation: {PS: 10, MD: 20, AG: 20, EN: 20, MA: 5, WP: 13}\ngender: male\nrace: human\n"
        "weapons: [{name: broadsword, rank: 1}]\nequipment_given: true\n",
        "bad.yaml:4:36: weapons[0].rank: Rank 1 needs PS 15 for the Broadsword, PS is 10; rule 20.2",
    ),
    "unknown_race": ("race: elfe\n", "bad.yaml:1:7: race: 'elfe' is not a race (6.3); did you mean 'elf'?"),
    "unknown_weapon": (
        "weapons: [{name: broadswrod}]\nequipment_given: true\n",
        "bad.yaml:1:18: weapons[0].name: 'broadswrod' is not on the Weapons Chart (20.2); did you mean 'broadsword'?",
    ),
    "die_out_of_range": (
        "rolls: {aspect: 101}\n",
        "bad.yaml:1:17: rolls.aspect: 101 is not a D100 roll (1-100); rule 7.1",
    ),
    "points_out_of_range": (
        "rolls: {points: 1}\n",
        "bad.yaml:1:17: rolls.points: 1 is not a 2D10 roll (2-20); rule 5.1",
    ),
    "broken_yaml": (
        "name: [unclosed\ngender: male\n",
        "bad.yaml:2:7: broken YAML: did not find expected ',' or ']'",
    ),
    "beyond_the_purse": (
        "armor: improved-plate\nrace: human\nrolls: {social_status: 1, birth_order: 50, silver: 1}\n",
        "bad.yaml: equipment: costs 350 Silver Pennies but the purse holds 5 (8.5); buy less, or set equipment_given: true",
    ),
    "points_total_out_of_range": (
        "points: {total: 100}\n",
        "bad.yaml:1:17: points.total: 100, outside the 81 to 99 points; rule 5.1",
    ),
    "points_maximum_wrong": (
        "points: {total: 95, maximum: 21}\n",
        "bad.yaml:1:9: points: file says 95 (maximum 21) but the rolls give 95 (maximum 20); rule 5.1",
    ),
    "empty_name": ("name: ''\n", "bad.yaml:1:7: name: must not be empty (got '')"),
    "tower_shield_rush": (
        "weapons: [{name: shield}]\nshield: {name: tower-shield}\nequipment_given: true\n",
        "bad.yaml:1:18: weapons[0].name: striking with a shield needs a shield carried, not a Main-Gauche or "
        "Tower Shield; rule 16.5",
    ),
    "unknown_key": ("nmae: Rolf\n", "bad.yaml:1:7: nmae: unknown key; did you mean 'name'?"),
    "shape_changer_aspect": (
        "race: shape-changer\naspect: sun\n",
        "bad.yaml:2:9: aspect: 'sun', but a Shape-Changer is always moon; rule 6.9",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_one_line_exit_2_and_no_file(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text, message = BAD_INPUTS[case]
    monkeypatch.chdir(tmp_path)
    Path("bad.yaml").write_text(text, encoding="utf-8")
    code, out, err = run(["build", "bad.yaml", "--seed", "5", "-o", "out.yaml"], capsys)
    assert (code, out) == (2, "")
    assert err == f"chargen: error: {message}\n"
    assert not Path("out.yaml").exists()
    assert [path.name for path in tmp_path.iterdir()] == ["bad.yaml"]


def test_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["roll", "--strategy", "figter"], capsys)
    assert (code, err) == (
        2,
        "chargen: error: archetype: 'figter' is not an archetype (tables/archetypes.yaml); did you mean 'fighter'?\n",
    )
    code, _, err = run(["roll", "--race", "elf", "--race-attempts", "dwarf"], capsys)
    assert (code, err) == (
        2,
        "chargen: error: --race and --race-attempts: choose the race or roll for one, not both (6.3)\n",
    )
    code, _, err = run(["roll", "--gender", "other"], capsys)
    assert code == 2 and "Invalid value for '--gender'" in err
    code, _, err = run(["build", "missing.yaml"], capsys)
    assert (code, err) == (2, "chargen: error: missing.yaml: cannot read (No such file or directory)\n")


def test_an_existing_output_survives_a_failed_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("race: elfe\n", encoding="utf-8")
    output = tmp_path / "out.yaml"
    output.write_text("precious\n", encoding="utf-8")
    code, _, _ = run(["build", str(bad), "-o", str(output)], capsys)
    assert code == 2
    assert output.read_text(encoding="utf-8") == "precious\n"


def test_tables_and_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["tables"], capsys)
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == [
        "characteristics",
        "birthrights",
        "races",
        "aspects",
        "heritage",
        "weapons",
        "shields",
        "armor",
        "combat",
        "archetypes",
        "names",
        "abilities",
        "record",
        "groups",
    ]
    code, out, _ = run(["tables", "armor", "--format", "json"], capsys)
    assert json.loads(out)["armor"]["leather"]["protection"] == 4
    code, out, _ = run(["schema"], capsys)
    schema = json.loads(out)
    assert schema["title"] == "chargen character file"
    assert {"name", "allocation", "rolls", "weapons", "combat"} <= set(schema["properties"])


def test_house_rules_tables_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from chargen.paths import tables_dir

    house = tmp_path / "house"
    shutil.copytree(tables_dir(), house)
    weapons = house / "weapons.yaml"
    weapons.write_text(
        weapons.read_text(encoding="utf-8").replace(
            "base_chance: 55, damage_modifier: 4, range: null, class: B, use: M, cost: 50",
            "base_chance: 65, damage_modifier: 4, range: null, class: B, use: M, cost: 50",
        ),
        encoding="utf-8",
    )
    character = tmp_path / "rolf.yaml"
    character.write_text("weapons: [{name: broadsword}]\nequipment_given: true\n", encoding="utf-8")
    code, out, _ = run(
        ["--tables", str(house), "build", str(character), "--seed", "1", "--format", "json"], capsys
    )
    assert code == 0
    assert json.loads(out)["combat"]["weapons"][0]["strike_chance"] == 65


def test_broken_table_names_file_entry_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from chargen.paths import tables_dir

    house = tmp_path / "house"
    shutil.copytree(tables_dir(), house)
    armor = house / "armor.yaml"
    armor.write_text(
        armor.read_text(encoding="utf-8").replace("protection: 4,", "protection: four,"), encoding="utf-8"
    )
    code, out, err = run(["--tables", str(house), "roll", "--seed", "1"], capsys)
    assert (code, out) == (2, "")
    assert f"{armor}:9:84: armor.leather.protection" in err  # the `four` on the leather line
    assert "armor.leather.protection: should be a whole number (got 'four')" in err
    assert err.count("\n") == 1


@pytest.mark.slow  # chargen in a process
def test_help_does_not_import_weasyprint_or_pydantic() -> None:
    probe = "import sys; from chargen.cli import cli; print(sorted(m for m in ('weasyprint', 'pydantic') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    roll_probe = "import sys; from chargen import api; api.roll(seed=1); print('weasyprint' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", roll_probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


def test_points_total_without_the_roll_picks_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "points.yaml"
    file.write_text("points: {total: 95}\nstrategy: adept\n", encoding="utf-8")
    code, out, _ = run(["build", str(file), "--seed", "3", "--format", "json"], capsys)
    character = json.loads(out)
    assert code == 0
    assert character["points"] == {"total": 95, "maximum": 20}
    assert sum(character["allocation"].values()) == 95
    assert "points" not in character["rolls"]


@pytest.mark.slow  # PDFs
def test_roll_and_render_write_the_character_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    from pypdf import PdfReader

    pdf, html = tmp_path / "hero.pdf", tmp_path / "hero.html"
    code, out, err = run(
        ["roll", "--seed", "42", "--pdf", str(pdf), "--html", str(html), "--paper", "a4"], capsys
    )
    assert (code, out, err) == (0, "", "")
    reader = PdfReader(io.BytesIO(pdf.read_bytes()))
    assert 1 <= len(reader.pages) <= 2
    assert round(float(reader.pages[0].mediabox.width)) == 595  # A4: 210 mm
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    character = tmp_path / "hero.yaml"
    code, _, _ = run(["roll", "--seed", "42", "-o", str(character)], capsys)
    again = tmp_path / "again.pdf"
    code, out, _ = run(["render", str(character), "--pdf", str(again), "--paper", "a4"], capsys)
    assert (code, out) == (0, "")
    assert again.read_bytes() == pdf.read_bytes()
    code, _, err = run(["render", str(character)], capsys)
    assert (code, err) == (
        2,
        "chargen: error: render: give --html OUT.html, --pdf OUT.pdf and/or --statblock FILE\n",
    )
