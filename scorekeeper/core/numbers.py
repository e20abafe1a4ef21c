"""The one reader of the numbers a person types or a form posts: whole numbers and money.

Only what a person means by a number passes: ASCII digits, for money one decimal comma or point.
``int()`` and a regular expression's ``\\d`` take much more (``"١٠"``, ``"1_0"``, ``"+1"``,
``"１０"``), which a field would then store as a number nobody typed. The JSON of the API and of
an import carries numbers typed already (``type(value) is int``) and never reads them from text.

>>> parse_int("12"), parse_int("²"), parse_int("-3"), parse_int(" 7"), parse_int("1_0"), parse_int("١٠")
(12, None, None, None, None, None)
>>> parse_int("-3", signed=True), parse_int("+3", signed=True), parse_int("-", signed=True)
(-3, None, None)
>>> parse_cents("0,10"), parse_cents("1.5"), parse_cents("2"), parse_cents(" 2 "), parse_cents("-1")
(10, 150, 200, 200, None)
>>> parse_cents("1,234"), parse_cents("١٠٠"), parse_cents("1_00"), parse_cents("1,"), parse_cents("1.0.0")
(None, None, None, None, None)
"""

from __future__ import annotations

import re
from typing import Any

#: Money as typed: up to ``4`` whole digits, one decimal comma or point and one or two more; spaces around.
_MONEY = re.compile(r"[ \t]*([0-9]{1,4})(?:[.,]([0-9]{1,2}))?[ \t]*")


def parse_int(value: Any, *, digits: int = 18, signed: bool = False) -> int | None:
    """A whole number written in ASCII digits only (at most ``digits`` of them; with ``signed``, a
    leading minus allowed), else None. Nothing around it, no ``+``, no ``_``, no other digits.

    Forms (web/forms.py ``WholeNumberField``), ids in forms and sessions, and the hand form read every
    number through here: ``"²"`` passes ``str.isdigit()`` and ``"1_0"`` passes ``int()``, but neither is
    a number a person typed.
    """
    if not isinstance(value, str):
        return None
    body = value[1:] if signed and value.startswith("-") else value
    if 0 < len(body) <= digits and body.isascii() and body.isdigit():
        return int(value)
    return None


def parse_cents(text: Any) -> int | None:
    """``"0,10"``, ``"0.1"`` or ``"2"`` (a currency amount) as integer cents; None if it is not one."""
    match = _MONEY.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    whole, part = match.groups()
    return int(whole) * 100 + int((part or "0").ljust(2, "0"))
