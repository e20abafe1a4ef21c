"""Exports of a night: the CSV of its hands, the lossless JSON file, and importing that file (once, whole or not at
all, and never a broken night)."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from datetime import date, datetime

import pytest
from sqlalchemy import func
from sqlmodel import select

from scorekeeper.core import hands as hands_module
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, NotFound
from scorekeeper.core.exchange import night_file
from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.exchange.night_file import import_night, night_json
from scorekeeper.core.exchange.spreadsheet import night_csv
from scorekeeper.core.hands import edit_hand, record_hand, undo_last
from scorekeeper.core.models import POT_GONE, AuditEntry, HandRecord, Night, NightResult, Player, Seat
from scorekeeper.core.nights import close_night, create_night, reopen_night
from scorekeeper.core.players import create_player
from scorekeeper.core.table import load_table
from tests.support import DURCH, as_file, drop_at, set_at, snapshot, start_night

MODELS = (Player, Night, Seat, HandRecord, AuditEntry)


# --- helpers -------------------------------------------------------------------


def start(db, players, game="matzlfangen", seats=4, first_dealer=1, **fields):
    """A night of ``game`` with the first ``seats`` of ``players``, on 14 March 2026 unless told."""
    fields = {"rules": None, "stake_cents": 10, "played_on": date(2026, 3, 14), **fields}
    return create_night(
        db=db, game=game, player_ids=[p.id for p in players[:seats]], first_dealer=first_dealer, **fields
    )


def record(db, night, *hands, key_prefix=None):
    """Record ``hands`` in order (with idempotency keys ``<prefix>-1``, ... when a prefix is given)."""
    for i, hand in enumerate(hands, start=1):
        key = None if key_prefix is None else f"{key_prefix}-{i}"
        _, created, _ = record_hand(db=db, night_id=night.id, hand=hand, idempotency_key=key)
        assert created


def roster(db, *names):
    return [create_player(db=db, name=n) for n in names]


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def counts(db) -> dict[str, int]:
    """Rows per table: what a refused import must leave as it was."""
    db.rollback()
    db.expire_all()
    return {m.__name__: db.exec(select(func.count()).select_from(m)).one() for m in MODELS}


# --- CSV -----------------------------------------------------------------------


def test_the_csv_of_a_matzlfangen_night_has_a_row_per_hand_with_each_players_units(db, players):
    night = start(db, players)  # Anna deals first; forehand declares a rufen
    record(
        db,
        night,
        {"contract": "rufen", "partner": 4, "points": 70},  # Bernd + Dieter win 1
        {"contract": "durch", "declarer": 1, "won": True},  # Anna alone wins 6 from each
        {"contract": "treiben", "declarer": 4, "points": 20, "raises": 2},  # Dieter loses: kein Wasser 2, raised 2: 4
    )
    text = night_csv(load_table(db=db, night_id=night.id))
    assert text == (
        "hand,dealer,contract,played by,marks,value,Anna,Bernd,Clara,Dieter\r\n"
        "1,Anna,rufen,Bernd + Dieter,,1,-1,1,-1,1\r\n"
        "2,Bernd,durch,Anna,,6,18,-6,-6,-6\r\n"
        '3,Clara,treiben,Dieter,"no_water, raises",4,4,4,4,-12\r\n'
    )


def test_the_csv_of_a_schafkopf_night_with_the_pot_ends_with_what_each_hand_put_into_the_pot(db, players):
    night = start(db, players, game="schafkopf", seats=5)  # five at the table: the dealer sits out
    record(
        db,
        night,
        {"contract": "rundpass"},  # Anna deals; the other four pay 2 each into the pot
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70},  # Anna + Dieter: 2 + 4
        {"contract": "solo", "suit": "herz", "declarer": 2, "points": 40, "laufende": 3},  # Bernd loses 5 + 3 to each
        {"contract": "rundpass"},  # Dieter deals
    )
    rows = csv_rows(night_csv(load_table(db=db, night_id=night.id)))
    assert rows == [
        ["hand", "dealer", "contract", "played by", "marks", "value", "Anna", "Bernd", "Clara", "Dieter", "Eva", "pot"],
        ["1", "Anna", "rundpass", "", "", "2", "0", "-2", "-2", "-2", "-2", "8"],
        ["2", "Bernd", "sauspiel", "Anna + Dieter", "pot_out", "2", "6", "0", "-2", "6", "-2", "-8"],
        ["3", "Clara", "solo", "Bernd", "laufende", "8", "8", "-24", "0", "8", "8", "0"],
        ["4", "Dieter", "rundpass", "", "", "2", "-2", "-2", "-2", "0", "-2", "8"],
    ]
    assert all(sum(int(cell) for cell in row[6:]) == 0 for row in rows[1:])  # the players and the pot even out


def test_the_csv_shares_the_pot_the_night_started_with(db, players):
    night = start(db, players, game="schafkopf")
    night.pot_start = 4  # carried from the club's last night
    db.add(night)
    db.commit()
    record(db, night, {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "eichel", "points": 61})
    rows = csv_rows(night_csv(load_table(db=db, night_id=night.id)))
    # The Sauspiel is worth 2; its winners take the pot of 4 too, half each.
    assert rows[1] == ["1", "Anna", "sauspiel", "Anna + Clara", "pot_out", "2", "4", "-2", "4", "-2", "-4"]


def test_a_schafkopf_night_without_the_pot_has_no_pot_column(db, players):
    night = start(db, players, game="schafkopf", rules={"preset": "seed-variant"})  # all_pass none
    record(db, night, {"contract": "rundpass"})
    rows = csv_rows(night_csv(load_table(db=db, night_id=night.id)))
    assert rows == [
        ["hand", "dealer", "contract", "played by", "marks", "value", "Anna", "Bernd", "Clara", "Dieter"],
        ["1", "Anna", "rundpass", "", "", "0", "0", "0", "0", "0"],
    ]


def test_hostile_names_are_quoted_and_never_start_a_formula_while_numbers_stay_numbers(db):
    names = ["Kräuter, Sepp", 'Der "Wirt"', "🂡 Ass 🍺", "<b>x</b>", "=1+1"]
    people = roster(db, *names)
    night = start(db, people, seats=5, first_dealer=5)  # "=1+1" deals and sits out
    record(db, night, {"contract": "rufen", "declarer": 1, "partner": 2, "points": 80})
    text = night_csv(load_table(db=db, night_id=night.id))
    assert (
        text.splitlines()[0]
        == 'hand,dealer,contract,played by,marks,value,"Kräuter, Sepp","Der ""Wirt""",🂡 Ass 🍺,<b>x</b>,\'=1+1'
    )
    assert text.splitlines()[1] == '1,\'=1+1,rufen,"Kräuter, Sepp + Der ""Wirt""",,1,1,1,-1,-1,0'
    rows = csv_rows(text)
    assert rows[0][6:] == ["Kräuter, Sepp", 'Der "Wirt"', "🂡 Ass 🍺", "<b>x</b>", "'=1+1"]
    assert [len(row) for row in rows] == [11, 11]


