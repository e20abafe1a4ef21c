"""``manage.py export-tournament ID FILE`` and ``import-tournament FILE``: a whole tournament out of one
instance and into another, twice harmless, a bad file refused naming its place; and ``export-all``
carries the tournaments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.cli import main

SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}


def _make_tournament(folder: Path) -> None:
    """The app's database in ``folder`` with a tournament of 8 players and a guest, round 1 drawn and begun."""
    from scorekeeper import create_app
    from scorekeeper.core import db as database
    from scorekeeper.core import tournaments as tm
    from scorekeeper.core.hands import record_hand
    from scorekeeper.core.players import create_player

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": str(folder)})
    engine = app.extensions["sk_engine"]
    try:
        with database.session(engine) as db:
            t = tm.create_tournament(db=db, name="Preisschafkopf", game="schafkopf", rules={"preset": "turnier"})
            for i in range(1, 9):
                tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i}").id)
            tm.add_entrant(db=db, tournament_id=t.id, guest="Gast Gustl")
            tm.draw_round(db=db, tournament_id=t.id)
            table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0]
            record_hand(db=db, night_id=table.night.id, hand=SAUSPIEL)
    finally:
        engine.dispose()


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    _make_tournament(folder)
    return folder


def test_export_tournament_then_import_into_another_instance_and_again_changes_nothing(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "turnier.json"
    assert main(["export-tournament", "1", str(out)]) == 0
    assert capsys.readouterr().out == (
        f"{out}: tournament 1 (Preisschafkopf) with 9 participants, 1 round drawn and 2 tables\n"
    )
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "other"))
    assert main(["import-tournament", str(out)]) == 0
    assert capsys.readouterr().out == "tournament 1 (Preisschafkopf) imported\n"
    assert main(["import-tournament", str(out)]) == 0
    assert capsys.readouterr().out == "tournament 1 (Preisschafkopf) was imported before: nothing changed\n"
    again = tmp_path / "again.json"
    assert main(["export-tournament", "1", str(again)]) == 0
    assert json.loads(again.read_text(encoding="utf-8")) == json.loads(out.read_text(encoding="utf-8"))


def test_export_tournament_of_an_unknown_tournament_exits_1(instance: Path, tmp_path: Path, capsys) -> None:
    assert main(["export-tournament", "7", str(tmp_path / "x.json")]) == 1
    assert capsys.readouterr().err == "there is no tournament 7\n"
    assert not (tmp_path / "x.json").exists()


def test_import_tournament_of_a_bad_file_exits_1_naming_the_place_and_imports_nothing(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "turnier.json"
    assert main(["export-tournament", "1", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    data["entrants"][8]["guest"] = "ja"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "other"))
    capsys.readouterr()
    assert main(["import-tournament", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}: entrants[8].guest: must be true or false")
    assert err.endswith("\nnothing was imported\n")
    club = tmp_path / "club.json"
    assert main(["export-all", str(club)]) == 0
    assert json.loads(club.read_text(encoding="utf-8"))["tournaments"] == []


def test_import_tournament_of_a_file_that_is_not_json_exits_1(instance: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["import-tournament", str(bad)]) == 1
    assert capsys.readouterr().err.startswith(f"cannot read {bad}: ")


def test_export_all_carries_the_tournament_and_import_counts_it(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    club = tmp_path / "club.json"
    assert main(["export-all", str(club)]) == 0
    assert capsys.readouterr().out == (
        f"{club}: the club with 8 players, 0 roster changes, 0 nights and 1 tournament\n"
    )  # the guest is not on the roster, the tables are not loose nights
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "other"))
    assert main(["import", str(club)]) == 0
    assert capsys.readouterr().out.endswith("; tournaments 1 new, 0 already there\n")
    assert main(["import", str(club)]) == 0
    assert capsys.readouterr().out.startswith("the club was imported before: nothing changed")


def test_a_table_exported_alone_says_it_is_one_and_import_refuses_it_naming_the_tournament(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Night 1 is table 1 of round 1 of the Preisschafkopf. ``export 1`` wrote it as a plain night, and
    ``import`` of that file in another instance made it a club night there (in the seasons and on the
    leaderboard, its points counted as money). The export says what the file is and which command
    exports the whole tournament; the import refuses the file naming the tournament, and imports nothing."""
    out = tmp_path / "table.json"
    assert main(["export", "1", "-o", str(out)]) == 0
    assert capsys.readouterr().out == (
        f"{out}: table 1 of round 1 of tournament 1 (Preisschafkopf) with 1 hand, marked as the tournament's "
        "table: python manage.py import refuses it; python manage.py export-tournament 1 FILE exports the "
        "whole tournament\n"
    )
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "other"))
    assert main(["import", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{out}: tournament: this file is table 1 of round 1 of the tournament 'Preisschafkopf'")
    assert "python manage.py export-tournament" in err and "python manage.py import-tournament" in err
    assert err.endswith("\nnothing was imported\n")
    club = tmp_path / "club.json"
    assert main(["export-all", str(club)]) == 0
    written = json.loads(club.read_text(encoding="utf-8"))
    assert (written["players"], written["nights"], written["tournaments"]) == ([], [], [])


def test_import_of_a_tournament_file_imports_the_tournament_as_import_tournament_does(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``import`` takes every file Scorekeeper writes, as its format says (before: a tournament's file was
    refused as "not a Scorekeeper night", with no word of import-tournament)."""
    out = tmp_path / "turnier.json"
    assert main(["export-tournament", "1", str(out)]) == 0
    capsys.readouterr()
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "other"))
    assert main(["import", str(out)]) == 0
    assert capsys.readouterr().out == "tournament 1 (Preisschafkopf) imported\n"
    assert main(["import-tournament", str(out)]) == 0
    assert capsys.readouterr().out == "tournament 1 (Preisschafkopf) was imported before: nothing changed\n"


