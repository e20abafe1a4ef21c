"""The club's history against figures worked out by hand from RULES.md.

A small club of five (Anna, Bernd, Clara, Dieter, Eva) plays seven nights over
2025 and 2026, in all four games. Every expected number below is computed in the
comments from the rules, never by calling the code under test.

The club (units, cents at the night's stake, hands played):

====  ==========  =============  ==============  =====  ==============================================
 key  date        game           place           stake  per player: units / cents / hands
====  ==========  =============  ==============  =====  ==============================================
 n1   2025-03-10  matzlfangen    Gasthof Ochsen  10     Anna 4/40/5, Bernd -12/-120/5, Clara -4/-40/5,
                                                        Dieter 12/120/5
 n2   2025-06-20  schafkopf (5)  Bei Clara       10     Anna -14/-124/4, Bernd 23/246/5, Clara -11/-94/5,
                                                        Dieter -21/-194/5, Eva 15/166/5 (pot split: 16 each)
 n3   2025-11-05  konter_a_matt  Gasthof Ochsen  10     Anna 2/20/7, Bernd -2/-20/7, Clara 2/20/7, Eva -2/-20/7
 n4   2026-01-15  matt           Bei Clara       2      Clara 37/74/9, Eva -37/-74/9
 n5   2026-02-10  schafkopf      Gasthof Ochsen  10     Dieter 5/50/3, Bernd 7/70/3, Eva 5/50/3, Anna -17/-170/3
 n6   2026-03-05  schafkopf      Bei Clara       50     Clara -1/-50/4, Bernd -1/-50/4, Eva -3/-150/4,
                                                        Dieter 5/250/4
 n7   2026-09-05  matzlfangen(5) Gasthof Ochsen  10     Eva 5/50/2, Anna -8/-80/2, Bernd -18/-180/3,
                                                        Clara -4/-40/3, Dieter 25/250/2
====  ==========  =============  ==============  =====  ==============================================
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

import pytest
from sqlalchemy import delete, func
from sqlmodel import select

from scorekeeper.core import history_pages as history
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput, NotFound
from scorekeeper.core.exchange import night_file as exports
from scorekeeper.core.hands import add_hands, edit_hand, record_hand, undo_last
from scorekeeper.core.history import refresh_missing
from scorekeeper.core.history_pages import NightFilter, NightLine, Season, Tally
from scorekeeper.core.models import ContractResult, Night, NightResult, Player, RosterChange, Seat
from scorekeeper.core.nights import close_night, create_night
from scorekeeper.core.players import (
    create_player,
    list_players,
    merge_players,
    rename_player,
    retire_player,
    roster_changes,
)
from tests.support_tournament import make_tournament

OCHSEN = "Gasthof Ochsen"
CLARAS = "Bei Clara"
AUGUST = (8, 1)

# --- the nights' hands, worked out by hand ------------------------------------------------

# n1: Matzlfangen, table of four: Anna, Bernd, Clara, Dieter; Anna deals first; 10 cents a unit.
# The deal moves on: hand 1 Anna deals (forehand Bernd), 2 Bernd (Clara), 3 Clara, 4 Dieter, 5 Anna (Bernd).
N1_HANDS = [
    # Bernd (forehand) calls Dieter, 70 of 130 >= 66: won simply 1, raised 5x to Hirsch +5 = 6 units.
    # Bernd +6, Dieter +6, Anna -6, Clara -6.
    {"contract": "rufen", "partner": 4, "points": 70, "raises": 5},
    # Clara (forehand) calls Anna, 50 < 66: lost; the losers have 50 (not under 30): 1 unit; the winning
    # defenders (Bernd, Dieter) caught the Matzl and claim it: +1 = 2 units. Clara -2, Anna -2, Bernd +2,
    # Dieter +2. Matzl caught: Bernd, Dieter; lost: Anna, Clara.
    {"contract": "rufen", "partner": 1, "points": 50, "matzl": "defenders"},
    # Anna plays treiben with 105: won; the defenders have 25 < 30, kein Wasser: 2 units from each defender.
    # Anna +6, Bernd -2, Clara -2, Dieter -2.
    {"contract": "treiben", "declarer": 1, "points": 105},
    # Bernd plays durch and loses: 6 units to each defender. Bernd -18, Anna +6, Clara +6, Dieter +6.
    {"contract": "durch", "declarer": 2, "won": False},
    # Bernd (forehand) calls Clara, 40: lost, but the losing declarers caught the Matzl: worth 0, nobody pays.
    # Matzl caught: Bernd, Clara; lost: Anna, Dieter.
    {"contract": "rufen", "partner": 3, "points": 40, "matzl": "declarers"},
]
# n1 totals: Anna -6-2+6+6 = 4, Bernd 6+2-2-18 = -12, Clara -6-2-2+6 = -4, Dieter 6+2-2+6 = 12 (sum 0).
# Declared: Bernd rufen 2 (1 won) + durch 1 (lost); Clara rufen 1 (lost); Anna treiben 1 (won); Dieter none.
# Matzl caught / lost: Anna 0/2, Bernd 2/0, Clara 1/1, Dieter 1/1.

# n2: Schafkopf, table of five: Anna, Bernd, Clara, Dieter, Eva; Anna deals first; seed rules (pot, split at
# the close); 10 cents. The dealer sits out; the others, from position 1 on, are seats 1-4.
N2_HANDS = [
    # Anna deals (out): Bernd, Clara, Dieter, Eva pass round, 2 units each into the pot (pot 8).
    {"contract": "rundpass"},
    # Bernd deals (out): seats Anna, Clara, Dieter, Eva. Anna's sauspiel with Dieter, 70 >= 61: won, 2 units;
    # the pot (8) is taken in halves: 4 each. Anna +6, Dieter +6, Clara -2, Eva -2; pot 0.
    {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70},
    # Clara deals (out): seats Anna, Bernd, Dieter, Eva. Eva's wenz with 95: won, schneider (>= 91) +1,
    # 2 runners (wenz from 2 on) +2: 5 + 1 + 2 = 8 from each. Eva +24, Anna, Bernd, Dieter -8.
    {"contract": "wenz", "declarer": 4, "points": 95, "laufende": 2},
    # Dieter deals (out): seats Anna, Bernd, Clara, Eva. Bernd's eichel solo tout, won, no runners:
    # 5 x 2 = 10 from each. Bernd +30, Anna, Clara, Eva -10.
    {"contract": "solo", "declarer": 2, "suit": "eichel", "tout": True, "won": True},
    # Eva deals (out): Anna, Bernd, Clara, Dieter pass round, 2 each into the pot (pot 8).
    {"contract": "rundpass"},
    # Anna deals again (out): seats Bernd, Clara, Dieter, Eva. Dieter's herz solo with 40: lost (40 > 29,
    # not schneider): 5 to each. Dieter -15, Bernd, Clara, Eva +5. A solo leaves the pot (8) alone.
    {"contract": "solo", "declarer": 3, "suit": "herz", "points": 40},
]
# n2 units: Anna 6-8-10-2 = -14, Bernd -2-8+30-2+5 = 23, Clara -2-2-10-2+5 = -11, Dieter -2+6-8-2-15 = -21,
# Eva -2-2+24-10+5 = 15 (sum -8: the pot holds 8). At the close the pot is split: 8 x 10 = 80 cents / 5 = 16.
# Cents: Anna -140+16 = -124, Bernd 230+16 = 246, Clara -110+16 = -94, Dieter -210+16 = -194, Eva 150+16 = 166.
# Hands played: Anna sits out twice (4), everybody else once (5).
# Declared: Anna sauspiel 1/1, Eva wenz 1/1, Bernd solo 1/1 (a tout, won), Dieter solo 1/0.

# n3: Konter a Matt: Anna, Bernd, Clara, Eva: team A = Anna, Clara (seats 1, 3), B = Bernd, Eva (2, 4).
# Rules: 3 strokes a game, 2 units each loser pays one winner when a game ends; 10 cents.
N3_RULES = {"strokes": 3, "stake_per_game": 2}
N3_HANDS = [
    # A chose trumps, 25:15, A wins N = 1: A 3 -> 2.
    {"trump_team": "A", "points_a": 25},
    # A trumps, 30:10 with Matt, N = 2: A 2 -> 0, game 1 to A: Anna, Clara +2, Bernd, Eva -2. Both back at 3.
    {"trump_team": "A", "points_a": 30, "matt": True},
    # B trumps, 10:30, B wins N = 1: B 3 -> 2.
    {"trump_team": "B", "points_a": 10},
    # B trumps, 20:20 Stänner: B's strokes rise by 1 (3), N = 1 carried; B chooses again. Not won by B.
    {"trump_team": "B", "points_a": 20},
    # B trumps, 25:15: A wins, 1 + 1 carried = 2: A 3 -> 1; the trump team lost: B +1 -> 4.
    {"trump_team": "B", "points_a": 25},
    # B trumps, 0:40 schwarz, Matt and Konter: N = 4: B 4 -> 0, game 2 to B: Bernd, Eva +2, Anna, Clara -2.
    {"trump_team": "B", "points_a": 0, "schwarz": True, "matt": True, "konter": True},
    # A trumps, 40:0 schwarz with Matt: N = 3: A 3 -> 0, game 3 to A: Anna, Clara +2, Bernd, Eva -2.
    {"trump_team": "A", "points_a": 40, "schwarz": True, "matt": True},
]
# n3: Anna, Clara +2-2+2 = 2 units (20 cents), Bernd, Eva -2; games won: A 2, B 1.
# Trumps declared / won: A (Anna, Clara) 3/3; B (Bernd, Eva) 4/2 (the Stänner and the lost partie not won).

# n4: Matt: Clara (seat 1) against Eva (seat 2); 1 unit per point of the difference; 2 cents a unit.
N4_RULES = {"stake_per_point": 1}
N4_HANDS = [
    {"mated_by": 1, "move": 7, "card": "A"},  # 7 x 11 = 77 to Clara
    {"mated_by": 2, "move": 5, "card": "K", "vorablegen": 1},  # (5 + 1) x 4 = 24 to Eva
    {"mated_by": None},  # a draw: 0
    # (10 + 1) x 3 = 33, Übermatt doubles: 66 to Eva. Match 1: Clara 77, Eva 90: Eva wins it.
    {"mated_by": 2, "move": 10, "card": "Q", "vorablegen": 1, "uebermatt": True},
    {"mated_by": 1, "move": 3, "card": "10"},  # 3 x 10 = 30 to Clara
    {"mated_by": 1, "move": 4, "card": "7", "vorablegen": 2},  # (4 + 1) x 7 = 35 to Clara
    {"mated_by": None},  # a draw
    {"mated_by": 2, "move": 2, "card": "A"},  # 2 x 11 = 22 to Eva. Match 2: Clara 65, Eva 22: Clara wins it.
    {"mated_by": 1, "move": 1, "card": "7"},  # 1 x 7 = 7 to Clara: match 3 is not over, nobody has won it
]
# n4: Clara 77+30+35+7 = 149 points, Eva 24+66+22 = 112: difference 37 units: Clara +37 (74 cents), Eva -37.
# Matches won: Clara 1, Eva 1.

# n5: Schafkopf, table of four in the seat order Dieter, Bernd, Eva, Anna; 10 cents.
N5_HANDS = [
    # Bernd's sauspiel with Anna, 61: won, 2 + 3 runners (from 3 on, 1 each) = 5. Bernd, Anna +5, Dieter, Eva -5.
    {"contract": "sauspiel", "declarer": 2, "partner": 4, "suit": "eichel", "points": 61, "laufende": 3},
    # Eva's sauspiel with Dieter, 60 after kontra: the declarers win with 60 (kontra_shifts_threshold),
    # 2 x 2 (kontra) = 4. Eva, Dieter +4, Bernd, Anna -4.
    {"contract": "sauspiel", "declarer": 3, "partner": 1, "suit": "schellen", "points": 60, "kontra": True},
    # Anna's gras solo with 20: lost and schneider (<= 29): 5 + 1 = 6 to each. Anna -18, the others +6.
    {"contract": "solo", "declarer": 4, "suit": "gras", "points": 20},
]
# n5: Dieter -5+4+6 = 5 (50 cents), Bernd 5-4+6 = 7 (70), Eva -5+4+6 = 5 (50), Anna 5-4-18 = -17 (-170).
# Declared: Bernd sauspiel 1/1, Eva sauspiel 1/1, Anna solo 1/0.

# n6: Schafkopf, table of four: Clara, Bernd, Eva, Dieter; Bernd deals first; 50 cents a unit.
N6_HANDS = [
    # Clara's sauspiel with Bernd, 91: won schneider: 2 + 1 = 3. Clara, Bernd +3, Eva, Dieter -3.
    {"contract": "sauspiel", "declarer": 1, "partner": 2, "suit": "gras", "points": 91},
    # Eva's sauspiel with Dieter, 120 schwarz: 2 + 1 + 1 = 4. Eva, Dieter +4, Clara, Bernd -4.
    {"contract": "sauspiel", "declarer": 3, "partner": 4, "suit": "eichel", "points": 120, "schwarz": True},
    # Bernd's sauspiel with Eva, 45: lost, 2. Bernd, Eva -2, Clara, Dieter +2.
    {"contract": "sauspiel", "declarer": 2, "partner": 3, "suit": "schellen", "points": 45},
    # Eva's sauspiel with Clara, 30: lost, not schneider (30 > 29): 2. Eva, Clara -2, Bernd, Dieter +2.
    {"contract": "sauspiel", "declarer": 3, "partner": 1, "suit": "gras", "points": 30},
]
# n6: Clara 3-4+2-2 = -1 (-50 cents), Bernd 3-4-2+2 = -1 (-50), Eva -3+4-2-2 = -3 (-150), Dieter -3+4+2+2 = 5 (250).
# Declared: Clara sauspiel 1/1, Bernd sauspiel 1/0, Eva sauspiel 2/1.

# n7: Matzlfangen, table of five: Eva, Anna, Bernd, Clara, Dieter; Dieter (5) deals first; 10 cents.
N7_HANDS = [
    # Dieter deals (out): seats Eva, Anna, Bernd, Clara. Eva calls Bernd, 66: won (>= 66), the losers have 64: 1.
    # Eva, Bernd +1, Anna, Clara -1.
    {"contract": "rufen", "declarer": 1, "partner": 3, "points": 66},
    # Eva deals (out): seats Anna, Bernd, Clara, Dieter. Dieter's trumpf_durch won: 6, with the Matzl caught and
    # claimed +1 = 7 from each. Dieter +21, Anna, Bernd, Clara -7. Matzl caught: Dieter; lost: Anna, Bernd, Clara
    # (Eva sat out: neither).
    {"contract": "trumpf_durch", "declarer": 4, "won": True, "matzl": "declarers"},
    # Anna deals (out): seats Eva, Bernd, Clara, Dieter. Bernd's neidspiel with 0, schwarz: lost, no trick: 3,
    # raised once +1 = 4 to each defender. Bernd -12, Eva, Clara, Dieter +4.
    {"contract": "neidspiel", "declarer": 2, "points": 0, "schwarz": True, "raises": 1},
]
# n7: Eva 1+4 = 5, Anna -1-7 = -8, Bernd 1-7-12 = -18, Clara -1-7+4 = -4, Dieter 21+4 = 25 (sum 0).
# Hands: Eva 2, Anna 2, Bernd 3, Clara 3, Dieter 2. Declared: Eva rufen 1/1, Dieter trumpf_durch 1/1,
# Bernd neidspiel 1/0.


# --- building the club ----------------------------------------------------------------------


@dataclass
class Club:
    people: dict[str, Player]
    nights: dict[str, Night]

    def id(self, name: str) -> int:
        return self.people[name].id

    def night(self, key: str) -> int:
        return self.nights[key].id


def open_night(db, people, game, played_on, place, *, stake=10, first_dealer=1, rules=None) -> Night:
    return create_night(
        db=db,
        game=game,
        rules=rules,
        stake_cents=stake,
        player_ids=[p.id for p in people],
        first_dealer=first_dealer,
        played_on=played_on,
        place=place,
    )


def play(db, night, hands) -> None:
    for hand in hands:
        record_hand(db=db, night_id=night.id, hand=hand)


def build_club(db, players) -> Club:
    p = {player.name: player for player in players}
    anna, bernd, clara, dieter, eva = (p[n] for n in ("Anna", "Bernd", "Clara", "Dieter", "Eva"))
    plan = {
        "n1": ([anna, bernd, clara, dieter], "matzlfangen", date(2025, 3, 10), OCHSEN, {}, N1_HANDS),
        "n2": ([anna, bernd, clara, dieter, eva], "schafkopf", date(2025, 6, 20), CLARAS, {}, N2_HANDS),
        "n3": ([anna, bernd, clara, eva], "konter_a_matt", date(2025, 11, 5), OCHSEN, {"rules": N3_RULES}, N3_HANDS),
        "n4": ([clara, eva], "matt", date(2026, 1, 15), CLARAS, {"rules": N4_RULES, "stake": 2}, N4_HANDS),
        "n5": ([dieter, bernd, eva, anna], "schafkopf", date(2026, 2, 10), OCHSEN, {}, N5_HANDS),
        "n6": (
            [clara, bernd, eva, dieter],
            "schafkopf",
            date(2026, 3, 5),
            CLARAS,
            {"stake": 50, "first_dealer": 2},
            N6_HANDS,
        ),
        "n7": (
            [eva, anna, bernd, clara, dieter],
            "matzlfangen",
            date(2026, 9, 5),
            OCHSEN,
            {"first_dealer": 5},
            N7_HANDS,
        ),
    }
    nights = {}
    for key, (people, game, played_on, place, options, hands) in plan.items():
        nights[key] = open_night(db, people, game, played_on, place, **options)
        play(db, nights[key], hands)
    # n2's pot is split at its close: closed, its rows have each one's share (open, nobody's yet: the table's figures)
    close_night(db=db, night_id=nights["n2"].id)
    return Club(p, nights)


@pytest.fixture
def club(db, players) -> Club:
    return build_club(db, players)


# --- reading the rows ---------------------------------------------------------------------------


def results(db, night_id: int) -> dict[str, NightResult]:
    """The night's result rows by player name."""
    db.rollback()
    db.expire_all()
    query = (
        select(NightResult, Player.name)
        .join(Player, Player.id == NightResult.player_id)
        .where(NightResult.night_id == night_id)
    )
    return {name: row for row, name in db.exec(query)}


