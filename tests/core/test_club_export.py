"""The whole club as one JSON file (``export-all``) and back (``import``): lossless, twice harmless, all or nothing."""

from __future__ import annotations

import copy
import json
import re
from datetime import date

import pytest
from sqlalchemy import func
from sqlmodel import select

from scorekeeper.core.exchange import night_file as exports
from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.exchange.club_file import ClubImport, club_json, import_club
from scorekeeper.core.exchange.night_file import night_json
from scorekeeper.core.hands import UndoneHand, record_hand, undo_last
from scorekeeper.core.history import verify_nights
from scorekeeper.core.models import AuditEntry, HandRecord, Night, NightResult, Player, RosterChange, Seat, Tournament
from scorekeeper.core.nights import close_night
from scorekeeper.core.players import (
    create_player,
    list_players,
    merge_players,
    rename_player,
    retire_player,
    roster_changes,
)
from scorekeeper.core.table import load_table
from tests.support import SAUSPIEL_CLARA, as_file, drop_at, set_at, snapshot, start_night

MODELS = (Player, RosterChange, Night, Seat, HandRecord, AuditEntry, NightResult)
NOTHING = dict.fromkeys((m.__name__ for m in MODELS), 0)


def counts(db) -> dict[str, int]:
    """Rows per table: what a refused import must leave as it was."""
    db.rollback()
    db.expire_all()
    return {m.__name__: db.exec(select(func.count()).select_from(m)).one() for m in MODELS}


def record(db, night, *hands, key_prefix=None):
    for i, hand in enumerate(hands, start=1):
        key = None if key_prefix is None else f"{key_prefix}-{i}"
        record_hand(db=db, night_id=night.id, hand=hand, idempotency_key=key)


def by_name(db, name):
    return db.exec(select(Player).where(Player.name == name)).one()


@pytest.fixture
def club(db):
    """A club with three nights, players without a night, a retired player, renames and a merge."""
    anna, bernd, clara, dieter, eva, zenzl, _, _ = [
        create_player(db=db, name=n)
        for n in ("Anna", "Bernd", "Clara", "Dieter", "Eva", "Zenzl", "Sepp 🍺", "Resi")  # Sepp and Resi never played
    ]
    first = start_night(db, [anna, bernd, clara, dieter], played_on=date(2026, 1, 9))
    record(
        db,
        first,
        {"contract": "rufen", "partner": 3, "points": 70},
        {"contract": "treiben", "declarer": 1, "points": 80},
        key_prefix="k",
    )
    close_night(db=db, night_id=first.id)
    second = start_night(db, [anna, bernd, zenzl, dieter, eva], game="schafkopf", seats=5, played_on=date(2026, 1, 16))
    record(
        db,
        second,
        {"contract": "rundpass"},
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70},
    )
    rename_player(db=db, player_id=zenzl.id, name="Zenzi")  # a change of a record merged away below
    merge_players(db=db, keep_id=clara.id, merge_id=zenzl.id)  # Zenzi was Clara all along
    rename_player(db=db, player_id=bernd.id, name="Bernhard")
    retire_player(db=db, player_id=by_name(db, "Resi").id)
    retire_player(db=db, player_id=eva.id)
    retire_player(db=db, player_id=eva.id, retired=False)
    third = start_night(db, [anna, bernd], game="matt", played_on=date(2026, 1, 23))
    record(db, third, {"mated_by": 1, "move": 3, "card": "A"})
    return [first, second, third]


# --- the export ------------------------------------------------------------------