@pytest.mark.parametrize("name", ["+49 Hans", "-Resi-", "@Wirt", "=SUM(A1)"])
def test_a_name_starting_with_a_formula_character_gets_a_quote_before_it(db, name):
    people = roster(db, name, "Bernd", "Clara", "Dieter")
    night = start(db, people)
    text = night_csv(load_table(db=db, night_id=night.id))
    assert csv_rows(text) == [
        ["hand", "dealer", "contract", "played by", "marks", "value", "'" + name, "Bernd", "Clara", "Dieter"]
    ]


def test_the_csv_of_konter_a_matt_says_the_trump_team_and_the_points_of_both_teams(db, players):
    night = start(db, players, game="konter_a_matt")
    record(db, night, {"trump_team": "A", "points_a": 25}, {"trump_team": "B", "points_a": 10})
    table = load_table(db=db, night_id=night.id)
    rows = csv_rows(night_csv(table))
    # no stake (the default): no player columns of zeros, the strokes after each partie instead (issue 26.3)
    assert rows[0] == [
        "hand",
        "dealer",
        "trumps, points A:B",
        "played by",
        "marks",
        "value",
        "strokes A",
        "strokes B",
        "game won by",
    ]
    assert [row[2] for row in rows[1:]] == ["A, 25:15", "B, 10:30"]
    assert [row[3] for row in rows[1:]] == ["Anna + Clara", "Bernd + Dieter"]
    assert [row[6:] for row in rows[1:]] == [["10", "11", ""], ["10", "10", ""]]
    staked = start(db, players, game="konter_a_matt", rules={"stake_per_game": 2})
    record(db, staked, {"trump_team": "A", "points_a": 25})
    table = load_table(db=db, night_id=staked.id)
    rows = csv_rows(night_csv(table))
    assert rows[0][9:] == ["Anna", "Bernd", "Clara", "Dieter"]
    assert [[int(c) for c in row[9:]] for row in rows[1:]] == table.rows