def money(db, night_id: int) -> dict[str, tuple[int, int, int]]:
    """name -> (units, cents, hands)."""
    return {name: (r.units, r.cents, r.hands) for name, r in results(db, night_id).items()}


def contracts(db, night_id: int) -> dict[tuple[str, str], tuple[int, int]]:
    """(name, contract) -> (declared, won)."""
    db.rollback()
    db.expire_all()
    query = (
        select(ContractResult, Player.name)
        .join(Player, Player.id == ContractResult.player_id)
        .where(ContractResult.night_id == night_id)
    )
    return {(name, row.contract): (row.declared, row.won) for row, name in db.exec(query)}


def all_rows(db) -> tuple[list[tuple], list[tuple]]:
    """Every result row of the club as plain tuples, for comparing before and after."""
    db.rollback()
    db.expire_all()
    nights = sorted(
        (
            r.night_id,
            r.player_id,
            r.game,
            r.played_on,
            r.position,
            r.hands,
            r.units,
            r.cents,
            r.declared,
            r.won,
            r.matzl_caught,
            r.matzl_lost,
            r.touts,
            r.touts_won,
            r.games_won,
            r.matches_won,
        )
        for r in db.exec(select(NightResult))
    )
    per_contract = sorted(
        (c.night_id, c.player_id, c.contract, c.game, c.declared, c.won) for c in db.exec(select(ContractResult))
    )
    return nights, per_contract


