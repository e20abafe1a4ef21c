"""A club file written after "Make a member" imports where the club file written before it was imported: its
``member`` roster change, not known here yet, makes the tournament's guest here a member before the file's
roster is matched (it was refused: "'Sepp' is 'Sepp' here, a guest of a tournament, not a member")."""

from __future__ import annotations

from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.exchange.club_file import club_json, import_club
from scorekeeper.core.models import Player
from scorekeeper.core.players import make_member, roster_changes
from tests.support_tournament import make_tournament


def test_the_club_file_after_make_a_member_imports_over_the_one_before(db, other_db):
    t = make_tournament(db, n=4)
    sepp = tm.add_entrant(db=db, tournament_id=t.id, guest="Sepp").player_id
    before = club_json(db)
    make_member(db=db, player_id=sepp)
    after = club_json(db)
    import_club(db=other_db, data=before)
    import_club(db=other_db, data=after)
    here = other_db.exec(select(Player).where(Player.name == "Sepp")).one()
    assert not here.guest
    assert [(c.action, c.player_id, c.detail) for c in roster_changes(db=other_db)] == [
        ("member", here.id, {"name": "Sepp"})
    ]
    assert len(other_db.exec(select(Player)).all()) == len(db.exec(select(Player)).all())
    import_club(db=other_db, data=after)  # again: nothing changes
    assert len(roster_changes(db=other_db)) == 1


def test_the_club_file_after_make_a_member_leaves_a_member_here_as_it_is(db, other_db):
    """The change for a name that is a member here already (made one here too) changes nobody."""
    t = make_tournament(db, n=4)
    sepp = tm.add_entrant(db=db, tournament_id=t.id, guest="Sepp").player_id
    import_club(db=other_db, data=club_json(db))
    make_member(db=other_db, player_id=other_db.exec(select(Player.id).where(Player.name == "Sepp")).one())
    make_member(db=db, player_id=sepp)
    import_club(db=other_db, data=club_json(db))
    assert [p.name for p in other_db.exec(select(Player).where(Player.guest))] == []
