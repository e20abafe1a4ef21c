"""What the pages show of a settled table: names, money, translated steps."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from scorekeeper.core.exchange.spreadsheet import hand_marks, played_by
from scorekeeper.core.models import AuditEntry, RosterChange
from scorekeeper.core.players import sound_detail
from scorekeeper.core.table import Table
from scorekeeper.engine import HandResult, Mark, ledger
from scorekeeper.web.hands.forms import FORMS
from scorekeeper.web.labels import CONTRACT_LABELS
from scorekeeper.web.steps import mark_text, step_text


def decimal_mark() -> str:
    """The page's decimal mark: ``,`` in German, ``.`` in English."""
    return "." if str(get_locale() or "de") == "en" else ","


#: U+00A0 NO-BREAK SPACE: between a figure and its word ("0.40 EUR", "17 units"), which a line never parts.
NBSP = "\u00a0"


def money(amount_cents: int, currency: str) -> str:
    """Money in the user's notation for a page or a PDF: ``-3,50 EUR`` in German, ``-3.50 EUR`` in English, the
    amount and its currency held together by a no-break space (a phone's line never parts them). The exports
    and the API, which machines read, give cents as numbers and never ask this."""
    return ledger.format_money(amount_cents, currency, decimal_mark()).replace(" ", NBSP)


def unit_count(n: int) -> str:
    """A count of units in the user's language, the figure and its word held together as :func:`money` holds
    an amount: ``17 units``, ``1 Einheit``."""
    return ngettext("%(num)d unit", "%(num)d units", n).replace(" ", NBSP)


_TAG = re.compile(r"<[^>]*>")
_SPACES = re.compile(r"[ \t\r\n\f\v]+")


def plain_text(markup: str) -> str:
    """A piece of a page as plain text (the settlement's Share text): its tags left out, its entities read,
    each run of spaces and line ends one space, and a no-break space kept where :func:`money` wrote one
    (Jinja's ``striptags`` makes it a space). ``<strong>Anna</strong> pays 0.40\u00a0EUR``: ``Anna pays
    0.40\u00a0EUR``."""
    return _SPACES.sub(" ", Markup(_TAG.sub("", str(markup))).unescape()).strip()


def css_string(text: str) -> Markup:
    """``text`` as a quoted CSS string for a <style> element (the PDFs' page footers), where HTML reads no
    entities: a text the template escaped (Markup) read back to its letters, then quotes, backslashes, angle
    brackets and control characters as CSS escapes, so a name shows as written and never ends the string
    nor the element. ``Kegel & "Karten"``: ``"Kegel & \\22 Karten\\22 "``."""
    plain = text.unescape() if isinstance(text, Markup) else str(text)
    escaped = "".join(f"\\{ord(c):x} " if c in '"\\<>' or ord(c) < 0x20 or ord(c) == 0x7F else c for c in plain)
    return Markup(f'"{escaped}"')


def hundredths(value: int | None) -> str:
    """Hundredths as a signed decimal in the user's notation, in integers: ``+1,25``; ``–`` for None.

    (Units per hand on the history pages are kept in hundredths.)
    """
    if value is None:
        return "–"
    whole, part = divmod(abs(value), 100)
    return f"{'-' if value < 0 else '+' if value else ''}{whole}{decimal_mark()}{part:02d}"


#: What each game calls one hand, in the page's language: one word per thing on every page, in the
#: PDF and the CSV. Matzlfangen and Schafkopf: a Spiel (English: a hand, as the card table says; a
#: "game" would be the game itself). Konter a Matt: a Partie (English: partie, parties, as the
#: engine and docs/rules.md say; its "Spiel", the game, is the run of parties until a team's
#: strokes reach 0). Matt: a Durchgang in both languages (English has no word for it: "round" is
#: two Durchgänge in the rules; its "Partie", the match, is four Durchgänge).
#: Each: (heading or start of a sentence, its plural, inside a sentence, its plural).
HAND_WORDS: dict[str, tuple[Any, Any, Any, Any]] = {
    "matzlfangen": (_l("Hand"), _l("Hands"), _l("hand"), _l("hands")),
    "schafkopf": (_l("Hand"), _l("Hands"), _l("hand"), _l("hands")),
    "konter_a_matt": (_l("Partie"), _l("Parties"), _l("partie"), _l("parties")),
    "matt": (_l("Durchgang"), _l("Durchgänge"), _l("Durchgang"), _l("Durchgänge")),
}


