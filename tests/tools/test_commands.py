"""The development tools' commands of manage.py: the busy club's demo and the history benchmark."""

from __future__ import annotations

import re

import pytest

from tools.commands import main


def test_demo_nights_makes_a_busy_club_whose_history_adds_up(tmp_path, monkeypatch, capsys):
    from sqlmodel import func, select

    from scorekeeper import create_app
    from scorekeeper.core import db as database
    from scorekeeper.core.models import HandRecord, Night, NightResult

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    assert main(["demo", "--nights", "12", "--seed", "3"]) == 0
    assert "made 12 nights with" in capsys.readouterr().out
    app = create_app({"TESTING": True, "SECRET_KEY": "test"})
    try:
        with database.session(app.extensions["sk_engine"]) as db:
            assert db.exec(select(func.count()).select_from(Night)).one() == 12
            hands = db.exec(select(func.count()).select_from(HandRecord)).one()
            assert 12 * 120 <= hands <= 12 * 260
            sums = db.exec(
                select(NightResult.game, func.sum(NightResult.cents)).group_by(NightResult.night_id, NightResult.game)
            ).all()
            assert {game for game, _ in sums} == {"schafkopf", "matzlfangen", "konter_a_matt", "matt"}
            # the money of a night adds up to zero but in Schafkopf, whose pot may keep some
            assert [total for game, total in sums if game != "schafkopf" and total != 0] == []
    finally:
        app.extensions["sk_engine"].dispose()
    assert main(["bench", "history", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert "database: 12 nights" in out
    for page in ("nights list", "a player's page", "season leaderboard"):
        assert re.search(rf"{page} +median +\d+\.\d ms", out), out


def test_the_history_benchmark_on_an_empty_database_says_what_to_do(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    assert main(["bench", "history", "--runs", "1"]) == 0
    assert "demo --nights 2000" in capsys.readouterr().out


@pytest.mark.parametrize("nights", ["0", "-3", "100001"])
def test_demo_refuses_a_number_of_nights_out_of_range(tmp_path, monkeypatch, capsys, nights):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    assert main(["demo", "--nights", nights]) == 1
    assert "--nights must be from 1 to 100000" in capsys.readouterr().err
