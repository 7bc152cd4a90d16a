"""Which characters a Character Record can print.

The record is set in the fonts chargen ships (EB Garamond, and the Noto fallbacks under
templates/fonts/fallback for Greek, Cyrillic, Hebrew and Arabic), never the machine's, so that a PDF is the
same everywhere. A name with a character none of them has (Chinese, Devanagari, emoji) would print as an
empty box: it is refused where it comes in (a character file, --name, a namer, a names table), with one
line naming the characters.
"""

from __future__ import annotations

from functools import lru_cache

from chargen.paths import templates_dir

#: How many of the characters a message names.
SHOWN = 5


@lru_cache(maxsize=1)
def printable_characters() -> frozenset[int]:
    """Every code point some shipped font has a glyph for (read once, only when a name is not ASCII)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    fonts = templates_dir() / "fonts"
    covered: set[int] = set()
    for path in sorted([*fonts.glob("*.woff"), *fonts.glob("fallback/*.ttf")]):
        with TTFont(path, lazy=True) as font:
            covered.update(font.getBestCmap() or {})
    return frozenset(covered)


def unprintable(text: str) -> list[str]:
    """The distinct characters of `text` that no shipped font has, in order (spaces always print)."""
    if text.isascii():
        return []
    covered = printable_characters()
    missing: list[str] = []
    for character in text:
        if not character.isspace() and ord(character) not in covered and character not in missing:
            missing.append(character)
    return missing


def check_printable(text: str) -> str:
    """`text`, or a ValueError naming the characters the record cannot print (a pydantic validator)."""
    if not text.isprintable():
        raise ValueError("holds a control character or line break; a name is one line of text")
    missing = unprintable(text)
    if missing:
        named = " ".join(missing[:SHOWN]) + (" ..." if len(missing) > SHOWN else "")
        raise ValueError(
            f"the Character Record cannot print {named} (its fonts have Latin, Greek, Cyrillic, Hebrew and "
            "Arabic letters)"
        )
    return text
