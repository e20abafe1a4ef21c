"""Rule: a club's file lists everyone who sat at its nights among its ``players`` (docs/backup.md, "The club
file"). A night seating a name the file's roster leaves out added that player while the import said
"players 0 new"; such a file is refused, naming the night and the player, and nothing is imported."""

from __future__ import annotations

from datetime import date

import pytest
from sqlmodel import func, select

from scorekeeper.cli import main
from scorekeeper.core.exchange.checks import InvalidExport
from scorekeeper.core.exchange.club_file import club_json, import_club
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Night, Player
from scorekeeper.core.nights import close_night
from tests.support import as_file, start_night

RUFEN = {"contract": "rufen", "partner": 3, "points": 70}


def _club_file(db, players):
    for day in (date(2026, 3, 1), date(2026, 3, 8)):
        night = start_night(db, players, played_on=day)
        record_hand(db=db, night_id=night.id, hand=RUFEN)
        close_night(db=db, night_id=night.id)
    data = as_file(club_json(db=db))
    data["nights"][1]["players"][0]["name"] = "Newbie Nora"  # seated, and in no list of the file's players
    return data


def _count(session, model) -> int:
    return session.exec(select(func.count()).select_from(model)).one()


def test_a_club_file_seating_a_name_it_does_not_list_is_refused_naming_it(db, other_db, players):
    data = _club_file(db, players)

    with pytest.raises(InvalidExport) as refused:
        import_club(db=other_db, data=data)

    assert str(refused.value) == (
        "nights[1].players[0].name: 'Newbie Nora' sits at the night of 2026-03-08 but is not one of the file's "
        "players: a club's file lists everyone who sat at its nights"
    )
    assert (_count(other_db, Player), _count(other_db, Night)) == (0, 0)


def test_the_import_command_refuses_it_and_imports_nothing(app, db, players, tmp_path, monkeypatch, capsys):
    import json

    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", app.config["DATABASE_URL"])
    data = _club_file(db, players)
    data["nights"] = [data["nights"][1]]
    data["nights"][0]["evening"]["uid"] = "0" * 31 + "1"  # a night this database does not have
    path = tmp_path / "club_newbie.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = (_count(db, Player), _count(db, Night))

    assert main(["import", str(path)]) == 1

    err = capsys.readouterr().err
    assert "'Newbie Nora' sits at the night of 2026-03-08 but is not one of the file's players" in err
    assert err.endswith("nothing was imported\n")
    db.rollback()
    assert (_count(db, Player), _count(db, Night)) == before
    assert db.exec(select(Player).where(Player.name == "Newbie Nora")).first() is None