def count_rows(db) -> dict[str, int]:
    db.rollback()
    db.expire_all()
    return {
        m.__name__: db.exec(select(func.count()).select_from(m)).one()
        for m in (Player, Seat, NightResult, ContractResult, RosterChange)
    }


def line(club: Club, key: str, cents: int) -> NightLine:
    night = club.nights[key]
    return NightLine(night.id, night.played_on, night.game, cents)


# --- night rows -------------------------------------------------------------------------------


def test_a_matzlfangen_night_books_units_cents_hands_and_contracts_per_player(db, club):
    n1 = club.night("n1")
    # Worked out under N1_HANDS: 10 cents a unit, five hands for everybody at a table of four.
    assert money(db, n1) == {
        "Anna": (4, 40, 5),
        "Bernd": (-12, -120, 5),
        "Clara": (-4, -40, 5),
        "Dieter": (12, 120, 5),
    }
    assert contracts(db, n1) == {
        ("Anna", "treiben"): (1, 1),
        ("Bernd", "rufen"): (2, 1),  # won the Hirsch, lost the last hand (worth 0 by the Matzl)
        ("Bernd", "durch"): (1, 0),
        ("Clara", "rufen"): (1, 0),
    }
    rows = results(db, n1)
    assert {n: (r.declared, r.won) for n, r in rows.items()} == {
        "Anna": (1, 1),
        "Bernd": (3, 1),
        "Clara": (1, 0),
        "Dieter": (0, 0),
    }
    assert {n: r.position for n, r in rows.items()} == {"Anna": 1, "Bernd": 2, "Clara": 3, "Dieter": 4}
    assert {(r.game, r.played_on) for r in rows.values()} == {("matzlfangen", date(2025, 3, 10))}


def test_the_matzl_is_counted_for_the_side_that_caught_it_and_against_the_other(db, club):
    # n1 hand 2: Bernd and Dieter (defenders, winners) caught it from Anna and Clara;
    # n1 hand 5: Bernd and Clara (declarers, losers: the hand is worth 0) caught it from Anna and Dieter.
    rows = results(db, club.night("n1"))
    assert {n: (r.matzl_caught, r.matzl_lost) for n, r in rows.items()} == {
        "Anna": (0, 2),
        "Bernd": (2, 0),
        "Clara": (1, 1),
        "Dieter": (1, 1),
    }


def test_at_a_matzlfangen_table_of_five_the_dealer_sitting_out_neither_plays_nor_loses_the_matzl(db, club):
    n7 = club.night("n7")
    assert money(db, n7) == {
        "Eva": (5, 50, 2),  # dealt hand 2
        "Anna": (-8, -80, 2),  # dealt hand 3
        "Bernd": (-18, -180, 3),
        "Clara": (-4, -40, 3),
        "Dieter": (25, 250, 2),  # dealt hand 1
    }
    rows = results(db, n7)
    # hand 2: Dieter's trumpf_durch caught the Matzl from Anna, Bernd and Clara; Eva dealt and sat out
    assert {n: (r.matzl_caught, r.matzl_lost) for n, r in rows.items()} == {
        "Eva": (0, 0),
        "Anna": (0, 1),
        "Bernd": (0, 1),
        "Clara": (0, 1),
        "Dieter": (1, 0),
    }
    assert contracts(db, n7) == {
        ("Eva", "rufen"): (1, 1),
        ("Dieter", "trumpf_durch"): (1, 1),
        ("Bernd", "neidspiel"): (1, 0),
    }


def test_a_schafkopf_table_of_five_books_the_hands_each_played_and_a_share_of_the_split_pot(db, club):
    n2 = club.night("n2")
    # units without the pot; cents with the 16-cent share of the 80 cents left in the pot
    assert money(db, n2) == {
        "Anna": (-14, -124, 4),  # sat out hands 1 and 6
        "Bernd": (23, 246, 5),
        "Clara": (-11, -94, 5),
        "Dieter": (-21, -194, 5),
        "Eva": (15, 166, 5),
    }
    assert sum(c for _, c, _ in money(db, n2).values()) == 0  # the pot is shared out to the last cent


def test_schafkopf_rows_count_each_contract_declared_and_the_touts(db, club):
    n2 = club.night("n2")
    assert contracts(db, n2) == {
        ("Anna", "sauspiel"): (1, 1),
        ("Eva", "wenz"): (1, 1),
        ("Bernd", "solo"): (1, 1),
        ("Dieter", "solo"): (1, 0),
    }  # a rundpass has no declarer: no row
    rows = results(db, n2)
    assert {n: (r.touts, r.touts_won) for n, r in rows.items()} == {
        "Anna": (0, 0),
        "Bernd": (1, 1),
        "Clara": (0, 0),
        "Dieter": (0, 0),
        "Eva": (0, 0),
    }
    # n5: the kontra sauspiel with 60 was won (the shifted threshold); Anna's schneider solo lost
    assert contracts(db, club.night("n5")) == {
        ("Bernd", "sauspiel"): (1, 1),
        ("Eva", "sauspiel"): (1, 1),
        ("Anna", "solo"): (1, 0),
    }
    assert money(db, club.night("n5")) == {
        "Dieter": (5, 50, 3),
        "Bernd": (7, 70, 3),
        "Eva": (5, 50, 3),
        "Anna": (-17, -170, 3),
    }
    assert money(db, club.night("n6")) == {
        "Clara": (-1, -50, 4),
        "Bernd": (-1, -50, 4),
        "Eva": (-3, -150, 4),
        "Dieter": (5, 250, 4),
    }
    assert contracts(db, club.night("n6")) == {
        ("Clara", "sauspiel"): (1, 1),
        ("Bernd", "sauspiel"): (1, 0),
        ("Eva", "sauspiel"): (2, 1),
    }


def test_konter_a_matt_rows_count_the_games_won_and_the_parties_each_team_chose_trumps(db, club):
    n3 = club.night("n3")
    # 2 units per loser at the end of each game: A won games 1 and 3, B game 2: A +2, B -2
    assert money(db, n3) == {
        "Anna": (2, 20, 7),
        "Bernd": (-2, -20, 7),
        "Clara": (2, 20, 7),
        "Eva": (-2, -20, 7),
    }
    rows = results(db, n3)
    assert {n: r.games_won for n, r in rows.items()} == {"Anna": 2, "Bernd": 1, "Clara": 2, "Eva": 1}
    assert contracts(db, n3) == {
        ("Anna", "trumps"): (3, 3),
        ("Clara", "trumps"): (3, 3),
        ("Bernd", "trumps"): (4, 2),  # the Stänner and the partie lost 25:15 are not won
        ("Eva", "trumps"): (4, 2),
    }


