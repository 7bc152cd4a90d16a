"""chargen new keeps what the player made: file names asked again until they can be
written, no file replaced without a yes, `help` and `quit` at every prompt, the offered name from the walk's
own dice, natural spellings, warnings where the book takes something off, text wrapped between words, the
summary's Experience after the purchases. Through a pseudo-terminal where the terminal is what is tested."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest

from chargen import api
from chargen.errors import ChargenError, InputError
from chargen.messages import unlisted_magic
from chargen.tables import load_tables
from chargen.walkthrough import Walk, new_walk
from chargen.walkthrough.outputs import path_problem
from tests.test_new import PROMPT, STEPS

pytestmark = pytest.mark.slow  # chargen in a process for each case

#: Right entries of the whole walk after the concept, up to (not including) the name.
RIGHT = [right for _, right in STEPS[1:-1]]


def _spawn(folder: Path, *args: str, columns: int = 250, concept: bool = True) -> pexpect.spawn:
    """`chargen new --seed 1`, past its first step (the concept: Enter, any) when `concept`."""
    child = pexpect.spawn(
        sys.executable,
        ["-m", "chargen", "new", "--seed", "1", *args],
        cwd=str(folder),
        encoding="utf-8",
        timeout=30,
        dimensions=(50, columns),
    )
    if concept:
        child.expect(PROMPT)
        child.sendline("")
    return child


def _to_the_name(child: pexpect.spawn) -> None:
    for entry in RIGHT:
        child.expect(PROMPT)
        child.sendline(entry)
    child.expect_exact("Name (Enter for ")
    child.expect(PROMPT)
    child.sendline("Rolf")


def test_wrong_file_names_are_asked_again_and_nothing_is_lost(tmp_path: Path) -> None:
    child = _spawn(tmp_path)
    _to_the_name(child)
    child.expect_exact("Character file to write (Enter for rolf.yaml)")
    child.sendline("rolf.txt")
    child.expect_exact(
        "refused: rolf.txt does not end in .yaml or .yml, as a character file does: try rolf.yaml"
    )
    child.sendline("help")
    child.expect_exact("Accepts: a file name ending in .yaml or .yml")
    child.sendline("")  # Enter: the name offered
    child.expect_exact("PDF of the Character Record to write (or Enter for none)")
    child.sendline("aelindor.html")
    child.expect_exact("refused: aelindor.html does not end in .pdf")
    child.sendline("no/such/folder/rolf.pdf")
    child.expect_exact("refused: the folder no/such/folder does not exist")
    child.sendline("/proc/rolf.pdf")
    child.expect_exact("refused: cannot write in /proc")
    child.sendline("rolf.yaml")
    child.expect_exact("refused: that name is already taken by the character file")
    child.sendline("rolf.pdf")
    child.expect_exact("wrote rolf.yaml and rolf.pdf")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rolf.pdf", "rolf.yaml"]


def test_an_existing_file_is_replaced_only_after_a_yes(tmp_path: Path) -> None:
    kept = tmp_path / "rolf.yaml"
    kept.write_text("name: the first Rolf\n", encoding="utf-8")
    child = _spawn(tmp_path)
    _to_the_name(child)
    child.expect_exact("Character file to write (Enter for rolf.yaml)")
    child.sendline("")
    child.expect_exact("rolf.yaml exists; replace it? [y/N]")
    child.sendline("")  # Enter is no
    child.expect_exact("Character file to write (Enter for rolf.yaml)")
    child.sendline("rolf-2.yaml")
    child.expect_exact("PDF of the Character Record")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert kept.read_text(encoding="utf-8") == "name: the first Rolf\n"
    assert "name: Rolf\n" in (tmp_path / "rolf-2.yaml").read_text(encoding="utf-8")
    child = _spawn(tmp_path, "-o", "rolf.yaml")  # named by the option: asked all the same
    _to_the_name(child)
    child.expect_exact("rolf.yaml exists; replace it? [y/N]")
    child.sendline("y")
    child.expect_exact("PDF of the Character Record")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert "name: Rolf\n" in kept.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--pdf", "missing/hero.pdf"], "--pdf: the folder missing does not exist"),
        # --fillable with only an HTML record: no PDF will be asked for, so nothing to fill
        (
            ["--html", "hero.html", "--fillable"],
            "--fillable: makes the PDF's form fields; give --pdf FILE too",
        ),
    ],
)
def test_options_that_cannot_be_honoured_are_refused_before_the_dice(
    tmp_path: Path, options: list[str], message: str
) -> None:
    child = _spawn(tmp_path, *options, concept=False)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert message in str(child.before)
    assert list(tmp_path.iterdir()) == []


def test_fillable_and_no_pdf_chosen_says_so_and_writes_the_file(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--fillable")
    _to_the_name(child)
    child.expect_exact("Character file to write")
    child.sendline("rolf.yaml")
    child.expect_exact("PDF of the Character Record to write (or Enter for none)")
    child.sendline("")  # none: the walk's work is kept, and the player is told --fillable made nothing
    child.expect_exact("No record PDF, so --fillable has no form fields to make.")
    child.expect_exact("wrote rolf.yaml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert [path.name for path in tmp_path.iterdir()] == ["rolf.yaml"]


def test_quit_asks_then_leaves_with_nothing_written(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "-o", "hero.yaml")
    child.expect(PROMPT)
    child.sendline("9")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect_exact("Leave the walk? Nothing will be written [y/N]")
    child.sendline("n")  # stays: the same step is asked again
    child.expect_exact("PS (")
    child.sendline("QUIT")
    child.expect_exact("Leave the walk?")
    child.sendline("y")
    child.expect_exact("Left the walk; nothing was written.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert list(tmp_path.iterdir()) == []


def test_quit_at_the_last_question_writes_nothing(tmp_path: Path) -> None:
    child = _spawn(tmp_path)
    _to_the_name(child)
    child.expect_exact("Character file to write")
    child.sendline("rolf.yaml")
    child.expect_exact("PDF of the Character Record")
    child.sendline("quit")
    child.expect_exact("Leave the walk?")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert list(tmp_path.iterdir()) == []


def test_help_at_a_prompt_says_what_the_step_does_and_accepts(tmp_path: Path) -> None:
    child = _spawn(tmp_path)
    child.expect(PROMPT)
    child.sendline("help")
    child.expect_exact("Accepts: the 2D10 you rolled, one number per die or their total")
    child.expect_exact("At any prompt: back: undo the last step; help:")
    child.expect(PROMPT)
    child.sendline("9")  # the step is still open
    child.expect_exact("-> 9: 88 points, maximum 23")
    child.close(force=True)


def _walk_to(key: str, entries: list[str] = RIGHT, seed: int = 1) -> Walk:
    walk = new_walk(load_tables(), seed=seed)
    walk.answer("")  # the concept: any
    answers = iter(entries)
    while walk.current is not None and walk.current.key != key:
        walk.answer(next(answers, ""))
    return walk


def test_every_step_has_help_naming_what_it_accepts() -> None:
    walk = new_walk(load_tables(), seed=1)
    walk.answer("")  # the concept: any
    answers = iter(RIGHT)
    helped = []
    while (question := walk.current) is not None:
        text = walk.help()
        assert text.startswith(question.explain(walk))
        accepts = text.split("\n")[1]
        assert accepts.startswith("Accepts: ") and len(accepts) > 30, (question.key, accepts)
        assert "quit: leave the walk; nothing is written; rest: let chargen choose every step left" in text
        helped.append(question.key)
        walk.answer(next(answers, ""))
    assert {"college", "spells", "languages", "skills", "weapons", "name"} <= set(helped)


def test_the_offered_name_comes_from_the_walks_own_dice() -> None:
    offered = set()
    for seed in range(8):
        walk = _walk_to("name", seed=seed, entries=[*RIGHT[:9], "male", "2 9", ""])
        question = walk.current
        assert question is not None
        offered.add(question.ask(walk))
        assert question.ask(walk) == question.ask(walk)  # asked again, the same name
    assert len(offered) >= 6  # not one fixed name for every male human
    again = _walk_to("name", seed=3, entries=[*RIGHT[:9], "male", "2 9", ""])
    first = _walk_to("name", seed=3, entries=[*RIGHT[:9], "male", "2 9", ""])
    assert again.current is not None and first.current is not None
    assert again.current.ask(again) == first.current.ask(first)  # --seed repeats the walk


def test_a_college_its_magic_and_languages_are_steps_and_reach_the_file() -> None:
    walk = _walk_to("name")
    walk.answer("")
    character = walk.document()
    assert character.college == "celestial-magics"
    assert [(spell.name, spell.rank, spell.kind) for spell in character.spells] == [
        ("starfire", 0, "spell"),
        ("glamour", 0, "spell"),
    ]
    assert [(language.name, language.rank) for language in character.languages] == [("Elvish", 0)]
    assert character.experience_bank == character.experience_points - 100


def test_no_magic_step_without_a_college_and_an_elf_is_not_sold_witchsight() -> None:
    walk = _walk_to("college")
    walk.answer("")
    assert walk.current is not None and walk.current.key == "name"
    elf = _walk_to("college", [*RIGHT[:11], "elf", "5"])
    assert elf.preview().race == "elf"
    elf.answer("fire magics")
    question = elf.current
    assert question is not None and question.key == "spells"
    assert "Your race has Witchsight already." in question.explain(elf)
    with pytest.raises(ChargenError) as error:
        elf.answer("witchsight")
    assert "is not magic the college casts" in str(error.value)


def test_a_spell_the_tables_do_not_list_is_treated_alike_in_the_walk_and_a_file() -> None:
    """Book Two's spell lists are not in the tables: one rule (34) for the walk (and so the page) and a
    file: without its kind it is refused in the same words, with how a GM adds one; with its kind it is
    kept, the same spell either way."""
    told = unlisted_magic("fireball")
    assert "Book Two's" in told and "add: abilities: magic: entries" in told
    elf = _walk_to("college", [*RIGHT[:11], "elf", "5"])
    elf.answer("fire magics")
    with pytest.raises(ChargenError) as walked:
        elf.answer("fireball")
    assert str(walked.value) == f"spells[0].kind: {told}; rule 34"
    with pytest.raises(InputError) as filed:
        api.build("college: fire magics\nspells: [fireball]\n", "f.yaml", seed=1)
    assert filed.value.problems == [f"f.yaml:2:10: spells[0].kind: {told}; rule 34"]
    shown = elf.answer("fireball (Spell)")
    assert "fireball (spell)" in shown and "Book Two's lists and cast chances are the GM's to fill" in shown
    kept = api.build("college: fire magics\nspells: [{name: fireball, kind: spell}]\n", "f.yaml", seed=1)
    both = [[(spell.name, spell.rank, spell.kind) for spell in made.spells] for made in (kept, elf.preview())]
    assert both == [[("fireball", 0, "spell")]] * 2


def test_a_giant_is_not_offered_the_college_opposed_to_its_element() -> None:
    walk = _walk_to("college", [*RIGHT[:11], "Giant", "6", "3"])  # a fire giant (6.6)
    assert walk.preview().race_type == "fire"
    question = walk.current
    assert question is not None and "Water Magics" not in question.explain(walk)
    with pytest.raises(ChargenError, match="not a college you may join"):
        walk.answer("water magics")


def test_a_weapon_above_ps_or_md_is_sold_with_the_books_penalty() -> None:
    walk = _walk_to(
        "weapons", ["9", "10", "", "", "", "", "", "", "male", "2 9", "", "17", "62", "50", "4", "40", "70"]
    )
    stats = walk.preview().characteristics
    assert (stats.PS, stats.MD) == (10, 16)
    shown = walk.answer("Broadsword, Rapier")
    assert shown.split("\n") == [
        "Broadsword, Rapier; 190 Silver Pennies left",
        "  warning: the Broadsword needs PS 15 and yours is 10: it does 1 less damage for each point short "
        "(D10-1 here), and takes no Rank until your PS is 15 (rule 20.2)",
        "  warning: the Rapier needs PS 11 and yours is 10: it does 1 less damage for each point short "
        "(D10+2 here), and takes no Rank until your PS is 11 (rule 20.2)",
        "  warning: the Rapier needs MD 18 and yours is 16: its Base Chance is 5 lower for each point short "
        "(35% here), and it takes no Rank until your MD is 18 (rule 17.1)",
    ]
    assert walk.back() and walk.answer("Dagger") == "Dagger; 265 Silver Pennies left"  # no warning


def test_natural_spellings_of_armor_and_shields() -> None:
    walk = _walk_to("armor")
    assert walk.answer("chain mail").startswith("Chainmail; ")
    assert walk.answer("kite").startswith("Kite Shield; ")
    walk = _walk_to("shield")
    with pytest.raises(ChargenError, match="'round' is not on the Shield Chart"):  # two round shields
        walk.answer("round")


def test_the_purse_refusal_speaks_of_the_walk_not_the_file() -> None:
    walk = _walk_to("armor")
    with pytest.raises(ChargenError) as error:
        walk.answer("Improved Plate")
    assert str(error.value) == (
        "armor: that brings the kit to 410 Silver Pennies, and the purse holds 275 (8.5); choose less, "
        "or press Enter for none"
    )
    assert "equipment_given" not in str(error.value)


def test_file_names_checked_in_the_walk_model(tmp_path: Path) -> None:
    assert path_problem(str(tmp_path / "a.yaml"), "yaml") is None
    assert (
        path_problem(str(tmp_path), "pdf")
        == f"{tmp_path} does not end in .pdf, as a PDF of the Character Record does: try {tmp_path.name}.pdf"
    )
    (tmp_path / "x.pdf").mkdir()
    assert (
        path_problem(str(tmp_path / "x.pdf"), "pdf")
        == f"{tmp_path / 'x.pdf'} is a folder; give a file name in it"
    )
    assert path_problem("", "pdf") == "give the PDF of the Character Record a file name"
    assert path_problem("/dev/null", "pdf") is None


def test_text_is_wrapped_between_words_and_the_summary_shows_experience_left(tmp_path: Path) -> None:
    child = _spawn(tmp_path, columns=60)
    seen = []
    for entry in [*RIGHT, "Rolf"]:
        child.expect(PROMPT)
        seen.append(str(child.before))
        child.sendline(entry)
    child.expect_exact("Character file to write")
    seen.append(str(child.before))
    child.close(force=True)
    text = "\r\n".join(seen)  # each prompt, then what was typed at it
    lines = [line for line in text.split("\r\n") if line]
    assert [line for line in lines if len(line) > 59] == []
    words = set(re.findall(r"[A-Za-z]+", text))
    assert {"Halfling", "Enspellments", "Enchantments", "Necromantic"} <= words
    assert "Hal\r\nfling" not in text
    assert "Experience Points left of" in text  # 8.6's purchases taken off in the summary
    summary = text[text.rindex("Rolf: male") :]
    assert re.search(r"\b20 Experience Points left of 120\b", " ".join(summary.split()))


def test_natural_spellings_and_the_purse_through_the_terminal(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "-o", "rolf.yaml")
    shown = []
    entries = [entry for entry in RIGHT]
    armor = entries.index("Leather")
    entries[armor : armor + 2] = ["Improved Plate", "chain mail", "kite"]
    for entry in [*entries, "Rolf"]:
        child.expect(PROMPT)
        shown.append(str(child.before))
        child.sendline(entry)
    child.expect_exact("PDF of the Character Record")
    shown.append(str(child.before))
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    text = " ".join(" ".join(shown).split())
    assert "refused: armor: that brings the kit to 410 Silver Pennies, and the purse holds 275 (8.5)" in text
    assert "equipment_given" not in text
    assert "-> Chainmail; 15 Silver Pennies left" in text and "-> Kite Shield; 0 Silver Pennies left" in text
    written = (tmp_path / "rolf.yaml").read_text(encoding="utf-8")
    assert "armor: chainmail\n" in written and "shield: {name: kite-shield}\n" in written