def test_the_club_export_holds_every_player_the_roster_changes_and_every_night_in_order(db, club):
    data = club_json(db)
    assert (data["format"], data["version"]) == ("scorekeeper-club", 2)
    assert list(data) == ["format", "version", "players", "roster_changes", "nights", "tournaments"]
    assert [(p["name"], p["retired"]) for p in data["players"]] == [
        ("Anna", False),
        ("Bernhard", False),
        ("Clara", False),
        ("Dieter", False),
        ("Eva", False),
        ("Resi", True),
        ("Sepp 🍺", False),
    ]
    for p in data["players"]:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", p["created_at"])
    changes = [(c["action"], c["player"]) for c in data["roster_changes"]]
    assert changes == [
        ("rename", "Clara"),  # Zenzl → Zenzi: that record was merged into Clara, its changes with it
        ("merge", "Clara"),
        ("rename", "Bernhard"),
        ("retire", "Resi"),
        ("retire", "Eva"),
        ("unretire", "Eva"),
    ]
    assert data["roster_changes"][0]["detail"] == {"before": "Zenzl", "after": "Zenzi"}
    assert data["roster_changes"][1]["detail"]["merged"] == "Zenzi"
    assert all(re.fullmatch(r"[0-9a-f]{32}", c["uid"]) for c in data["roster_changes"])
    assert data["nights"] == [night_json(db=db, night_id=night.id) for night in club]
    assert [n["players"][2]["name"] for n in data["nights"][:2]] == ["Clara", "Clara"]  # merged: Zenzi's seat too
    assert json.loads(json.dumps(data)) == data  # plain JSON


def test_an_empty_club_exports_empty_lists(other_db):
    assert club_json(other_db) == {
        "format": "scorekeeper-club",
        "version": 2,
        "players": [],
        "roster_changes": [],
        "nights": [],
        "tournaments": [],
    }


# --- import: round trips -------------------------------------------------------------


def test_the_club_imported_into_an_empty_database_exports_exactly_the_same(db, other_db, club):
    original = club_json(db)

    done = import_club(db=other_db, data=as_file(original))

    assert done == ClubImport(
        players_created=7,
        players_present=0,
        changes_created=6,
        changes_present=0,
        nights_created=3,
        nights_present=0,
    )
    assert club_json(other_db) == original
    for night in club:  # settled the same, and the club's history rows are written
        table = load_table(db=db, night_id=night.id)
        new_id = other_db.exec(select(Night.id).where(Night.uid == night.uid)).one()
        again = load_table(db=other_db, night_id=new_id)
        assert (again.rows, again.balance) == (table.rows, table.balance)
    assert counts(other_db)["NightResult"] == counts(db)["NightResult"] == 4 + 5 + 2


def test_a_club_file_keeps_an_undone_hands_key_and_the_imported_night_refuses_it(db, other_db, club):
    """The nights of a club file are night files: an undone hand's key goes with them (docs/rules.md,
    "A hand taken back stays taken back")."""
    third = club[2]
    record_hand(db=db, night_id=third.id, hand={"mated_by": 2, "move": 5, "card": "K"}, idempotency_key="outbox-7")
    undo_last(db=db, night_id=third.id)

    import_club(db=other_db, data=as_file(club_json(db)))

    new_id = other_db.exec(select(Night.id).where(Night.uid == third.uid)).one()
    with pytest.raises(UndoneHand):
        record_hand(
            db=other_db, night_id=new_id, hand={"mated_by": 2, "move": 5, "card": "K"}, idempotency_key="outbox-7"
        )
    other_db.rollback()
    assert len(load_table(db=other_db, night_id=new_id).hands) == 1


def test_players_without_nights_and_retired_flags_survive_the_round_trip(db, other_db, club):
    import_club(db=other_db, data=as_file(club_json(db)))
    assert {p.name: p.retired for p in list_players(db=other_db)} == {
        "Anna": False,
        "Bernhard": False,
        "Clara": False,
        "Dieter": False,
        "Eva": False,
        "Resi": True,
        "Sepp 🍺": False,
    }
    assert by_name(other_db, "Resi").created_at == by_name(db, "Resi").created_at
    assert [p.name for p in list_players(db=other_db, active=True)] == [
        "Anna",
        "Bernhard",
        "Clara",
        "Dieter",
        "Eva",
        "Sepp 🍺",
    ]