def test_the_csv_of_matt_names_who_gave_mate_and_says_draw(db):
    people = roster(db, "=1+1", "Bernd")
    night = start(db, people, game="matt", seats=2)
    record(db, night, {"mated_by": 1, "move": 7, "card": "A"}, {"mated_by": 2, "move": 3, "card": "K"})
    record(db, night, {"mated_by": None})
    rows = csv_rows(night_csv(load_table(db=db, night_id=night.id)))
    assert rows[0] == [
        "hand",
        "dealer",
        "mated by",
        "played by",
        "marks",
        "value",
        "match",
        "match =1+1",
        "match Bernd",
        "'=1+1",
        "Bernd",
    ]
    assert [row[2] for row in rows[1:]] == ["'=1+1", "Bernd", "draw"]
    assert [row[3] for row in rows[1:]] == ["'=1+1", "Bernd", ""]
    assert [row[1] for row in rows[1:]] == ["'=1+1", "Bernd", "'=1+1"]


def test_the_csv_of_a_night_without_hands_is_its_header(db, players, night):
    assert night_csv(load_table(db=db, night_id=night.id)) == (
        "hand,dealer,contract,played by,marks,value,Anna,Bernd,Clara,Dieter\r\n"
    )


# --- JSON export ---------------------------------------------------------------


def test_the_json_export_holds_the_format_marker_the_night_the_players_in_seat_order_and_the_hands(db, players):
    night = start(db, players[::-1], seats=4, place="Gasthaus Post", currency="CHF", stake_cents=20)
    record(db, night, {"contract": "durch", "declarer": 2, "won": False}, key_prefix="k")
    data = night_json(db=db, night_id=night.id)
    assert (data["format"], data["version"]) == ("scorekeeper-night", 1)
    assert set(data) == {"format", "version", "evening", "players", "hands", "audit"}
    e = data["evening"]
    assert e["uid"] == night.uid and len(e["uid"]) == 32
    assert (e["game"], e["stake_cents"], e["currency"], e["played_on"], e["place"]) == (
        "matzlfangen",
        20,
        "CHF",
        "2026-03-14",
        "Gasthaus Post",
    )
    assert (e["seat_count"], e["first_dealer"], e["status"], e["closed_at"], e["pot_start"]) == (4, 1, "open", None, 0)
    assert e["rules"]["win_threshold"] == 66 and e["rules"]["preset"] == "seed"
    assert data["players"] == [
        {"position": 1, "name": "Eva"},
        {"position": 2, "name": "Dieter"},
        {"position": 3, "name": "Clara"},
        {"position": 4, "name": "Bernd"},
    ]
    [hand] = data["hands"]
    assert hand["number"] == 1 and hand["dealer"] == 1 and hand["idempotency_key"] == "k-1"
    assert hand["data"] == {"contract": "durch", "declarer": 2, "won": False, "dealer": 1}
    assert [(a["hand_number"], a["action"], a["before"]) for a in data["audit"]] == [(1, "record", None)]
    assert data["audit"][0]["after"] == hand["data"]
    for moment in (e["created_at"], hand["created_at"], hand["updated_at"], data["audit"][0]["at"]):
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", moment), moment
    assert json.loads(json.dumps(data)) == data  # plain JSON


def test_a_club_night_exported_alone_is_its_night_file_without_a_tournaments_mark(db, players):
    night = start(db, players)
    record(db, night, {"contract": "durch", "declarer": 2, "won": False})
    assert night_file.night_file_json(db=db, night_id=night.id) == night_json(db=db, night_id=night.id)


def test_the_json_export_of_an_unknown_night_is_not_found(db):
    with pytest.raises(NotFound):
        night_json(db=db, night_id=999)


# --- import: round trips ---------------------------------------------------------


