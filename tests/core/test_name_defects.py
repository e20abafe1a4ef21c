"""Defects around players, names and accounts: a merge's refusal naming a tournament by its id, two
accounts of one name made at the same moment, a hand saved while one of its players is merged (a
deadlock on PostgreSQL), names that look alike by Unicode's compatibility forms, placeholders and
private-use characters in names."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import text
from sqlmodel import select

from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.core import players as roster
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.hands import record_hand
from scorekeeper.core.history import verify_nights
from scorekeeper.core.models import HandRecord, Player, Seat, User
from scorekeeper.core.players import create_player, look_alike_names, merge_players, rename_player
from scorekeeper.core.text import clean_name, name_key
from scorekeeper.core.tournaments import setup
from tests.core.races import Held, HeldAt, Other
from tests.support import PASSWORD, SAUSPIEL_CLARA, snapshot, start_night

# --- 1. a merge refused for a tournament names the tournament --------------------------------------


def test_a_merge_of_two_who_played_one_tournament_names_the_tournament_and_its_day(db):
    t = tm.create_tournament(
        db=db, name="Frühjahrsturnier", game="schafkopf", rules={"preset": "turnier"}, played_on=date(2026, 3, 14)
    )
    a, b = (create_player(db=db, name=n) for n in ("Sepp", "Seppi"))
    for p in (a, b):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
    before = snapshot(db)
    with pytest.raises(InvalidInput) as err:
        merge_players(db=db, keep_id=a.id, merge_id=b.id)
    said = "Sepp and Seppi both played tournament Frühjahrsturnier on 2026-03-14: they are two people"
    assert err.value.message == said
    db.rollback()
    assert snapshot(db) == before


# --- 6. names that look alike by Unicode's compatibility forms; placeholders, private use ------------


@pytest.mark.parametrize(
    ("name", "other"),
    [("IX", "Ⅸ"), ("Hans", "ℌans"), ("Fiona", "ﬁona"), ("Anna", "Ａｎｎａ"), ("Anna2", "Anna²"), ("Tim", "ｔｉｍ")],
)
def test_a_compatibility_look_alike_is_the_same_name(db, name, other):
    assert name_key(name) == name_key(other)
    create_player(db=db, name=name)
    before = snapshot(db)
    with pytest.raises(InvalidInput) as err:
        create_player(db=db, name=other)
    assert err.value.message == f"there is already a player called {other}"
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "Anna\ufffc",
            "the name must not contain placeholders: character 5 is U+FFFC, which stands for an image and shows "
            "as a box or as nothing",
        ),
        (
            "An\ue000na",
            "the name must not contain private-use characters: character 3 is U+E000, which every device shows "
            "differently (most as a box)",
        ),
        (
            "\u0378\u0379",
            "the name must not contain unassigned characters: character 1 is U+0378, which Unicode does not define "
            "as far as this server knows: most devices show a box",
        ),
        ("Bert\u2065", "the name must not contain invisible characters: character 5 is U+2065, which shows as nothing"),
        (
            "Be\U000e0080rt",
            "the name must not contain invisible characters: character 3 is U+E0080, which shows as nothing",
        ),
        (
            "Clara\U000e01f0",
            "the name must not contain invisible characters: character 6 is U+E01F0, which shows as nothing",
        ),
        (
            "\U000f0041 Anna",
            "the name must not contain private-use characters: character 1 is U+F0041, which every device shows "
            "differently (most as a box)",
        ),
        (
            "J\ufffdrg",
            "the name must not contain replacement characters: character 2 is U+FFFD, which stands for a character "
            "lost on the way (a wrong encoding) and shows as a question mark in a diamond",
        ),
        (
            "Anna\ufdd0",
            "the name must not contain noncharacters: character 5 is U+FDD0, which Unicode keeps from ever being a "
            "character: no device can show it (most show a box)",
        ),
        (
            "Anna \U0010ffff",
            "the name must not contain noncharacters: character 6 is U+10FFFF, which Unicode keeps from ever being "
            "a character: no device can show it (most show a box)",
        ),
    ],
)
def test_a_placeholder_or_private_use_character_in_a_name_is_refused_naming_it(db, name, message):
    anna = create_player(db=db, name="Anna")
    accounts.create_user(db=db, name="Bob", password=PASSWORD, role="viewer")
    t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"})
    before = snapshot(db)
    for attempt in (
        lambda: create_player(db=db, name=name),
        lambda: rename_player(db=db, player_id=anna.id, name=name),
        lambda: tm.add_entrant(db=db, tournament_id=t.id, guest=name),
        lambda: accounts.create_user(db=db, name=name, password=PASSWORD, role="viewer"),
    ):
        with pytest.raises(InvalidInput) as err:
            attempt()
        assert err.value.message == message
        db.rollback()
    assert snapshot(db) == before


def test_a_name_stored_before_with_a_placeholder_or_private_use_character_looks_like_the_name_without(db):
    for name in ("Anna\ufffc", "An\ue000na", "Anna"):
        db.add(Player(name=name))  # as an older version stored them (names stored are not changed)
    db.commit()
    ids = {p.name: p.id for p in db.exec(select(Player))}
    pairs = [(a.id, b.id) for a, b in look_alike_names(db=db)]
    assert pairs == sorted(
        [(ids["Anna\ufffc"], ids["An\ue000na"]), (ids["Anna\ufffc"], ids["Anna"]), (ids["An\ue000na"], ids["Anna"])]
    )


def test_verify_names_compatibility_look_alikes_stored_before(db):
    for name in ("IX", "Ⅸ", "Hans", "ℌans", "Jörg", "Jorg"):
        db.add(Player(name=name))
    db.commit()
    assert [(a.name, b.name) for a, b in look_alike_names(db=db)] == [("IX", "Ⅸ"), ("Hans", "ℌans")]


def test_a_name_stored_before_with_a_replacement_or_noncharacter_character_looks_like_the_name_without(db):
    for name in ("Anna\ufffd", "An\ufdd0na", "Anna"):
        db.add(Player(name=name))  # as an older version stored them (names stored are not changed)
    db.commit()
    ids = {p.name: p.id for p in db.exec(select(Player))}
    pairs = [(a.id, b.id) for a, b in look_alike_names(db=db)]
    assert pairs == sorted(
        [(ids["Anna\ufffd"], ids["An\ufdd0na"]), (ids["Anna\ufffd"], ids["Anna"]), (ids["An\ufdd0na"], ids["Anna"])]
    )


@pytest.mark.parametrize("name", ["J\ufffdrg", "Anna\ufdd0", "Anna\U0010ffff"])
def test_a_name_from_a_file_keeps_a_replacement_or_noncharacter_character_as_stored(name):
    assert clean_name(name, typed=False) == name


@pytest.mark.parametrize("name", ["Jörg", "Zoë", "Ærø", "Ḿ", "ﬁona", "Anna ❤️", "Иван", "李小龙"])
def test_a_name_is_stored_as_typed_not_folded(name):
    assert clean_name(name) == name


def test_a_character_newer_than_the_servers_unicode_is_taken_and_told_apart(db):
    """U+1FAE8 (an emoji of Unicode 15) is unassigned in Python 3.11's tables (Unicode 14): the phone that typed
    it shows it, so the name is taken as typed, and it is not the name without it. (Refused as "unassigned", a
    member whose phone is newer than the server could not enter the name.)"""
    name = "Anna \U0001fae8"
    assert clean_name(name) == name
    create_player(db=db, name="Anna")
    assert create_player(db=db, name=name).name == name


@pytest.mark.parametrize("hidden", ["\u2065", "\U000e0080", "\U000e01f0", "\U000e0fff"])
def test_an_unassigned_character_that_shows_as_nothing_stored_before_compares_as_the_name_without(db, hidden):
    """Unassigned code points Unicode keeps invisible (U+2065, the tags' plane) were taken while every unassigned
    code point was (3cf9d9f): a stored "Bert" with one is the player Bert, not a second one."""
    db.add(Player(name=f"Bert{hidden}"))
    db.commit()
    with pytest.raises(InvalidInput, match="there is already a player called Bert"):
        create_player(db=db, name="Bert")


# --- 2. two accounts of one name at the same moment (PostgreSQL: READ COMMITTED) ----------------------


def an_account(session) -> bool:
    """Whether ``session``'s commit writes an account (``create_user`` commits its password's hash first)."""
    return any(isinstance(o, User) for o in session.new)


@pytest.mark.parametrize("twin", ["Bob", "BOB", "Воb"])  # the last with a Cyrillic В and о
def test_two_accounts_made_at_the_same_moment_under_one_name_are_one(app, db, twin):
    engine = app.extensions["sk_engine"]
    first = Held(engine, accounts.create_user, held_if=an_account, name="Bob", password=PASSWORD, role="scorer")
    second = Other(engine, accounts.create_user, name=twin, password=PASSWORD, role="viewer")
    second.thread.join(1)
    first.release()
    second.join()
    assert first.error is None
    assert isinstance(second.error, InvalidInput)  # both were stored (or an IntegrityError: a 500)
    assert second.error.message == f"there is an account called {twin} already"
    db.rollback()
    assert [u.name for u in db.exec(select(User))] == ["Bob"]


# --- 3. a hand saved while one of its players is merged (PostgreSQL: a deadlock) ---------------------


def test_a_hand_saved_while_its_declarer_is_merged_waits_never_a_deadlock(app, db, players, monkeypatch):
    """The merge holds its two players and goes on to their history rows; the hand, at the same moment,
    holds its night and its history rows and goes on to the declarer's contract row, whose player the
    merge holds: on PostgreSQL each waited for the other (a deadlock, a 500 for one of them)."""
    engine = app.extensions["sk_engine"]
    night = start_night(db, players, game="schafkopf")  # Anna, Bernd, Clara, Dieter
    clara = players[2]
    klara = create_player(db=db, name="Klara")  # the same person, at no night
    held = HeldAt(monkeypatch, roster, "_lock_pair")  # the merge holds its players and is about to move their rows
    merge = Other(engine, merge_players, keep_id=klara.id, merge_id=clara.id)
    assert held.holding.wait(10)
    hand = Other(engine, record_hand, night_id=night.id, hand=SAUSPIEL_CLARA)
    hand.thread.join(1)
    held.release()
    merge.join()
    hand.join()
    assert (merge.error, hand.error) == (None, None)  # one of them was a deadlock: a 500
    db.rollback()
    assert db.exec(select(Player).where(Player.id == clara.id)).first() is None
    assert klara.id in set(db.exec(select(Seat.player_id).where(Seat.night_id == night.id)))
    assert len(db.exec(select(HandRecord).where(HandRecord.night_id == night.id)).all()) == 1
    assert verify_nights(db=db) == []


# --- the people of a tournament's change are held FOR KEY SHARE, not FOR NO KEY UPDATE --------------


def test_two_tournaments_changes_do_not_wait_for_each_other_at_a_player_of_both(app, db, players):
    """``lock_people`` holds the people of a tournament's change against a merge: a share lock, so the
    changes of two tournaments that share a player go on side by side.
    It took ``FOR NO KEY UPDATE`` (SQLAlchemy's ``key_share=True`` without ``read=True``), which two
    such changes hold one at a time."""
    engine = app.extensions["sk_engine"]
    if engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's: SQLite takes the whole database for a write")
    anna = players[0].id
    with database.session(engine, write=True) as first, database.session(engine, write=True) as second:
        setup.lock_people(first, None, (anna,))
        second.exec(text("SET LOCAL lock_timeout = '300ms'"))
        setup.lock_people(second, None, (anna,))  # it waited, and ran out of time: LockNotAvailable
        second.rollback()
        first.rollback()
