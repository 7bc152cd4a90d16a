"""The renderer's one error: a ChargenError whose one-line message names the field or file at fault."""

from __future__ import annotations

from chargen.errors import ChargenError


class RenderError(ChargenError):
    """The Character Record could not be made: a missing field, a broken template, a refused resource."""
