"""The stop for WeasyPrint's per-layout leak (chargen.render.pango_leak): what it frees and what it keeps,
and that it is in place in every process that renders."""

from __future__ import annotations

import importlib.util
import inspect
import types
from pathlib import Path
from typing import Any

import pytest

from chargen.render import pango_leak


class FakePango:
    """Pango's attribute calls, counting what is made and what each list owns."""

    def __init__(self) -> None:
        self.made: list[str] = []
        self.lists: dict[int, list[object]] = {}
        self.references: dict[int, int] = {}

    def pango_attr_font_features_new(self, features: bytes) -> object:
        attribute = object()
        self.made.append(features.decode())
        return attribute

    def pango_attr_list_new(self) -> int:
        number = len(self.lists) + 1
        self.lists[number], self.references[number] = [], 1
        return number

    def pango_attr_list_insert(self, attributes: int, attribute: object) -> None:
        self.lists[attributes].append(attribute)

    def pango_layout_set_attributes(self, layout: object, attributes: int) -> None:
        self.references[attributes] += 1  # the layout's own reference

    def pango_attr_list_unref(self, attributes: int) -> None:
        self.references[attributes] -= 1

    def pango_layout_new(self, context: object) -> str:
        return "layout"


class FakeFfi:
    def cast(self, kind: str, pointer: Any) -> int:
        return id(pointer) if not isinstance(pointer, int) else pointer


def setup_like_weasyprint(pango: Any, cache: dict[bytes, Any], features: bytes) -> int:
    """What WeasyPrint 70's Layout.setup does with a style's font features."""
    attr = cache.setdefault(features, pango.pango_attr_font_features_new(features))
    attr_list = pango.pango_attr_list_new()
    pango.pango_attr_list_insert(attr_list, attr)
    pango.pango_layout_set_attributes("layout", attr_list)
    return int(attr_list)


def test_each_layout_owns_its_list_and_a_copy_of_the_cached_attribute() -> None:
    fake = FakePango()
    pango = pango_leak._Pango(fake, FakeFfi())
    cache: dict[bytes, Any] = {}
    lists = [setup_like_weasyprint(pango, cache, b"smcp 1") for _ in range(3)]
    # One attribute for the cache, one copy per list: none made and dropped.
    assert fake.made == ["smcp 1"] * 4
    cached = cache[b"smcp 1"]
    assert all(fake.lists[number] == [fake.lists[number][0]] for number in lists)
    assert cached not in [attribute for number in lists for attribute in fake.lists[number]]
    # The layout holds the only reference: freeing the layout frees the list and its copy.
    assert [fake.references[number] for number in lists] == [1, 1, 1]
    assert pango.pango_layout_new("context") == "layout"  # every other call goes to Pango itself


def test_the_stop_goes_only_where_the_leaking_code_is() -> None:
    def setup(self: Any, style: Any) -> None:
        attr_list = ffi.gc(pango.pango_attr_list_new(), pango.pango_attr_list_unref)  # noqa: F821
        pango.pango_layout_set_attributes(self.layout, attr_list)  # noqa: F821

    fixed = types.ModuleType("line_break")
    fixed.Layout = type("Layout", (), {"setup": setup})  # type: ignore[attr-defined]
    fixed.pango = FakePango()  # type: ignore[attr-defined]
    assert not pango_leak.stop_leak(fixed, FakeFfi())
    assert isinstance(fixed.pango, FakePango)  # type: ignore[attr-defined]


def test_the_installed_weasyprint_is_stopped_when_it_renders(tables: Any) -> None:
    from chargen.render import pdf

    pdf._engine()
    from weasyprint.text import line_break

    assert isinstance(line_break.pango, pango_leak._Pango) == pango_leak.stoppable()
    if not pango_leak.stoppable():
        pytest.skip("this WeasyPrint does not hold the leaking code")


LEAKING_FONTS = """
class Font:
    def __init__(self, pango_font, description, font_size):
        description_string = ffi.string(
            pango.pango_font_description_to_string(description))
"""
FREEING_FONTS = """
class Font:
    def __init__(self, pango_font, description, font_size):
        name = ffi.gc(pango.pango_font_description_to_string(description), glib.g_free)
        description_string = ffi.string(name)
"""


def _fonts_module(tmp_path: Path, source: str) -> types.ModuleType:
    """A stand-in for WeasyPrint's pdf/fonts.py, from a file, so its source can be read."""
    path = tmp_path / "fonts_like.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("fonts_like", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.pango = FakePango()  # type: ignore[attr-defined]
    return module


@pytest.mark.parametrize(
    ("source", "stopped"),
    [
        (LEAKING_FONTS, True),
        (FREEING_FONTS, False),  # a WeasyPrint that frees the name itself
        # the leaking line beside a call that frees its own string: the stand-in would free that one twice
        (
            LEAKING_FONTS + "\ndef other(d):\n    glib.g_free(pango.pango_font_description_to_string(d))\n",
            False,
        ),
    ],
)
def test_the_naming_stop_goes_only_where_the_leaking_line_is_the_only_such_call(
    tmp_path: Path, source: str, stopped: bool
) -> None:
    module = _fonts_module(tmp_path, source)
    assert pango_leak.stop_naming_leak(module, FakeFfi()) == stopped
    assert isinstance(module.pango, pango_leak._NamingPango) == stopped  # type: ignore[attr-defined]


def test_each_font_name_weasyprint_reads_is_freed(tables: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every string pango_font_description_to_string gives pdf/fonts.py while a record is written is
    freed (g_free) once WeasyPrint has read it."""
    from chargen import api
    from chargen.render import pdf, render_pdf

    pdf._engine()
    from weasyprint.pdf import fonts

    if pango_leak.NAMING_CODE not in "".join(inspect.getsource(fonts.Font.__init__).split()):
        pytest.skip("this WeasyPrint does not hold the leaking line")
    assert isinstance(fonts.pango, pango_leak._NamingPango)  # in place before any record is written
    stand_in = fonts.pango
    made: list[bytes] = []
    freed: list[bytes] = []

    class CountingGlib:
        @staticmethod
        def g_free(pointer: Any) -> None:
            freed.append(fonts.ffi.string(pointer))
            stand_in_glib.g_free(pointer)

    def counted(description: Any) -> Any:
        name = pango_leak._NamingPango.pango_font_description_to_string(stand_in, description)
        made.append(fonts.ffi.string(name))
        return name

    stand_in_glib = stand_in._glib
    monkeypatch.setattr(stand_in, "_glib", CountingGlib)
    monkeypatch.setattr(stand_in, "pango_font_description_to_string", counted)
    render_pdf(api.roll(seed=3, tables=tables), tables)
    assert made and freed == made  # each name, once, as soon as it was read
