"""Renaming and merging players moves the versions of what shows their names (docs/rules.md, "A player
renamed"): every open night where they have a seat and every open tournament where they are an entrant,
so a phone's poll, the standings board and the kept PDFs name them anew. A closed night keeps its version."""

from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.models import Night, Tournament
from scorekeeper.core.nights import close_night
from scorekeeper.core.players import create_player, merge_players, rename_player
from tests.support import start_night


def versions(db) -> dict[tuple[str, int], int]:
    """Every night's and tournament's version, as the database has it now."""
    db.expire_all()
    nights = {("night", n.id): n.version for n in db.exec(select(Night))}
    return nights | {("tournament", t.id): t.version for t in db.exec(select(Tournament))}


def moved(before: dict, after: dict) -> dict:
    """What moved, and by how much."""
    return {key: after[key] - version for key, version in before.items() if after[key] != version}


def tournament_of(db, name, *people) -> Tournament:
    t = tm.create_tournament(db=db, name=name, game="schafkopf", rules={"preset": "turnier"}, seed="fixed")
    for p in people:
        tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
    return t


@pytest.fixture
def club(db, players):
    """Anna, Bernd, Clara, Dieter, Eva; an open night of the first four, an open night without Bernd,
    a closed night with Bernd, an open tournament with Bernd and one without him."""
    anna, bernd, clara, dieter, eva = players
    open_with = start_night(db, [anna, bernd, clara, dieter])
    open_without = start_night(db, [anna, clara, dieter, eva])
    closed_with = start_night(db, [eva, bernd, clara, dieter])
    close_night(db=db, night_id=closed_with.id)
    with_him = tournament_of(db, "Mit Bernd", bernd, eva)
    without_him = tournament_of(db, "Ohne Bernd", anna, clara)
    return {
        "players": players,
        "open_with": open_with.id,
        "open_without": open_without.id,
        "closed_with": closed_with.id,
        "with_him": with_him.id,
        "without_him": without_him.id,
    }


def test_a_rename_moves_the_version_of_each_open_night_and_open_tournament_of_the_player(db, club):
    before = versions(db)
    rename_player(db=db, player_id=club["players"][1].id, name="Bernhard")
    assert moved(before, versions(db)) == {("night", club["open_with"]): 1, ("tournament", club["with_him"]): 1}


def test_a_rename_keeps_a_closed_nights_version(db, club):
    """The reopen form, the API's If-Match and the guest who closed the night go by a closed night's version."""
    before = versions(db)
    rename_player(db=db, player_id=club["players"][1].id, name="Bernhard")
    assert versions(db)[("night", club["closed_with"])] == before[("night", club["closed_with"])]


def test_a_rename_of_a_player_in_no_night_and_no_tournament_moves_nothing(db, club):
    before = versions(db)
    newcomer = create_player(db=db, name="Franz")
    rename_player(db=db, player_id=newcomer.id, name="Franziska")
    assert moved(before, versions(db)) == {}


def test_a_rename_to_the_same_name_moves_nothing(db, club):
    before = versions(db)
    rename_player(db=db, player_id=club["players"][1].id, name="Bernd")
    assert moved(before, versions(db)) == {}


def test_a_refused_rename_moves_nothing(db, club):
    before = versions(db)
    with pytest.raises(InvalidInput, match="already a player called"):
        rename_player(db=db, player_id=club["players"][1].id, name="anna")
    db.rollback()
    assert moved(before, versions(db)) == {}


def test_a_merge_moves_the_open_nights_and_open_tournaments_of_both_records(db, club):
    anna, bernd, clara, dieter, eva = club["players"]
    huber = create_player(db=db, name="B. Huber")
    huber_night = start_night(db, [huber, anna, clara, eva]).id
    huber_tournament = tournament_of(db, "Mit Huber", huber, dieter).id
    before = versions(db)
    merge_players(db=db, keep_id=bernd.id, merge_id=huber.id)
    assert moved(before, versions(db)) == {
        ("night", club["open_with"]): 1,  # the kept record's
        ("night", huber_night): 1,  # the merged record's, now the kept one's
        ("tournament", club["with_him"]): 1,
        ("tournament", huber_tournament): 1,  # once, though both its entrant's rows and its names changed
    }


def test_a_person_replaced_in_a_tournament_is_named_as_renamed_there(db, club):
    """A replaced person is the same record renamed: the tournament's "in the place of" names them anew
    (a merge already did), and its version moves."""
    from scorekeeper.core.models import Entrant

    anna, bernd, clara, dieter, eva = club["players"]
    t = tournament_of(db, "Ersatz", anna, bernd, clara, dieter)
    tm.replace_entrant(db=db, tournament_id=t.id, number=2, player_id=eva.id)  # Eva in Bernd's place
    before = versions(db)
    rename_player(db=db, player_id=bernd.id, name="Bernhard")
    assert moved(before, versions(db))[("tournament", t.id)] == 1
    db.expire_all()
    [entrant] = db.exec(select(Entrant).where(Entrant.tournament_id == t.id, Entrant.number == 2)).all()
    assert [(f["player_id"], f["name"]) for f in entrant.former] == [(bernd.id, "Bernhard")]
