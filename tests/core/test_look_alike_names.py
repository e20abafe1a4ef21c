"""Issue 22.5: names that only look right. Names are compared as they look (their confusable
skeleton, Unicode TS #39) in the roster, for guests and on renaming; a guest who comes back is the
same guest; members and guests are never merged into each other."""

from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.models import Entrant, Player
from scorekeeper.core.players import create_player, merge_players, rename_player
from scorekeeper.core.text import name_key
from tests.support import snapshot

#: a member's name and a name that looks the same: Cyrillic С, А, о; Greek Ο; a digit one for an l
LOOK_ALIKES = [("Cilli", "Сilli"), ("Anni", "Аnni"), ("Bob", "Bоb"), ("Otto", "Οtto"), ("Killi", "Ki11i")]


@pytest.mark.parametrize(("name", "other"), LOOK_ALIKES)
def test_names_that_look_the_same_have_the_same_key(name, other):
    assert name != other
    assert name_key(name) == name_key(other)


@pytest.mark.parametrize(("name", "other"), [("Müller", "Muller"), ("Anna", "Anne"), ("Jörg", "Jorg"), ("Ida", "Ina")])
def test_names_that_differ_to_the_eye_stay_apart(name, other):
    assert name_key(name) != name_key(other)


@pytest.mark.parametrize(("name", "other"), LOOK_ALIKES)
def test_the_roster_refuses_a_look_alike(db, name, other):
    create_player(db=db, name=name)
    before = snapshot(db)
    with pytest.raises(InvalidInput) as err:
        create_player(db=db, name=other)
    assert err.value.template == "there is already a player called {name}"
    assert snapshot(db) == before


@pytest.mark.parametrize(("name", "other"), LOOK_ALIKES[:2])
def test_a_guest_that_looks_like_a_member_is_refused(db, name, other):
    create_player(db=db, name=name)
    t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, seed="s")
    with pytest.raises(InvalidInput) as err:
        tm.add_entrant(db=db, tournament_id=t.id, guest=other)
    assert err.value.field == "guest"
    assert "choose them from the roster" in err.value.template


def test_renaming_to_a_look_alike_of_another_player_is_refused(db):
    create_player(db=db, name="Cilli")
    other = create_player(db=db, name="Zenzi")
    with pytest.raises(InvalidInput):
        rename_player(db=db, player_id=other.id, name="Сilli")


# --- a returning guest -------------------------------------------------------------------------


def _tournament(db, name):
    return tm.create_tournament(db=db, name=name, game="schafkopf", rules={"preset": "turnier"}, seed=name)


@pytest.mark.parametrize("again", ["Max Gast", "max gast", "Mаx Gast"])  # the last with a Cyrillic а
def test_a_guest_of_an_earlier_tournament_is_entered_again_by_name_as_the_same_guest(db, again):
    first = tm.add_entrant(db=db, tournament_id=_tournament(db, "A").id, guest="Max Gast")
    later = tm.add_entrant(db=db, tournament_id=_tournament(db, "B").id, guest=again)
    assert later.player_id == first.player_id
    assert len(db.exec(select(Player).where(Player.guest == True)).all()) == 1  # noqa: E712


def test_a_guest_of_an_earlier_tournament_is_entered_again_by_id(db):
    first = tm.add_entrant(db=db, tournament_id=_tournament(db, "A").id, guest="Max Gast")
    later = tm.add_entrant(db=db, tournament_id=_tournament(db, "B").id, player_id=first.player_id)
    assert later.player_id == first.player_id
    assert db.get(Player, later.player_id).guest


# --- members and guests kept apart ---------------------------------------------------------------


@pytest.mark.parametrize("member_kept", [True, False])
def test_a_member_and_a_guest_are_never_merged(db, member_kept):
    member = create_player(db=db, name="Cilli")
    entrant = tm.add_entrant(db=db, tournament_id=_tournament(db, "A").id, guest="Max Gast")
    keep, merge = (member.id, entrant.player_id) if member_kept else (entrant.player_id, member.id)
    before = snapshot(db)
    with pytest.raises(InvalidInput) as err:
        merge_players(db=db, keep_id=keep, merge_id=merge)
    assert "kept apart" in err.value.template
    db.rollback()
    assert snapshot(db) == before
    assert db.exec(select(Entrant.player_id)).all() == [entrant.player_id]


def test_two_records_of_one_guest_may_be_merged(db):
    a = tm.add_entrant(db=db, tournament_id=_tournament(db, "A").id, guest="Max Gast")
    b = tm.add_entrant(db=db, tournament_id=_tournament(db, "B").id, guest="Maximilian Gast")
    assert merge_players(db=db, keep_id=a.player_id, merge_id=b.player_id).id == a.player_id
