"""The roster's defects found by an attack on it (players, tournament guests, accounts): names that
look the same accepted as different people, a chained merge, roster changes of a club file that no
page can show."""

from __future__ import annotations

import uuid

import pytest
from sqlmodel import select

from scorekeeper.core import accounts
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import InvalidInput, NotFound
from scorekeeper.core.history import verify_nights
from scorekeeper.core.models import Player, Seat
from scorekeeper.core.players import create_player, merge_players, rename_player
from scorekeeper.core.text import name_key
from tests.core.races import Held, Other
from tests.support import PASSWORD, snapshot, start_night

# --- 1a. capitals of other alphabets that look like Latin ones ---------------------------------

#: a name and the same name written with a Cyrillic or Greek capital that looks like its Latin one
CAPITAL_LOOK_ALIKES = [
    ("Bernd", "Вernd"),  # Cyrillic В
    ("Hans", "Нans"),  # Cyrillic Н
    ("Karl", "Кarl"),  # Cyrillic К
    ("Max", "Мax"),  # Cyrillic М
    ("Tom", "Тom"),  # Cyrillic Т
    ("Xaver", "Χaver"),  # Greek Χ
    ("Zenzi", "Ζenzi"),  # Greek Ζ
    ("Bernd", "Βernd"),  # Greek Β
    ("Hans", "Ηans"),  # Greek Η
    ("Karl", "Κarl"),  # Greek Κ
    ("Max", "Μax"),  # Greek Μ
    ("Tom", "Τom"),  # Greek Τ
]


@pytest.mark.parametrize(("name", "other"), CAPITAL_LOOK_ALIKES)
def test_a_capital_that_looks_like_a_latin_one_gives_the_same_key(name, other):
    assert name != other
    assert name_key(other) == name_key(name) == name_key(name.upper()) == name_key(other.lower())


@pytest.mark.parametrize(
    ("name", "other"), [("ΚΑΡΛ", "καρλ"), ("ВЕРА", "вера"), ("Иван", "ИВАН"), ("ΣΩΚΡΑΤΗΣ", "σωκρατης")]
)
def test_a_name_in_another_alphabet_keeps_one_key_whatever_its_case(name, other):
    assert name_key(name) == name_key(other)


@pytest.mark.parametrize(("name", "other"), [("Vova", "Вова"), ("Müller", "Muller"), ("Ida", "Ina")])
def test_names_that_look_different_keep_different_keys(name, other):
    assert name_key(name) != name_key(other)


@pytest.mark.parametrize(("name", "other"), CAPITAL_LOOK_ALIKES[:2] + CAPITAL_LOOK_ALIKES[-2:])
def test_the_roster_refuses_a_capital_look_alike_and_changes_nothing(db, name, other):
    create_player(db=db, name=name)
    before = snapshot(db)
    with pytest.raises(InvalidInput) as err:
        create_player(db=db, name=other)
    assert err.value.message == f"there is already a player called {other}"
    assert snapshot(db) == before


def test_renaming_to_a_capital_look_alike_of_another_player_is_refused(db):
    create_player(db=db, name="Bernd")
    other = create_player(db=db, name="Zenzi")
    before = snapshot(db)
    with pytest.raises(InvalidInput):
        rename_player(db=db, player_id=other.id, name="Вernd")
    db.rollback()
    assert snapshot(db) == before


def _tournament(db, name="Turnier"):
    return tm.create_tournament(db=db, name=name, game="schafkopf", rules={"preset": "turnier"}, seed=name)


def test_a_tournament_guest_with_a_capital_look_alike_of_a_members_name_is_refused(db):
    create_player(db=db, name="Bernd")
    t = _tournament(db)
    before = snapshot(db)
    with pytest.raises(InvalidInput) as err:
        tm.add_entrant(db=db, tournament_id=t.id, guest="Вernd")
    assert err.value.field == "guest"
    db.rollback()
    assert snapshot(db) == before


def test_an_account_with_a_capital_look_alike_of_another_accounts_name_is_refused(db):
    accounts.create_user(db=db, name="Bob", password=PASSWORD, role="scorer")
    before = snapshot(db)
    with pytest.raises(InvalidInput) as err:
        accounts.create_user(db=db, name="Воb", password=PASSWORD, role="viewer")  # Cyrillic В, о
    assert err.value.template == "there is an account called {name} already"
    assert snapshot(db) == before


# --- 1b. characters that show as nothing and are no format characters ---------------------------