def test_matt_rows_count_a_match_only_after_its_four_durchgaenge(db, club):
    n4 = club.night("n4")
    # 149 - 112 = 37 points at 1 unit a point, 2 cents a unit; nine Durchgänge each
    assert money(db, n4) == {"Clara": (37, 74, 9), "Eva": (-37, -74, 9)}
    rows = results(db, n4)
    assert {n: r.matches_won for n, r in rows.items()} == {"Clara": 1, "Eva": 1}  # match 3 is not over
    assert {n: (r.declared, r.won) for n, r in rows.items()} == {"Clara": (0, 0), "Eva": (0, 0)}
    assert contracts(db, n4) == {}


def test_every_night_has_a_row_per_player_and_its_money_adds_up_to_zero(db, club):
    for key, seated in {"n1": 4, "n2": 5, "n3": 4, "n4": 2, "n5": 4, "n6": 4, "n7": 5}.items():
        rows = money(db, club.night(key))
        assert len(rows) == seated, key
        assert sum(units for units, _, _ in rows.values()) == (-8 if key == "n2" else 0), key  # n2: 8 in the pot
        assert sum(cents for _, cents, _ in rows.values()) == 0, key


def test_a_night_without_hands_has_zero_rows_for_every_player(db, players):
    night = open_night(db, players[:4], "schafkopf", date(2026, 5, 1), OCHSEN)
    assert money(db, night.id) == {n: (0, 0, 0) for n in ("Anna", "Bernd", "Clara", "Dieter")}
    assert contracts(db, night.id) == {}


# --- the rows follow every change -------------------------------------------------------------


def test_each_recorded_hand_updates_the_rows_at_once(db, players):
    night = open_night(db, players[:4], "matzlfangen", date(2025, 3, 10), OCHSEN)
    running = [
        # after hand 1: Bernd, Dieter +6; Anna, Clara -6
        {"Anna": -6, "Bernd": 6, "Clara": -6, "Dieter": 6},
        # after hand 2: +-2 more, Bernd and Dieter winning
        {"Anna": -8, "Bernd": 8, "Clara": -8, "Dieter": 8},
        # after hand 3: Anna +6, the others -2
        {"Anna": -2, "Bernd": 6, "Clara": -10, "Dieter": 6},
        # after hand 4: Bernd -18, the others +6
        {"Anna": 4, "Bernd": -12, "Clara": -4, "Dieter": 12},
        # hand 5 is worth 0
        {"Anna": 4, "Bernd": -12, "Clara": -4, "Dieter": 12},
    ]
    for number, (hand, units) in enumerate(zip(N1_HANDS, running, strict=True), start=1):
        record_hand(db=db, night_id=night.id, hand=hand)
        assert money(db, night.id) == {n: (u, u * 10, number) for n, u in units.items()}, number
    assert contracts(db, night.id)[("Bernd", "rufen")] == (2, 1)


def test_an_edited_hand_changes_the_rows_and_the_contracts(db, club):
    n1 = club.night("n1")
    # Hand 4: Bernd's durch was won after all: +18 for Bernd instead of -18, -6 instead of +6 for the others.
    edit_hand(db=db, night_id=n1, number=4, hand={"contract": "durch", "declarer": 2, "won": True})
    assert money(db, n1) == {
        "Anna": (4 - 12, -80, 5),
        "Bernd": (-12 + 36, 240, 5),
        "Clara": (-4 - 12, -160, 5),
        "Dieter": (12 - 12, 0, 5),
    }
    assert contracts(db, n1)[("Bernd", "durch")] == (1, 1)
    assert (results(db, n1)["Bernd"].declared, results(db, n1)["Bernd"].won) == (3, 2)
    # Hand 3 was Clara's neidspiel, not Anna's treiben: Clara +6, the others -2 (instead of Anna +6, others -2).
    edit_hand(db=db, night_id=n1, number=3, hand={"contract": "neidspiel", "declarer": 3, "points": 105})
    assert money(db, n1) == {
        "Anna": (-8 - 8, -160, 5),
        "Bernd": (24, 240, 5),
        "Clara": (-16 + 8, -80, 5),
        "Dieter": (0, 0, 5),
    }
    assert contracts(db, n1) == {
        ("Bernd", "rufen"): (2, 1),
        ("Bernd", "durch"): (1, 1),
        ("Clara", "rufen"): (1, 0),
        ("Clara", "neidspiel"): (1, 1),
    }  # Anna's treiben row is gone
    assert history.player_history(db=db, player_id=club.id("Anna")).games["matzlfangen"] == Tally(
        2, 7, -16 - 8, -240, 0, 0
    )


def test_undoing_hands_takes_their_numbers_out_of_the_rows(db, club):
    n1 = club.night("n1")
    undo_last(db=db, night_id=n1)  # hand 5: worth 0, but Bernd's rufen and the Matzl go
    assert money(db, n1) == {
        "Anna": (4, 40, 4),
        "Bernd": (-12, -120, 4),
        "Clara": (-4, -40, 4),
        "Dieter": (12, 120, 4),
    }
    assert contracts(db, n1)[("Bernd", "rufen")] == (1, 1)
    rows = results(db, n1)
    assert {n: (r.matzl_caught, r.matzl_lost) for n, r in rows.items()} == {
        "Anna": (0, 1),
        "Bernd": (1, 0),
        "Clara": (0, 1),
        "Dieter": (1, 0),
    }
    undo_last(db=db, night_id=n1)  # hand 4: Bernd's lost durch (-18, the others +6)
    assert money(db, n1) == {
        "Anna": (-2, -20, 3),
        "Bernd": (6, 60, 3),
        "Clara": (-10, -100, 3),
        "Dieter": (6, 60, 3),
    }
    assert ("Bernd", "durch") not in contracts(db, n1)
    for _ in range(3):
        undo_last(db=db, night_id=n1)
    assert money(db, n1) == {n: (0, 0, 0) for n in ("Anna", "Bernd", "Clara", "Dieter")}
    assert contracts(db, n1) == {}
    assert all(r.matzl_caught == r.matzl_lost == 0 for r in results(db, n1).values())


def test_hands_added_at_once_write_the_same_rows_as_hands_recorded_one_by_one(db, players):
    night = open_night(db, players[:5], "schafkopf", date(2025, 6, 20), CLARAS)
    assert add_hands(db=db, night_id=night.id, hands=N2_HANDS) == 6
    close_night(db=db, night_id=night.id)  # the pot is split at the close, as n2's
    assert money(db, night.id) == {
        "Anna": (-14, -124, 4),
        "Bernd": (23, 246, 5),
        "Clara": (-11, -94, 5),
        "Dieter": (-21, -194, 5),
        "Eva": (15, 166, 5),
    }
    assert contracts(db, night.id)[("Bernd", "solo")] == (1, 1)
    assert results(db, night.id)["Bernd"].touts_won == 1


def test_an_imported_night_brings_its_rows_into_the_other_database(db, club, other_db):
    data = json.loads(json.dumps(exports.night_json(db=db, night_id=club.night("n3"))))  # as it comes back from a file
    new_id, created = exports.import_night(db=other_db, data=data)
    assert created
    assert money(other_db, new_id) == {
        "Anna": (2, 20, 7),
        "Bernd": (-2, -20, 7),
        "Clara": (2, 20, 7),
        "Eva": (-2, -20, 7),
    }
    assert {n: r.games_won for n, r in results(other_db, new_id).items()} == {
        "Anna": 2,
        "Bernd": 1,
        "Clara": 2,
        "Eva": 1,
    }
    assert contracts(other_db, new_id)[("Bernd", "trumps")] == (4, 2)
    eva = other_db.exec(select(Player).where(Player.name == "Eva")).one()
    assert history.player_history(db=other_db, player_id=eva.id).total == Tally(1, 7, -2, -20, 4, 2)


# --- a player's history ---------------------------------------------------------------------------


def test_a_players_history_adds_up_every_night_in_total_and_per_game(db, club):
    bernd = history.player_history(db=db, player_id=club.id("Bernd"))
    assert bernd.player.name == "Bernd"
    # nights n1, n2, n3, n5, n6, n7: hands 5+5+7+3+4+3 = 27, units -12+23-2+7-1-18 = -3,
    # cents -120+246-20+70-50-180 = -54, declared 3+1+4+1+1+1 = 11, won 1+1+2+1+0+0 = 5
    assert bernd.total == Tally(6, 27, -3, -54, 11, 5)
    assert bernd.total.win_rate == 45  # 5 / 11 = 45.45 %
    assert bernd.total.units_per_hand == -11  # -3 / 27 = -0.111 units
    assert bernd.games == {
        "konter_a_matt": Tally(1, 7, -2, -20, 4, 2),
        "matzlfangen": Tally(2, 8, -30, -300, 4, 1),  # n1 and n7
        "schafkopf": Tally(3, 12, 29, 266, 3, 2),  # n2, n5, n6: 23+7-1 units, 246+70-50 cents
    }
    dieter = history.player_history(db=db, player_id=club.id("Dieter"))
    # n1 120, n2 -194, n5 50, n6 250, n7 250
    assert dieter.total == Tally(5, 19, 26, 476, 2, 1)
    assert dieter.games == {
        "matzlfangen": Tally(2, 7, 37, 370, 1, 1),
        "schafkopf": Tally(3, 12, -11, 106, 1, 0),
    }
    clara = history.player_history(db=db, player_id=club.id("Clara"))
    # n1 -40, n2 -94, n3 20, n4 74, n6 -50, n7 -40; hands 5+5+7+9+4+3
    assert clara.total == Tally(6, 33, 19, -130, 5, 4)
    assert clara.games["matt"] == Tally(1, 9, 37, 74, 0, 0)


