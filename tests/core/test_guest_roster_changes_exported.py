"""A tournament's guest's roster changes (a rename) go with the club's file under the guest's name,
and come back on the guest: the export wrote them with "player": null (a guest is not among the
file's players), so after an import the guest's page had lost its history."""

from __future__ import annotations

from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.exchange.club_file import club_json, import_club
from scorekeeper.core.models import Player
from scorekeeper.core.players import create_player, rename_player, roster_changes
from tests.support import as_file, snapshot


def guest_named(db, name: str) -> Player:
    return db.exec(select(Player).where(Player.name == name, Player.guest == True)).one()  # noqa: E712


def test_a_guests_rename_comes_back_on_the_guest(db, other_db):
    t = tm.create_tournament(db=other_db, name="Preis", game="schafkopf", rules={"preset": "turnier"}, seed="s")
    for name in ("Anna", "Bernd", "Clara"):
        tm.add_entrant(db=other_db, tournament_id=t.id, player_id=create_player(db=other_db, name=name).id)
    gustl = tm.add_entrant(db=other_db, tournament_id=t.id, guest="Gustl").player_id
    rename_player(db=other_db, player_id=gustl, name="Gustl Huber")
    original = as_file(club_json(other_db))

    assert [c["player"] for c in original["roster_changes"]] == ["Gustl Huber"]
    import_club(db=db, data=original)

    guest = guest_named(db, "Gustl Huber")
    assert [(c.action, c.detail) for c in roster_changes(db=db, player_id=guest.id)] == [
        ("rename", {"before": "Gustl", "after": "Gustl Huber"})
    ]
    assert club_json(db) == original
    before = snapshot(db)
    assert not import_club(db=db, data=original).changed
    assert snapshot(db) == before