#: "Anna" and a character that shows as nothing: the blank Braille pattern, the Hangul filler, the
#: Hangul choseong filler, the combining grapheme joiner, Khmer's inherent vowel, variation selector 16
FILLERS = ["\u2800", "\u3164", "\u115f", "\u034f", "\u17b4", "\ufe0f"]


@pytest.mark.parametrize("filler", FILLERS)
def test_a_player_whose_name_holds_a_character_that_shows_as_nothing_is_refused(db, filler):
    create_player(db=db, name="Anna")
    before = snapshot(db)
    with pytest.raises(InvalidInput) as err:
        create_player(db=db, name="Anna" + filler)
    assert err.value.message == (
        f"the name must not contain invisible characters: character 5 is U+{ord(filler):04X}, which shows as nothing"
    )
    assert snapshot(db) == before


@pytest.mark.parametrize("filler", FILLERS[:3])
def test_a_guest_and_an_account_whose_name_holds_a_filler_are_refused(db, filler):
    t = _tournament(db)
    before = snapshot(db)
    with pytest.raises(InvalidInput, match="invisible characters"):
        tm.add_entrant(db=db, tournament_id=t.id, guest="Gustl" + filler)
    db.rollback()
    with pytest.raises(InvalidInput, match="invisible characters"):
        accounts.create_user(db=db, name="Bob" + filler, password=PASSWORD, role="viewer")
    assert snapshot(db) == before


@pytest.mark.parametrize("name", ["Anna ❤️", "☀️ Sepp", "👨\u200d❤️\u200d👨"])
def test_a_variation_selector_of_an_emoji_is_part_of_the_name(db, name):
    assert create_player(db=db, name=name).name == name


@pytest.mark.parametrize("filler", FILLERS)
def test_a_name_stored_before_with_a_filler_is_the_same_name_as_without(db, filler):
    db.add(Player(name="Anna" + filler))  # as an older version stored it (names stored are not changed)
    db.commit()
    with pytest.raises(InvalidInput, match="there is already a player called Anna"):
        create_player(db=db, name="Anna")
    assert len(db.exec(select(Player)).all()) == 1


# --- 3. roster writes at the same moment (PostgreSQL: READ COMMITTED; SQLite's BEGIN IMMEDIATE serialises) ---


@pytest.mark.parametrize("twin", ["zed", "ZED", "Zеd"])  # the last with a Cyrillic е
def test_two_players_added_at_the_same_moment_under_names_that_look_alike_are_one(app, db, twin):
    engine = app.extensions["sk_engine"]
    first = Held(engine, create_player, name="Zed")
    second = Other(engine, create_player, name=twin)
    second.thread.join(0.5)
    assert second.thread.is_alive()  # waiting for the names the first holds
    first.release()
    second.join()
    assert first.error is None
    assert isinstance(second.error, InvalidInput)
    assert second.error.message == f"there is already a player called {twin}"
    db.rollback()
    assert [p.name for p in db.exec(select(Player))] == ["Zed"]


@pytest.mark.parametrize("name", ["Same", "same"])
def test_two_players_renamed_at_the_same_moment_to_one_name_are_refused_cleanly(app, db, name):
    engine = app.extensions["sk_engine"]
    ids = [create_player(db=db, name=n).id for n in ("P0", "P1")]
    first = Held(engine, rename_player, player_id=ids[0], name="Same")
    second = Other(engine, rename_player, player_id=ids[1], name=name)
    second.thread.join(0.5)
    first.release()
    second.join()
    assert first.error is None
    assert isinstance(second.error, InvalidInput)  # it was an IntegrityError (ix_player_name): a 500
    assert second.error.message == f"there is already a player called {name}"
    db.rollback()
    assert sorted(p.name for p in db.exec(select(Player))) == ["P1", "Same"]


def test_a_merge_into_a_record_merged_away_at_the_same_moment_is_serialised(app, db, players):
    """X into Y while Y goes into Z: the second waits for the first, then moves X's nights too."""
    engine = app.extensions["sk_engine"]
    x, y, z = (create_player(db=db, name=n) for n in ("X", "Y", "Z"))
    for who in (x, y):
        start_night(db, [*players[:3], who])
    first = Held(engine, merge_players, keep_id=y.id, merge_id=x.id)
    second = Other(engine, merge_players, keep_id=z.id, merge_id=y.id)
    second.thread.join(0.5)
    assert second.thread.is_alive()  # waiting for Y, which the first merge holds
    first.release()
    second.join()
    assert (first.error, second.error) == (None, None)  # the second was an IntegrityError: "still referenced"
    db.rollback()
    assert {p.name for p in db.exec(select(Player))} >= {"Z"}
    assert not {"X", "Y"} & {p.name for p in db.exec(select(Player))}
    assert len(db.exec(select(Seat).where(Seat.player_id == z.id)).all()) == 2
    assert verify_nights(db=db) == []


