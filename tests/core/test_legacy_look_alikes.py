"""Names stored before today's rule that now look alike ("Ölfa" and "ölfa", "Bernd" and Cyrillic
"Вernd"): two records, each found by its own name (docs/using.md, "How names compare"). Found by an
attack: ``export-all`` of such a database wrote a club file that no database would import ("a player
is listed once"), and a file naming one of them seated the other."""

from __future__ import annotations

from datetime import date

import pytest
from sqlmodel import select

from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.exchange.club_file import club_json, import_club
from scorekeeper.core.exchange.night_file import import_night, night_json
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Night, Player, Seat
from scorekeeper.core.nights import close_night, delete_night
from scorekeeper.core.players import create_player, rename_player
from tests.support import as_file, snapshot, start_night

TREIBEN = {"contract": "treiben", "declarer": 4, "points": 70}


def legacy(db, *names: str) -> list[Player]:
    """Players as an older version stored them: written directly, past today's name check."""
    players = [Player(name=n) for n in names]
    db.add_all(players)
    db.commit()
    return players


def seated(db, night_id: int) -> list[str]:
    seats = db.exec(select(Seat).where(Seat.night_id == night_id).order_by(Seat.position)).all()
    return [db.get(Player, s.player_id).name for s in seats]


def played(db, players: list[Player], day: int) -> str:
    night = start_night(db, players, played_on=date(2026, 1, day))
    record_hand(db=db, night_id=night.id, hand=TREIBEN)
    close_night(db=db, night_id=night.id)
    return night.uid


