"""The night's summary as a PDF (WeasyPrint): the page's template partial, then the full hand log.

The hand log is most of the PDF and most of WeasyPrint's work, which grows with the boxes it
lays out (a table cell costs about a millisecond, whatever it holds). So each hand is one row of
two cells: its number, dealer and steps as one text, and its value and every player's units as
one line of DejaVu Sans Mono, padded here into fixed-width fields under the header's names."""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from flask import current_app, render_template
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.core.nights import pot_moved
from scorekeeper.core.summary import Summary, summarize
from scorekeeper.core.table import Table
from scorekeeper.core.tournaments import table_of
from scorekeeper.engine import GAMES
from scorekeeper.web.charts import (
    FONT,
    HEIGHT,
    PDF_FONT,
    PDF_HEIGHT,
    PDF_WIDTH,
    WIDTH,
    chart_svg,
    legend_html,
    money_tick,
)
from scorekeeper.web.context import get_db
from scorekeeper.web.hands.forms import CONTRACT_LABELS
from scorekeeper.web.labels import GAME_LABELS

#: DejaVu Sans Mono's advance (1233/2048 em): the log's figures are whole characters of it, so
#: a field of them is ``characters * MONO_EM`` em wide.
MONO_EM = 1233 / 2048
#: DejaVu Sans's digits and U+2007 FIGURE SPACE are this wide (1303/2048 em): a hand's number
#: padded with figure spaces and one more (which, unlike a space, never breaks the line) is
#: ``(digits + 1) * FIGURE_EM`` em wide, where the hand's text (and its next lines) start.
FIGURE_EM = 1303 / 2048
FIGURE_SPACE = "\u2007"
#: The fields' widths, in characters: the value's, and a player's at least (a player's field
#: widens for the longest word of the name above it, which wraps at spaces and after hyphens).
VALUE_CHARS = 6
PLAYER_CHARS = 8
#: All fields together at most, in characters (about 97 mm of the page's 182: five players' fields
#: of 10 and the value's), so the hands' text keeps a column of 70 mm at least: the widest names'
#: fields give way first, and a word of a name wider than its field is then hyphenated in the head
#: (the PDF's ``hyphens: auto``, in the page's language), or broken where it must. At 76 (129 mm),
#: five names of long words left the text 39 mm, a hand ten lines.
FIGURES_CHARS_MAX = 57
#: The gap before a name in the log's head (its cell's padding): two names' lines side by side,
#: right-aligned, read as two (at 1.5pt, "Weißen-bacher Sebastian" read as one name).
NAME_GAP = "4pt"


def team_names(table: Table) -> list[tuple[str, str]]:
    """Each of the game's fixed teams (the engine's seats) and its players: ``[("A", "Anna + Clara"), ...]``;
    none for a game without teams."""
    teams = GAMES[table.night.game].teams
    return [(team, " + ".join(table.players[seat].name for seat in seats)) for team, seats in teams.items()]


def night_chart(table: Table, summary: Summary, in_pdf: bool = False) -> tuple[Markup | None, str]:
    """The night's chart and its caption: what the table counted over the night, drawn for a phone's
    page or (``in_pdf``) for the PDF's A4 (:mod:`scorekeeper.web.charts`). A night with no hand yet has
    none, and a sentence that says so for its caption (a chart of nothing drew a scale up to 1,00).

    A game of fixed teams (Konter a Matt): both teams' strokes after each hand, from the start;
    its money moves only when a game ends, and not at all without a stake. A night not played for money
    (``Table.for_money``): each player's points after each hand at a tournament's table and in Matt
    (whose hands score points), else each player's units. The other games, and Matt at a stake: each
    player's running balance in money (Matt's: each hand's share of the final balance,
    ``Table.hand_money``), and after the last hand each one's share of a pot shared out at the
    close (``Line.pot_share``), so that the lines end at the settlement's money. A hand in the game's word."""
    from scorekeeper.web.view import hand_word

    if not table.hands:
        return None, _("No chart yet: nothing recorded.")
    size = (
        {"width": PDF_WIDTH, "height": PDF_HEIGHT, "font": PDF_FONT}
        if in_pdf
        else {
            "width": WIDTH,
            "height": HEIGHT,
            "font": FONT,
        }
    )

    def draw(series: list[list[int]], names: list[str], **kwargs: Any) -> Markup:
        """A page's chart with its legend in the SVG; the PDF's with its legend as HTML text after it
        (:func:`legend_html`: WeasyPrint writes an SVG's text unshaped)."""
        if not in_pdf:
            return chart_svg(series, names, **kwargs, **size)
        return chart_svg(series, names, **kwargs, **size, legend=False) + legend_html(names, PDF_WIDTH, PDF_FONT)

    s = table.settlement
    game = GAMES[table.night.game]
    hand = hand_word(game.name, lower=True)
    if game.teams:  # the engine's teams and their seats (docs/rules.md)
        start = s.rules.strokes
        series = [[start] + [r.extra["strokes"][team] for r in s.results] for team in game.teams]
        names = [_("Team %(team)s: %(names)s", team=team, names=players) for team, players in team_names(table)]
        caption = _("Strokes of both teams after each %(hand)s", hand=hand)
        return draw(series, names, label=caption, tick=str), caption
    names = [line.name for line in summary.lines]
    if not table.for_money:
        series = [[0] for _line in summary.lines]
        for row in table.rows:
            for k, line in enumerate(summary.lines):
                series[k].append(series[k][-1] + row[line.position - 1])
        if game.money_from_balance or table.at_tournament:
            caption = _("Each player's points after each %(hand)s", hand=hand)
        else:  # a night at a stake of 0: its units, the money's running balance would be a line at 0
            caption = _("Each player's units after each %(hand)s", hand=hand)
        return draw(series, names, label=caption, tick=str), caption
    if summary.pot and summary.pot.mode == "split":  # the settlement's money has each one's share in it
        series = [[*s, s[-1] + line.pot_share] for s, line in zip(summary.series, summary.lines, strict=True)]
        caption = _("Running balance over the night, then each one's share of the pot")
        return draw(series, names, label=caption, coda=_("Pot")), caption
    caption = _("Running balance over the night")
    return draw(summary.series, names, label=caption), caption