def test_a_merge_of_a_record_merged_away_at_the_same_moment_finds_no_such_player(app, db, players):
    """Y into Z while X goes into Y: the second waits, then Y is gone (the page says: no such player)."""
    engine = app.extensions["sk_engine"]
    x, y, z = (create_player(db=db, name=n) for n in ("X", "Y", "Z"))
    for who in (x, y):
        start_night(db, [*players[:3], who])
    first = Held(engine, merge_players, keep_id=z.id, merge_id=y.id)
    second = Other(engine, merge_players, keep_id=y.id, merge_id=x.id)
    second.thread.join(0.5)
    assert second.thread.is_alive()
    first.release()
    second.join()
    assert first.error is None
    assert isinstance(second.error, NotFound)
    db.rollback()
    assert len(db.exec(select(Seat).where(Seat.player_id == z.id)).all()) == 1
    assert len(db.exec(select(Seat).where(Seat.player_id == x.id)).all()) == 1
    assert verify_nights(db=db) == []


# --- 5. a club file's roster changes are those a page can show --------------------------------------

AT = "2026-01-01T10:00:00+00:00"


def _club(change: dict) -> dict:
    players = [{"name": n, "retired": False, "created_at": AT} for n in ("Anna", "Bernd")]
    change = {"uid": uuid.uuid4().hex, "player": "Anna", "at": AT, **change}
    return {
        "format": "scorekeeper-club",
        "version": 2,
        "players": players,
        "roster_changes": [change],
        "nights": [],
        "tournaments": [],
    }


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (
            {"action": "merge", "detail": {"kept": "Anna", "merged": "X", "merged_id": 7, "nights": "many"}},
            "roster_changes[0].detail.nights",
            "must be a whole number, not a text",
        ),
        (
            {"action": "merge", "detail": {"kept": 5, "merged": "X", "nights": 2}},
            "roster_changes[0].detail.kept",
            "must be a text, not a whole number",
        ),
        (
            {"action": "deleted", "detail": {}},
            "roster_changes[0].action",
            "must be one of member, merge, rename, retire, unretire, not 'deleted'",
        ),
        (
            {"action": "rename", "detail": {"before": {"x": 1}, "after": None}},
            "roster_changes[0].detail.before",
            "must be a text, not an object",
        ),
        (
            {"action": "rename", "detail": {"before": "Ann", "after": ""}},
            "roster_changes[0].detail.after",
            "must not be empty",
        ),
        (
            {"action": "retire", "detail": {"name": "Anna", "why": 1}},
            "roster_changes[0].detail.why",
            "unknown key 'why'",
        ),
        (
            {"action": "unretire", "detail": []},
            "roster_changes[0].detail",
            "a roster change's detail must be an object",
        ),
    ],
)
def test_a_club_file_with_a_roster_change_no_page_can_show_is_refused_naming_the_path(db, change, path, message):
    from scorekeeper.core.exchange.checks import InvalidExport
    from scorekeeper.core.exchange.club_file import import_club

    before = snapshot(db)
    with pytest.raises(InvalidExport) as err:
        import_club(db=db, data=_club(change))
    assert err.value.path == path
    assert err.value.message.startswith(message)
    db.rollback()
    assert snapshot(db) == before


def test_every_roster_change_the_club_makes_goes_through_its_file(db, other_db):
    """Rename, merge, retire, back, a guest made a member: exported and imported, each shown as before."""
    from scorekeeper.core.exchange.club_file import club_json, import_club
    from scorekeeper.core.players import make_member, retire_player, roster_changes

    anna = create_player(db=db, name="Anna")
    dup = create_player(db=db, name="Anna B")
    rename_player(db=db, player_id=anna.id, name="Anna A")
    merge_players(db=db, keep_id=anna.id, merge_id=dup.id)
    retire_player(db=db, player_id=anna.id)
    retire_player(db=db, player_id=anna.id, retired=False)
    guest = tm.add_entrant(db=db, tournament_id=_tournament(db).id, guest="Sepp").player_id
    make_member(db=db, player_id=guest)
    import_club(db=other_db, data=club_json(db))
    other_db.commit()
    mine = [(c.action, c.detail) for c in roster_changes(db=db)]
    assert [c.action for c in roster_changes(db=db)] == ["rename", "merge", "retire", "unretire", "member"]
    assert [(c.action, c.detail) for c in roster_changes(db=other_db)] == mine