def test_renames_and_merges_survive_the_round_trip_on_their_players(db, other_db, club):
    import_club(db=other_db, data=as_file(club_json(db)))
    clara = by_name(other_db, "Clara")
    [zenzi_renamed, merge] = roster_changes(db=other_db, player_id=clara.id)  # Zenzi's history came along
    assert zenzi_renamed.detail == {"before": "Zenzl", "after": "Zenzi"}
    assert (merge.action, merge.detail["kept"], merge.detail["merged"], merge.detail["nights"]) == (
        "merge",
        "Clara",
        "Zenzi",
        1,
    )
    [rename] = roster_changes(db=other_db, player_id=by_name(other_db, "Bernhard").id)
    assert rename.detail == {"before": "Bernd", "after": "Bernhard"}
    original = {c.uid: c for c in roster_changes(db=db)}
    for change in roster_changes(db=other_db):
        assert (change.action, change.detail, change.at) == (
            original[change.uid].action,
            original[change.uid].detail,
            original[change.uid].at,
        )


def test_importing_the_same_club_twice_changes_nothing_the_second_time(db, other_db, club):
    data = as_file(club_json(db))
    first = import_club(db=other_db, data=data)
    after_first = counts(other_db)

    second = import_club(db=other_db, data=copy.deepcopy(data))

    assert first.changed and not second.changed
    assert second == ClubImport(
        players_created=0,
        players_present=7,
        changes_created=0,
        changes_present=6,
        nights_created=0,
        nights_present=3,
    )
    assert counts(other_db) == after_first
    before = counts(db)
    assert not import_club(db=db, data=data).changed  # back into the database it came from
    assert counts(db) == before


def test_a_club_import_finds_players_by_name_ignoring_case_and_keeps_their_retired_flag(db, other_db, club):
    data = as_file(club_json(db))
    resi = create_player(db=other_db, name="RESI")  # playing here, retired in the file
    create_player(db=other_db, name="anna")

    done = import_club(db=other_db, data=data)

    assert (done.players_created, done.players_present) == (5, 2)
    assert other_db.get(Player, resi.id).retired is False  # only a player the import creates takes the file's flag
    names = [p.name for p in list_players(db=other_db)]  # by name, ignoring case
    assert names == ["anna", "Bernhard", "Clara", "Dieter", "Eva", "RESI", "Sepp 🍺"]
    assert night_json(db=other_db, night_id=other_db.exec(select(Night.id).order_by(Night.id)).first())["players"][
        0
    ] == {
        "position": 1,
        "name": "anna",
    }


def test_a_club_file_partly_imported_before_adds_only_what_is_new(db, other_db, club):
    data = as_file(club_json(db))
    exports.import_night(db=other_db, data=data["nights"][1])  # one night came over on its own earlier

    done = import_club(db=other_db, data=data)

    assert (done.nights_created, done.nights_present) == (2, 1)
    assert club_json(other_db)["nights"] == [data["nights"][1], data["nights"][0], data["nights"][2]]


# --- import: bad files ----------------------------------------------------------------