def test_a_night_exported_and_imported_into_an_empty_database_exports_exactly_the_same(db, other_db):
    people = roster(db, "Anna", "Kräuter, Sepp", 'Der "Wirt"', "🂡 Ass 🍺", "=1+1")
    night = start(db, people, game="schafkopf", seats=5, first_dealer=2, place="Zum Löwen", currency="CHF")
    record(
        db,
        night,
        {"contract": "rundpass"},
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70, "kontra": True},
        {"contract": "wenz", "declarer": 4, "points": 95, "laufende": 2},
        key_prefix="phone-a",
    )
    record(db, night, {"contract": "rundpass"})  # recorded without a key
    original = night_json(db=db, night_id=night.id)

    new_id, created = import_night(db=other_db, data=as_file(original))

    assert created
    assert night_json(db=other_db, night_id=new_id) == original
    assert json.dumps(night_json(db=other_db, night_id=new_id), sort_keys=True) == json.dumps(original, sort_keys=True)
    again = load_table(db=other_db, night_id=new_id)
    table = load_table(db=db, night_id=night.id)
    assert (again.rows, again.balance, again.settlement.pot) == (table.rows, table.balance, table.settlement.pot)
    assert night_csv(again) == night_csv(table)


def test_a_closed_night_with_edits_and_an_undo_round_trips_with_its_audit_trail(db, other_db, players):
    night = start(db, players)
    record(
        db,
        night,
        {"contract": "rufen", "partner": 3, "points": 70},
        {"contract": "rufen", "partner": 4, "points": 50},
        {"contract": "durch", "declarer": 1, "won": True},
        key_prefix="k",
    )
    edit_hand(db=db, night_id=night.id, number=1, hand={"contract": "rufen", "partner": 4, "points": 90})
    undo_last(db=db, night_id=night.id)
    close_night(db=db, night_id=night.id)
    reopen_night(db=db, night_id=night.id, reason="Hand 2 war ein Treiben, kein Rufen")
    closed = close_night(db=db, night_id=night.id)
    original = night_json(db=db, night_id=night.id)
    assert [(a["hand_number"], a["action"]) for a in original["audit"]] == [
        (1, "record"),
        (2, "record"),
        (3, "record"),
        (1, "edit"),
        (3, "undo"),
        (None, "close"),
        (None, "reopen"),
        (None, "close"),
    ]
    assert original["evening"]["status"] == "closed"
    assert datetime.fromisoformat(original["evening"]["closed_at"]) == closed.closed_at
    assert original["audit"][6]["after"] == {"reason": "Hand 2 war ein Treiben, kein Rufen"}
    assert original["audit"][3]["before"] == {"contract": "rufen", "partner": 3, "points": 70, "dealer": 1}
    assert original["audit"][4]["after"] is None

    new_id, created = import_night(db=other_db, data=as_file(original))

    assert created
    assert night_json(db=other_db, night_id=new_id) == original
    imported = other_db.get(Night, new_id)
    assert (imported.status, imported.closed_at) == ("closed", closed.closed_at)
    hands = other_db.exec(select(HandRecord).where(HandRecord.night_id == new_id).order_by(HandRecord.number)).all()
    assert [h.idempotency_key for h in hands] == ["k-1", "k-2"]
    assert hands[0].updated_at > hands[0].created_at  # the edit's time is kept
    with pytest.raises(Conflict):  # still closed after the import
        record_hand(db=other_db, night_id=new_id, hand={"contract": "durch", "declarer": 1, "won": True})


def test_a_night_another_import_wrote_meanwhile_gives_its_id_and_changes_nothing(
    db, other_db, players, first_look_misses
):
    """Two imports of one file at once: both look for its uid and find nothing; the later one's insert
    meets the uid's unique constraint, is rolled back, and answers with the night the other wrote."""
    night = start(db, players)
    record(db, night, {"contract": "rufen", "partner": 3, "points": 70})
    data = as_file(night_json(db=db, night_id=night.id))
    first_id, _ = import_night(db=other_db, data=data)
    after_first = counts(other_db)
    looks = first_look_misses(night_file, "find_night")
    assert import_night(db=other_db, data=copy.deepcopy(data)) == (first_id, False)
    assert looks == [night.uid, night.uid]  # looked up again after the refused insert
    assert counts(other_db) == after_first


def test_importing_the_same_night_twice_gives_its_id_and_changes_nothing(db, other_db, players):
    night = start(db, players)
    record(db, night, {"contract": "rufen", "partner": 3, "points": 70})
    data = as_file(night_json(db=db, night_id=night.id))

    first_id, first_created = import_night(db=other_db, data=data)
    after_first = counts(other_db)
    second_id, second_created = import_night(db=other_db, data=copy.deepcopy(data))

    assert (first_created, second_created) == (True, False)
    assert second_id == first_id
    assert counts(other_db) == after_first == {"Player": 4, "Night": 1, "Seat": 4, "HandRecord": 1, "AuditEntry": 1}
    before = counts(db)
    assert import_night(db=db, data=data) == (night.id, False)  # back into the database it came from
    assert counts(db) == before


