"""Batch NPCs are real characters: seeds, mixes, names, and validate/build round trips."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from chargen import api
from chargen.batch import BatchOptions, run_batch
from chargen.batch.mix import Mix, derived_seed, parse_mix
from chargen.batch.npc import Plan, best_weapon, make_character, npc_name
from chargen.character_file import dump_document
from chargen.errors import InputError
from chargen.model import WeaponLine, to_document
from chargen.render.build import build_sheet
from chargen.tables import Tables
from chargen.tables.schema import NameParts
from chargen.views.cards import roster_card
from chargen.vocabulary import GENDERS


def test_derived_seeds_are_pinned() -> None:
    # These values are the contract "NPC i of seed S is always the same": changing the function breaks it.
    assert [derived_seed(7, number, "character") for number in (1, 2)] == [887850958, 764326169]
    assert derived_seed(7, 1, "mix") != derived_seed(7, 1, "character") != derived_seed(8, 1, "character")


def test_a_mix_draws_by_weight() -> None:
    mix = parse_mix("--archetype", "fighter=3, adept=1", ["adept", "fighter", "thief"], "an archetype")
    assert mix == Mix(("fighter", "adept"), (3.0, 1.0))
    rng = random.Random(1)
    counts = Counter(mix.draw(rng) for _ in range(4000))
    assert set(counts) == {"fighter", "adept"}
    assert 2800 < counts["fighter"] < 3200


def test_a_single_name_is_a_fixed_choice() -> None:
    mix = parse_mix("--race", "orc", ["orc", "elf"], "a race")
    assert mix.fixed == "orc"
    assert {mix.draw(random.Random(seed)) for seed in range(20)} == {"orc"}


def test_an_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(InputError) as error:
        parse_mix("--archetype", "fighter=2,adpet=1", ["adept", "fighter"], "an archetype")
    assert str(error.value) == "--archetype: 'adpet' is not an archetype; did you mean 'adept'?"


def test_names_use_bynames_now_and_then() -> None:
    parts = NameParts(male=["Hugh"], female=["Emma"], family=["Hale"], epithets=["the Bold"])
    names = Counter(npc_name(parts, "male", random.Random(seed)) for seed in range(400))
    assert set(names) == {"Hugh Hale", "Hugh Hale the Bold"}
    assert 60 < names["Hugh Hale the Bold"] < 140  # about one in four
    lowercase_family = NameParts(male=["Bolg"], female=["Urza"], family=["the Red Eye"], epithets=["the Sly"])
    assert {npc_name(lowercase_family, "female", random.Random(seed)) for seed in range(50)} == {
        "Urza the Red Eye",
        "Urza the Sly",
    }


def test_a_sample_of_npcs_validates_and_rebuilds_exactly(tmp_path: Path, tables: Tables) -> None:
    run_batch(BatchOptions(count=40, seed=99, out=str(tmp_path / "npcs"), jobs=2), tables=tables)
    files = sorted((tmp_path / "npcs").iterdir())
    assert len(files) == 40
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert api.validate(text, str(path), tables=tables) == []
        assert dump_document(api.build(text, str(path), tables=tables), "yaml") == text


def test_every_archetype_makes_a_valid_npc_of_every_race(tables: Tables) -> None:
    # Catches archetype data that breaks the rules: an unknown item, or a Rank above a weapon's maximum.
    for archetype in sorted(tables.archetypes):
        for race in sorted(tables.races):
            plan = Plan(
                run_seed=5,
                archetypes=Mix((archetype,), (1.0,)),
                races=Mix((race,), (1.0,)),
                gender=None,
                count=1,
            )
            character = make_character(plan, 1, tables)
            assert (character.archetype, character.race, character.equipment_given) == (
                archetype,
                race,
                True,
            )
            text = json.dumps(to_document(character))
            assert api.validate(text, f"{archetype}/{race}", tables=tables) == []


def test_a_batch_rolls_the_input_roll_validates(tables: Tables) -> None:
    # A batch rolls through api.roll_checked, which makes the input of its own (checked) choices without
    # pydantic's validation: for every choice a batch can make it is the input api.roll validates, fields
    # given included, and so the same character.
    from chargen.api import _rolled_spec

    for archetype in sorted(tables.archetypes):
        for race in (None, *sorted(tables.races)):
            for gender in (None, *GENDERS):
                chosen = (None, gender, race, None, archetype, ())
                made, validated = _rolled_spec(chosen, tables, checked=True), _rolled_spec(chosen, tables)
                assert made == validated, chosen
                assert made.model_fields_set == validated.model_fields_set, chosen
                assert made.rolls.model_fields_set == validated.rolls.model_fields_set == set()
                assert made.rolls.model_extra == validated.rolls.model_extra == {}
        for seed in (1, 2):
            checked = api.roll_checked(seed=seed, gender=None, race=None, archetype=archetype, tables=tables)
            assert checked == api.roll(seed=seed, archetype=archetype, equip="give", tables=tables)


def test_a_batch_input_is_made_without_reading_signatures(monkeypatch: pytest.MonkeyPatch) -> None:
    # pydantic's model_construct reads each default factory's signature (about 0.1 ms a field, 12 ms over
    # a batch's first hundred NPCs): unvalidated_input makes those defaults itself.
    import inspect

    from chargen.character_reading import unvalidated_input

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a signature was read")

    monkeypatch.setattr(inspect.Signature, "from_callable", classmethod(refused))
    made = unvalidated_input({"archetype": "fighter", "optional": []})
    assert (made.archetype, made.weapons, made.rolls.model_fields_set) == ("fighter", [], set())
    assert made.model_fields_set == {"archetype", "optional"}


def test_the_village_archetypes_exist(tables: Tables) -> None:
    village = {
        "priest",
        "healer",
        "hunter",
        "sailor",
        "smith",
        "craftsman",
        "farmer",
        "militia",
        "soldier",
        "assassin",
        "scout",
        "innkeeper",
        "minstrel",
        "watchman",
        "fisher",
        "woodcutter",
    }
    assert village <= set(tables.archetypes)
    assert all(tables.names[race].epithets for race in tables.races)


def test_best_weapon_is_the_highest_strike_chance_first_on_ties(tables: Tables) -> None:
    text = (
        "allocation: {PS: 16, MD: 16, AG: 15, EN: 14, MA: 12, WP: 11}\nrace: human\n"
        "weapons: [{name: short-sword}, {name: dagger}, {name: broadsword}, {name: main-gauche}]\n"
        "equipment_given: true\n"
    )
    character = api.build(text, "kit.yaml", seed=3, tables=tables)
    chances = [line.strike_chance for line in character.combat.weapons]
    best = best_weapon(character)
    assert isinstance(best, WeaponLine) and best.strike_chance == max(chances)
    assert best is character.combat.weapons[chances.index(max(chances))]
    unarmed = api.build(text.replace("weapons: [", "# ["), "bare.yaml", seed=3, tables=tables)
    assert best_weapon(unarmed) is unarmed.combat.unarmed


def test_roster_card_names_the_race_as_the_record_does(tables: Tables) -> None:
    plan = Plan(
        run_seed=5, archetypes=Mix(("knight",), (1.0,)), races=Mix(("giant",), (1.0,)), gender=None, count=1
    )
    character = make_character(plan, 1, tables)
    card = roster_card(1, character, tables)
    sheet = build_sheet(character, tables, "test")
    assert character.race_type is not None
    assert card.race == sheet.race == f"Giant ({tables.races['giant'].types[character.race_type].name})"
    assert card.characteristics == dict(character.characteristics.items())
    assert (card.defense, card.tmr) == (character.combat.defense, character.tmr)


def test_an_npc_in_every_form_comes_back_whole_from_a_worker(tables: Tables) -> None:
    """Workers pickle each NpcOutput (NpcOutput.__reduce__): every field must come back, in its place."""
    import dataclasses
    import pickle

    from chargen.batch.npc import make_output

    mix = Mix(tuple(sorted(tables.archetypes)), (1.0,) * len(tables.archetypes))
    plan = Plan(3, mix, None, None, 5, wanted=frozenset({"jsonl", "csv", "out", "roster"}))
    for number in range(1, 6):
        made = make_output(plan, number, tables)
        back = pickle.loads(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
        assert dataclasses.astuple(back) == dataclasses.astuple(made)
        assert back.number == number and back.card is not None and back.card.number == number
        assert back.file_text is not None and back.jsonl is not None and back.csv_row is not None


def test_a_record_maker_drops_the_roll_memos_after_each_record(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The roll's memos (weapon and unarmed lines and their terms, 5.2's aims) grow with every distinct character; a
    Character Record takes 300 ms to lay out, so a PDF batch drops them after each record rather than keep
    about 1 kB a record. Data NPCs keep them: they save microseconds of an 80-us NPC."""
    from chargen.batch.npc import make_output

    monkeypatch.setattr("chargen.render.render_pdf", lambda *arguments, **options: b"%PDF-1.7")
    mix = Mix(tuple(sorted(tables.archetypes)), (1.0,) * len(tables.archetypes))

    def memos() -> int:
        return sum(map(len, tables.memos.values()))

    for number in range(1, 6):
        made = make_output(Plan(3, mix, None, None, 5, wanted=frozenset({"records"})), number, tables)
        assert made.record_pdf == b"%PDF-1.7" and memos() == 0
    make_output(Plan(3, mix, None, None, 5, wanted=frozenset({"jsonl"})), 1, tables)
    assert memos() > 0


