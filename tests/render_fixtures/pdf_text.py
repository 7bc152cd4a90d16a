"""Reading the PDF Character Record by position: poppler's words (`pdftotext -bbox-layout`) and the place
of each labelled box, so that "the Defense box holds 16" means the 16 printed above the Defense caption.

    pdf_fields(pdf, keys)   for each field key of tests/render_fixtures/fields.py, the text printed there
    pdf_words(pdf)          every word of the text layer with its page and box
"""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass

from tests.render_fixtures.fields import HEADINGS, SEP

_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


@dataclass(frozen=True)
class Word:
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

    @property
    def center(self) -> float:
        return (self.x0 + self.x1) / 2

    def same_row(self, other: Word) -> bool:
        middle = (other.y0 + other.y1) / 2
        return self.page == other.page and self.y0 - 1 <= middle <= self.y1 + 1

    def below(self, other: Word) -> bool:
        return (self.page, self.y0) > (other.page, other.y0 + 1)


def pdf_words(pdf: bytes) -> list[Word]:
    """Every word of the PDF's text layer with its box, in reading order (poppler's pdftotext)."""
    result = subprocess.run(
        ["pdftotext", "-bbox-layout", "-", "-"], input=pdf, capture_output=True, check=True
    )
    words = []
    for number, page in enumerate(result.stdout.decode("utf-8").split("<page ")[1:]):
        for x0, y0, x1, y1, text in _WORD.findall(page):
            words.append(Word(number, float(x0), float(y0), float(x1), float(y1), html.unescape(text)))
    return sorted(words, key=lambda w: (w.page, round(w.y0), w.x0))


@dataclass(frozen=True)
class Phrase:
    words: tuple[Word, ...]

    @property
    def first(self) -> Word:
        return self.words[0]

    @property
    def x0(self) -> float:
        return min(word.x0 for word in self.words)

    @property
    def x1(self) -> float:
        return max(word.x1 for word in self.words)

    @property
    def center(self) -> float:
        return (self.x0 + self.x1) / 2


def _next_word(words: list[Word], phrase: list[Word], text: str) -> Word | None:
    """The phrase's next word: right after it on its row, or wrapped onto the line below in its column."""
    last = phrase[-1]
    for word in words:
        if word.text != text or word.page != last.page:
            continue
        beside = word.same_row(last) and 0 <= word.x0 - last.x1 < 12
        wrapped = 0 <= word.y0 - last.y1 < 6 and word.x0 < max(w.x1 for w in phrase) + 2
        wrapped = wrapped and word.x1 > min(w.x0 for w in phrase) - 2
        if beside or wrapped:
            return word
    return None


def find_phrases(words: list[Word], phrase: str) -> list[Phrase]:
    """Every place the words of `phrase` are printed together (a narrow cell wraps them), in reading order."""
    first, *rest = phrase.split()
    found = []
    for word in words:
        if word.text != first:
            continue
        matched = [word]
        for text in rest:
            following = _next_word(words, matched, text)
            if following is None:
                break
            matched.append(following)
        if len(matched) == len(rest) + 1:
            found.append(Phrase(tuple(matched)))
    return found


@dataclass(frozen=True)
class Box:
    """The part of the page under a box's heading: from the heading down, between it and the next heading
    on its row."""

    heading: Phrase
    right: float

    def holds(self, word: Word) -> bool:
        return word.below(self.heading.first) and self.heading.x0 - 3 <= word.center < self.right


def _boxes(words: list[Word]) -> dict[str, Box]:
    headings = {}
    for box, caption in HEADINGS.items():
        places = [place for place in find_phrases(words, caption) if _stands_alone(words, place)]
        assert places, f"the PDF has no heading {caption!r}"
        headings[box] = places[0]
    boxes = {}
    for box, heading in headings.items():
        beside = [
            other.x0
            for other in headings.values()
            if other.first.same_row(heading.first) and other.x0 > heading.x0
        ]
        boxes[box] = Box(heading, min(beside, default=10_000.0) - 3)
    return boxes