def context(table: Table, in_pdf: bool = False) -> dict:
    """What the summary page and (``in_pdf``) the PDF both show."""
    from scorekeeper.web.view import hand_views

    summary = summarize(table)
    contracts = sorted({c for ps in summary.players for c in ps.declared})
    chart, caption = night_chart(table, summary, in_pdf)
    return {
        "s": summary,
        "contracts": contracts,
        "log": hand_views(table, newest_first=False),
        "table": table,
        "night": table.night,
        "chart": chart,
        "chart_caption": caption,
        "club": current_app.config["CLUB_NAME"],
        "label": GAME_LABELS[table.night.game],
        "contract_label": CONTRACT_LABELS,
        "teams": team_names(table),
        "pot_moved": pot_moved(db=get_db(), night=table.night),  # a carried pot corrected after it was taken
        "in_pdf": in_pdf,
    }


@dataclasses.dataclass(frozen=True)
class LogRow:
    """One hand of the PDF's log: ``lead`` (number, dealer and steps) and ``figures``."""

    lead: str
    figures: str


def _em(value: float) -> str:
    return f"{value:.4f}em"


@dataclasses.dataclass(frozen=True)
class HandLog:
    """The PDF's hand log: its rows, and the widths that line its columns up (in characters of
    the figures: the value's first, then each player's; CSS lengths from the properties)."""

    rows: list[LogRow]
    digits: int  # of the highest hand number
    chars: list[int]

    @property
    def indent(self) -> str:
        """Where a hand's text starts: after its number and a figure space."""
        return _em((self.digits + 1) * FIGURE_EM)

    @property
    def number_width(self) -> str:
        return _em(self.digits * FIGURE_EM)

    @property
    def figure_space(self) -> str:
        return _em(FIGURE_EM)

    @property
    def widths(self) -> list[str]:
        """Each field's width: the value's, then each player's."""
        return [_em(n * MONO_EM) for n in self.chars]

    @property
    def figures_width(self) -> str:
        return _em(sum(self.chars) * MONO_EM)


def steps_text(steps: Sequence[tuple[str, int, int]]) -> str:
    """A hand's steps as one text, the last (the hand's total) left out: ``a (+2); b (+3)``."""
    return "; ".join(f"{text} ({units:+d})" if units else text for text, units, _total in steps[:-1])


def letters_wide(word: str) -> int:
    """How many letters wide ``word`` is: a full-width or CJK letter (East Asian width F or W) as two, an accent
    drawn on the letter before it (a combining mark, Mn or Me) as none."""
    return sum(
        0 if unicodedata.category(c) in ("Mn", "Me") else 2 if unicodedata.east_asian_width(c) in "FW" else 1
        for c in word
    )


def name_chars(name: str) -> int:
    """How wide a player's field is for the name above it: its longest word, a hyphen it breaks
    after counted with it (a bold letter of the header is about 1.1 characters of the figures,
    a full-width or CJK letter twice that, an accent none: ``letters_wide``), and the gap before
    it (``NAME_GAP``, with room to spare); at least ``PLAYER_CHARS``."""
    longest = max((letters_wide(word) for word in re.findall(r"[^\s-]+-?", name)), default=0)
    return max(PLAYER_CHARS, round(longest * 1.1 + 1.5))