def hand_word(game: str, n: int | str | None = None, *, plural: bool = False, lower: bool = False) -> str:
    """The game's word for a hand in the page's language: ``hand_word("matt")`` "Durchgang",
    ``plural=True`` "Durchgänge", with a number ``hand_word("konter_a_matt", 3)`` "Partie 3";
    ``lower=True`` inside a sentence ("Show all 40 hands": English writes the word small, German
    and the Durchgang keep their capital). A game without its own word says hand."""
    words = HAND_WORDS.get(game, HAND_WORDS["schafkopf"])
    word = str(words[2 * lower + plural])
    return word if n is None else f"{word} {n}"


def roster_text(change: RosterChange) -> str:
    """One roster change as a sentence in the user's language: of a detail stored with a broken part (a
    club file imported before its roster changes were checked), the sentence without that part
    (core/players.py ``sound_detail``)."""
    d = sound_detail(change)
    if change.action == "rename":
        if "before" in d and "after" in d:
            return _("renamed from %(before)s to %(after)s", before=d["before"], after=d["after"])
        if "after" in d:
            return _("renamed to %(after)s", after=d["after"])
        if "before" in d:
            return _("renamed from %(before)s", before=d["before"])
        return _("renamed")
    if change.action == "merge":
        merged = d.get("merged")
        if merged is not None and "nights" in d:
            return _("%(merged)s merged into this record (%(nights)d nights)", merged=merged, nights=d["nights"])
        if merged is not None:
            return _("%(merged)s merged into this record", merged=merged)
        return _("another record merged into this one")
    if change.action == "retire":
        return _("retired")
    if change.action == "member":
        return _("made a member of the club (was a tournament's guest)")
    if change.action == "unretire":
        return _("back on the roster")
    return _("changed on the roster")


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
    seats: tuple[str, ...] = ()  # the name of each engine seat, seat 1 first
    make_marks: Callable[[], Sequence[Mark]] | None = None  # what changed its value (``Game.marks``), when asked

    @cached_property
    def mark_list(self) -> tuple[Mark, ...]:
        return () if self.make_marks is None else tuple(self.make_marks())

    @cached_property
    def played_by(self) -> str:
        """Who played the hand, as one text: the side as its ``side`` mark names it (Konter a Matt:
        "Trumps: team A (Anna + Dieter)"), else the names: ``Anna + Dieter``; empty where nobody declared."""
        side = next((m for m in self.mark_list if m.key == "side"), None)
        if side is not None:
            return mark_text(side, dict(enumerate(self.seats, start=1)))
        return " + ".join(self.players)

    @cached_property
    def marks(self) -> list[str]:
        """The marks that changed the hand's value (but its side), as short labels in the page's language."""
        names = dict(enumerate(self.seats, start=1))
        return [mark_text(m, names) for m in self.mark_list if m.key != "side"]

    @cached_property
    def steps(self) -> list[tuple[str, int, int]]:
        """text, units, total: translated when a page first shows them (the API never does)."""
        return steps_of(self.result, dict(enumerate(self.seats, start=1)))

    @cached_property
    def after(self) -> list[str]:
        """What the hand leaves for the next, as its row, the preview and the PDF's log say it."""
        return after_texts(self.result, self.seats)


def after_texts(result: HandResult, seats: Sequence[str]) -> list[str]:
    """What a hand leaves behind, read from its result (the state after it, stored with it: nothing
    is settled again). Konter a Matt: both teams' strokes after the partie, and the game the partie
    won. Matt: both players' points in the Durchgang, the match's score after it, and the match's
    winner when it ended. Nothing for games that carry nothing from hand to hand."""
    extra, texts = result.extra, []
    strokes = extra.get("strokes")
    if isinstance(strokes, Mapping):
        texts.append(_("Strokes after the partie: A %(a)s : %(b)s B", a=strokes.get("A"), b=strokes.get("B")))
        if extra.get("game_winner"):
            texts.append(_("Game %(n)s won by team %(team)s", n=extra.get("game"), team=extra["game_winner"]))
    score = extra.get("match_score")
    if isinstance(score, Mapping) and len(seats) == 2 == len(result.deltas):
        texts.append(f"{seats[0]} {result.deltas[0]} : {result.deltas[1]} {seats[1]}")
        texts.append(_("Match %(a)s : %(b)s", a=score.get("1"), b=score.get("2")))
        if extra.get("match_over"):
            winner = extra.get("match_winner")
            texts.append(_("Match won by %(name)s", name=seats[winner - 1]) if winner else _("Match ended level"))
    return texts


