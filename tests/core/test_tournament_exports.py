"""A whole tournament as one JSON file: lossless (export, import into an empty database, export
again: the same file, the same standings), idempotent (by the tournament's uid), guests stay
guests, and a bad file is refused naming its JSON path with nothing written."""

from __future__ import annotations

import copy
import json

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import NotFound
from scorekeeper.core.exchange import club_file, night_file
from scorekeeper.core.exchange import tournament_file as tx
from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Night, Player, Seat, TournamentTable
from scorekeeper.core.nights import pots_from_nowhere
from scorekeeper.core.players import create_player, list_players
from scorekeeper.core.table import load_table
from tests.support import snapshot

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
WENZ = {"contract": "wenz", "declarer": 3, "points": 61}
RUNDPASS = {"contract": "rundpass"}  # dealt again under the turnier preset: no deal


def played_tournament(db):
    """9 participants (a guest among them), round 1 played (a table recorded deal by deal, with a
    redealt all-pass and a solo, and a table from paper), a withdrawal, round 2 drawn and begun."""
    t = tm.create_tournament(
        db=db,
        name="Preisschafkopf",
        game="schafkopf",
        rules={"preset": "turnier"},
        rounds=3,
        deals=3,
        place="Zur Post",
        entry_fee_cents=1500,
        prizes=[5000, 3000, 1000],
        seed="export",
    )
    for i in range(8):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    tm.add_entrant(db=db, tournament_id=t.id, guest="Gast Gustl")
    tm.draw_round(db=db, tournament_id=t.id)
    first = tm.read_tournament(db=db, tournament_id=t.id).rounds[0]
    recorded = next(table for table in first.tables if len(table.entrants) == 5)
    paper = next(table for table in first.tables if len(table.entrants) == 4)
    for hand in (RUNDPASS, SAUSPIEL, WENZ, SAUSPIEL):
        record_hand(db=db, night_id=recorded.night.id, hand=hand)
    tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=paper.number, points=[30, -10, -25, 5])
    tm.withdraw_entrant(db=db, tournament_id=t.id, number=2)
    tm.draw_round(db=db, tournament_id=t.id)
    second = tm.read_tournament(db=db, tournament_id=t.id).rounds[1]
    record_hand(db=db, night_id=second.tables[0].night.id, hand=SAUSPIEL)
    return tm.get_tournament(db=db, tournament_id=t.id)


def standings(db, tournament_id):
    view = tm.read_tournament(db=db, tournament_id=tournament_id)
    return [
        (line.entrant.number, line.name, line.standing.points, line.standing.total, line.standing.rank)
        for line in view.standings
    ]


def test_a_tournament_exported_imported_and_exported_again_is_the_same_file_with_the_same_standings(db, other_db):
    t = played_tournament(db)
    data = tx.tournament_json(db, t.id)
    json.dumps(data)  # plain JSON
    imported, created = tx.import_tournament(other_db, copy.deepcopy(data))
    assert created
    assert tx.tournament_json(other_db, imported.id) == data
    assert standings(other_db, imported.id) == standings(db, t.id)
    assert [s[3] for s in standings(db, t.id)] != [0] * 9  # points were scored: the comparison says something


def test_the_export_says_every_column_of_the_tournament_and_of_its_entrants_rounds_and_tables(db):
    t = played_tournament(db)
    data = tx.tournament_json(db, t.id)
    assert (data["format"], data["version"]) == ("scorekeeper-tournament", 1)
    head = data["tournament"]
    assert head["uid"] == t.uid and head["seed"] == "export" and head["prizes"] == [5000, 3000, 1000]
    assert head["rules"] == t.rules and head["rules"]["all_pass"] == "redeal"
    assert (head["rounds"], head["deals"], head["entry_fee_cents"], head["place"]) == (3, 3, 1500, "Zur Post")
    entrants = data["entrants"]
    assert [e["number"] for e in entrants] == list(range(1, 10))
    assert entrants[8] == {"number": 9, "name": "Gast Gustl", "guest": True, "withdrawn_after": None}
    assert entrants[1]["withdrawn_after"] == 1
    assert [r["number"] for r in data["rounds"]] == [1, 2]
    papers = [table["paper"] for table in data["tables"]]
    assert papers.count([30, -10, -25, 5]) == 1
    assert sorted(len(table["night"]["hands"]) for table in data["tables"]) == [0, 0, 1, 4]
    assert all(table["night"]["format"] == "scorekeeper-night" for table in data["tables"])


