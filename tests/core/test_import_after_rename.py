"""A file written before a rename or a merge, imported again, finds the same people: it adds no one
(docs/backup.md, "importing the same file again changes nothing"). Found by an attack: the club file
added an empty "Anna" and "Eva" beside Anneliese and Dieter, and a night file seated a new "Anna"."""

from __future__ import annotations

from datetime import date

from sqlmodel import select

from scorekeeper.core.exchange.club_file import club_json, import_club
from scorekeeper.core.exchange.night_file import import_night, night_json
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Player, Seat
from scorekeeper.core.nights import close_night, delete_night
from scorekeeper.core.players import create_player, former_names, merge_players, rename_player
from tests.support import start_night

TREIBEN = {"contract": "treiben", "declarer": 1, "points": 70}


def roster(db) -> list[str]:
    db.expire_all()
    return sorted(p.name for p in db.exec(select(Player)))


def seated(db, night_id) -> list[str]:
    seats = db.exec(select(Seat).where(Seat.night_id == night_id).order_by(Seat.position)).all()
    return [db.get(Player, s.player_id).name for s in seats]


def test_a_club_file_written_before_a_rename_and_a_merge_adds_no_one(db, players):
    anna, bernd, clara, dieter, eva = players
    night = start_night(db, [anna, bernd, clara, eva], played_on=date(2026, 1, 9))
    record_hand(db=db, night_id=night.id, hand=TREIBEN)
    close_night(db=db, night_id=night.id)
    old = club_json(db)
    rename_player(db=db, player_id=anna.id, name="Anneliese")
    merge_players(db=db, keep_id=dieter.id, merge_id=eva.id)
    before = roster(db)

    result = import_club(db=db, data=old)

    assert result.players_created == 0
    assert roster(db) == before == ["Anneliese", "Bernd", "Clara", "Dieter"]
    assert seated(db, night.id) == ["Anneliese", "Bernd", "Clara", "Dieter"]


def test_a_night_file_written_before_a_rename_seats_the_player_renamed(db, players):
    anna = players[0]
    night = start_night(db, players)
    record_hand(db=db, night_id=night.id, hand=TREIBEN)
    close_night(db=db, night_id=night.id)
    old = night_json(db=db, night_id=night.id)
    rename_player(db=db, player_id=anna.id, name="Anneliese")
    delete_night(db=db, night_id=night.id, reason="entered twice", export=old)

    night_id, created = import_night(db=db, data=old)

    assert created
    assert seated(db, night_id) == ["Anneliese", "Bernd", "Clara", "Dieter"]
    assert "Anna" not in roster(db)


def test_a_name_renamed_and_then_merged_away_is_the_player_it_was_merged_into(db, players):
    anna, bernd = players[:2]
    rename_player(db=db, player_id=anna.id, name="Anneliese")
    merge_players(db=db, keep_id=bernd.id, merge_id=anna.id)
    assert former_names(db) == {"anna": bernd.id, "anneliese": bernd.id}


def test_a_name_someone_has_now_is_that_someone(db, players):
    """Anna renamed Anneliese, and a new member called Anna since: a file's Anna is the Anna of the roster."""
    anna = players[0]
    rename_player(db=db, player_id=anna.id, name="Anneliese")
    new_anna = create_player(db=db, name="Anna")
    assert "anna" not in former_names(db)
    night = start_night(db, [new_anna, *players[1:4]])
    old = night_json(db=db, night_id=night.id)
    delete_night(db=db, night_id=night.id, reason="test", export=old)
    night_id, _ = import_night(db=db, data=old)
    assert (
        seated(db, night_id)[0] == "Anna"
        and db.exec(select(Seat.player_id).where(Seat.night_id == night_id)).first() == new_anna.id
    )


def test_a_file_naming_both_the_former_and_the_present_name_keeps_them_two_people(db, players):
    """A file of the time when Anna and a second Anneliese both played: the renamed Anna here is the
    file's Anneliese, so the file's Anna is added as herself, never seated twice."""
    anna = players[0]
    rename_player(db=db, player_id=anna.id, name="Anneliese")
    night = start_night(db, players)
    data = night_json(db=db, night_id=night.id)
    delete_night(db=db, night_id=night.id, reason="test", export=data)
    data["players"] = [{**p, "name": "Anna"} if p["name"] == "Bernd" else p for p in data["players"]]
    night_id, _ = import_night(db=db, data=data)
    names = seated(db, night_id)
    assert len(set(names)) == 4 and "Anneliese" in names and "Anna" in names