def _stands_alone(words: list[Word], place: Phrase) -> bool:
    """A heading is set apart on its row: no word runs into it (unlike `Armor weight:` in running text)."""
    last = place.words[-1]
    return not any(
        w.same_row(place.first)
        and w not in place.words
        and (0 <= w.x0 - last.x1 < 12 or 0 <= place.x0 - w.x1 < 12)
        for w in words
    )


def _label(words: list[Word], box: Box, label: str) -> Phrase | None:
    places = [place for place in find_phrases(words, label) if box.holds(place.first)]
    return places[0] if places else None


def _right_of(words: list[Word], place: Phrase, box: Box, count: int = 1) -> str | None:
    row = sorted(
        (w for w in words if w.same_row(place.first) and w.x0 > place.x1 and box.holds(w)), key=lambda w: w.x0
    )
    return " ".join(w.text for w in row[:count]) or None


def _above(words: list[Word], place: Phrase) -> str | None:
    over = [
        w
        for w in words
        if w.page == place.first.page
        and w.y1 <= place.first.y0 + 1
        and place.first.y0 - w.y1 < 20
        and place.x0 - 2 <= w.center <= place.x1 + 2
    ]
    return max(over, key=lambda w: w.y1).text if over else None


def _header_above(words: list[Word], box: Box, header: str, row: Phrase) -> Phrase | None:
    """A table's column header as printed above this row (a table broken across pages repeats it)."""
    places = [
        place
        for place in find_phrases(words, header)
        if box.holds(place.first) and place.first.page == row.first.page and place.first.y1 < row.first.y0
    ]
    return max(places, key=lambda place: place.first.y0) if places else None


def _in_column(words: list[Word], row: Phrase, column: Phrase) -> str | None:
    cells = [w for w in words if w.same_row(row.first) and w.x0 > row.x1]
    return min(cells, key=lambda w: abs(w.center - column.center)).text if cells else None


def pdf_fields(pdf: bytes, keys: list[str]) -> dict[str, str | None]:
    """For each field key, the text printed at that box of the PDF (None when the label is not found)."""
    words = pdf_words(pdf)
    boxes = _boxes(words)
    found: dict[str, str | None] = {}
    for key in keys:
        box_name, *path = key.split(SEP)
        if box_name == "carried":
            places = [p for p in find_phrases(words, path[0]) if p.first.below(boxes["purse"].heading.first)]
            found[key] = _right_of(words, places[0], _whole_width(places[0]), 2) if places else None
            continue
        box = boxes[box_name]
        if box_name in ("armor", "shield", "stun", "purse"):
            place = _label(words, box, " ".join(path))
            found[key] = _right_of(words, place, box) if place else None
        elif box_name == "combat":
            place = _label(words, box, path[0])
            found[key] = _above(words, place) if place else None
        elif box_name == "characteristics":
            place, column = _label(words, box, path[0]), _label(words, box, "Value")
            found[key] = _in_column(words, place, column) if place and column else None
        else:  # weapons
            name, column_name = path
            place = _label(words, box, name)
            column = place and _header_above(
                words, box, "Damage" if column_name == "two-handed" else column_name, place
            )
            if place is None or column is None:
                found[key] = None
            elif column_name == "two-handed":
                found[key] = _two_handed(words, place, column)
            else:
                found[key] = _in_column(words, place, column)
    return found


def _whole_width(place: Phrase) -> Box:
    return Box(Phrase((Word(place.first.page, 0, place.first.y0 - 2, 0, 0, ""),)), 10_000.0)


def _two_handed(words: list[Word], row: Phrase, column: Phrase) -> str | None:
    """The damage cell's note `D10+5 two-handed`, on the weapon's row or just under it: the word before
    `two-handed` (hyphenated `two-` when the cell wraps) in the Damage column."""
    notes = [
        w
        for w in words
        if w.text in ("two-handed", "two-") and w.page == row.first.page and -2 <= w.y0 - row.first.y0 < 25
    ]
    for note in sorted(notes, key=lambda w: w.y0):
        before = [
            w for w in words if w.same_row(note) and w.x1 <= note.x0 and abs(w.center - column.center) < 40
        ]
        if before:
            return max(before, key=lambda w: w.x1).text
    return None
