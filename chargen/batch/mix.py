"""Weighted mixes (`fighter=3,adept=1`) and the stable per-NPC seeds that draw from them.

NPC i of seed S must be the same character whatever the count, the jobs or the order work finishes in,
so everything about NPC i is drawn from RNGs seeded by (S, i) alone, never from a run-wide stream.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import random
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from chargen.errors import InputError, shown
from chargen.names import resolve, unknown_name


@dataclass(frozen=True)
class Mix:
    """Choices with relative weights, in the order given (the order matters for the draw)."""

    choices: tuple[str, ...]
    weights: tuple[float, ...]
    #: The running totals of the weights, summed once (a batch draws from the mix for every NPC).
    cumulative: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cumulative", tuple(itertools.accumulate(self.weights)))

    @property
    def fixed(self) -> str | None:
        """The one choice when there is only one: nothing to draw."""
        return self.choices[0] if len(self.choices) == 1 else None

    def draw(self, rng: random.Random) -> str:
        """One weighted draw. Always consumes exactly one random number, so draws stay aligned."""
        cumulative = self.cumulative
        point = rng.random() * cumulative[-1]
        return self.choices[min(bisect.bisect_right(cumulative, point), len(self.choices) - 1)]


def parse_mix(option: str, text: str, known: Mapping[str, Any] | Iterable[str], what: str) -> Mix:
    """`fighter`, or `fighter=3,adept=1`: names checked against `known` (ids, or a table whose display names
    count too; with a did-you-mean), weights > 0."""
    choices: list[str] = []
    weights: list[float] = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        written, equals, weight_text = (side.strip() for side in part.partition("="))
        name = resolve(written, known)
        if name is None:
            raise unknown_name(option, written, known, what)
        weight = _weight(option, name, weight_text) if equals else 1.0
        if name in choices:
            raise InputError(f"{option}: {name!r} is given twice in {shown(text)}")
        choices.append(name)
        weights.append(weight)
    if not choices:
        raise InputError(f"{option}: give a name, or a weighted mix such as a=3,b=1")
    return Mix(tuple(choices), tuple(weights))


#: The largest weight: weights are relative, and a sum of huge ones (1e308 twice) is infinite, which
#: would make every draw the last choice.
MAX_WEIGHT = 1e9


def _weight(option: str, name: str, text: str) -> float:
    try:
        weight = float(text)
    except ValueError:
        raise InputError(f"{option}: weight of {name!r} must be a number, not {shown(text)}") from None
    if not 0 < weight <= MAX_WEIGHT:
        raise InputError(
            f"{option}: weight of {name!r} must be a positive number up to {MAX_WEIGHT:,.0f}, not {shown(text)}"
        )
    return weight


_FIRST_FOUR_BYTES = struct.Struct(">I").unpack_from


def derived_seed(run_seed: int, number: int, purpose: str) -> int:
    """A 31-bit seed for one NPC and one purpose. SHA-256 of the text, so it is the same on every
    platform and Python version (unlike hash()), and NPCs of nearby seeds share nothing."""
    digest = hashlib.sha256(f"chargen-batch:{run_seed}:{number}:{purpose}".encode()).digest()
    first: int = _FIRST_FOUR_BYTES(digest)[0]  # int.from_bytes(digest[:4], "big"), in a quarter less time
    return first & 0x7FFF_FFFF
