"""What the pages show of a settled table: names, money, translated steps."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Any

from flask_babel import get_locale
from flask_babel import gettext as _

from scorekeeper.core.exports import played_by
from scorekeeper.core.models import AuditEntry, RosterChange
from scorekeeper.core.table import Table
from scorekeeper.engine import HandResult, ledger
from scorekeeper.web.hands.forms import FORMS
from scorekeeper.web.labels import CONTRACT_LABELS
from scorekeeper.web.steps import step_text


def money(amount_cents: int, currency: str) -> str:
    """Money in the user's notation: ``-3,50 EUR`` in German, ``-3.50 EUR`` in English."""
    decimal = "." if str(get_locale() or "de") == "en" else ","
    return ledger.format_money(amount_cents, currency, decimal)


def day(value: date) -> str:
    """A date in the user's notation: ``21.11.2026`` in German, ``2026-11-21`` in English."""
    return value.strftime("%d.%m.%Y") if str(get_locale() or "de") == "de" else value.isoformat()


def hundredths(value: int | None) -> str:
    """Hundredths as a signed decimal in the user's notation, in integers: ``+1,25``; ``–`` for None.

    (Units per hand on the history pages are kept in hundredths.)
    """
    if value is None:
        return "–"
    whole, part = divmod(abs(value), 100)
    decimal = "." if str(get_locale() or "de") == "en" else ","
    return f"{'-' if value < 0 else '+' if value else ''}{whole}{decimal}{part:02d}"


def roster_text(change: RosterChange) -> str:
    """One roster change as a sentence in the user's language."""
    d = change.detail
    if change.action == "rename":
        return _("renamed from %(before)s to %(after)s", before=d.get("before"), after=d.get("after"))
    if change.action == "merge":
        return _(
            "%(merged)s merged into this record (%(nights)d nights)", merged=d.get("merged"), nights=d.get("nights", 0)
        )
    if change.action == "retire":
        return _("retired")
    return _("back on the roster")


@dataclass(frozen=True)
class Payment:
    name: str
    units: int
    cents: int


@dataclass(frozen=True)
class HandView:
    number: int
    dealer: str
    result: HandResult
    payments: list[Payment]
    data: dict[str, Any]
    players: tuple[str, ...] = ()  # who played it: the declaring side, or who gave mate (see played_by)

    @property
    def played_by(self) -> str:
        """The names of who played the hand, as one text: ``Anna + Dieter``; empty where nobody declared."""
        return " + ".join(self.players)

    @cached_property
    def steps(self) -> list[tuple[str, int, int]]:
        """text, units, total: translated when a page first shows them (the API never does)."""
        return steps_of(self.result)


def steps_of(result: HandResult) -> list[tuple[str, int, int]]:
    return [(step_text(s), s.units, s.total) for s in result.steps]


def payments(table: Table, units_by_position: list[int]) -> list[Payment]:
    stake = table.night.stake_cents
    return [
        Payment(table.players[p].name, units_by_position[p - 1], ledger.cents(units_by_position[p - 1], stake))
        for p in sorted(table.players)
    ]


def hand_view(table: Table, number: int) -> HandView:
    """Hand ``number`` (1-based) as the pages show it."""
    h, r, row = table.hands[number - 1], table.settlement.results[number - 1], table.rows[number - 1]
    players = tuple(played_by(table, number - 1))
    return HandView(h.number, table.players[h.dealer].name, r, payments(table, row), h.data, players)


def hand_views(table: Table, newest_first: bool = True, limit: int | None = None) -> list[HandView]:
    """The hands as the pages show them; with ``limit``, only the newest (or first) ones are built."""
    numbers = list(range(1, len(table.hands) + 1))
    if newest_first:
        numbers.reverse()
    if limit is not None:
        numbers = numbers[:limit]
    return [hand_view(table, n) for n in numbers]


def seat_names(table: Table, positions: tuple[int, ...]) -> dict[int, str]:
    """Engine seat -> the player's name, for one hand."""
    return {seat: table.players[p].name for seat, p in enumerate(positions, start=1)}


def _field_label(form: Any, key: str) -> str:
    """The hand form's label of a hand's key (``points`` -> "Points of the declaring side"), else the key."""
    field = getattr(form, key, None) if form is not None else None
    args = getattr(field, "args", None)
    return str(args[0]) if args else key


def _audit_value(value: Any, key: str, seat_fields: tuple[str, ...], names: dict[int, str]) -> str:
    """A value of a stored hand in the page's words: a seat by its player, yes/no, a contract's label."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key in seat_fields and isinstance(value, int):
        return names.get(value, str(value))
    if key == "contract" and isinstance(value, str):
        return str(CONTRACT_LABELS.get(value, value))
    if isinstance(value, dict):
        return ", ".join(
            f"{names.get(int(k), k) if str(k).isdigit() else k} {_audit_value(v, '', (), names)}"
            for k, v in value.items()
        )
    if isinstance(value, list | tuple):
        return ", ".join(_audit_value(v, "", (), names) for v in value)
    return str(value)


def audit_text(table: Table, entry: AuditEntry) -> str:
    """One change of a hand as a sentence: "Hand 2 changed: Points 25 → 35" (seats named by their players)."""
    number = entry.hand_number
    if entry.action == "record":
        return _("Hand %(n)s recorded", n=number)
    if entry.action == "undo":
        return _("Hand %(n)s taken back", n=number)
    if entry.action != "edit":
        return _("Hand %(n)s: %(action)s", n=number, action=entry.action)
    form = FORMS.get(table.night.game)
    seat_fields = tuple(getattr(form, "SEAT_FIELDS", ()))
    names = seat_names(table, table.positions_for(number)) if number else {}
    before, after = entry.before or {}, entry.after or {}
    changes = [
        f"{_field_label(form, key)} {_audit_value(before.get(key), key, seat_fields, names)}"
        f" → {_audit_value(after.get(key), key, seat_fields, names)}"
        for key in [*before, *(k for k in after if k not in before)]
        if before.get(key) != after.get(key)
    ]
    if not changes:
        return _("Hand %(n)s saved unchanged", n=number)
    return _("Hand %(n)s changed: %(changes)s", n=number, changes="; ".join(changes))