def test_a_players_seasons_split_on_new_year_by_default_newest_first(db, club):
    dieter = history.player_history(db=db, player_id=club.id("Dieter"))
    assert [(s.label, s.start, s.end) for s, _ in dieter.seasons] == [
        ("2026", date(2026, 1, 1), date(2027, 1, 1)),
        ("2025", date(2025, 1, 1), date(2026, 1, 1)),
    ]
    assert [games for _, games in dieter.seasons] == [
        {"matzlfangen": Tally(1, 2, 25, 250, 1, 1), "schafkopf": Tally(2, 7, 10, 300, 0, 0)},  # n7; n5 + n6
        {"matzlfangen": Tally(1, 5, 12, 120, 0, 0), "schafkopf": Tally(1, 5, -21, -194, 1, 0)},  # n1; n2
    ]


def test_with_a_season_start_of_august_first_the_seasons_are_labelled_2024_25_to_2026_27(db, club):
    dieter = history.player_history(db=db, player_id=club.id("Dieter"), season_start=AUGUST)
    assert [(s.label, s.start, s.end) for s, _ in dieter.seasons] == [
        ("2026/27", date(2026, 8, 1), date(2027, 8, 1)),
        ("2025/26", date(2025, 8, 1), date(2026, 8, 1)),
        ("2024/25", date(2024, 8, 1), date(2025, 8, 1)),
    ]
    assert [games for _, games in dieter.seasons] == [
        {"matzlfangen": Tally(1, 2, 25, 250, 1, 1)},  # n7 (September 2026)
        {"schafkopf": Tally(2, 7, 10, 300, 0, 0)},  # n5, n6 (spring 2026)
        {"matzlfangen": Tally(1, 5, 12, 120, 0, 0), "schafkopf": Tally(1, 5, -21, -194, 1, 0)},  # spring 2025
    ]
    eva = history.player_history(db=db, player_id=club.id("Eva"), season_start=AUGUST)
    assert [(s.label, games) for s, games in eva.seasons] == [
        ("2026/27", {"matzlfangen": Tally(1, 2, 5, 50, 1, 1)}),
        (
            "2025/26",  # n3 (November 2025), n4 (January 2026), n5 and n6
            {
                "konter_a_matt": Tally(1, 7, -2, -20, 4, 2),
                "matt": Tally(1, 9, -37, -74, 0, 0),
                "schafkopf": Tally(2, 7, 2, -100, 3, 2),
            },
        ),
        ("2024/25", {"schafkopf": Tally(1, 5, 15, 166, 1, 1)}),  # n2 (June 2025)
    ]


def test_a_night_on_the_season_start_day_belongs_to_the_new_season(db, players):
    before = open_night(db, players[:2], "matt", date(2025, 7, 31), OCHSEN, rules=N4_RULES)
    on = open_night(db, players[:2], "matt", date(2025, 8, 1), OCHSEN, rules=N4_RULES)
    record_hand(db=db, night_id=before.id, hand={"mated_by": 1, "move": 2, "card": "K"})  # 8 points
    record_hand(db=db, night_id=on.id, hand={"mated_by": 2, "move": 3, "card": "Q"})  # 9 points
    anna = history.player_history(db=db, player_id=players[0].id, season_start=AUGUST)
    assert [(s.label, games["matt"].units) for s, games in anna.seasons] == [("2025/26", -9), ("2024/25", 8)]
    assert [s.label for s in history.seasons(db=db, start=AUGUST)] == ["2025/26", "2024/25"]
    assert [s.label for s in history.seasons(db=db, start=(1, 1))] == ["2025"]


def test_per_contract_win_rates_are_whole_per_cents_rounded(db, club):
    eva = history.player_history(db=db, player_id=club.id("Eva"))
    assert [(c.game, c.contract, c.declared, c.won, c.win_rate) for c in eva.contracts] == [
        ("konter_a_matt", "trumps", 4, 2, 50),
        ("matzlfangen", "rufen", 1, 1, 100),
        ("schafkopf", "sauspiel", 3, 2, 67),  # n5 1/1, n6 2/1: 66.67 % rounds up
        ("schafkopf", "wenz", 1, 1, 100),
    ]
    assert eva.total.win_rate == 67  # 6 / 9
    bernd = history.player_history(db=db, player_id=club.id("Bernd"))
    assert [(c.game, c.contract, c.declared, c.won, c.win_rate) for c in bernd.contracts] == [
        ("konter_a_matt", "trumps", 4, 2, 50),
        ("matzlfangen", "durch", 1, 0, 0),
        ("matzlfangen", "neidspiel", 1, 0, 0),
        ("matzlfangen", "rufen", 2, 1, 50),
        ("schafkopf", "sauspiel", 2, 1, 50),
        ("schafkopf", "solo", 1, 1, 100),
    ]
    assert bernd.games["schafkopf"].win_rate == 67  # 2 / 3
    anna = history.player_history(db=db, player_id=club.id("Anna"))
    assert anna.total.win_rate == 83  # 5 / 6 = 83.33 % rounds down
    assert anna.total.units_per_hand == -157  # -33 / 21 = -1.5714 units


def test_the_counts_add_up_matzl_touts_solos_games_and_matches(db, club):
    def counts(name):
        return history.player_history(db=db, player_id=club.id(name)).counts

    zero = dict.fromkeys(
        ("matzl_caught", "matzl_lost", "touts", "touts_won", "games_won", "matches_won", "solos", "solos_won"), 0
    )
    # Matzl: n1 (Anna lost 2), n7 (lost 1); n3: games 2; n5: a solo lost
    assert counts("Anna") == {**zero, "matzl_lost": 3, "games_won": 2, "solos": 1}
    # n1: caught 2; n7: lost 1; n2: the won tout (a solo); n3: 1 game
    assert counts("Bernd") == {
        **zero,
        "matzl_caught": 2,
        "matzl_lost": 1,
        "touts": 1,
        "touts_won": 1,
        "games_won": 1,
        "solos": 1,
        "solos_won": 1,
    }
    # n1: caught 1, lost 1; n7: lost 1; n3: 2 games; n4: 1 match
    assert counts("Clara") == {**zero, "matzl_caught": 1, "matzl_lost": 2, "games_won": 2, "matches_won": 1}
    # n1: caught 1, lost 1; n7: caught 1; n2: a herz solo lost
    assert counts("Dieter") == {**zero, "matzl_caught": 2, "matzl_lost": 1, "solos": 1}
    # n2: a wenz won (a solo contract); n3: 1 game; n4: 1 match
    assert counts("Eva") == {**zero, "games_won": 1, "matches_won": 1, "solos": 1, "solos_won": 1}


def test_best_and_worst_night_are_the_nights_most_won_and_most_lost(db, club):
    expected = {
        "Anna": (("n1", 40), ("n5", -170)),
        "Bernd": (("n2", 246), ("n7", -180)),
        "Clara": (("n4", 74), ("n2", -94)),
        "Eva": (("n2", 166), ("n6", -150)),
    }
    for name, (best, worst) in expected.items():
        record = history.player_history(db=db, player_id=club.id(name))
        assert record.best == line(club, *best), name
        assert record.worst == line(club, *worst), name
    dieter = history.player_history(db=db, player_id=club.id("Dieter"))
    assert dieter.best.cents == 250  # n6 and n7 both
    assert dieter.worst == line(club, "n2", -194)


def test_the_longest_winning_streak_is_the_longest_run_of_nights_with_money_by_date(db, club):
    def streak(name):
        return history.player_history(db=db, player_id=club.id(name)).streak

    # Dieter: n1 +120, n2 -194, then n5 +50, n6 +250, n7 +250
    assert streak("Dieter") == [line(club, "n5", 50), line(club, "n6", 250), line(club, "n7", 250)]
    # Clara: n1 -, n2 -, n3 +20, n4 +74, n6 -, n7 -
    assert streak("Clara") == [line(club, "n3", 20), line(club, "n4", 74)]
    # Anna: n1 +40, n2 -, n3 +20, n5 -, n7 -: runs of one, the first is kept
    assert streak("Anna") == [line(club, "n1", 40)]


def test_the_nights_for_the_chart_are_oldest_first_with_their_money(db, club):
    eva = history.player_history(db=db, player_id=club.id("Eva"))
    assert eva.nights == [
        line(club, "n2", 166),
        line(club, "n3", -20),
        line(club, "n4", -74),
        line(club, "n5", 50),
        line(club, "n6", -150),
        line(club, "n7", 50),
    ]
    assert eva.total == Tally(6, 30, -17, 22, 9, 6)