def test_an_imported_night_seats_the_roster_players_of_the_same_name_ignoring_case(db, other_db, players):
    night = start(db, players)
    data = as_file(night_json(db=db, night_id=night.id))
    roster(other_db, "anna", "CLARA", "Zenzi")

    new_id, created = import_night(db=other_db, data=data)

    assert created
    assert sorted(p.name for p in other_db.exec(select(Player))) == ["Bernd", "CLARA", "Dieter", "Zenzi", "anna"]
    assert [p["name"] for p in night_json(db=other_db, night_id=new_id)["players"]] == [
        "anna",
        "Bernd",
        "CLARA",
        "Dieter",
    ]


def test_a_night_file_seating_a_name_that_is_a_tournament_guest_here_does_not_seat_the_guest(db, other_db):
    """The club's Preisschafkopf had a guest, Gast Gustl (a start number, never on the roster nor in
    the club's history). A club night played elsewhere (the club's trip, on a second server) where a
    member of that name sat is exported and imported here with ``manage.py import``. Seating the
    tournament's guest record at the club night would give the guest a club night in the history and
    on the leaderboard's rows, which no page can make (core/nights.py add_night refuses a guest at a
    club night); the import refuses it naming the seat, as the tournament file's import refuses a
    guest/member mix-up naming the entry, and writes nothing."""
    t = tm.create_tournament(db=db, name="Preisschafkopf", game="schafkopf", rules={"preset": "turnier"}, seed="g")
    guest = tm.add_entrant(db=db, tournament_id=t.id, guest="Gast Gustl").player_id

    away = [create_player(db=other_db, name=n) for n in ("Anna", "Bernd", "Gast Gustl", "Dieter")]
    night = start_night(other_db, away)
    record_hand(db=other_db, night_id=night.id, hand=DURCH)
    data = night_json(db=other_db, night_id=night.id)

    before = snapshot(db)
    try:
        night_id, _ = import_night(db=db, data=data)
    except InvalidExport as err:
        assert err.path == "players[2].name"
        assert err.message == "'Gast Gustl' is 'Gast Gustl' here, a guest of a tournament, not a member"
        assert snapshot(db) == before
        return
    seated = [s.player_id for s in db.exec(select(Seat).where(Seat.night_id == night_id))]
    rows = db.exec(select(NightResult).where(NightResult.player_id == guest)).all()
    assert guest not in seated, f"the tournament's guest sits at the imported club night ({len(rows)} history rows)"


# --- import: bad files -------------------------------------------------------------


