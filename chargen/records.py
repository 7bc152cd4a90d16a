"""How chargen's typed records are made: frozen, slotted dataclasses that are cheap to build and to import.

`frozen_record` is `@dataclass(frozen=True, slots=True)` with the methods that matter on the hot path and
at import made differently (`slot_init`'s `__init__`, `compared_by_fields`' comparison, hashing and repr),
and `positional_builder` makes the biggest records without a class call. chargen.model declares the
Character with them; the batch's plan and outputs use them too. tests/test_slot_init.py checks that each
behaves as dataclasses' own.
"""

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar, dataclass_transform

Record = TypeVar("Record", bound=type)
Made = TypeVar("Made")


def slot_init(kind: Record) -> Record:
    """A frozen, slotted dataclass given an `__init__` that stores each field through its slot's own setter.

    The `__init__` dataclasses writes for a frozen class calls `object.__setattr__` for each field (it must
    step around the `__setattr__` that refuses changes), which makes building these records a fifth of a
    roll's time, compiled or not; the slot's setter does the same store with a lookup less (about 40% less
    per record). Same signature, defaults and default factories; instances stay frozen. Put it above
    `@dataclass(frozen=True, slots=True)`; a class with `__post_init__` keeps dataclasses' own."""
    bound: dict[str, object] = {"_MISSING": MISSING}  # the names the new __init__ reads, and their values
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    if "__post_init__" in vars(kind):
        raise TypeError(f"slot_init: {kind.__name__} has a __post_init__; it needs dataclasses' own __init__")
    for item in fields(kind):
        name = item.name
        if not item.init:
            raise TypeError(f"slot_init: {kind.__name__}.{name} needs dataclasses' own __init__")
        bound[f"_set_{name}"] = vars(kind)[name].__set__
        parameter = name
        if item.default is not MISSING:
            bound[f"_default_{name}"] = item.default
            parameter = f"{name}=_default_{name}"
        elif item.default_factory is not MISSING:
            bound[f"_factory_{name}"] = item.default_factory
            parameter = f"{name}=_MISSING"
            body.append(f"        if {name} is _MISSING: {name} = _factory_{name}()")
        (keyword if item.kw_only else positional).append(parameter)
        body.append(f"        _set_{name}(self, {name})")
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    source = (
        f"def make({', '.join(bound)}):\n    def __init__({signature}) -> None:\n"
        + "\n".join(body or ["        pass"])
        + "\n    return __init__\n"
    )
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # made from the fields' names only, as dataclasses makes its own __init__
    init = namespace["make"](*bound.values())
    init.__qualname__ = f"{kind.__qualname__}.__init__"
    setattr(kind, "__init__", init)  # noqa: B010 - mypy refuses a plain assignment to a class's __init__
    return kind


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen_record(*, kw_only: bool = False) -> Callable[[type[Made]], type[Made]]:
    """`@dataclass(frozen=True, slots=True, kw_only=...)` with slot_init's `__init__`, and no `__init__` of
    dataclasses' own to replace: making that one cost chargen.model's import about 1.8 ms (8.5 -> 6.7 ms,
    compiled, Python 3.11), which every command waits for; nor its `__eq__`, `__hash__` and `__repr__`,
    which `compared_by_fields` gives. The class behaves as that dataclass otherwise (fields, repr,
    comparison, hashing, frozen, slots), though its `__dataclass_params__` say init, repr and eq are False
    (nothing reads them). dataclass_transform tells type checkers it has the `__init__` of its fields."""

    def made(kind: type[Made]) -> type[Made]:
        record = dataclass(frozen=True, slots=True, init=False, repr=False, eq=False, kw_only=kw_only)(kind)
        return slot_init(compared_by_fields(record))

    return made


def compared_by_fields(kind: Record) -> Record:
    """A dataclass given the `__eq__`, `__hash__` and `__repr__` dataclasses writes for a frozen class with
    `eq=True` (its fields' values in order, compared as a tuple, hashed as one; another class compares as
    NotImplemented; a repr of itself inside itself is "..."), as closures over one attrgetter of the fields
    rather than code compiled for each class: dataclasses compiles every method it writes with `exec`, which
    cost chargen.model's import about 2.5 ms of its 6.8 (Python 3.11, 15 classes), before every command.
    Every field takes part, so a field that asks to be left out of them (`compare=False`, `hash=` or
    `repr=False`) is refused rather than silently counted."""
    items = fields(kind)
    for item in items:
        if not (item.compare and item.repr) or item.hash is not None:
            raise TypeError(f"compared_by_fields: {kind.__name__}.{item.name} needs dataclasses' own methods")
    names = tuple(item.name for item in items)
    read = _fields_reader(names)

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(read(self) == read(other))
        return NotImplemented

    def __hash__(self: object) -> int:
        return hash(read(self))

    @recursive_repr()
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, read(self), strict=True))
        return f"{self.__class__.__qualname__}({shown})"

    for method in (__eq__, __hash__, __repr__):
        method.__qualname__ = f"{kind.__qualname__}.{method.__name__}"
        method.__module__ = kind.__module__
        setattr(kind, method.__name__, method)
    return kind


def _fields_reader(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    """A function giving a record's values of `names`, as a tuple (attrgetter gives a bare value for one)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        only = attrgetter(names[0])
        return lambda record: (only(record),)
    return lambda record: ()


def positional_builder(kind: type[Made]) -> Callable[..., Made]:
    """A function that makes a frozen, slotted `kind` from every field's value, in field order, positionally,
    storing through the slots as `slot_init`'s `__init__` does.

    For the compiled generation's biggest records (Character, Combat): calling a class with keywords hands
    `__init__` a dict of them to match name by name, which costs more than the record (measured from compiled
    code, Character's 39: 3.6 us by keyword against 2.2 us positionally, arguments included); this skips the
    class call too. Every field must be given; `tests/test_slot_init.py` checks the order is the fields'."""
    names = [item.name for item in fields(kind)]  # type: ignore[arg-type]
    bound: dict[str, object] = {"_new": object.__new__, "_kind": kind}
    bound |= {f"_set_{name}": vars(kind)[name].__set__ for name in names}
    source = (
        f"def make({', '.join(bound)}):\n    def build({', '.join(names)}):\n        self = _new(_kind)\n"
        + "".join(f"        _set_{name}(self, {name})\n" for name in names)
        + "        return self\n    return build\n"
    )
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # made from the fields' names only, as slot_init's __init__
    build: Callable[..., Made] = namespace["make"](*bound.values())
    build.__qualname__ = f"positional_builder.<{kind.__qualname__}>"
    return build