def test_a_night_played_for_honour_is_no_money_night_and_neither_ends_nor_extends_a_streak(db, club):
    """A Matt without a stake between Dieter's nights won (n5 +50, n6 +250, n7 +250) moves no money: it
    counts as a night, not as one played for money, and the streak runs on across it."""
    p = club.people
    honour = open_night(db, [p["Dieter"], p["Clara"]], "matt", date(2026, 2, 20), CLARAS)  # stake_per_point 0
    play(db, honour, [{"mated_by": 1, "move": 7, "card": "A"}])
    dieter = history.player_history(db=db, player_id=club.id("Dieter"))
    assert [(n.night_id, n.paid) for n in dieter.nights if n.game == "matt"] == [(honour.id, False)]
    assert (dieter.games["matt"].nights, dieter.games["matt"].for_money) == (1, False)
    assert (dieter.total.nights, dieter.total.paid, dieter.games["schafkopf"].for_money) == (6, 5, True)
    assert dieter.streak == [line(club, "n5", 50), line(club, "n6", 250), line(club, "n7", 250)]
    # the season's Matt nights on the leaderboard: n4 for 2 cents a point, and this one for honour
    assert history.season_kind(db=db, game="matt", season=Season.starting(2026)).for_money
    assert not history.season_kind(db=db, game="matt", season=Season.starting(2025)).for_money  # none at all


def test_a_night_at_a_stake_of_0_is_played_for_honour_whatever_its_rules_pay(db, club):
    """A Matzlfangen at a stake of 0 pays units but no money: like a Matt without a stake, it is no night played
    for money (no best night, the streak runs on across it), and a season of it alone has no money to show."""
    p = club.people
    four = [p["Dieter"], p["Clara"], p["Anna"], p["Bernd"]]
    honour = open_night(db, four, "matzlfangen", date(2024, 2, 20), CLARAS, stake=0)
    play(db, honour, [{"contract": "durch", "declarer": 1, "won": True}])
    dieter = history.player_history(db=db, player_id=club.id("Dieter"))
    assert [(n.night_id, n.paid) for n in dieter.nights if n.night_id == honour.id] == [(honour.id, False)]
    assert dieter.best is None or dieter.best.night_id != honour.id
    assert not history.season_kind(db=db, game="matzlfangen", season=Season.starting(2024)).for_money


def test_a_tournaments_tables_are_no_season_of_the_clubs(db, club):
    """A tournament's tables have no history rows (docs/tournaments.md): its season is not offered, nor is it
    the newest season, though its tables are nights of a later day."""
    t = make_tournament(db, played_on=date(2027, 1, 2))
    tm.draw_round(db=db, tournament_id=t.id)
    assert db.exec(select(func.max(Night.played_on))).one() == date(2027, 1, 2)
    assert [s.label for s in history.seasons(db=db, start=(1, 1))] == ["2026", "2025"]
    assert history.newest_season(db=db, start=(1, 1), today=date(2030, 5, 1)) == Season.starting(2026)
    assert history.newest_season(db=db, start=AUGUST, today=date(2030, 5, 1)).label == "2026/27"


def test_a_player_with_no_nights_has_an_empty_history(db, club):
    franz = create_player(db=db, name="Franz")
    record = history.player_history(db=db, player_id=franz.id)
    assert record.player.name == "Franz"
    assert record.total == Tally(0, 0, 0, 0, 0, 0)
    assert (record.total.win_rate, record.total.units_per_hand) == (None, None)
    assert (record.games, record.seasons, record.contracts, record.nights, record.streak) == ({}, [], [], [], [])
    assert (record.best, record.worst) == (None, None)
    assert set(record.counts.values()) == {0}


@pytest.mark.parametrize("player_id", [999, 0, -1, 2**31])
def test_an_unknown_player_has_no_history(db, club, player_id):
    with pytest.raises(NotFound):
        history.player_history(db=db, player_id=player_id)


# --- the nights list --------------------------------------------------------------------------


def keys(club: Club, page: history.NightsPage) -> list[str]:
    by_id = {e.id: k for k, e in club.nights.items()}
    return [by_id[item.night.id] for item in page.items]


def test_the_nights_list_shows_every_night_newest_first_with_names_in_seat_order_hands_and_leader(db, club):
    page = history.nights_page(db=db, filters=NightFilter())
    assert (page.total, page.page, page.pages) == (7, 1, 1)
    assert keys(club, page) == ["n7", "n6", "n5", "n4", "n3", "n2", "n1"]
    assert [(i.names, i.hands, i.leader) for i in page.items] == [
        (["Eva", "Anna", "Bernd", "Clara", "Dieter"], 3, (("Dieter",), 250)),
        (["Clara", "Bernd", "Eva", "Dieter"], 4, (("Dieter",), 250)),
        (["Dieter", "Bernd", "Eva", "Anna"], 3, (("Bernd",), 70)),
        (["Clara", "Eva"], 9, (("Clara",), 74)),
        (["Anna", "Bernd", "Clara", "Eva"], 7, (("Anna", "Clara"), 20)),  # Anna and Clara both won 20: both
        (["Anna", "Bernd", "Clara", "Dieter", "Eva"], 6, (("Bernd",), 246)),
        (["Anna", "Bernd", "Clara", "Dieter"], 5, (("Dieter",), 120)),
    ]


def test_a_night_nobody_won_has_no_leader(db, club, players):
    empty = open_night(db, players[:4], "matzlfangen", date(2026, 10, 1), OCHSEN)
    even = open_night(db, players[:4], "matzlfangen", date(2026, 10, 2), OCHSEN)
    # Bernd (forehand) calls Clara, 40 lost, the Matzl caught by the losers: worth 0
    record_hand(db=db, night_id=even.id, hand=N1_HANDS[4])
    page = history.nights_page(db=db, filters=NightFilter(since=date(2026, 10, 1)))
    assert [(i.night.id, i.hands, i.leader) for i in page.items] == [(even.id, 1, None), (empty.id, 0, None)]


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"game": "schafkopf"}, ["n6", "n5", "n2"]),
        ({"game": "matt"}, ["n4"]),
        ({"player": "Clara"}, ["n7", "n6", "n4", "n3", "n2", "n1"]),
        ({"player": "Dieter"}, ["n7", "n6", "n5", "n2", "n1"]),
        ({"place": CLARAS}, ["n6", "n4", "n2"]),
        ({"place": OCHSEN}, ["n7", "n5", "n3", "n1"]),
        ({"place": "Nowhere"}, []),
        ({"since": date(2025, 11, 5), "until": date(2026, 2, 10)}, ["n5", "n4", "n3"]),  # both ends included
        ({"since": date(2026, 3, 5)}, ["n7", "n6"]),
        ({"until": date(2025, 6, 20)}, ["n2", "n1"]),
        ({"game": "schafkopf", "player": "Anna"}, ["n5", "n2"]),
        ({"game": "schafkopf", "place": CLARAS, "since": date(2026, 1, 1)}, ["n6"]),
        ({"player": "Eva", "until": date(2025, 12, 31)}, ["n3", "n2"]),
        ({"player": "Eva", "place": OCHSEN, "game": "matzlfangen"}, ["n7"]),
        ({"player": "Dieter", "game": "konter_a_matt"}, []),
    ],
)
def test_the_nights_list_filters_by_game_player_place_and_dates(db, club, filters, expected):
    filters = dict(filters)
    if "player" in filters:
        filters["player_id"] = club.id(filters.pop("player"))
    page = history.nights_page(db=db, filters=NightFilter(**filters))
    assert keys(club, page) == expected
    assert page.total == len(expected)
    assert (page.page, page.pages) == (1, 1)


def test_the_nights_list_pages_by_per_page_and_a_page_beyond_the_end_shows_the_last(db, club):
    pages = [history.nights_page(db=db, filters=NightFilter(), page=n, per_page=2) for n in (1, 2, 3, 4)]
    assert [(p.total, p.page, p.pages) for p in pages] == [(7, 1, 4), (7, 2, 4), (7, 3, 4), (7, 4, 4)]
    assert [keys(club, p) for p in pages] == [["n7", "n6"], ["n5", "n4"], ["n3", "n2"], ["n1"]]
    beyond = history.nights_page(db=db, filters=NightFilter(), page=9, per_page=2)
    assert (beyond.page, beyond.pages, keys(club, beyond)) == (4, 4, ["n1"])
    before = history.nights_page(db=db, filters=NightFilter(), page=0, per_page=2)
    assert (before.page, keys(club, before)) == (1, ["n7", "n6"])
    # filtered: Clara's six nights, three to a page
    clara = history.nights_page(db=db, filters=NightFilter(player_id=club.id("Clara")), page=2, per_page=3)
    assert (clara.total, clara.page, clara.pages, keys(club, clara)) == (6, 2, 2, ["n3", "n2", "n1"])
    none = history.nights_page(db=db, filters=NightFilter(game="matt", since=date(2027, 1, 1)), page=3, per_page=2)
    assert (none.total, none.page, none.pages, none.items) == (0, 1, 1, [])