def test_importing_a_tournament_twice_changes_nothing_the_second_time(db, other_db):
    data = tx.tournament_json(db, played_tournament(db).id)
    first, created = tx.import_tournament(other_db, copy.deepcopy(data))
    before = snapshot(other_db)
    again, created_again = tx.import_tournament(other_db, copy.deepcopy(data))
    assert created and not created_again
    assert again.id == first.id
    assert snapshot(other_db) == before


def test_a_tournament_another_import_wrote_meanwhile_comes_back_and_nothing_changes(
    db, other_db, monkeypatch, first_look_misses
):
    """Two imports of one file at once: both find no tournament (nor table night) with its uid; the
    later one's insert meets the uid's unique constraint, is rolled back, and answers with the other's."""
    data = tx.tournament_json(db, played_tournament(db).id)
    first, _ = tx.import_tournament(other_db, copy.deepcopy(data))
    before = snapshot(other_db)
    looks = first_look_misses(tx, "_tournament_id")
    monkeypatch.setattr(tx, "find_night", lambda session, uid: None)
    again, created = tx.import_tournament(other_db, copy.deepcopy(data))
    assert (again.id, created) == (first.id, False)
    assert looks == [first.uid, first.uid]
    assert snapshot(other_db) == before


def test_imported_tables_are_tournament_tables_that_phones_can_go_on_recording(db, other_db):
    data = tx.tournament_json(db, played_tournament(db).id)
    t, _ = tx.import_tournament(other_db, data)
    view = tm.read_tournament(db=other_db, tournament_id=t.id)
    second = view.rounds[1]
    for table in second.tables:
        assert table.night.tournament_id == t.id and table.night.deals == 3
        assert table.night.is_open and table.night.join_code  # a phone joins the table with its code
    record_hand(db=other_db, night_id=second.tables[1].night.id, hand=SAUSPIEL)
    assert load_table(db=other_db, night_id=second.tables[1].night.id).balance != [0, 0, 0, 0]
    assert view.rounds[0].done and all(t.done for t in view.rounds[0].tables)


def test_a_guest_is_imported_as_a_guest_and_roster_players_are_found_by_name(db, other_db):
    data = tx.tournament_json(db, played_tournament(db).id)
    anna = create_player(db=other_db, name="SPIELER 1")  # on the roster already, another case
    tx.import_tournament(other_db, data)
    guest = other_db.exec(select(Player).where(Player.name == "Gast Gustl")).one()
    assert guest.guest
    roster = [p.name for p in list_players(db=other_db)]
    assert "Gast Gustl" not in roster
    assert roster.count("SPIELER 1") == 1 and "Spieler 1" not in roster
    assert len(roster) == 8 and anna.id in {p.id for p in list_players(db=other_db)}


def test_exporting_an_unknown_tournament_is_not_found(db):
    with pytest.raises(NotFound):
        tx.tournament_json(db, 999)


