"""A night's hands as CSV for a spreadsheet: one row per hand, one column of units per player.

Also what a hand was, as the exports and the pages say it: :func:`played_by` (who declared),
:func:`hand_marks` (what changed its value). No Flask, no database: everything takes a loaded
:class:`~scorekeeper.core.table.Table`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper.core.table import Table
from scorekeeper.engine import GAMES, Mark

__all__ = ["CSV_HEADERS", "hand_marks", "night_csv", "played_by", "text_cell"]


#: A spreadsheet takes a cell starting with one of these for a formula (or its start).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(text: str) -> str:
    """A text cell that a spreadsheet shows as text: a leading formula character gets a ``'`` before it.

    >>> text_cell("=1+1"), text_cell("@Wirt"), text_cell("Anna"), text_cell("<b>x</b>")
    ("'=1+1", "'@Wirt", 'Anna', '<b>x</b>')
    """
    return "'" + text if text.startswith(_FORMULA_START) else text


def _summary(table: Table, index: int) -> str:
    """What hand ``index`` (0-based) was, as its game says it; a seat is named by its player."""
    said = GAMES[table.night.game].summary(table.settlement.hands[index])
    return table.players[table.positions[index][said - 1]].name if isinstance(said, int) else said


def played_by(table: Table, index: int) -> list[str]:
    """Who played hand ``index`` (0-based), by name, as the engine says it of the hand.

    The declaring side (:attr:`HandFacts.declarers`, with the hand's ``partner`` where it has
    one: a Rufen's or a Sauspiel's called partner; Konter a Matt: the trump team); where nobody
    declared, the seat the game's summary names (Matt: who gave mate). Nobody for a Ramsch,
    a Rundpass or a draw.
    """
    game = GAMES[table.night.game]
    hand, result = table.settlement.hands[index], table.settlement.results[index]
    seats = list(game.facts(hand, result).declarers)
    partner = getattr(hand, "partner", None)
    if seats and isinstance(partner, int) and partner not in seats:
        seats.append(partner)
    if not seats:
        said = game.summary(hand)
        if isinstance(said, int) and not isinstance(said, bool):
            seats = [said]
    positions = table.positions[index]
    return [table.players[positions[seat - 1]].name for seat in seats]


def hand_marks(table: Table, index: int) -> list[Mark]:
    """What changed hand ``index``'s (0-based) value, as its game says it (``Game.marks``)."""
    s = table.settlement
    return GAMES[table.night.game].marks(s.rules, s.hands[index], s.results[index])


#: The CSV's column headers by default (English, as the JSON keys say it; ``what``: the game's own header).
CSV_HEADERS: dict[str, str] = {
    "hand": "hand",
    "dealer": "dealer",
    "played_by": "played by",
    "marks": "marks",
    "value": "value",
    "pot": "pot",
    "strokes": "strokes",
    "game_won_by": "game won by",
    "match": "match",
}


def _carried(table: Table, words: Mapping[str, str]) -> tuple[list[str], Callable[[Any], list[Any]]]:
    """What a game carries from hand to hand, as the CSV's columns after each hand (read from its stored
    result): Konter a Matt's strokes of both teams and the team that won a game with the partie; Matt's
    match and its score. None for games that carry nothing."""
    results = table.settlement.results
    extra = results[0].extra if len(results) else {}
    if isinstance(extra.get("strokes"), Mapping):
        teams = list(extra["strokes"])
        header = [f"{words['strokes']} {team}" for team in teams] + [words["game_won_by"]]
        return header, lambda r: [r.extra["strokes"][team] for team in teams] + [r.extra.get("game_winner") or ""]
    if isinstance(extra.get("match_score"), Mapping):
        seats = list(extra["match_score"])
        names = [table.players[table.positions[0][int(seat) - 1]].name for seat in seats]
        header = [words["match"]] + [f"{words['match']} {name}" for name in names]
        return header, lambda r: [r.extra["match"]] + [r.extra["match_score"][seat] for seat in seats]
    return [], lambda r: []


def night_csv(
    table: Table,
    *,
    headers: Mapping[str, str] | None = None,
    hand_text: Callable[[int], str] | None = None,
    marks_text: Callable[[int], str] | None = None,
    delimiter: str = ",",
) -> str:
    """The night's hands as CSV text (RFC 4180: commas, ``"`` quoting where needed, CRLF line ends).

    Columns: ``hand`` (its number), ``dealer`` (a name), what the hand was
    (``contract``; Konter a Matt: the trump team and the points of A and B;
    Matt: who gave mate, or ``draw``), ``played by`` (the names of who declared,
    joined by `` + ``: see :func:`played_by`), ``marks`` (what changed the hand's value,
    as the game says it: ``Game.marks``, the table page's badges), ``value`` (the hand's value in units),
    then one column per player, by name in seat order, with that player's units
    for the hand (0 for the dealer sitting out at a table of five; Matt: match
    points). A Schafkopf night played with the pot ends with ``pot``: the units
    the hand put into the pot (negative: taken out), so that every row adds up
    to zero. A game that carries something from hand to hand has it after the value:
    Konter a Matt the strokes of both teams and the team that won a game; Matt the
    match and its score. A night that pays no unit (Konter a Matt without a stake:
    ``Game.uses_stake``) has no player columns, which would be zeros. ``delimiter``:
    ``,`` (RFC 4180), or ``;`` where a reader's spreadsheet expects it (German).
    Numbers are written as numbers; text that a spreadsheet would take
    for a formula (starting with ``= + - @``) is written with a ``'`` before it.

    A caller that speaks the reader's language gives the ``headers`` (keys as in
    :data:`CSV_HEADERS`, and ``what`` for the third column), ``hand_text``: what
    hand ``index`` (0-based) was, for the third column, and ``marks_text``: its marks
    (by default their keys).
    """
    night = table.night
    game = GAMES[night.game]
    words = {**CSV_HEADERS, "what": game.summary_header, **(headers or {})}
    text_of = hand_text or (lambda index: _summary(table, index))
    marks_of = marks_text or (lambda index: ", ".join(m.key for m in hand_marks(table, index)))
    positions = sorted(table.players) if game.scores_hands(table.settlement.rules) else []
    with_pot = table.settlement.pot is not None
    carried_header, carried = _carried(table, words)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    header: list[Any] = [words[key] for key in ("hand", "dealer", "what", "played_by", "marks", "value")]
    header = [text_cell(h) for h in [*header, *carried_header]] + [text_cell(table.players[p].name) for p in positions]
    if with_pot:
        header.append(text_cell(words["pot"]))
    writer.writerow(header)
    for index, (hand, result, row) in enumerate(zip(table.hands, table.settlement.results, table.rows, strict=True)):
        cells: list[Any] = [
            hand.number,
            text_cell(table.players[hand.dealer].name),
            text_cell(text_of(index)),
            text_cell(" + ".join(played_by(table, index))),
            text_cell(marks_of(index)),
            result.value,
            *carried(result),
        ]
        cells += [row[p - 1] for p in positions]
        if with_pot:
            cells.append(result.pot)
        writer.writerow(cells)
    return out.getvalue()