BAD_CLUBS = {
    "a newer version": (set_at(["version"], 3), "version", "reads version 2, not 3"),
    "version 1 with tournaments": (set_at(["version"], 1), "tournaments", "unknown key 'tournaments'"),
    "version 2 without tournaments": (drop_at(["tournaments"]), "tournaments", "tournaments is required"),
    "a version given as true": (set_at(["version"], True), "version", "reads version 1 or 2, not True"),
    "tournaments given as an object": (set_at(["tournaments"], {}), "tournaments", "must be a list, not an object"),
    "no nights": (drop_at(["nights"]), "nights", "nights is required"),
    "an unknown key": (set_at(["members"], []), "members", "unknown key 'members'"),
    "players given as an object": (set_at(["players"], {}), "players", "must be a list, not an object"),
    "a player without retired": (drop_at(["players", 2, "retired"]), "players[2].retired", "retired is required"),
    "retired given as text": (set_at(["players", 5, "retired"], "yes"), "players[5].retired", "must be true or false"),
    "an empty name": (set_at(["players", 1, "name"], " "), "players[1].name", "the name must not be empty"),
    "a player listed twice": (  # "anna" beside "Anna" would be two records of an older version's database
        set_at(["players", 3, "name"], "Anna"),
        "players[3].name",
        "'Anna' is players[0] already",
    ),
    "a creation time without a zone": (
        set_at(["players", 0, "created_at"], "2026-01-01T20:00:00"),
        "players[0].created_at",
        "has no time zone",
    ),
    "a roster change of an unknown player": (
        set_at(["roster_changes", 2, "player"], "Xaver"),
        "roster_changes[2].player",
        "'Xaver' is not one of the players",
    ),
    "a roster change with a bad uid": (
        set_at(["roster_changes", 0, "uid"], "1"),
        "roster_changes[0].uid",
        "32 lowercase hexadecimal digits",
    ),
    "a roster change twice": (
        lambda data: data["roster_changes"].append(copy.deepcopy(data["roster_changes"][1])),
        "roster_changes[6].uid",
        "roster_changes[1] has the same uid",
    ),
    "a roster change with a list as detail": (
        set_at(["roster_changes", 1, "detail"], []),
        "roster_changes[1].detail",
        "must be an object",
    ),
    "a roster change without an action": (
        set_at(["roster_changes", 3, "action"], ""),
        "roster_changes[3].action",
        "1 to 20 characters",
    ),
    "a night that is not a night": (set_at(["nights", 1], []), "nights[1]", "must be a JSON object"),
    "a night of another format": (set_at(["nights", 0, "format"], "x"), "nights[0].format", "not a Scorekeeper night"),
    "a bad hand deep inside the last night": (
        set_at(["nights", 2, "hands", 0, "data", "move"], 99),
        "nights[2].hands[0].data.move",
        "move must be between 1 and 10",
    ),
    "a bad hand in the middle night": (
        set_at(["nights", 1, "hands", 1, "data", "points"], 200),
        "nights[1].hands[1].data.points",
        "points must be between 0 and 120",
    ),
    "the same night twice": (
        lambda data: data["nights"].append(copy.deepcopy(data["nights"][0])),
        "nights[3].evening.uid",
        "nights[0] is the same night",
    ),
}


@pytest.mark.parametrize("change, path, message", BAD_CLUBS.values(), ids=list(BAD_CLUBS))
def test_a_bad_club_file_is_refused_naming_the_place_and_nothing_is_written(db, other_db, club, change, path, message):
    data = as_file(club_json(db))
    change(data)
    with pytest.raises(InvalidExport) as caught:
        import_club(db=other_db, data=data)
    assert caught.value.path == path
    assert message in caught.value.message
    assert counts(other_db) == NOTHING


@pytest.mark.parametrize("data", [[], "club", None, 7])
def test_a_club_file_that_is_not_a_json_object_is_refused(other_db, data):
    with pytest.raises(InvalidExport, match="must be a JSON object"):
        import_club(db=other_db, data=data)


def test_a_night_file_is_not_a_club_file(db, other_db, club):
    with pytest.raises(InvalidExport, match="not a Scorekeeper club"):
        import_club(db=other_db, data=as_file(night_json(db=db, night_id=club[0].id)))


def test_a_bad_last_night_leaves_the_nights_before_it_unwritten_too(db, other_db, club):
    create_player(db=other_db, name="Anna")
    before = counts(other_db)
    data = as_file(club_json(db))
    data["nights"][2]["hands"][0]["dealer"] = 2

    with pytest.raises(InvalidExport, match=r"^nights\[2\]\.hands\[0\]\.dealer: hand 1 is dealt by seat 1"):
        import_club(db=other_db, data=data)

    assert counts(other_db) == before