# --- the leaderboard ------------------------------------------------------------------------------


def standings(board) -> list[tuple]:
    rows, _ = board
    return [(s.name, s.tally, s.attendance) for s in rows]


def test_the_leaderboard_ranks_the_season_by_money_with_tallies_and_attendance(db, club):
    # Schafkopf 2026: n5 (10 cents) and n6 (50 cents): two nights.
    rows, nights = history.leaderboard(db=db, game="schafkopf", season=Season.starting(2026))
    assert nights == 2
    assert [(s.player_id, s.name, s.tally, s.attendance) for s in rows] == [
        (club.id("Dieter"), "Dieter", Tally(2, 7, 10, 300, 0, 0), 100),  # 50 + 250
        (club.id("Bernd"), "Bernd", Tally(2, 7, 6, 20, 2, 1), 100),  # 70 - 50
        (club.id("Clara"), "Clara", Tally(1, 4, -1, -50, 1, 1), 50),  # n6 only
        (club.id("Eva"), "Eva", Tally(2, 7, 2, -100, 3, 2), 100),  # 50 - 150
        (club.id("Anna"), "Anna", Tally(1, 3, -17, -170, 1, 0), 50),  # n5 only
    ]


def test_the_leaderboard_by_units_per_hand_counts_hundredths_of_a_unit(db, club):
    rows, _ = history.leaderboard(db=db, game="schafkopf", season=Season.starting(2026), sort="per_hand")
    # Dieter 10/7 = 1.4286 -> 143, Bernd 6/7 = 0.857 -> 86, Eva 2/7 = 0.286 -> 29, Clara -1/4 -> -25,
    # Anna -17/3 = -5.667 -> -567 (Eva before Clara here, after her by money: the stakes differ)
    assert [(s.name, s.tally.units_per_hand) for s in rows] == [
        ("Dieter", 143),
        ("Bernd", 86),
        ("Eva", 29),
        ("Clara", -25),
        ("Anna", -567),
    ]
    # Konter a Matt 2025 (n3): +-2 units in 7 parties = +-0.2857 -> +-29; ties go by money, then by name
    rows, nights = history.leaderboard(db=db, game="konter_a_matt", season=Season.starting(2025), sort="per_hand")
    assert nights == 1
    assert [(s.name, s.tally.units_per_hand, s.tally.cents) for s in rows] == [
        ("Anna", 29, 20),
        ("Clara", 29, 20),
        ("Bernd", -29, -20),
        ("Eva", -29, -20),
    ]


@pytest.mark.parametrize(
    ("min_declared", "expected"),
    [
        # declared/won in 2026: Anna 1/0, Bernd 2/1, Clara 1/1, Dieter 0/0, Eva 3/2
        (1, [("Clara", 100), ("Eva", 67), ("Bernd", 50), ("Anna", 0), ("Dieter", None)]),
        # below 2 declared no rate: Dieter, Clara, Anna follow by money (300, -50, -170)
        (2, [("Eva", 67), ("Bernd", 50), ("Dieter", None), ("Clara", None), ("Anna", None)]),
        (3, [("Eva", 67), ("Dieter", None), ("Bernd", None), ("Clara", None), ("Anna", None)]),
        (20, [("Dieter", None), ("Bernd", None), ("Clara", None), ("Eva", None), ("Anna", None)]),
    ],
)
def test_the_leaderboard_by_win_rate_rates_only_players_with_enough_declared_hands(db, club, min_declared, expected):
    rows, _ = history.leaderboard(
        db=db, game="schafkopf", season=Season.starting(2026), min_declared=min_declared, sort="win_rate"
    )
    rated = [(s.name, s.tally.win_rate if s.tally.declared >= min_declared else None) for s in rows]
    assert rated == expected


def test_the_leaderboard_by_attendance_puts_the_regulars_first(db, club):
    rows, _ = history.leaderboard(db=db, game="schafkopf", season=Season.starting(2026), sort="attendance")
    # 2 of 2 nights: Dieter, Bernd, Eva (by money 300, 20, -100); 1 of 2: Clara (-50), Anna (-170)
    assert [(s.name, s.attendance) for s in rows] == [
        ("Dieter", 100),
        ("Bernd", 100),
        ("Eva", 100),
        ("Clara", 50),
        ("Anna", 50),
    ]


def test_the_leaderboard_keeps_to_its_season_and_game(db, club):
    # Schafkopf 2024/25 (from 1 August): n2 only, all five there
    assert standings(history.leaderboard(db=db, game="schafkopf", season=Season.starting(2024, AUGUST))) == [
        ("Bernd", Tally(1, 5, 23, 246, 1, 1), 100),
        ("Eva", Tally(1, 5, 15, 166, 1, 1), 100),
        ("Clara", Tally(1, 5, -11, -94, 0, 0), 100),
        ("Anna", Tally(1, 4, -14, -124, 1, 1), 100),
        ("Dieter", Tally(1, 5, -21, -194, 1, 0), 100),
    ]
    assert history.leaderboard(db=db, game="schafkopf", season=Season.starting(2025, AUGUST))[1] == 2  # n5, n6
    # Matzlfangen 2026 (calendar): n7 only; from 1 August 2025 to 31 July 2026: none
    assert standings(history.leaderboard(db=db, game="matzlfangen", season=Season.starting(2026))) == [
        ("Dieter", Tally(1, 2, 25, 250, 1, 1), 100),
        ("Eva", Tally(1, 2, 5, 50, 1, 1), 100),
        ("Clara", Tally(1, 3, -4, -40, 0, 0), 100),
        ("Anna", Tally(1, 2, -8, -80, 0, 0), 100),
        ("Bernd", Tally(1, 3, -18, -180, 1, 0), 100),
    ]
    assert history.leaderboard(db=db, game="matzlfangen", season=Season.starting(2025, AUGUST)) == ([], 0)
    assert standings(history.leaderboard(db=db, game="matt", season=Season.starting(2026))) == [
        ("Clara", Tally(1, 9, 37, 74, 0, 0), 100),
        ("Eva", Tally(1, 9, -37, -74, 0, 0), 100),
    ]


def test_the_clubs_seasons_and_places(db, club):
    assert [s.label for s in history.seasons(db=db, start=(1, 1))] == ["2026", "2025"]
    assert [s.label for s in history.seasons(db=db, start=AUGUST)] == ["2026/27", "2025/26", "2024/25"]
    assert history.places(db) == [CLARAS, OCHSEN]


# --- roster care ----------------------------------------------------------------------------------


def snapshot(record: history.PlayerHistory) -> tuple:
    """Everything of a player's history but the player record itself."""
    return (
        record.total,
        record.games,
        [(s.label, games) for s, games in record.seasons],
        record.contracts,
        record.counts,
        record.best,
        record.worst,
        record.streak,
        record.nights,
    )


def test_renaming_a_player_keeps_every_number_and_shows_the_new_name(db, club):
    before = snapshot(history.player_history(db=db, player_id=club.id("Bernd")))
    rename_player(db=db, player_id=club.id("Bernd"), name="Bernhard")
    after = history.player_history(db=db, player_id=club.id("Bernd"))
    assert after.player.name == "Bernhard"
    assert snapshot(after) == before
    assert after.total == Tally(6, 27, -3, -54, 11, 5)
    assert money(db, club.night("n2"))["Bernhard"] == (23, 246, 5)
    page = history.nights_page(db=db, filters=NightFilter(game="schafkopf"))
    assert [(i.names, i.leader) for i in page.items][1:] == [
        (["Dieter", "Bernhard", "Eva", "Anna"], (("Bernhard",), 70)),
        (["Anna", "Bernhard", "Clara", "Dieter", "Eva"], (("Bernhard",), 246)),
    ]
    rows, _ = history.leaderboard(db=db, game="schafkopf", season=Season.starting(2026))
    assert [(s.name, s.tally.cents) for s in rows][:2] == [("Dieter", 300), ("Bernhard", 20)]
    assert [(c.action, c.detail) for c in roster_changes(db=db, player_id=club.id("Bernd"))] == [
        ("rename", {"before": "Bernd", "after": "Bernhard"})
    ]


def second_record_of_bernd(db, club) -> Player:
    """'B. Huber': Bernd entered twice, at a Schafkopf night (20 Feb 2026) without the other Bernd."""
    huber = create_player(db=db, name="B. Huber")
    people = club.people
    night = open_night(
        db, [huber, people["Anna"], people["Clara"], people["Dieter"]], "schafkopf", date(2026, 2, 20), CLARAS
    )
    club.nights["n8"] = night
    play(
        db,
        night,
        [
            # Huber's schellen solo with 61: won, 5 from each: Huber +15, Anna, Clara, Dieter -5
            {"contract": "solo", "declarer": 1, "suit": "schellen", "points": 61},
            # Anna's sauspiel with Huber, 70: won, 2: Anna, Huber +2, Clara, Dieter -2
            {"contract": "sauspiel", "declarer": 2, "partner": 1, "suit": "eichel", "points": 70},
        ],
    )
    return huber