def test_import_tournament_of_a_night_file_names_the_command_that_imports_it(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "abend.json"
    assert main(["export-all", str(out)]) == 0
    capsys.readouterr()
    assert main(["import-tournament", str(out)]) == 1
    err = capsys.readouterr().err
    assert "this is a Scorekeeper club file, not a tournament file: python manage.py import FILE imports it" in err
    assert "nothing was imported" in err


def test_export_of_a_night_of_one_hand_says_one_hand(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorekeeper import create_app
    from scorekeeper.core import db as database
    from scorekeeper.core.hands import record_hand
    from scorekeeper.core.nights import create_night

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": str(instance)})
    engine = app.extensions["sk_engine"]
    try:
        with database.session(engine) as db:
            night = create_night(
                db=db, game="schafkopf", rules=None, stake_cents=10, player_ids=[1, 2, 3, 4], first_dealer=1
            )
            record_hand(db=db, night_id=night.id, hand=SAUSPIEL)
            night_id = night.id
    finally:
        engine.dispose()
    out = tmp_path / "abend.json"
    assert main(["export", str(night_id), "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: night {night_id} with 1 hand\n"


@pytest.mark.parametrize("command", ["import", "import-tournament"])
@pytest.mark.parametrize("mark", [["scorekeeper-night"], {"format": "scorekeeper-tournament"}])
def test_import_of_a_file_whose_format_is_no_text_is_refused_with_a_message(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, mark: object
) -> None:
    """A file whose ``format`` is a list or an object: a clear refusal, nothing imported (before: a traceback,
    "TypeError: unhashable type", from the look-up of the format's kind)."""
    out = tmp_path / "odd.json"
    out.write_text(json.dumps({"format": mark, "version": 1}), encoding="utf-8")
    assert main([command, str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{out}: ") and "Traceback" not in err
    assert err.endswith("nothing was imported\n")


def test_import_tournament_of_a_table_exported_alone_says_what_it_is_not_to_use_import(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table exported alone, given to ``import-tournament``: refused as ``import`` refuses it, naming the table
    and the tournament's export (before: "this is a Scorekeeper night file, not a tournament file: python manage.py
    import FILE imports it", and ``import`` then sent the member back to import-tournament: a circle)."""
    out = tmp_path / "table.json"
    assert main(["export", "1", "-o", str(out)]) == 0
    capsys.readouterr()
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "other"))
    assert main(["import-tournament", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{out}: tournament: this file is table 1 of round 1 of the tournament 'Preisschafkopf'")
    assert "python manage.py import FILE imports it" not in err
    assert err.endswith("\nnothing was imported\n")


@pytest.mark.parametrize("command", ["import-tournament", "import"])
def test_a_tournament_file_written_before_its_currency_imports_in_the_clubs_currency(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """docs/tournaments.md, "Fees and prizes": the fee and the prizes of a file without ``currency`` are in the
    importing club's currency (SCOREKEEPER_CURRENCY), as its nights' were shown when it was written."""
    from scorekeeper import create_app
    from scorekeeper.core import db as database
    from scorekeeper.core import tournaments as tm

    out = tmp_path / "turnier.json"
    assert main(["export-tournament", "1", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["tournament"].pop("currency") == "EUR"
    out.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "other"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(other))
    monkeypatch.setenv("SCOREKEEPER_CURRENCY", "CHF")
    assert main([command, str(out)]) == 0

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "INSTANCE_PATH": str(other)})
    engine = app.extensions["sk_engine"]
    try:
        with database.session(engine) as db:
            assert [t.currency for t in tm.list_tournaments(db=db)] == ["CHF"]
    finally:
        engine.dispose()