def test_a_failure_while_writing_the_last_night_leaves_nothing_of_the_club(db, other_db, club, monkeypatch):
    data = as_file(club_json(db))
    written = []
    real = exports._write

    def fails_on_the_third_night(session, night):
        if len(written) == 2:
            raise RuntimeError("the disk is full")
        written.append(night)
        return real(session, night)

    monkeypatch.setattr(exports, "_write", fails_on_the_third_night)
    with pytest.raises(RuntimeError, match="the disk is full"):
        import_club(db=other_db, data=data)
    assert len(written) == 2  # two nights, the players and the roster changes were flushed: all rolled back
    assert counts(other_db) == NOTHING


# --- tournaments in the club's file ------------------------------------------------------------


def _tournament(db):
    """A tournament of the club's active players and a guest, round 1 drawn and its first table begun."""
    from scorekeeper.core import tournaments as tm

    t = tm.create_tournament(db=db, name="Preisschafkopf", game="schafkopf", rules={"preset": "turnier"}, seed="club")
    for p in list_players(db=db, active=True)[:7]:
        tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
    tm.add_entrant(db=db, tournament_id=t.id, guest="Gast Gustl")
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0]
    record_hand(db=db, night_id=table.night.id, hand={"contract": "wenz", "declarer": 1, "points": 61})
    return t


def test_the_club_export_carries_its_tournaments_and_not_their_tables_as_nights_nor_guests_as_players(db, club):
    """Rule: a tournament's tables are in its tournament, not in the club's nights; its guests are
    not on the club's roster."""
    from scorekeeper.core.exchange.tournament_file import tournament_json

    t = _tournament(db)
    data = club_json(db)
    assert data["tournaments"] == [tournament_json(db, t.id)]
    assert data["nights"] == [night_json(db=db, night_id=night.id) for night in club]  # no table among them
    assert "Gast Gustl" not in [p["name"] for p in data["players"]]
    assert "Gast Gustl" in [e["name"] for e in data["tournaments"][0]["entrants"]]


def test_a_club_with_a_tournament_imported_twice_exports_the_same_and_changes_nothing_the_second_time(
    db, other_db, club
):
    from scorekeeper.core import tournaments as tm

    t = _tournament(db)
    original = club_json(db)
    done = import_club(db=other_db, data=as_file(original))
    assert (done.tournaments_created, done.tournaments_present, done.nights_created) == (1, 0, 3)
    assert club_json(other_db) == original
    guest = by_name(other_db, "Gast Gustl")
    assert guest.guest
    before = counts(other_db)
    again = import_club(db=other_db, data=as_file(original))
    assert (again.tournaments_created, again.tournaments_present) == (0, 1)
    assert not again.changed
    assert counts(other_db) == before
    imported = other_db.exec(select(Tournament.id)).one()
    assert [line.standing.total for line in tm.read_tournament(db=other_db, tournament_id=imported).standings] == [
        line.standing.total for line in tm.read_tournament(db=db, tournament_id=t.id).standings
    ]


def test_a_club_file_of_version_1_without_tournaments_still_imports(db, other_db, club):
    data = as_file(club_json(db))
    data["version"] = 1
    del data["tournaments"]
    done = import_club(db=other_db, data=data)
    assert done.nights_created == 3 and done.tournaments_created == 0


def test_a_bad_tournament_in_a_club_file_is_refused_naming_its_path_and_nothing_is_written(db, other_db, club):
    _tournament(db)
    data = as_file(club_json(db))
    last = len(data["tournaments"][0]["entrants"]) - 1
    data["tournaments"][0]["entrants"][last]["guest"] = "ja"
    with pytest.raises(InvalidExport) as caught:
        import_club(db=other_db, data=data)
    assert caught.value.path == f"tournaments[0].entrants[{last}].guest"
    assert counts(other_db) == NOTHING