def test_merge_moves_every_night_of_the_other_record(db, club):
    huber = second_record_of_bernd(db, club)
    huber_id = huber.id
    old_bernd = history.player_history(db=db, player_id=club.id("Bernd"))
    old_huber = history.player_history(db=db, player_id=huber_id)
    assert old_huber.total == Tally(1, 2, 17, 170, 1, 1)  # 15 + 2 units at 10 cents
    kept = merge_players(db=db, keep_id=club.id("Bernd"), merge_id=huber_id)
    assert kept.name == "Bernd"
    bernd = history.player_history(db=db, player_id=club.id("Bernd"))
    # the sum of both records before: nights 6 + 1, hands 27 + 2, units -3 + 17, cents -54 + 170, 11 + 1, 5 + 1
    assert bernd.total == Tally(7, 29, 14, 116, 12, 6)
    total = Tally()
    for tally in (old_bernd.total, old_huber.total):
        total.nights += tally.nights
        total.hands += tally.hands
        total.units += tally.units
        total.cents += tally.cents
        total.declared += tally.declared
        total.won += tally.won
    assert bernd.total == total
    assert bernd.games["schafkopf"] == Tally(4, 14, 46, 436, 4, 3)  # n2, n5, n6 and n8
    assert [(c.contract, c.declared, c.won) for c in bernd.contracts if c.game == "schafkopf"] == [
        ("sauspiel", 2, 1),
        ("solo", 2, 2),  # n2's tout and n8's schellen solo
    ]
    assert (bernd.counts["solos"], bernd.counts["solos_won"]) == (2, 2)
    # n8 (20 Feb) falls between n5 (+70) and n6 (-50): two nights won in a row now
    assert bernd.streak == [line(club, "n5", 70), line(club, "n8", 170)]
    assert money(db, club.night("n8"))["Bernd"] == (17, 170, 2)
    page = history.nights_page(db=db, filters=NightFilter(player_id=club.id("Bernd")))
    assert page.total == 7
    assert page.items[2].names == ["Bernd", "Anna", "Clara", "Dieter"]  # n7, n6, then n8
    rows, nights = history.leaderboard(db=db, game="schafkopf", season=Season.starting(2026))
    assert nights == 3
    assert {s.name: (s.tally, s.attendance) for s in rows}["Bernd"] == (Tally(3, 9, 23, 190, 3, 2), 100)
    assert huber_id not in {s.player_id for s in rows}
    with pytest.raises(NotFound):
        history.player_history(db=db, player_id=huber_id)


def test_merging_is_recorded_in_the_roster_changes(db, club):
    huber_id = second_record_of_bernd(db, club).id
    merge_players(db=db, keep_id=club.id("Bernd"), merge_id=huber_id)
    changes = roster_changes(db=db, player_id=club.id("Bernd"))
    assert [(c.action, c.detail) for c in changes] == [
        ("merge", {"kept": "Bernd", "merged": "B. Huber", "merged_id": huber_id, "nights": 1})
    ]
    assert "B. Huber" not in [p.name for p in list_players(db=db)]


def test_merging_a_record_with_itself_is_refused_and_changes_nothing(db, club):
    before, rows = count_rows(db), all_rows(db)
    with pytest.raises(InvalidInput) as refused:
        merge_players(db=db, keep_id=club.id("Eva"), merge_id=club.id("Eva"))
    assert refused.value.field == "other"
    assert (count_rows(db), all_rows(db)) == (before, rows)
    assert history.player_history(db=db, player_id=club.id("Eva")).total == Tally(6, 30, -17, 22, 9, 6)


def test_merging_two_records_that_sat_at_the_same_night_is_refused_and_changes_nothing(db, club):
    before, rows = count_rows(db), all_rows(db)
    # Clara and Eva sat at n3, n4, n6 and n7 together (n4 is just the two of them)
    with pytest.raises(InvalidInput) as refused:
        merge_players(db=db, keep_id=club.id("Clara"), merge_id=club.id("Eva"))
    assert refused.value.field == "other"
    assert "Clara and Eva sat at the same night" in refused.value.message
    assert (count_rows(db), all_rows(db)) == (before, rows)
    assert roster_changes(db=db) == []
    assert history.player_history(db=db, player_id=club.id("Clara")).total == Tally(6, 33, 19, -130, 5, 4)
    assert history.player_history(db=db, player_id=club.id("Eva")).total == Tally(6, 30, -17, 22, 9, 6)


def test_a_retired_player_leaves_the_seat_pickers_but_keeps_the_history(db, club):
    before = snapshot(history.player_history(db=db, player_id=club.id("Eva")))
    retire_player(db=db, player_id=club.id("Eva"))
    assert [p.name for p in list_players(db=db, active=True)] == ["Anna", "Bernd", "Clara", "Dieter"]
    assert [p.name for p in list_players(db=db)] == ["Anna", "Bernd", "Clara", "Dieter", "Eva"]
    eva = history.player_history(db=db, player_id=club.id("Eva"))
    assert snapshot(eva) == before
    assert eva.total == Tally(6, 30, -17, 22, 9, 6)
    rows, _ = history.leaderboard(db=db, game="schafkopf", season=Season.starting(2026))
    assert {s.name: s.tally.cents for s in rows}["Eva"] == -100
    assert [c.action for c in roster_changes(db=db, player_id=club.id("Eva"))] == ["retire"]


# --- refreshing the rows of nights that have none ---------------------------------------------------


def test_refresh_missing_writes_the_deleted_rows_back_identical(db, club):
    before = all_rows(db)
    gone = [club.night("n2"), club.night("n3"), club.night("n7")]
    db.exec(delete(ContractResult).where(ContractResult.night_id.in_(gone)))
    db.exec(delete(NightResult).where(NightResult.night_id.in_(gone)))
    db.commit()
    assert money(db, club.night("n2")) == {}
    assert history.player_history(db=db, player_id=club.id("Eva")).total == Tally(
        3, 16, -35, -174, 3, 2
    )  # n4, n5, n6 only
    assert refresh_missing(db) == 3
    assert all_rows(db) == before
    assert money(db, club.night("n2"))["Eva"] == (15, 166, 5)
    assert history.player_history(db=db, player_id=club.id("Eva")).total == Tally(6, 30, -17, 22, 9, 6)


def test_refresh_missing_does_nothing_when_every_night_has_rows(db, club):
    before = all_rows(db)
    assert refresh_missing(db) == 0
    assert all_rows(db) == before


# --- the statistics: one table of what a hand counts ---------------------------------------------


def test_every_count_of_a_players_night_row_is_one_the_summary_counts_and_a_player_page_adds_up():
    """One definition: the night row's count columns are exactly ``summary.ROW_COUNTS`` (hands played,
    declared, won and the hand's ``SEAT_COUNTS``), and a player's page adds up every ``SEAT_COUNTS``."""
    from scorekeeper.core.summary import ROW_COUNTS, SEAT_COUNTS

    not_counts = {"evening_id", "player_id", "game", "played_on", "position", "units", "cents"}
    assert set(NightResult.__table__.columns.keys()) - not_counts == set(ROW_COUNTS)
    assert ROW_COUNTS[:3] == ("hands", "declared", "won")
    assert tuple(SEAT_COUNTS) == history.COUNTS


def test_a_hands_facts_count_for_the_players_at_the_seats_each_statistic_names():
    """A Schafkopf tout won by seat 2, the Matzl caught by seats 1 and 3 (seat 4's lost), a Konter a
    Matt game won by seats 1 and 3, a Matt match won by seat 4: in one made-up hand, played at table
    positions 4, 3, 2, 1 (seat 1 is position 4). Each player's row, counted by hand."""
    from scorekeeper.core.summary import PlayerStats, count_hand
    from scorekeeper.engine import HandFacts

    facts = HandFacts(
        declarers=(2,),
        contract="solo",
        won=True,
        tout=True,
        catchers=(1, 3),
        losers_of_matzl=(4,),
        game_winners=(1, 3),
        match_winner=4,
    )
    stats = {p: PlayerStats(str(p)) for p in (1, 2, 3, 4)}
    count_hand(stats, (4, 3, 2, 1), facts)
    zero = dict.fromkeys(("matzl_caught", "matzl_lost", "touts", "touts_won", "games_won", "matches_won"), 0)
    assert stats[4].row() == {**zero, "hands": 1, "declared": 0, "won": 0, "matzl_caught": 1, "games_won": 1}
    assert stats[3].row() == {**zero, "hands": 1, "declared": 1, "won": 1, "touts": 1, "touts_won": 1}
    assert stats[2].row() == {**zero, "hands": 1, "declared": 0, "won": 0, "matzl_caught": 1, "games_won": 1}
    assert stats[1].row() == {**zero, "hands": 1, "declared": 0, "won": 0, "matzl_lost": 1, "matches_won": 1}
    assert (stats[3].declared, stats[3].won, stats[4].matzl) == ({"solo": 1}, {"solo": 1}, 1)
