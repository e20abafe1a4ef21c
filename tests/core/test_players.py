"""Renaming and merging players moves the roster's stamp that what shows their names goes by (docs/rules.md,
"A player renamed"): a phone's poll, the standings board and the kept PDFs name them anew. No night's version
moves for a name: undo, edit and the API's If-Match compare it."""

from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.models import Night, Tournament
from scorekeeper.core.nights import close_night
from scorekeeper.core.players import create_player, merge_players, rename_player, roster_stamp
from tests.support import start_night


def versions(db) -> dict[tuple[str, int], int]:
    """Every night's and tournament's version, and the roster's stamp, as the database has them now."""
    db.expire_all()
    nights = {("night", n.id): n.version for n in db.exec(select(Night))}
    tournaments = {("tournament", t.id): t.version for t in db.exec(select(Tournament))}
    return nights | tournaments | {("roster", 0): roster_stamp(db=db)}


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


def test_a_rename_moves_the_roster_stamp_and_no_nights_or_tournaments_version(db, club):
    """What shows names goes by the roster's stamp; a night's version is what undo, edit and If-Match compare,
    and a name changes none of its hands (open, closed or a tournament's)."""
    before = versions(db)
    rename_player(db=db, player_id=club["players"][1].id, name="Bernhard")
    assert moved(before, versions(db)) == {("roster", 0): 1}


def test_a_rename_of_a_player_in_no_night_and_no_tournament_moves_only_the_stamp(db, club):
    newcomer = create_player(db=db, name="Franz")
    before = versions(db)
    rename_player(db=db, player_id=newcomer.id, name="Franziska")
    assert moved(before, versions(db)) == {("roster", 0): 1}


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


def test_a_merge_moves_the_stamp_and_the_version_of_the_merged_records_tournaments(db, club):
    anna, bernd, clara, dieter, eva = club["players"]
    huber = create_player(db=db, name="B. Huber")
    start_night(db, [huber, anna, clara, eva])
    huber_tournament = tournament_of(db, "Mit Huber", huber, dieter).id
    before = versions(db)
    merge_players(db=db, keep_id=bernd.id, merge_id=huber.id)
    after = versions(db)
    assert after[("roster", 0)] > before[("roster", 0)]
    assert moved(before, after).keys() == {("tournament", huber_tournament), ("roster", 0)}


def test_a_person_replaced_in_a_tournament_is_named_as_renamed_there(db, club):
    """A replaced person is the same record renamed: the tournament's "in the place of" names them anew (a
    merge already did), and the stamp its board and PDFs go by moves."""
    from scorekeeper.core.models import Entrant

    anna, bernd, clara, dieter, eva = club["players"]
    t = tournament_of(db, "Ersatz", anna, bernd, clara, dieter)
    tm.replace_entrant(db=db, tournament_id=t.id, number=2, player_id=eva.id)  # Eva in Bernd's place
    before = versions(db)
    rename_player(db=db, player_id=bernd.id, name="Bernhard")
    assert moved(before, versions(db)) == {("roster", 0): 1}
    db.expire_all()
    [entrant] = db.exec(select(Entrant).where(Entrant.tournament_id == t.id, Entrant.number == 2)).all()
    assert [(f["player_id"], f["name"]) for f in entrant.former] == [(bernd.id, "Bernhard")]
