"""Issue 22.5: the one reader of whole numbers and money (core/numbers.py) reads what a person means."""

from __future__ import annotations

import pytest

from scorekeeper.core.numbers import parse_cents, parse_int

LOOK_ALIKE_NUMBERS = [
    "١٠",
    "۱۰",
    "१०",
    "１０",
    "1_0",
    "+10",
    "10.0",
    "1e1",
    "²",
    "10\u00a0",
    "\u200b10",
    "",
    "-",
    "--1",
]


@pytest.mark.parametrize("text", LOOK_ALIKE_NUMBERS)
def test_a_whole_number_is_ascii_digits_only(text):
    assert parse_int(text) is None
    assert parse_int(text, signed=True) is None


@pytest.mark.parametrize(("text", "signed", "number"), [("10", False, 10), ("0", False, 0), ("-7", True, -7)])
def test_ascii_digits_are_read(text, signed, number):
    assert parse_int(text, signed=signed) == number


def test_a_minus_only_where_asked_for_and_no_more_digits_than_allowed():
    assert parse_int("-7") is None
    assert parse_int("123456", digits=5) is None
    assert parse_int(10) is None  # typed already: not text to read


@pytest.mark.parametrize(
    "text", ["١٠٠", "١,٥٠", "1_00", "1_0,00", "１０", "+10", "10,", ",5", "1,2,3", "1.000,00", "10,001", "-1", "1e2"]
)
def test_money_is_ascii_digits_with_one_decimal_comma_or_point(text):
    assert parse_cents(text) is None


@pytest.mark.parametrize(
    ("text", "cents"), [("0,10", 10), ("0.1", 10), ("12", 1200), (" 2,5 ", 250), ("1000,00", 100000)]
)
def test_money_is_read_as_cents(text, cents):
    assert parse_cents(text) == cents
