"""Reading typed fields out of JSON objects, with errors that name the field.

Every reader takes the object, the key, the hand index (for the error) and the
constraints. ``MISSING`` as default means the key is required. JSON booleans are
never accepted as integers, and numbers are never accepted as booleans.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from .errors import N_, InvalidHand

MISSING: Any = object()

_TYPE_NAMES = {
    bool: "true or false",
    int: "a whole number",
    str: "a text",
    list: "a list",
    dict: "an object",
    type(None): "null",
}


SHOWN_MAX = 40  # characters of a sent text that a message repeats


def shown(value: Any) -> str:
    """A value as the JSON writer wrote it: ``true``, ``null``, ``'text'``, ``3``; a long text cut short.

    >>> shown(True), shown(None), shown("rufen"), shown(3), shown("x" * 50)
    ('true', 'null', "'rufen'", '3', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'")
    """
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    if isinstance(value, str) and len(value) > SHOWN_MAX:
        return repr(value[: SHOWN_MAX - 1] + "…")
    if isinstance(value, int) and value.bit_length() > 64:
        return "a whole number"  # too long to repeat (and a word the pages translate)
    return repr(value)


def type_name(value: Any) -> str:
    """Plain-words name of a JSON value's type."""
    if isinstance(value, float):
        return "a decimal number"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _literal(text: str) -> str:
    """``text`` as a part of a message template: its braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def check_object(data: Any, hand: int | None, field: str, what: str) -> Mapping:
    """Return ``data`` if it is a JSON object, else raise."""
    if not isinstance(data, dict):
        template = _literal(what) + " must be an object, not {type}"  # said in English: no page sends one
        raise InvalidHand(hand, field, template, type=type_name(data))
    return data


def check_keys(data: Mapping, allowed: frozenset[str], hand: int | None, prefix: str = "") -> None:
    """Unknown keys are errors, never silently ignored."""
    if allowed.issuperset(data):
        return
    for key in data:
        if key not in allowed:
            raise InvalidHand(hand, prefix + str(key), "unknown field {key}", key=shown(key))


def check_fields(
    data: Mapping, allowed: frozenset[str], known: frozenset[str], hand: int | None, contract: str
) -> None:
    """Every key must be ``known`` (else: unknown field) and ``allowed`` here (else: does not apply to ``contract``)."""
    if not allowed.issuperset(data):
        key = min(data.keys() - allowed, key=str)
        if key not in known:
            raise InvalidHand(hand, str(key), "unknown field {key}", key=shown(key))
        raise InvalidHand(hand, key, "{name} does not apply to {contract}", name=key, contract=contract)


def forbid(data: Mapping, names: Iterable[str], hand: int | None, reason: str) -> None:
    """Fields that do not apply (to this contract, say) are errors, whatever their value."""
    for name in names:
        if name in data:
            template = "{name} " + _literal(reason)  # a page says it in its own words (web/messages.py)
            raise InvalidHand(hand, name, template, name=name)


def _missing(hand: int | None, name: str) -> InvalidHand:
    return InvalidHand(hand, name, "{name} is required", name=name)


def get_int(data: Mapping, name: str, hand: int | None, lo: int, hi: int | None, default: Any = MISSING) -> Any:
    """A whole number in ``lo..hi`` (``hi`` None: no upper bound)."""
    value = data.get(name, MISSING)
    if value is MISSING:
        if default is MISSING:
            raise _missing(hand, name)
        return default
    if type(value) is not int:
        raise InvalidHand(hand, name, "{name} must be a whole number, not {type}", name=name, type=type_name(value))
    if value < lo or (hi is not None and value > hi):
        if hi is None:
            raise InvalidHand(hand, name, "{name} must be at least {lo}", name=name, lo=lo)
        raise InvalidHand(hand, name, "{name} must be between {lo} and {hi}", name=name, lo=lo, hi=hi)
    return value


def get_bool(data: Mapping, name: str, hand: int | None, default: Any = MISSING) -> Any:
    """``true`` or ``false``."""
    value = data.get(name, MISSING)
    if value is MISSING:
        if default is MISSING:
            raise _missing(hand, name)
        return default
    if type(value) is not bool:
        raise InvalidHand(hand, name, "{name} must be true or false, not {type}", name=name, type=type_name(value))
    return value


def get_choice(data: Mapping, name: str, hand: int | None, choices: Collection[Any], default: Any = MISSING) -> Any:
    """One of ``choices`` (texts, or ``None`` for JSON null)."""
    value = data.get(name, MISSING)
    if value is MISSING:
        if default is MISSING:
            raise _missing(hand, name)
        return default
    if (value is not None and type(value) is not str) or value not in choices:
        names = ", ".join("null" if c is None else str(c) for c in choices)
        raise InvalidHand(
            hand, name, "{name} must be one of {choices}, not {value}", name=name, choices=names, value=shown(value)
        )
    return value


def get_seat(data: Mapping, name: str, hand: int | None, seats: int, default: Any = MISSING) -> Any:
    """A seat number ``1..seats``."""
    value = data.get(name, MISSING)
    if value is MISSING:
        if default is MISSING:
            raise _missing(hand, name)
        return default
    if type(value) is not int:
        raise InvalidHand(hand, name, "{name} must be a seat number, not {type}", name=name, type=type_name(value))
    if not 1 <= value <= seats:
        raise InvalidHand(
            hand, name, "{name} must be a seat from 1 to {seats}, not {value}", name=name, seats=seats, value=value
        )
    return value


def seat_keys(seats: int) -> tuple[str, ...]:
    """The JSON keys of the seats: ``("1", "2", ...)``."""
    return tuple(str(s) for s in range(1, seats + 1))


def get_points_and_schwarz(data: Mapping, hand: int | None, total: int, needed: int) -> tuple[int, bool, bool]:
    """The declaring side's card points (0..``total``), ``schwarz``, and whether they won (``needed``).

    A losing side that took no trick has no card points: ``schwarz`` with points is an error.
    """
    points = get_int(data, "points", hand, 0, total)
    schwarz = "schwarz" in data and get_bool(data, "schwarz", hand)
    won = points >= needed
    losers_points = total - points if won else points
    if schwarz and losers_points:
        template = (
            N_("the defenders took no trick, so they cannot have {points} points")
            if won
            else N_("the declarers took no trick, so they cannot have {points} points")
        )
        raise InvalidHand(hand, "schwarz", template, points=losers_points)
    return points, schwarz, won


#: What :meth:`Problems.read` gives for a field it refused (the hand is refused at the end).
FAILED: Any = object()


class Problems:
    """The problems of one hand, collected so that all of them are reported at once, not the first.

    Each independent reading goes through :meth:`read` (a refusal is kept, the reading gives
    :data:`FAILED`); a check that needs a value read before is skipped where that value failed. At the
    end :meth:`check` raises the first refusal with the others as its :attr:`InvalidHand.also`.

    >>> p = Problems()
    >>> p.read(get_seat, {}, "partner", 0, 4) is FAILED, p.read(get_int, {"points": 130}, "points", 0, 0, 120) is FAILED
    (True, True)
    >>> [e.field for e in p.found]
    ['partner', 'points']
    """

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found: list[InvalidHand] = []

    def read(self, reader: Any, *args: Any, **kwargs: Any) -> Any:
        """``reader(*args, **kwargs)``, or :data:`FAILED` with its refusal kept."""
        try:
            return reader(*args, **kwargs)
        except InvalidHand as exc:
            self.found.append(exc)
            return FAILED

    def add(self, exc: InvalidHand) -> None:
        """A refusal found by a check of its own."""
        self.found.append(exc)

    def check(self) -> None:
        """:raises InvalidHand: the first problem found, with the others as its ``also``."""
        if self.found:
            first, *rest = self.found
            first.also = tuple(rest)
            raise first