BAD_FILES = {
    "a wrong format marker": (set_at(["format"], "something-else"), "format", "this is not a Scorekeeper night"),
    "a newer version": (set_at(["version"], 2), "version", "reads version 1, not 2"),
    "a version given as true": (set_at(["version"], True), "version", "reads version 1, not True"),
    "no evening": (drop_at(["evening"]), "evening", "evening is required"),
    "no audit": (drop_at(["audit"]), "audit", "audit is required"),
    "an evening without its game": (drop_at(["evening", "game"]), "evening.game", "game is required"),
    "a hand without its data": (drop_at(["hands", 1, "data"]), "hands[1].data", "data is required"),
    "an unknown key": (set_at(["evening", "colour"], "red"), "evening.colour", "unknown key 'colour'"),
    # a tournament's table exported alone: refused however its mark reads, named where it reads well
    "a tournament's table": (
        set_at(["tournament"], {"uid": "0" * 32, "name": "Preisschafkopf", "round": 2, "table": 3}),
        "tournament",
        "this file is table 3 of round 2 of the tournament 'Preisschafkopf', exported alone",
    ),
    "a tournament's table whose mark says nothing": (
        set_at(["tournament"], "yes"),
        "tournament",
        "this file is a tournament's table, exported alone",
    ),
    "a tournament's table whose name has a line break": (
        set_at(["tournament"], {"name": "Preis\nschafkopf", "round": 2, "table": 3}),
        "tournament",
        "this file is a tournament's table, exported alone",
    ),
    "a stake given as text": (
        set_at(["evening", "stake_cents"], "10"),
        "evening.stake_cents",
        "must be a whole number, not a text",
    ),
    "a seat count given as true": (
        set_at(["evening", "seat_count"], True),
        "evening.seat_count",
        "must be a whole number, not true or false",
    ),
    "hands given as an object": (set_at(["hands"], {}), "hands", "must be a list, not an object"),
    "a name given as a number": (set_at(["players", 0, "name"], 5), "players[0].name", "the name must be a text"),
    "an empty name": (set_at(["players", 2, "name"], "   "), "players[2].name", "the name must not be empty"),
    "a name with a line break": (
        set_at(["players", 2, "name"], "Cla\nra"),
        "players[2].name",
        "must not contain control characters",
    ),
    "the same player at two seats": (  # "ANNA" beside "Anna": two records of an older version's database
        set_at(["players", 1, "name"], "Anna"),
        "players[1].name",
        "'Anna' already sits at seat 1",
    ),
    "players out of seat order": (set_at(["players", 0, "position"], 2), "players[0].position", "expected 1"),
    "a seat count that does not match the players": (
        set_at(["evening", "seat_count"], 5),
        "players",
        "the night has 5 seats (evening.seat_count) but 4 players",
    ),
    "a player too few": (
        lambda data: data["players"].pop(),
        "players",
        "the night has 4 seats (evening.seat_count) but 3 players",
    ),
    "a seat count the game is not played at": (
        set_at(["evening", "seat_count"], 3),
        "evening.seat_count",
        "matzlfangen is played by 4 or 5 players, not 3",
    ),
    "an unknown game": (set_at(["evening", "game"], "poker"), "evening.game", "not 'poker'"),
    "a hand the engine refuses": (
        set_at(["hands", 1, "data", "points"], 200),
        "hands[1].data.points",
        "points must be between 0 and 130",
    ),
    "a hand of an unknown contract": (
        set_at(["hands", 0, "data", "contract"], "bridge"),
        "hands[0].data.contract",
        "contract must be one of",
    ),
    "a hand that is not an object": (set_at(["hands", 0, "data"], [1, 2]), "hands[0].data", "must be an object"),
    "a hand dealt by the wrong seat": (
        set_at(["hands", 1, "dealer"], 4),
        "hands[1].dealer",
        "hand 2 is dealt by seat 2",
    ),
    "hands out of order": (set_at(["hands", 1, "number"], 3), "hands[1].number", "expected 2"),
    "an idempotency key twice": (
        set_at(["hands", 1, "idempotency_key"], "k-1"),
        "hands[1].idempotency_key",
        "hand 1 has the same key",
    ),
    "a rule set with a rule missing": (
        drop_at(["evening", "rules", "win_threshold"]),
        "evening.rules",
        "not complete: win_threshold missing",
    ),
    "a rule out of range": (
        set_at(["evening", "rules", "win_threshold"], 500),
        "evening.rules.win_threshold",
        "win_threshold must be between 1 and 130",
    ),
    "a pot on a matzlfangen night": (
        set_at(["evening", "pot_start"], 2),
        "evening.pot_start",
        "applies only to schafkopf",
    ),
    "a time without a zone": (
        set_at(["evening", "created_at"], "2026-03-14T19:30:00"),
        "evening.created_at",
        "has no time zone",
    ),
    "a time that is no time": (set_at(["hands", 0, "updated_at"], "soon"), "hands[0].updated_at", "is not an ISO 8601"),
    "a German date": (set_at(["evening", "played_on"], "14.03.2026"), "evening.played_on", "must be a date"),
    "an unknown status": (set_at(["evening", "status"], "paused"), "evening.status", "not 'paused'"),
    "an open night with a closing time": (
        set_at(["evening", "closed_at"], "2026-03-15T00:30:00+00:00"),
        "evening.closed_at",
        "an open night has no closing time",
    ),
    "a closed night without its closing time": (
        set_at(["evening", "status"], "closed"),
        "evening.closed_at",
        "a closed night has the time it was closed",
    ),
    "a bad uid": (set_at(["evening", "uid"], "../../etc"), "evening.uid", "32 lowercase hexadecimal digits"),
    "a lowercase currency": (set_at(["evening", "currency"], "eur"), "evening.currency", "three-letter code"),
    "an audit entry with a list before": (
        set_at(["audit", 0, "before"], [1]),
        "audit[0].before",
        "must be an object or null, not a list",
    ),
    "a key given as a number": (
        set_at(["audit", 3, "idempotency_key"], 5),
        "audit[3].idempotency_key",
        "must be null or 1 to 64 printable ASCII characters",
    ),
    "an empty key": (
        set_at(["audit", 3, "idempotency_key"], ""),
        "audit[3].idempotency_key",
        "must be null or 1 to 64 printable ASCII characters",
    ),
    "a key too long": (
        set_at(["audit", 3, "idempotency_key"], "k" * 65),
        "audit[3].idempotency_key",
        "must be null or 1 to 64 printable ASCII characters",
    ),
    "a key with a letter that is not ASCII": (
        set_at(["audit", 3, "idempotency_key"], "schlüssel"),
        "audit[3].idempotency_key",
        "must be null or 1 to 64 printable ASCII characters",
    ),
    "a key on an entry that is no undo": (
        set_at(["audit", 1, "idempotency_key"], "k-9"),
        "audit[1].idempotency_key",
        "only an undo keeps the key of the hand it took back, not a record",
    ),
    "the key of a hand that is still there": (
        set_at(["audit", 3, "idempotency_key"], "k-2"),
        "audit[3].idempotency_key",
        "hand 2 has the same key: a hand taken back is never recorded again with its key",
    ),
    "a pot's night that is no uid": (
        set_at(["evening", "pot_to"], "the next night"),
        "evening.pot_to",
        "must be 32 lowercase hexadecimal digits",
    ),
    "a pot given to no night": (
        set_at(["evening", "pot_given"], 8),
        "evening.pot_given",
        "is given exactly when evening.pot_to names the night that took it",
    ),
    "a pot given by a night whose rules carry none": (
        set_at(["evening", "pot_to"], "0" * 32),
        "evening.pot_to",
        "names a night, but the night's rules carry no pot to the next",
    ),
    "a pot given to the night itself": (
        lambda data: data["evening"].update(pot_to=data["evening"]["uid"], pot_given=8),
        "evening.pot_to",
        "names the night itself",
    ),
    "where a pot went without what it gave": (
        drop_at(["evening", "pot_given"]),
        "evening.pot_given",
        "is required with evening.pot_to and evening.pot_given: they come together",
    ),
    "pots taken that are no list": (
        set_at(["evening", "pot_from"], {"uid": "0" * 32}),
        "evening.pot_from",
        "must be a list",
    ),
    "a pot taken from a night that is no uid": (
        set_at(["evening", "pot_from"], [{"uid": "yesterday", "units": 8}]),
        "evening.pot_from[0].uid",
        "must be 32 lowercase hexadecimal digits",
    ),
    "a pot taken of no units": (
        set_at(["evening", "pot_from"], [{"uid": "0" * 32, "units": -8}]),
        "evening.pot_from[0].units",
        "must be",
    ),
    "the same pot taken twice": (
        set_at(["evening", "pot_from"], [{"uid": "0" * 32, "units": 8}, {"uid": "0" * 32, "units": 8}]),
        "evening.pot_from[1].uid",
        "names the night itself or a night named before",
    ),
    "the same key on two undos": (
        lambda data: data["audit"].append(copy.deepcopy(data["audit"][3])),
        "audit[4].idempotency_key",
        "audit[3] has the same key: a hand taken back is never recorded again with its key",
    ),
}


