"""A stop for the memory WeasyPrint leaks in every text layout, so one process can render any number of
records at the memory of a few.

WeasyPrint's `Layout.setup` (text/line_break.py; measured with version 70) gives a layout whose style
asks for OpenType features (our small capitals and figures: nearly every layout of a record) a font-features
attribute in a new Pango attribute list, and frees neither: the list keeps the reference it was made with,
and `font_features.setdefault(key, pango_attr_font_features_new(...))` makes a new attribute each time even
when one is cached. About 0.2 MB a record, in C, out of reach of any cache clearing or `gc`.

The stop changes only what that one module calls Pango through (its `pango` name): the attribute is made
once per feature string and stays cached (what WeasyPrint meant), each list gets its own copy of it, and
the list's first reference is handed to the layout, which frees list and copy when it is freed itself.
Nothing drawn changes. It is applied only when the module holds that very code (its source compared, with
white space ignored): another version might free the list itself, and a second release would crash.

A second, smaller leak: WeasyPrint's `Font` (pdf/fonts.py) reads each font's name from the string
`pango_font_description_to_string` allocates and never frees it, about 130 bytes for each font of each
record (found with heaptrack: 102 kB more left unfreed over 400 records than over 100, 0.7 MB over 2,000).
`stop_naming_leak` hands that module a Pango whose call returns the string to be freed (g_free) as soon
as it has been read, under the same condition: only where the module holds that very code.
"""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

#: WeasyPrint's leaking lines, white space removed: the stop is applied only where they are found.
LEAKING_CODE = (
    "attr=style.font_config.font_features.setdefault(features,pango.pango_attr_font_features_new(features))"
    "attr_list=pango.pango_attr_list_new()"
    "pango.pango_attr_list_insert(attr_list,attr)"
    "pango.pango_layout_set_attributes(self.layout,attr_list)"
)


#: WeasyPrint's Font line that leaks the font's name, white space removed.
NAMING_CODE = "description_string=ffi.string(pango.pango_font_description_to_string(description))"
#: Where GLib's g_free may be, by platform (as WeasyPrint names its libraries).
GLIB_NAMES = (
    "libglib-2.0.so.0",
    "libglib-2.0-0",
    "glib-2.0-0",
    "glib-2.0",
    "libglib-2.0.0.dylib",
    "libglib-2.0-0.dll",
)


class _PangoStandIn:
    """WeasyPrint's Pango library as one of its modules sees it: every call Pango's own but those a
    subclass defines."""

    def __init__(self, library: Any, ffi: Any) -> None:
        self._library, self._ffi = library, ffi

    def __getattr__(self, name: str) -> Any:
        function = getattr(self._library, name)
        setattr(self, name, function)  # later calls find it without coming here
        return function


class _Pango(_PangoStandIn):
    """Pango as text/line_break.py sees it: the same but for three calls."""

    def __init__(self, library: Any, ffi: Any) -> None:
        super().__init__(library, ffi)
        self._cached: dict[bytes, Any] = {}  # feature string -> the one attribute made for it
        self._features: dict[int, bytes] = {}  # a cached attribute's address -> its feature string
        self._unowned: set[int] = set()  # lists filled by setup whose first reference nobody holds

    def _address(self, pointer: Any) -> int:
        return int(self._ffi.cast("uintptr_t", pointer))

    def pango_attr_font_features_new(self, features: bytes) -> Any:
        attribute = self._cached.get(features)
        if attribute is None:
            attribute = self._cached[features] = self._library.pango_attr_font_features_new(features)
            self._features[self._address(attribute)] = features
        return attribute

    def pango_attr_list_insert(self, attributes: Any, attribute: Any) -> None:
        features = self._features.get(self._address(attribute))
        if features is None:
            self._library.pango_attr_list_insert(attributes, attribute)
            return
        # The list owns what is inserted and frees it with itself: a copy, the cached one stays valid.
        self._library.pango_attr_list_insert(attributes, self._library.pango_attr_font_features_new(features))
        self._unowned.add(self._address(attributes))

    def pango_layout_set_attributes(self, layout: Any, attributes: Any) -> None:
        self._library.pango_layout_set_attributes(layout, attributes)
        address = self._address(attributes)
        if address in self._unowned:
            self._unowned.discard(address)
            self._library.pango_attr_list_unref(attributes)  # the layout holds the list now, alone


def stoppable() -> bool:
    """Whether the installed WeasyPrint holds the leaking code the stop is for: read from its file, so
    a process that renders nothing itself (a batch handing records to workers) need not import it."""
    spec = importlib.util.find_spec("weasyprint")
    if spec is None or spec.origin is None:
        return False
    try:
        source = (Path(spec.origin).parent / "text" / "line_break.py").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return _holds_leak(source)


def _holds_leak(source: str) -> bool:
    return LEAKING_CODE in _unspaced(source)


def _unspaced(source: str) -> str:
    """Source with its white space removed, as the leaking lines are compared."""
    return "".join(source.split())


def stop_leak(line_break: ModuleType, ffi: Any) -> bool:
    """Route `line_break`'s Pango calls through the stop when it holds the leaking code; True when the
    layouts it makes free their attributes (now or by an earlier call)."""
    if isinstance(getattr(line_break, "pango", None), _Pango):
        return True
    try:
        source = inspect.getsource(line_break.Layout.setup)
    except (AttributeError, OSError, TypeError):
        return False  # no source to compare (a frozen install): left as it is
    if not _holds_leak(source):
        return False
    line_break.pango = _Pango(line_break.pango, ffi)  # type: ignore[attr-defined]
    return True


class _NamingPango(_PangoStandIn):
    """Pango as pdf/fonts.py sees it: the string a font description is written into is freed once the
    last reference to it goes (WeasyPrint copies it out at once)."""

    def __init__(self, library: Any, ffi: Any, glib: Any) -> None:
        super().__init__(library, ffi)
        self._glib = glib  # GLib, opened through an FFI of chargen's own: g_free

    def pango_font_description_to_string(self, description: Any) -> Any:
        return self._ffi.gc(self._library.pango_font_description_to_string(description), self._glib.g_free)


def stop_naming_leak(fonts: ModuleType, ffi: Any) -> bool:
    """Route `fonts`' (WeasyPrint's pdf/fonts.py) Pango calls through the stop when it holds the leaking
    line and GLib can be opened; True when the names it reads are freed (now or by an earlier call)."""
    if isinstance(getattr(fonts, "pango", None), _NamingPango):
        return True
    try:
        source = _unspaced(inspect.getsource(fonts))
    except (OSError, TypeError):
        return False
    # The stand-in serves the whole module: the leaking line must be its only such call, and nothing in it
    # may free a name itself, or a name would be freed twice.
    if NAMING_CODE not in source or source.count("pango_font_description_to_string(") != 1:
        return False
    if "g_free" in source:
        return False
    glib = _glib()
    if glib is None:
        return False
    fonts.pango = _NamingPango(fonts.pango, ffi, glib)  # type: ignore[attr-defined]
    return True


def _glib() -> Any:
    """GLib's g_free through an FFI of chargen's own (WeasyPrint's declares no g_free); None where no GLib
    is found under the names WeasyPrint's platforms give it, and on Windows, where the DLL found by name
    could be another copy than Pango's, with a heap of its own."""
    import os

    if os.name == "nt":
        return None
    import cffi  # type: ignore[import-untyped]

    own = cffi.FFI()
    own.cdef("void g_free (void *mem);")
    for name in GLIB_NAMES:
        try:
            return own.dlopen(name)
        except OSError:
            continue
    return None