def fit_fields(chars: list[int], least: list[int], most: int = FIGURES_CHARS_MAX) -> list[int]:
    """The fields' widths (``chars``: the value's first, then each player's as its figures and
    name ask) within ``most`` characters together where they can be: the widest players' fields
    cut to one width, as little as that takes, never below ``least`` (each field's narrowest:
    its figures', at least ``PLAYER_CHARS``). ``[6, 20, 9, 8]`` within 35: ``[6, 12, 9, 8]``."""

    def cut(cap: int) -> list[int]:
        return chars[:1] + [max(lo, min(n, cap)) for n, lo in zip(chars[1:], least[1:], strict=True)]

    cap = max(chars)
    while cap > PLAYER_CHARS and sum(cut(cap)) > most:
        cap -= 1
    return cut(cap)


def _played(players: str, marks: Sequence[str], steps: str) -> str:
    """A hand's steps after who played it and what changed its value, as its row's badges say it:
    ``Bernd + Dieter [Kontra, Schneider]: Sauspiel gewonnen ...``."""
    if marks:
        players = f"{players} [{', '.join(marks)}]" if players else f"[{', '.join(marks)}]"
    return f"{players}: {steps}" if players and steps else players or steps


def signed_money(cents: int) -> str:
    """A hand's money in the log, as its units are written: ``+6.60``, ``-1.60``, ``0`` (the page's notation)."""
    return f"+{money_tick(cents)}" if cents > 0 else money_tick(cents) if cents else "0"


def hand_log(log: Sequence, names: Sequence[str], money: bool = False) -> HandLog:
    """The log's rows (``log``: the hands as ``view.hand_views`` gives them, first hand first;
    ``names``: the players in the order of each hand's payments, as the header shows them). A
    hand's text ends with what it leaves for the next (``HandView.after``: Konter a Matt's strokes,
    Matt's match), as its row on the table page does. Under the names each hand's units, or with
    ``money`` what it pays in money (Matt at a stake: its deltas are points, its money its share of
    the balance, ``Table.hand_money``, as its row on the table page shows it)."""
    players = bool(names)  # no names: the night pays no unit (no stake), so no columns of zeros

    def paid(p) -> str:
        return signed_money(p.cents) if money else f"{p.units:+d}" if p.units else "0"

    figures = [[str(h.result.value)] + ([paid(p) for p in h.payments] if players else []) for h in log]
    least = [VALUE_CHARS] + [PLAYER_CHARS for _name in names]
    for row in figures:  # two spaces at least before each figure
        least = [max(n, len(x) + 2) for n, x in zip(least, row, strict=True)]
    asked = least[:1] + [max(n, name_chars(name)) for n, name in zip(least[1:], names, strict=True)]
    chars = fit_fields(asked, least)
    digits = len(str(max((h.number for h in log), default=1)))
    rows = [
        LogRow(
            lead=str(h.number).rjust(digits, FIGURE_SPACE)
            + FIGURE_SPACE
            + " · ".join(p for p in (h.dealer, _played(h.played_by, h.marks, steps_text(h.steps)), *h.after) if p),
            figures="".join(x.rjust(n) for x, n in zip(row, chars, strict=True)),
        )
        for h, row in zip(log, figures, strict=True)
    ]
    return HandLog(rows, digits, chars)


def summary_html(table: Table) -> str:
    """The summary with the full hand log as the HTML WeasyPrint lays out; needs an app and
    request context for the language (and the database: a tournament's table's PDF names the
    tournament, the round and the table in its head, as the table page does)."""
    data = context(table, in_pdf=True)
    game = GAMES[table.night.game]
    paid = game.scores_hands(table.settlement.rules)
    # Matt at a stake: its hands score points, its balance is units of the final difference; the log shows
    # what each hand pays, which adds up to the balance's money (its points are in its text)
    money = game.money_from_balance and table.for_money
    log = hand_log(data["log"], [line.name for line in data["s"].lines] if paid else [], money=money)
    at_table = table_of(db=get_db(), night_id=table.night.id) if table.at_tournament else None
    return render_template(
        "nights/summary_pdf.html",
        **data,
        hand_log=log,
        log_names=paid,
        log_money=money,
        at_table=at_table,
        name_gap=NAME_GAP,
    )


def summary_document(table: Table):
    """The laid-out A4 summary with the full hand log (a WeasyPrint document: ``.pages``,
    ``.write_pdf()``); needs an app and request context for the language."""
    from weasyprint import HTML

    return HTML(string=summary_html(table), base_url=str(current_app.static_folder)).render()


def summary_pdf(table: Table) -> bytes:
    """The summary as PDF bytes."""
    return summary_document(table).write_pdf()