@pytest.fixture
def good_file(db, players):
    """The export of a Matzlfangen night of two hands with idempotency keys, and a third (``k-3``) undone:
    its audit trail is record 1, 2, 3 and the undo of 3, which keeps ``k-3``."""
    night = start(db, players)
    record(
        db,
        night,
        {"contract": "rufen", "partner": 3, "points": 70},
        {"contract": "treiben", "declarer": 1, "points": 80},
        {"contract": "durch", "declarer": 1, "won": True},
        key_prefix="k",
    )
    undo_last(db=db, night_id=night.id)
    return as_file(night_json(db=db, night_id=night.id))


def test_the_good_file_of_the_bad_file_tests_imports(other_db, good_file):
    assert import_night(db=other_db, data=good_file)[1] is True


@pytest.mark.parametrize("change, path, message", BAD_FILES.values(), ids=list(BAD_FILES))
def test_a_bad_file_is_refused_naming_the_place_and_nothing_is_written(other_db, good_file, change, path, message):
    change(good_file)
    with pytest.raises(InvalidExport) as caught:
        import_night(db=other_db, data=good_file)
    assert caught.value.path == path
    assert message in caught.value.message
    assert str(caught.value) == f"{path}: {caught.value.message}"
    assert counts(other_db) == dict.fromkeys((m.__name__ for m in MODELS), 0)