def test_a_club_files_member_whose_name_is_a_tournament_guest_here_is_refused_naming_the_player(db, other_db, club):
    """The roster's Eva comes in a club file to a server where Eva is a guest of a tournament: found by
    name, the guest would become a member with Eva's roster changes and club nights. A member and a
    guest are never merged (docs/tournaments.md): the import names the player and writes nothing."""
    from scorekeeper.core import tournaments as tm

    data = as_file(club_json(db))
    t = tm.create_tournament(db=other_db, name="Vorher", game="schafkopf", rules={"preset": "turnier"}, seed="v")
    tm.add_entrant(db=other_db, tournament_id=t.id, guest="Eva")
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as caught:
        import_club(db=other_db, data=data)
    eva = [p["name"] for p in data["players"]].index("Eva")
    assert caught.value.path == f"players[{eva}].name"
    assert caught.value.message == "'Eva' is 'Eva' here, a guest of a tournament, not a member"
    assert snapshot(other_db) == before
    assert by_name(other_db, "Eva").guest


def test_a_club_night_seating_a_tournament_guest_here_is_refused_naming_the_seat(db, other_db, club):
    """A club file whose night seats a name left off its roster (a hand-edited file) is refused at the seat,
    before the rule that a tournament's guest here never sits at a club night is asked: a club's file lists
    everyone who sat at its nights (tests/core/test_club_seated_listed.py)."""
    from scorekeeper.core import tournaments as tm

    data = as_file(club_json(db))
    data["players"] = [p for p in data["players"] if p["name"] != "Dieter"]
    t = tm.create_tournament(db=other_db, name="Vorher", game="schafkopf", rules={"preset": "turnier"}, seed="v")
    tm.add_entrant(db=other_db, tournament_id=t.id, guest="Dieter")
    before = snapshot(other_db)
    with pytest.raises(InvalidExport) as caught:
        import_club(db=other_db, data=data)
    seat = [p["name"] for p in data["nights"][0]["players"]].index("Dieter")
    assert caught.value.path == f"nights[0].players[{seat}].name"
    assert "'Dieter' sits at the night of" in caught.value.message
    assert "is not one of the file's players" in caught.value.message
    assert snapshot(other_db) == before


def test_a_tournament_table_also_listed_as_a_club_night_is_refused(db, other_db, club):
    _tournament(db)
    data = as_file(club_json(db))
    data["nights"].append(copy.deepcopy(data["tournaments"][0]["tables"][0]["night"]))
    with pytest.raises(InvalidExport) as caught:
        import_club(db=other_db, data=data)
    assert caught.value.path == "tournaments[0].tables[0].night.evening.uid"
    assert "nights[3] is the same night" in caught.value.message
    assert counts(other_db) == NOTHING


def test_a_carried_pot_corrected_after_the_next_night_took_it_is_named_the_same_after_the_club_import(
    db, other_db, players
):
    """The first night's pot (8 units) went to the second; the first was then corrected (16 units). The club's
    file carries both nights with their times and audit trails: imported elsewhere, both name the same
    correction, and a third night takes the second's pot, not the first's again."""
    from scorekeeper.core.nights import pot_moved, reopen_night

    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 13))
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=date(2026, 11, 20))
    record_hand(db=db, night_id=second.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=second.id)
    reopen_night(db=db, night_id=first.id, reason="a Rundpass was not entered")
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)

    def said(session):
        nights = session.exec(select(Night).order_by(Night.played_on)).all()
        return [[(m.gave, m.other_played_on, m.took, m.now) for m in pot_moved(db=session, night=n)] for n in nights]

    here = said(db)
    assert here == [[(True, date(2026, 11, 20), 80, 160)], [(False, date(2026, 11, 13), 80, 160)]]
    import_club(db=other_db, data=as_file(club_json(db)))
    assert said(other_db) == here
    third = start_night(other_db, list_players(db=other_db), game="schafkopf", played_on=date(2026, 11, 27))
    assert third.pot_start == 16


def _written_before_pots_were_followed(data):
    """``data`` (a club file) as a Scorekeeper before where a pot went was recorded wrote it."""
    for night in data["nights"]:
        for key in ("pot_to", "pot_given", "pot_from"):
            del night["evening"][key]
    return data