def test_dropping_the_roll_memos_changes_no_character(tables: Tables) -> None:
    from chargen.tables.memo import forget

    mix = Mix(tuple(sorted(tables.archetypes)), (1.0,) * len(tables.archetypes))
    plan = Plan(11, mix, None, None, 40)
    kept = [to_document(make_character(plan, number, tables)) for number in range(1, 41)]
    dropped = []
    for number in range(1, 41):
        forget(tables)
        dropped.append(to_document(make_character(plan, number, tables)))
    assert dropped == kept


def test_npcs_made_in_threads_at_once_are_the_npcs_made_one_by_one(tables: Tables) -> None:
    # Each NPC's name and mix draws come from generators of its own: with one generator shared by the
    # process and reseeded for each NPC, a thread switch between the seeding and the draws gave another
    # NPC's name (the switch interval is made tiny so that switches fall everywhere).
    def names(plan: Plan) -> list[tuple[str, str]]:
        made = [make_character(plan, number, tables) for number in range(1, 121)]
        return [(npc.name, npc.archetype or "") for npc in made]

    every = Mix(tuple(sorted(tables.archetypes)), (1.0,) * len(tables.archetypes))
    plans = [Plan(seed, every, None, None, 120) for seed in (11, 12, 13)]
    alone = [names(plan) for plan in plans]
    results: dict[int, list[tuple[str, str]]] = {}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [
            threading.Thread(target=lambda k=k: results.__setitem__(k, names(plans[k]))) for k in range(3)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert [results[k] for k in range(3)] == alone


def test_a_random_random_replaced_on_the_module_makes_the_rolls_generator(tables: Tables) -> None:
    # tests/bench/bench_core.py counts the draws of each seed's roll by replacing random.Random: the roll's
    # generator must come from it, as it did when the pipeline called random.Random(seed) itself.
    bench = importlib.util.spec_from_file_location(
        "bench_core", Path(__file__).parent / "bench" / "bench_core.py"
    )
    assert bench is not None and bench.loader is not None
    module = importlib.util.module_from_spec(bench)
    bench.loader.exec_module(module)
    draws = module.roll_draws(3, tables)
    assert len(draws) == 3 and all(len(made) > 10 for made in draws)


@pytest.mark.slow  # chargen in a process for each case
def test_a_data_batch_starts_without_what_it_does_not_use(tmp_path: Path) -> None:
    # A JSONL batch's start-up is a part of its speed: it neither builds pydantic's model of
    # a character file (it reads none: api.roll_checked) nor imports the roster cards and the record's
    # modules. A stat-block batch does make the cards.
    probe = (
        "import sys\n"
        "from chargen.batch import BatchOptions, run_batch\n"
        "from chargen.character_file import CharacterInput\n"
        f"run_batch(BatchOptions(count=3, seed=1, jobs=1, jsonl={str(tmp_path / 'n.jsonl')!r}))\n"
        "print(CharacterInput.__pydantic_complete__, sorted(m for m in sys.modules if m.startswith("
        "('chargen.views.cards', 'chargen.render'))))\n"
        f"run_batch(BatchOptions(count=3, seed=1, jobs=1, statblock={str(tmp_path / 'n.txt')!r}))\n"
        "print('chargen.views.cards' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["False []", "True"]
