"""A fillable record is the plain record with fields: the same subset fonts, text that reads the same, no
object nothing reaches, at most twice the plain record's size, and empty it draws as the plain one in
poppler and PDFium."""

from __future__ import annotations

from io import BytesIO
from typing import Any

import pytest
from PIL import ImageChops
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

from chargen import api
from chargen.render import render_pdf
from tests.render_fixtures import tables
from tests.test_fillable_readers import pdfium


def _pair(seed: int) -> tuple[bytes, bytes]:
    character = api.roll(seed=seed, tables=tables())
    return render_pdf(character, tables()), render_pdf(character, tables(), fillable=True)


@pytest.fixture(scope="module")
def seed_3() -> tuple[bytes, bytes]:
    return _pair(3)


def _fonts(pdf: bytes) -> dict[str, int]:
    """Each embedded font's name and the length of its font file."""
    reader = PdfReader(BytesIO(pdf))
    found = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            (descendant,) = font.get_object()["/DescendantFonts"]
            descriptor = descendant.get_object()["/FontDescriptor"]
            found[str(descriptor["/FontName"])] = len(descriptor["/FontFile2"].get_object().get_data())
    return found


def test_the_fonts_are_the_plain_records_subsets(seed_3: tuple[bytes, bytes]) -> None:
    plain, fillable = seed_3
    assert _fonts(fillable) == _fonts(plain)
    assert all(length < 60_000 for length in _fonts(fillable).values())  # the regular one whole is 514 KB


def _reached(reader: PdfReader) -> set[int]:
    seen: set[int] = set()
    stack: list[Any] = [reader.trailer]
    while stack:
        value = stack.pop()
        if isinstance(value, IndirectObject):
            if value.idnum in seen:
                continue
            seen.add(value.idnum)
            value = value.get_object()
        if isinstance(value, DictionaryObject):
            stack.extend(value.values())
        elif isinstance(value, ArrayObject):
            stack.extend(value)
    return seen


def test_no_object_is_left_that_nothing_reaches(seed_3: tuple[bytes, bytes]) -> None:
    reader = PdfReader(BytesIO(seed_3[1]))
    written = {number for numbers in reader.xref.values() for number in numbers}
    assert written - _reached(reader) == set()


def test_the_text_reads_as_the_plain_records(seed_3: tuple[bytes, bytes]) -> None:
    plain, fillable = (PdfReader(BytesIO(pdf)) for pdf in seed_3)
    assert "DragonQuest" in fillable.pages[0].extract_text()
    # the same lines; the fields' positioned boxes may draw a heading before or after the tracks
    assert [sorted(page.extract_text().splitlines()) for page in fillable.pages] == [
        sorted(page.extract_text().splitlines()) for page in plain.pages
    ]


def test_empty_it_draws_as_the_plain_record_in_pdfium(seed_3: tuple[bytes, bytes]) -> None:
    plain, fillable = (pdfium(pdf) for pdf in seed_3)
    assert len(plain) == len(fillable)
    for number, (one, other) in enumerate(zip(plain, fillable, strict=True), start=1):
        assert ImageChops.difference(one, other).getbbox() is None, f"page {number} differs"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 21))
def test_the_fillable_record_is_at_most_twice_the_plain_one(seed: int) -> None:
    plain, fillable = _pair(seed)
    assert len(fillable) <= 2 * len(plain), (len(fillable), len(plain))