def steps_of(result: HandResult, names: Mapping[int, str] | None = None) -> list[tuple[str, int, int]]:
    """Each step as (text, units, running total); ``names``: engine seat -> player's name."""
    return [(step_text(s, names), s.units, s.total) for s in result.steps]


def payments(table: Table, number: int) -> list[Payment]:
    """Hand ``number``: each player's units (Matt: points) and the money it pays them (``Table.hand_money``:
    Matt's money is the balance's, never the points at the stake)."""
    units, cents = table.rows[number - 1], table.hand_money(number)
    return [Payment(table.players[p].name, units[p - 1], cents[p - 1]) for p in sorted(table.players)]


def hand_view(table: Table, number: int) -> HandView:
    """Hand ``number`` (1-based) as the pages show it."""
    h, r = table.hands[number - 1], table.settlement.results[number - 1]
    players = tuple(played_by(table, number - 1))
    seats = tuple(table.players[p].name for p in table.positions[number - 1])

    def marks() -> list[Mark]:
        return hand_marks(table, number - 1)

    return HandView(h.number, table.players[h.dealer].name, r, payments(table, number), h.data, players, seats, marks)


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
    """One change of a hand as a sentence: "Hand 2 changed: Points 25 → 35" (seats named by their
    players; the hand in its game's word: "Partie 2", "Durchgang 2")."""
    number = entry.hand_number
    hand = hand_word(table.night.game, number)
    if entry.action == "record":
        return _("%(hand)s recorded", hand=hand)
    if entry.action == "undo":
        return _("%(hand)s taken back", hand=hand)
    if entry.action != "edit":
        return _("%(hand)s: %(action)s", hand=hand, action=entry.action)
    form = FORMS.get(table.night.game)
    seat_fields = tuple(getattr(form, "SEAT_FIELDS", ()))
    names = seat_names(table, table.deal(number).positions) if number else {}
    before, after = entry.before or {}, entry.after or {}
    changes = [
        f"{_field_label(form, key)} {_audit_value(before.get(key), key, seat_fields, names)}"
        f" → {_audit_value(after.get(key), key, seat_fields, names)}"
        for key in [*before, *(k for k in after if k not in before)]
        if before.get(key) != after.get(key)
    ]
    if not changes:
        return _("%(hand)s saved unchanged", hand=hand)
    return _("%(hand)s changed: %(changes)s", hand=hand, changes="; ".join(changes))


@dataclass(frozen=True)
class MatchView:
    """Matt: the match of the last Durchgang (under way, or ended by it), as the table page shows it."""

    number: int  # the match: 1, 2, …
    names: tuple[str, ...]  # seat 1's player, seat 2's
    durchgaenge: list[tuple[int, int, int]]  # each Durchgang: its hand number, seat 1's points, seat 2's
    score: tuple[int, int]
    over: bool
    winner: str | None  # who won it once it is over; None while under way or when it ended level


def current_match(table: Table) -> MatchView | None:
    """The match of the night's last Durchgang, from the results stored with its Durchgänge (at
    most four are read); None before the first Durchgang or for a game without matches."""
    results = table.settlement.results
    extra = results[-1].extra if len(results) else {}
    score = extra.get("match_score")
    if not isinstance(score, Mapping):
        return None
    count = len(results)
    first = count - int(extra.get("durchgang", 1))
    names = tuple(table.players[p].name for p in table.positions[count - 1])
    rows = [(i + 1, *results[i].deltas[:2]) for i in range(max(first, 0), count)]
    winner = extra.get("match_winner")
    return MatchView(
        int(extra.get("match", 1)),
        names,
        rows,
        (int(score.get("1", 0)), int(score.get("2", 0))),
        bool(extra.get("match_over")),
        names[winner - 1] if winner else None,
    )
