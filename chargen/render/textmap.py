"""The text behind every glyph of a whole font: the ToUnicode map of a font embedded whole.

Records for a batch PDF embed each font whole (chargen.render.pdf), so chargen.batch.pdfstream writes it
once per file instead of a subset per record. For a whole font WeasyPrint writes a text map from the
font's character map alone, so glyphs reached only through OpenType substitutions (small capitals,
lining and tabular figures, contextual letter forms) would copy and search as nothing. Here they get the
text of the glyph they stand for: the map is closed over the font's single, alternate and ligature
substitutions. Where two texts lead to one glyph, the lower-case one is kept; a ligature reads as its letters.
"""

from __future__ import annotations

import unicodedata
from io import BytesIO
from typing import Any

#: Entries per bfchar block: a CMap allows at most 100.
_BLOCK = 100
_HEAD = (
    b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
    b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
    b"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
    b"1 begincodespacerange\n<0000> <ffff>\nendcodespacerange\n"
)
_TAIL = b"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"


def glyph_texts(font_program: bytes) -> dict[int, str]:
    """Glyph id -> the text it shows, for every glyph the character map or a substitution reaches."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    font = TTFont(BytesIO(font_program), lazy=True)
    texts: dict[str, str] = {}
    for code, name in sorted(font.getBestCmap().items()):
        texts.setdefault(name, chr(code))
    mapped = frozenset(texts)
    substitutions = _substitutions(font)
    changed = True
    while changed:  # a substitute may itself be substituted (lnum, then tnum)
        changed = False
        for sources, target in substitutions:
            if not all(source in texts for source in sources):
                continue
            text = "".join(texts[source] for source in sources)
            if _better(text, texts.get(target), mapped=target in mapped):
                texts[target] = text
                changed = True
    order = {name: number for number, name in enumerate(font.getGlyphOrder())}
    return {order[name]: text for name, text in texts.items() if name in order}


def _better(text: str, known: str | None, *, mapped: bool) -> bool:
    """Whether `text` should replace `known` as a glyph's text: the plain letters of a ligature beat its
    presentation form from the character map (fi, not U+FB01), and for a glyph only substitutions reach,
    a lower-case text beats the same letters in capitals (small capitals come from both)."""
    if known is None:
        return True
    if text == known:
        return False
    if unicodedata.normalize("NFKC", known) == text:
        return True
    return not mapped and text.lower() == known.lower() and text.islower()


def _substitutions(font: Any) -> list[tuple[tuple[str, ...], str]]:
    """(source glyphs, result glyph) of every single, alternate and ligature substitution."""
    if "GSUB" not in font or font["GSUB"].table.LookupList is None:
        return []
    found: list[tuple[tuple[str, ...], str]] = []
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            if table.LookupType == 7:  # extension: the real subtable inside
                table = table.ExtSubTable
            if table.LookupType == 1:
                found.extend(((source,), target) for source, target in table.mapping.items())
            elif table.LookupType == 3:
                for source, targets in table.alternates.items():
                    found.extend(((source,), target) for target in targets)
            elif table.LookupType == 4:
                for first, ligatures in table.ligatures.items():
                    found.extend(((first, *ligature.Component), ligature.LigGlyph) for ligature in ligatures)
    return found


def to_unicode_cmap(font_program: bytes) -> bytes:
    """A complete ToUnicode CMap for the font (the body of its PDF stream, not compressed). Not cached
    here: chargen.render.wholefont keeps the map, and a cache here would keep the font program too."""
    entries = sorted(glyph_texts(font_program).items())
    lines = [_HEAD]
    for start in range(0, len(entries), _BLOCK):
        block = entries[start : start + _BLOCK]
        lines.append(b"%d beginbfchar\n" % len(block))
        lines.extend(
            b"<%04x> <%s>\n" % (glyph, text.encode("utf-16-be").hex().encode()) for glyph, text in block
        )
        lines.append(b"endbfchar\n")
    lines.append(_TAIL)
    return b"".join(lines)