@pytest.mark.parametrize("data", [[], "night", None, 7])
def test_a_file_that_is_not_a_json_object_is_refused(other_db, data):
    with pytest.raises(InvalidExport, match="must be a JSON object"):
        import_night(db=other_db, data=data)
    assert counts(other_db)["Night"] == 0


def test_a_failure_while_writing_leaves_neither_the_night_nor_its_new_players(other_db, good_file, monkeypatch):
    roster(other_db, "Anna")
    before = counts(other_db)

    def broken(**_fields):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(hands_module, "AuditEntry", broken)  # fails after players, night, seats, hands
    with pytest.raises(RuntimeError, match="the disk is full"):
        import_night(db=other_db, data=good_file)
    assert counts(other_db) == before
    assert [p.name for p in other_db.exec(select(Player))] == ["Anna"]


# --- the undone hands' keys (docs/rules.md, "A hand taken back stays taken back") ----------------


def test_the_undone_hands_keys_go_with_the_night_and_a_resend_is_refused_after_the_import(other_db, good_file):
    """The export forgot them: a phone's outbox sending the undone hand again to the imported night
    recorded it again."""
    assert [(a["action"], a.get("idempotency_key")) for a in good_file["audit"]] == [
        ("record", None),
        ("record", None),
        ("record", None),
        ("undo", "k-3"),
    ]
    assert ["idempotency_key" in a for a in good_file["audit"]] == [False, False, False, True]

    new_id, created = import_night(db=other_db, data=copy.deepcopy(good_file))

    assert created
    assert night_json(db=other_db, night_id=new_id) == good_file
    with pytest.raises(hands_module.UndoneHand) as refused:
        record_hand(
            db=other_db, night_id=new_id, hand={"contract": "durch", "declarer": 1, "won": True}, idempotency_key="k-3"
        )
    assert refused.value.number == 3
    other_db.rollback()
    assert len(load_table(db=other_db, night_id=new_id).hands) == 2


def test_a_night_file_written_before_the_undone_keys_imports(other_db, good_file):
    assert good_file["audit"][3].pop("idempotency_key") == "k-3"
    new_id, created = import_night(db=other_db, data=good_file)
    assert created
    assert night_json(db=other_db, night_id=new_id) == good_file
    undo = other_db.exec(select(AuditEntry).where(AuditEntry.night_id == new_id, AuditEntry.action == "undo")).one()
    assert undo.idempotency_key is None


def test_an_undo_without_a_key_may_say_so_with_null(other_db, good_file):
    """A hand recorded without a key, or undone before the undos kept them (0014)."""
    good_file["audit"][3]["idempotency_key"] = None
    assert import_night(db=other_db, data=good_file)[1] is True


def test_where_a_carried_pot_went_goes_with_the_night_file(db, other_db, players):
    """Rule: the pot carried to the next night: the night that took it (its uid) and the units it gave are
    the night's own facts, exported and imported with it."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"})
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"})
    data = night_json(db=db, night_id=first.id)
    assert (data["evening"]["pot_to"], data["evening"]["pot_given"]) == (second.uid, 8)
    took = night_json(db=db, night_id=second.id)
    assert took["evening"]["pot_from"] == [{"uid": first.uid, "units": 8}]
    new_id, _ = import_night(db=other_db, data=as_file(data))
    assert night_json(db=other_db, night_id=new_id) == data
    taker_id, _ = import_night(db=other_db, data=as_file(took))
    assert night_json(db=other_db, night_id=taker_id) == took


@pytest.mark.parametrize(("status", "pot_to"), [("closed", POT_GONE), ("open", None)])
def test_a_night_file_written_before_pots_were_followed_imports_a_closed_nights_pot_as_gone(
    other_db, good_file, status, pot_to
):
    """A file written before (no ``pot_to``): its closed night's pot went where the rule of then sent it, and
    does not wait for a night here; an open night's waits once it is closed."""
    evening = good_file["evening"]
    del evening["pot_to"], evening["pot_given"], evening["pot_from"]
    evening["status"], evening["closed_at"] = status, "2026-03-15T00:30:00+00:00" if status == "closed" else None
    new_id, created = import_night(db=other_db, data=good_file)
    assert created
    night = other_db.get(Night, new_id)
    assert (night.pot_to, night.pot_given) == (pot_to, None)