@pytest.mark.parametrize("last_taken", [False, True])
def test_a_club_file_written_before_pots_were_followed_keeps_the_pot_that_waited(db, other_db, players, last_taken):
    """Moving the club with a file written before (docs/backup.md, the way to PostgreSQL): the pot the last
    night carries waits in the new database as it did in the old, and a pot already taken never comes back: it is
    recorded as given to the night that took it (migration 0016's rule; before, every old pot counted as gone, the
    waiting one too, and then every taken one: the night that took it held a pot from nowhere)."""
    carry = {"pot_at_close": "carry"}
    first = start_night(db, players, game="schafkopf", rules=carry)
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", rules=carry)  # takes 8
    record_hand(db=db, night_id=second.id, hand={"contract": "rundpass"})
    close_night(db=db, night_id=second.id)  # carries 16
    if last_taken:
        start_night(db, players, game="schafkopf", rules=carry)  # takes 16, still open
    import_club(db=other_db, data=_written_before_pots_were_followed(as_file(club_json(db=db))))
    nights = {n.uid: n for n in other_db.exec(select(Night))}
    taker = other_db.exec(select(Night).where(Night.pot_start == 16)).first()
    assert (nights[first.uid].pot_to, nights[first.uid].pot_given) == (second.uid, 8)
    assert (nights[second.uid].pot_to, nights[second.uid].pot_given) == (
        (taker.uid, 16) if last_taken else (None, None)
    )
    next_night = start_night(other_db, list(other_db.exec(select(Player).order_by(Player.id))), game="schafkopf")
    assert next_night.pot_start == (0 if last_taken else 16)


def _schafkopf_club(db) -> dict:
    """A club file with one Schafkopf night whose hand knocks, as a release before klopfen_played (2026-11-23)
    wrote it: the option absent from the night's rule set."""
    players = [create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter")]
    night = start_night(db, players, game="schafkopf", played_on=date(2026, 11, 20))
    record_hand(db=db, night_id=night.id, hand={**SAUSPIEL_CLARA, "klopfen": 1})
    data = as_file(club_json(db))
    del data["nights"][0]["evening"]["rules"]["klopfen_played"]
    return data


def test_a_club_file_of_a_release_before_an_option_imports_with_the_option_as_it_was_then(db, other_db):
    """An option added to a game later (checks.ADDED_LATER) missing from an old file's rule set is written out
    with the value the releases before it read (knocking was always played): the night settles as it did."""
    data = _schafkopf_club(db)
    done = import_club(db=other_db, data=data)
    assert done.nights_created == 1
    imported = other_db.exec(select(Night)).one()
    assert imported.rules == db.exec(select(Night)).one().rules and imported.rules["klopfen_played"] is True
    assert verify_nights(db=other_db) == []
    assert import_club(db=other_db, data=data).changed is False  # twice is harmless
    single = as_file(night_json(db=db, night_id=db.exec(select(Night.id)).one()))
    del single["evening"]["rules"]["klopfen_played"]
    assert exports.read_night(single).columns["rules"]["klopfen_played"] is True  # a night's file too


def test_a_rule_set_missing_an_option_its_preset_sets_otherwise_is_still_refused(db, other_db):
    """Under a preset that sets the option apart from the value of before (turnier: no knocking), the file
    is no file of an older release: what it settles would depend on the release; refused as before."""
    data = _schafkopf_club(db)
    data["nights"][0]["evening"]["rules"]["preset"] = "turnier"
    with pytest.raises(InvalidExport, match="klopfen_played missing"):
        import_club(db=other_db, data=data)
    data = copy.deepcopy(data)
    del data["nights"][0]["evening"]["rules"]["tariff_solo"]  # an option of the first release: refused
    data["nights"][0]["evening"]["rules"]["preset"] = "seed"
    with pytest.raises(InvalidExport, match=r"not complete: tariff_solo missing$"):
        import_club(db=other_db, data=data)