def a_legacy_club(db) -> dict[str, str]:
    """Anna, Bernd, Clara; "Ölfa" and "ölfa", "Bernd" and Cyrillic "Вernd" stored as two records each;
    a night of each of them, and one where Ölfa and ölfa sat together. The uids: who sat fourth."""
    anna, bernd, clara = (create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara"))
    big, small, cyrillic = legacy(db, "Ölfa", "ölfa", "Вernd")
    return {
        played(db, [anna, bernd, clara, big], 9): "Ölfa",
        played(db, [anna, bernd, clara, small], 16): "ölfa",
        played(db, [anna, clara, big, cyrillic], 23): "Вernd",
        played(db, [anna, clara, small, big], 30): "Ölfa",
    }


def test_the_club_file_of_a_database_with_look_alike_names_restores_each_record(db, other_db):
    """Made in one database (SQLite), restored into the app's (SQLite, PostgreSQL): the same club, twice harmless."""
    fourth = a_legacy_club(other_db)
    original = as_file(club_json(other_db))

    done = import_club(db=db, data=original)

    assert (done.players_created, done.nights_created) == (6, 4)
    names = sorted(p.name for p in db.exec(select(Player)))
    assert names == sorted(["Anna", "Bernd", "Clara", "Ölfa", "ölfa", "Вernd"])
    for uid, name in fourth.items():
        assert seated(db, db.exec(select(Night.id).where(Night.uid == uid)).one())[3] == name
    assert club_json(db) == original
    before = snapshot(db)
    again = import_club(db=db, data=original)
    assert not again.changed
    assert snapshot(db) == before


def test_a_night_file_seats_the_record_of_exactly_its_name(db):
    """ölfa is stored before Ölfa: a roster keyed by the look alone found the last one, Ölfa."""
    anna, bernd, clara = (create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara"))
    small, _ = legacy(db, "ölfa", "Ölfa")
    night = start_night(db, [anna, bernd, clara, small])
    record_hand(db=db, night_id=night.id, hand=TREIBEN)
    close_night(db=db, night_id=night.id)
    data = night_json(db=db, night_id=night.id)
    delete_night(db=db, night_id=night.id, reason="entered twice", export=data)

    night_id, created = import_night(db=db, data=data)

    assert created
    assert seated(db, night_id) == ["Anna", "Bernd", "Clara", "ölfa"]


def test_a_night_file_naming_neither_look_alike_exactly_is_refused_naming_both(db):
    anna, bernd, clara = (create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara"))
    big, small = legacy(db, "Ölfa", "ölfa")
    night = start_night(db, [anna, bernd, clara, big])
    data = night_json(db=db, night_id=night.id)
    delete_night(db=db, night_id=night.id, reason="entered twice", export=data)
    data["players"][3]["name"] = "ÖLFA"
    before = snapshot(db)

    with pytest.raises(InvalidExport) as err:
        import_night(db=db, data=data)

    assert err.value.path == "players[3].name"
    assert f"'ÖLFA' looks like 'Ölfa' (id {big.id}) and 'ölfa' (id {small.id})" in err.value.message
    assert snapshot(db) == before


def test_a_name_that_looks_like_one_record_only_still_finds_it(db):
    """The look still counts where it says who is meant: a file's "ANNA" is Anna."""
    anna, bernd, clara, dieter = (create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter"))
    legacy(db, "Ölfa", "ölfa")
    night = start_night(db, [anna, bernd, clara, dieter])
    data = night_json(db=db, night_id=night.id)
    delete_night(db=db, night_id=night.id, reason="entered twice", export=data)
    data["players"][0]["name"] = "ANNA"

    night_id, _ = import_night(db=db, data=data)

    assert seated(db, night_id) == ["Anna", "Bernd", "Clara", "Dieter"]


def test_a_file_written_before_a_rename_still_finds_the_player_renamed(db):
    anna, bernd, clara, dieter = (create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter"))
    legacy(db, "Ölfa", "ölfa")
    night = start_night(db, [anna, bernd, clara, dieter])
    data = night_json(db=db, night_id=night.id)
    delete_night(db=db, night_id=night.id, reason="entered twice", export=data)
    rename_player(db=db, player_id=anna.id, name="Anneliese")

    night_id, _ = import_night(db=db, data=data)

    assert seated(db, night_id) == ["Anneliese", "Bernd", "Clara", "Dieter"]


def test_look_alike_names_lists_each_pair_with_its_ids(db):
    from scorekeeper.core.players import look_alike_names  # new: imported here, the file's other tests run without it

    create_player(db=db, name="Anna")
    big, small, bernd, cyrillic, upper = legacy(db, "Ölfa", "ölfa", "Bernd", "Вernd", "ÖLFA")

    pairs = [(a.id, b.id) for a, b in look_alike_names(db=db)]

    assert pairs == sorted(
        [(big.id, small.id), (big.id, upper.id), (small.id, upper.id), (bernd.id, cyrillic.id)],
    )


def test_a_tournament_of_look_alike_members_and_guests_comes_back_with_each_at_their_table(db, other_db):
    """Ölfa and ölfa (members), Sepp and SEPP (guests) of an older version, at one table of a tournament:
    the club's file restores the tournament (its entrants were refused as "entrants[0] already")."""
    from scorekeeper.core import tournaments as tm

    players = legacy(other_db, "Ölfa", "ölfa")
    guests = [Player(name="Sepp", guest=True), Player(name="SEPP", guest=True)]
    other_db.add_all(guests)
    other_db.commit()
    t = tm.create_tournament(
        db=other_db, name="Preis", game="schafkopf", rules={"preset": "turnier"}, deals=2, seed="s"
    )
    for p in (*players, *guests):
        tm.add_entrant(db=other_db, tournament_id=t.id, player_id=p.id)
    tm.draw_round(db=other_db, tournament_id=t.id)
    table = tm.read_tournament(db=other_db, tournament_id=t.id).rounds[0].tables[0]
    record_hand(db=other_db, night_id=table.night.id, hand={"contract": "wenz", "declarer": 3, "points": 61})
    original = as_file(club_json(other_db))
    at_table = seated(other_db, table.night.id)

    done = import_club(db=db, data=original)

    assert done.tournaments_created == 1
    night_id = db.exec(select(Night.id).where(Night.uid == table.night.uid)).one()
    assert seated(db, night_id) == at_table
    kinds = {p.name: p.guest for p in db.exec(select(Player))}
    assert kinds == {"Ölfa": False, "ölfa": False, "Sepp": True, "SEPP": True}
    assert club_json(db) == original
    before = snapshot(db)
    assert not import_club(db=db, data=original).changed
    assert snapshot(db) == before
