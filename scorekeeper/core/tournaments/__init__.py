"""Tournaments: the use cases (create, enter, withdraw, draw, paper results, close) and the read
model (rounds, tables, standings), one module each (docs/architecture.md):

- :mod:`.views`: a tournament read, its rounds, tables and standings; nothing there writes;
- :mod:`.setup`: a tournament made, its rules, closed and reopened, and what every change does first and last;
- :mod:`.rounds`: the rounds drawn and drawn again;
- :mod:`.entrants`: the participants entered, withdrawn, replaced and kept apart;
- :mod:`.paper`: a table's points on paper, entered, corrected and cleared.

A tournament's table is a night (``Night.tournament_id``): its phone joins and records the deals
exactly as at a club night, under the tournament's rule set, and the night closes itself after
the tournament's number of deals (``Night.deals``; a hand dealt again does not count). Its points
are never money and never in the club's history (``history.night_rows``). The draw and the
standings are the engine's (:mod:`scorekeeper.engine.tournament`); docs/tournaments.md says how
they work.

What the app uses of them is named here; what the modules share among themselves (the locks, the version's
bump, a round's state) is imported from the module that has it.
"""

from __future__ import annotations

from scorekeeper.core.tournaments.entrants import (
    APART_MAX,
    ENTRANTS_MAX,
    REPLACED_MEANWHILE,
    add_entrant,
    allow_together,
    keep_apart,
    replace_entrant,
    take_back_withdrawal,
    withdraw_entrant,
)
from scorekeeper.core.tournaments.paper import (
    PAPER_CHANGED,
    PAPER_MAX,
    PLAYER_SOLOS,
    SEATS_CHANGED,
    TABLE_REDRAWN,
    TABLE_SOLOS,
    UID_MAX,
    clear_paper,
    enter_paper,
    paper_form_refusal,
    paper_problems,
    paper_refusal,
)
from scorekeeper.core.tournaments.rounds import draw_round, redraw_round
from scorekeeper.core.tournaments.setup import (
    DEALS_MAX,
    FEE_MAX_CENTS,
    NAME_MAX,
    PRIZE_MAX_CENTS,
    PRIZES_MAX,
    REASON_MAX,
    ROUNDS_MAX,
    TOURNAMENT_GAMES,
    check_name,
    close_tournament,
    create_tournament,
    reopen_tournament,
    set_rules,
)
from scorekeeper.core.tournaments.views import (
    PAPER_CLEARED,
    Line,
    Played,
    RoundView,
    Step,
    TableOf,
    TableView,
    Tie,
    TournamentView,
    get_tournament,
    list_tournaments,
    player_tournaments,
    read_tournament,
    table_of,
    ties,
    version,
)

__all__ = [
    "APART_MAX",
    "DEALS_MAX",
    "ENTRANTS_MAX",
    "FEE_MAX_CENTS",
    "NAME_MAX",
    "PAPER_CHANGED",
    "PAPER_CLEARED",
    "PAPER_MAX",
    "PLAYER_SOLOS",
    "PRIZES_MAX",
    "PRIZE_MAX_CENTS",
    "REASON_MAX",
    "REPLACED_MEANWHILE",
    "ROUNDS_MAX",
    "SEATS_CHANGED",
    "TABLE_REDRAWN",
    "TABLE_SOLOS",
    "TOURNAMENT_GAMES",
    "UID_MAX",
    "Line",
    "Played",
    "RoundView",
    "Step",
    "TableOf",
    "TableView",
    "Tie",
    "TournamentView",
    "add_entrant",
    "allow_together",
    "check_name",
    "clear_paper",
    "close_tournament",
    "create_tournament",
    "draw_round",
    "enter_paper",
    "get_tournament",
    "keep_apart",
    "list_tournaments",
    "paper_form_refusal",
    "paper_problems",
    "paper_refusal",
    "player_tournaments",
    "read_tournament",
    "redraw_round",
    "reopen_tournament",
    "replace_entrant",
    "set_rules",
    "table_of",
    "take_back_withdrawal",
    "ties",
    "version",
    "withdraw_entrant",
]
