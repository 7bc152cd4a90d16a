"""Roster cards carry magic and skills (as the stat blocks do), and a --group roster heads
each group (members, best Initiative, leader's Perception) and marks its leader. Read from the roster
HTML's DOM, as the GM reads it."""

from __future__ import annotations

from pathlib import Path

from tests.render_fixtures.fields import Node, parse_html
from tests.test_batch_cli import batch


def roster(tmp_path: Path, *arguments: str) -> Node:
    target = tmp_path / "roster.html"
    ran = batch(*arguments, "--roster", target)
    assert ran.exit_code == 0, ran.stderr
    return parse_html(target.read_text(encoding="utf-8"))


def classes(node: Node) -> set[str]:
    return set(node.attrs.get("class", "").split())


def test_caster_cards_carry_their_college_magic_and_skills(tmp_path: Path) -> None:
    page = roster(tmp_path, "-n", "4", "--seed", "3", "--archetype", "adept")
    for card in page.find_all("section", "card"):
        lines = [line.text() for line in card.find_all("p", "abilities")]
        magic = next(line for line in lines if line.startswith("Magic "))
        skills = next(line for line in lines if line.startswith("Skills "))
        assert "Magics" in magic or "Illusions" in magic  # a college, then its talents and spells
        assert skills.startswith("Skills Alchemist ")


def test_a_group_roster_heads_each_group_and_marks_its_leader(tmp_path: Path) -> None:
    page = roster(tmp_path, "--group", "bandit-band", "-n", "2", "--seed", "3")
    sections = page.find_all("section", "card")
    headings = [node for node in sections if "group-heading" in classes(node)]
    assert [node.find_all("h2", "group")[0].text() for node in headings] == [
        "Bandit band 1 of 2",
        "Bandit band 2 of 2",
    ]
    members = headings[0].find_all("p", "members")[0].text()
    assert members.startswith("Bandit Chief (leader), Bandit")
    facts = " ".join(node.text() for node in headings[0].find_all("p", "facts"))
    assert "Best Initiative" in facts and "Leader\u2019s Perception" in facts
    # Each heading stands right before its leader's card, the only card marked.
    leaders = [node for node in sections if "leader" in classes(node)]
    assert len(leaders) == 2
    for heading, leader in zip(headings, leaders, strict=True):
        assert sections[sections.index(heading) + 1] is leader
        assert leader.find_all("p", "who")[0].text().startswith("Leader Bandit Chief")