def set_at(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def drop(path):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def _guest_to_table(data):
    data["tables"][0]["night"]["players"][0]["name"] = "Fremder"


BAD = {
    "a night file": (set_at(["format"], "scorekeeper-night"), "format", "not a Scorekeeper tournament"),
    "a newer version": (set_at(["version"], 2), "version", "reads version 1, not 2"),
    "an unknown key": (set_at(["tournament", "colour"], "red"), "tournament.colour", "unknown key"),
    "a missing key": (drop(["tournament", "seed"]), "tournament.seed", "seed is required"),
    "rounds as text": (set_at(["tournament", "rounds"], "2"), "tournament.rounds", "whole number"),
    "a prize as a float": (set_at(["tournament", "prizes"], [10.5]), "tournament.prizes[0]", "whole number"),
    "a game without tables of five": (set_at(["tournament", "game"], "matt"), "tournament.game", "must be one of"),
    "rules not complete": (set_at(["tournament", "rules"], {"preset": "turnier"}), "tournament.rules", "complete"),
    "a guest flag as text": (set_at(["entrants", 0, "guest"], "yes"), "entrants[0].guest", "true or false"),
    "an entrant twice": (set_at(["entrants", 1, "name"], "Spieler 1"), "entrants[1].name", "already"),
    "entrants out of order": (set_at(["entrants", 1, "number"], 1), "entrants[1].number", "by start number"),
    "a bye of nobody": (set_at(["rounds", 0, "byes"], [42]), "rounds[0].byes[0]", "no entrant"),
    "a round skipped": (set_at(["rounds", 1, "number"], 3), "rounds[1].number", "expected 2"),
    "a table of no round": (set_at(["tables", 0, "round"], 3), "tables[0].round", "not in rounds"),
    "a table twice": (set_at(["tables", 1, "number"], 1), "tables[1].number", "the same table"),
    "a stranger at a table": (_guest_to_table, "tables[0].night.players[0].name", "not one of the entrants"),
    "a bad hand at a table": (
        set_at(["tables", 0, "night", "hands", 1, "data", "points"], "viel"),
        "tables[0].night.hands[1].data.points",
        "",
    ),
    "a night with an unknown key": (
        set_at(["tables", 0, "night", "evening", "colour"], 1),
        "tables[0].night.evening.colour",
        "unknown key",
    ),
    "a paper list not adding up": (set_at(["tables", 1, "paper"], [1, 1, 1, 1]), "tables[1].paper", "zero"),
    "a paper list of text": (set_at(["tables", 1, "paper"], "30,-30"), "tables[1].paper", "must be a list"),
    "other rules at a table": (
        set_at(["tables", 0, "night", "evening", "rules", "tariff_sauspiel"], 2),
        "tables[0].night.evening.rules",
        "tournament's rules",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_file_is_refused_naming_its_json_path_and_nothing_is_written(db, other_db, case):
    """Rule: a file that is not a tournament export, of another version, with unknown keys or bad
    types is refused with the JSON path of the problem; nothing is written."""
    data = tx.tournament_json(db, played_tournament(db).id)
    # the recorded table first, the paper table second (as the cases above expect)
    data["tables"].sort(key=lambda table: (table["round"], table["paper"] is not None, -len(table["night"]["hands"])))
    for i, table in enumerate(data["tables"][:2]):
        table["number"] = i + 1
    change, path, words = BAD[case]
    change(data)
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path == path
    assert words in err.value.message
    assert snapshot(other_db) == before


def test_a_file_whose_table_night_is_already_a_loose_night_is_refused_and_nothing_is_written(db, other_db):
    from scorekeeper.core.exchange.night_file import import_night

    data = tx.tournament_json(db, played_tournament(db).id)
    import_night(db=other_db, data=copy.deepcopy(data["tables"][2]["night"]))
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path == "tables[2].night.evening.uid"
    assert snapshot(other_db) == before
    assert len(other_db.exec(select(Night)).all()) == 1


def test_a_replacement_and_a_paper_lists_solos_travel_with_the_tournament(db, other_db):
    """Issue 25: who was replaced (their earlier tables) and the solos a paper list gave survive the round trip,
    and a recorded table's solos are counted again on import."""
    t = played_tournament(db)
    first = tm.read_tournament(db=db, tournament_id=t.id).rounds[0]
    paper = next(table for table in first.tables if table.paper)
    replaced = next(table for table in first.tables if not table.paper).entrants[0].number
    table_row = db.get(TournamentTable, (t.id, 1, paper.number))
    table_row.solos = [[1, 0], None, [0, 2], [0, 0]]
    db.add(table_row)
    db.commit()
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[1].tables:  # round 2 over
        for _ in range(3 - table.deals):
            record_hand(db=db, night_id=table.night.id, hand=WENZ)
    before = tm.read_tournament(db=db, tournament_id=t.id).names[replaced]
    tm.replace_entrant(db=db, tournament_id=t.id, number=replaced, guest="Resi Ersatz")
    data = tx.tournament_json(db, t.id)
    entrant = data["entrants"][replaced - 1]
    assert entrant["name"] == "Resi Ersatz" and [f["name"] for f in entrant["former"]] == [before]
    imported, _ = tx.import_tournament(other_db, copy.deepcopy(data))
    assert tx.tournament_json(other_db, imported.id) == data

    def lines(session, tournament_id):
        view = tm.read_tournament(db=session, tournament_id=tournament_id)
        names = [table.names for r in view.rounds for table in r.tables]
        solos = [(ln.name, ln.standing.solos_won, ln.standing.solos_lost, ln.solos_known) for ln in view.standings]
        return names, solos, standings(session, tournament_id)

    assert lines(other_db, imported.id) == lines(db, t.id)
    assert any(not known for *_, known in lines(db, t.id)[1])


# --- issue 22.5: guests stay guests, a closed tournament is complete -------------------------------


def _index_of(data, name):
    return next(i for i, e in enumerate(data["entrants"]) if e["name"] == name)


@pytest.mark.parametrize("member", ["Gast Gustl", "GAST GUSTL", "Gаst Gustl"])  # the last with a Cyrillic а
def test_an_entrant_marked_guest_whose_name_is_a_members_is_refused_naming_the_entry(db, other_db, member):
    data = tx.tournament_json(db, played_tournament(db).id)
    create_player(db=other_db, name=member)
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path == f"entrants[{_index_of(data, 'Gast Gustl')}].guest"
    assert "a member of the club, not a guest" in err.value.message and member in err.value.message
    assert snapshot(other_db) == before


def test_a_member_entrant_whose_name_is_an_earlier_guests_is_refused(db, other_db):
    data = tx.tournament_json(db, played_tournament(db).id)
    earlier = tm.create_tournament(db=other_db, name="Vorher", game="schafkopf", rules={"preset": "turnier"}, seed="v")
    tm.add_entrant(db=other_db, tournament_id=earlier.id, guest="Spieler 1")
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path == f"entrants[{_index_of(data, 'Spieler 1')}].guest"
    assert snapshot(other_db) == before


def test_a_replaced_guest_whose_name_is_a_member_here_is_refused_as_an_entrants_guest_is(db, other_db):
    """A guest, Gast Gustl, plays round 1 of a tournament and goes home; the organiser gives the start
    number to another guest (Replace). The tournament file is imported at a club (another server, or the
    club's new one) where Gast Gustl is a member. For a participant the import refuses exactly this
    ("a member of the club, not a guest", entrants[i].guest); the replaced person (``former``) is
    looked up the same way: found by name only, the member would sit at round 1's table (their page
    listing a tournament they never played, and merging the two records later refused as "two people")."""
    t = tm.create_tournament(
        db=db, name="Preisschafkopf", game="schafkopf", rules={"preset": "turnier"}, deals=1, seed="g"
    )
    for i in range(7):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    gustl = tm.add_entrant(db=db, tournament_id=t.id, guest="Gast Gustl").number
    tm.draw_round(db=db, tournament_id=t.id)
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=SAUSPIEL)
    tm.replace_entrant(db=db, tournament_id=t.id, number=gustl, guest="Gast Resi")
    data = tx.tournament_json(db, t.id)
    assert data["entrants"][gustl - 1]["former"][0] == {**data["entrants"][gustl - 1]["former"][0], "guest": True}

    member = create_player(db=other_db, name="Gast Gustl")
    before = snapshot(other_db)
    try:
        tx.import_tournament(other_db, data)
    except InvalidExport as err:
        assert err.path.startswith(f"entrants[{gustl - 1}]")
        assert err.path == f"entrants[{gustl - 1}].former[0].guest"
        assert "'Gast Gustl' is 'Gast Gustl' here, a member of the club, not a guest" in err.message
        assert snapshot(other_db) == before
        return
    seats = other_db.exec(select(Seat).where(Seat.player_id == member.id)).all()
    assert other_db.get(Player, member.id).guest is False
    pytest.fail(f"imported: the member Gast Gustl (no guest) now sits at {len(seats)} tournament table(s)")


def test_a_replaced_member_whose_name_is_a_guest_here_is_refused(db, other_db):
    """The other way round: the replaced person was a member; here the name is a tournament's guest."""
    t = tm.create_tournament(
        db=db, name="Preisschafkopf", game="schafkopf", rules={"preset": "turnier"}, deals=1, seed="m"
    )
    for i in range(8):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    tm.draw_round(db=db, tournament_id=t.id)
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables:
        record_hand(db=db, night_id=table.night.id, hand=SAUSPIEL)
    tm.replace_entrant(db=db, tournament_id=t.id, number=8, guest="Gast Resi")
    data = tx.tournament_json(db, t.id)
    earlier = tm.create_tournament(db=other_db, name="Vorher", game="schafkopf", rules={"preset": "turnier"}, seed="v")
    tm.add_entrant(db=other_db, tournament_id=earlier.id, guest="Spieler 8")
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path == "entrants[7].former[0].guest"
    assert "a guest of a tournament, not a member" in err.value.message
    assert snapshot(other_db) == before


def _closed(data):
    data["tournament"]["status"] = "closed"
    data["tournament"]["closed_at"] = data["tournament"]["created_at"]


def test_a_closed_tournament_with_rounds_missing_is_refused_naming_the_round(db, other_db):
    data = tx.tournament_json(db, played_tournament(db).id)  # 3 rounds planned, 2 drawn
    _closed(data)
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path == "rounds"
    assert "round 3 is missing" in err.value.message
    assert snapshot(other_db) == before


def test_a_closed_tournament_with_a_table_still_open_is_refused(db, other_db):
    data = tx.tournament_json(db, played_tournament(db).id)
    data["tournament"]["rounds"] = 2
    _closed(data)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path.startswith("tables[") and err.value.path.endswith(".night.evening.status")


# --- issue 25.1: the pairs kept apart travel with the tournament -----------------------------------


def test_the_pairs_kept_apart_travel_with_the_tournament(db, other_db):
    t = played_tournament(db)
    tm.keep_apart(db=db, tournament_id=t.id, first=2, second=1)
    data = tx.tournament_json(db, t.id)
    assert data["tournament"]["keep_apart"] == [[1, 2]]
    imported, _ = tx.import_tournament(other_db, copy.deepcopy(data))
    assert imported.keep_apart == [[1, 2]]
    assert tx.tournament_json(other_db, imported.id) == data


@pytest.mark.parametrize(
    ("pairs", "path", "said"),
    [
        ([[1, 99]], "tournament.keep_apart[0]", "no participant has the start number 99"),
        ([[2, 1]], "tournament.keep_apart[0]", "the smaller first"),
        ([[1, 2], [1, 2]], "tournament.keep_apart[1]", "each pair once"),
        ([[1]], "tournament.keep_apart[0]", "two start numbers"),
        ([[1, "2"]], "tournament.keep_apart[0][1]", ""),
    ],
)
def test_a_file_with_a_wrong_pair_kept_apart_is_refused_naming_it(db, other_db, pairs, path, said):
    data = tx.tournament_json(db, played_tournament(db).id)
    data["tournament"]["keep_apart"] = pairs
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path == path and said in err.value.message
    assert snapshot(other_db) == before


# --- issue 24: a tournament's reopenings (migration 0013) travel with it ---------------------------


def _reopened_once(db):
    t = played_tournament(db)
    t.reopened = [{"at": "2026-11-21T22:15:00+00:00", "reason": "Zettel von Tisch 2 falsch übertragen"}]
    db.add(t)
    db.commit()
    return t


def test_the_reopenings_travel_with_the_tournament(db, other_db):
    t = _reopened_once(db)
    data = tx.tournament_json(db, t.id)
    assert data["tournament"]["reopened"] == t.reopened
    imported, _ = tx.import_tournament(other_db, copy.deepcopy(data))
    assert imported.reopened == t.reopened
    assert tx.tournament_json(other_db, imported.id) == data


def test_a_file_written_before_reopenings_were_kept_still_imports(db, other_db):
    data = tx.tournament_json(db, played_tournament(db).id)
    assert "reopened" not in data["tournament"]  # never reopened: the file is as before
    imported, _ = tx.import_tournament(other_db, data)
    assert imported.reopened is None


@pytest.mark.parametrize(
    ("reopened", "path"),
    [
        ("gestern", "tournament.reopened"),
        ([{"at": "2026-11-21T22:15:00+00:00"}], "tournament.reopened[0].reason"),
        ([{"at": "gestern", "reason": "falsch"}], "tournament.reopened[0].at"),
        ([{"at": "2026-11-21T22:15:00+00:00", "reason": ""}], "tournament.reopened[0].reason"),
    ],
)
def test_a_file_with_a_wrong_reopening_is_refused_naming_it(db, other_db, reopened, path):
    data = tx.tournament_json(db, _reopened_once(db).id)
    data["tournament"]["reopened"] = reopened
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        tx.import_tournament(other_db, data)
    assert err.value.path == path
    assert snapshot(other_db) == before


# --- a table exported alone (manage.py export ID, the table's JSON download) ----------------------


def _recorded_table(db, t):
    """Round 1's table recorded deal by deal (5 seats, 4 hands) of :func:`played_tournament`."""
    first = tm.read_tournament(db=db, tournament_id=t.id).rounds[0]
    return next(table for table in first.tables if len(table.entrants) == 5)


def test_a_table_exported_alone_is_marked_with_its_tournament_round_and_table(db):
    t = played_tournament(db)
    table = _recorded_table(db, t)
    data = night_file.night_file_json(db=db, night_id=table.night.id)
    assert data["tournament"] == {"uid": t.uid, "name": "Preisschafkopf", "round": 1, "table": table.number}
    # the rest is the night as the tournament's file carries it
    assert {key: value for key, value in data.items() if key != "tournament"} == night_file.night_json(
        db=db, night_id=table.night.id
    )


def test_a_table_exported_alone_is_refused_by_the_night_import_naming_its_tournament_and_nothing_is_written(
    db, other_db
):
    """The Preisschafkopf's recorded table of round 1, exported alone (``manage.py export ID``, or the
    table's JSON download) and imported with ``manage.py import`` into the club's other database, became
    a club night there: a night in the seasons and on the leaderboard that was never played as one, its
    points counted as money at 0.10 a unit. The night import refuses the file, naming the tournament,
    its round and table, and the tournament's file to import instead; nothing is written."""
    t = played_tournament(db)
    table = _recorded_table(db, t)
    data = night_file.night_file_json(db=db, night_id=table.night.id)
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        night_file.import_night(db=other_db, data=copy.deepcopy(data))
    assert err.value.path == "tournament"
    assert f"table {table.number} of round 1 of the tournament 'Preisschafkopf'" in err.value.message
    assert "export-tournament" in err.value.message and "import-tournament" in err.value.message
    assert snapshot(other_db) == before


@pytest.mark.parametrize("within", ["club", "tournament"])
def test_a_table_exported_alone_is_refused_inside_a_club_or_tournament_file_too(db, other_db, within):
    """The mark says the file is one table of a tournament on its own: a club file listing it among
    its nights would make it a club night, and a tournament file's tables are never marked."""
    t = played_tournament(db)
    table = _recorded_table(db, t)
    alone = night_file.night_file_json(db=db, night_id=table.night.id)
    if within == "club":
        data = club_file.club_json(db)
        data["nights"].append(alone)
        path = f"nights[{len(data['nights']) - 1}].tournament"
        read = club_file.import_club
    else:
        data = tx.tournament_json(db, t.id)
        i = next(i for i, listed in enumerate(data["tables"]) if listed["night"]["evening"]["uid"] == table.night.uid)
        data["tables"][i]["night"] = alone
        path = f"tables[{i}].night.tournament"

        def read(*, db, data):
            return tx.import_tournament(db, data)

    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as err:
        read(db=other_db, data=data)
    assert err.value.path == path
    assert "the tournament 'Preisschafkopf'" in err.value.message
    assert snapshot(other_db) == before


def test_a_table_exported_alone_before_the_mark_still_imports_as_it_did(db, other_db):
    """A file written before tables were marked (the night's file as the tournament's file carries it)
    cannot say it is a table: it is imported as a night, as before."""
    table = _recorded_table(db, played_tournament(db))
    old = night_file.night_json(db=db, night_id=table.night.id)
    night_id, created = night_file.import_night(db=other_db, data=copy.deepcopy(old))
    assert created
    assert night_file.night_json(db=other_db, night_id=night_id) == old


def _pot_tournament(db):
    """A tournament whose rules pay a pot on an all-pass (a table's pot grows from its own Rundpässe, and is
    shared out at its close): one round, one table, one Sauspiel recorded."""
    t = tm.create_tournament(
        db=db, name="Stocktunier", game="schafkopf", rules={"preset": "turnier", "all_pass": "pot"}, deals=4, seed="s"
    )
    for i in range(4):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0]
    record_hand(db=db, night_id=table.night.id, hand=SAUSPIEL)
    return t, table


@pytest.mark.parametrize(
    ("key", "value", "path", "said"),
    [
        (
            "pot_start",
            8,
            "tables[0].night.evening.pot_start",
            "table 1 of round 1 starts with a pot of 8 units: a tournament's table takes no pot",
        ),
        (
            "pot_from",
            [{"uid": "6e01dac5506f41659e0dba815886967c", "units": 8}],
            "tables[0].night.evening.pot_from",
            "table 1 of round 1 took a pot from another night: a tournament's table takes no pot",
        ),
    ],
)
def test_a_file_whose_table_starts_with_a_pot_is_refused_naming_the_table_and_nothing_is_written(
    db, other_db, key, value, path, said
):
    """A crafted file gave a table a pot to start with (a pot from nowhere, shared out among its players at its
    close): the import wrote it, and ``manage.py verify`` did not name it either."""
    t, _ = _pot_tournament(db)
    data = tx.tournament_json(db, t.id)
    data["tables"][0]["night"]["evening"][key] = value
    before = snapshot(other_db)

    with pytest.raises(InvalidExport) as refused:
        tx.import_tournament(other_db, data)

    assert (refused.value.path, refused.value.message) == (path, said)
    assert snapshot(other_db) == before
    data["tables"][0]["night"]["evening"][key] = 0 if key == "pot_start" else []
    assert tx.import_tournament(other_db, data)[1]  # the same file without it imports


def test_verify_names_a_table_that_starts_with_a_pot(db):
    _, table = _pot_tournament(db)
    night = db.get(Night, table.night.id)
    assert pots_from_nowhere(db=db) == []
    night.pot_start = 8  # as an older version's import wrote it
    db.add(night)
    db.commit()

    assert [(n.id, gap) for n, gap in pots_from_nowhere(db=db)] == [
        (night.id, "starts with a pot of 8 units, but a tournament's table takes no pot")
    ]
