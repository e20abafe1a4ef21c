"""The migrations build exactly the schema the models describe, and an old database upgrades."""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel, select

from scorekeeper.core import history, models  # noqa: F401  (models registers the tables)
from scorekeeper.core.db import make_engine, session, upgrade, upgrade_to
from scorekeeper.core.exchange.club_file import club_json, read_club
from scorekeeper.core.exchange.night_file import night_json, read_night
from scorekeeper.core.hands import record_hand
from scorekeeper.core.history import verify_night, verify_nights
from scorekeeper.core.models import DeletedNight, HandRecord, NightResult
from scorekeeper.core.nights import delete_night
from scorekeeper.core.players import create_player
from scorekeeper.core.tournaments import create_tournament
from scorekeeper.engine import GAMES
from scorekeeper.engine.rules import rules_to_json
from tests.support import BACKENDS, SAUSPIEL_CLARA, closed_split_night, fresh_postgres, start_night


def test_the_migrations_build_exactly_the_schema_of_the_models(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    upgrade_to(str(engine.url), "head")
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []
    engine.dispose()


def test_a_database_of_the_first_schema_keeps_its_nights_through_the_upgrade(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade_to(str(engine.url), "0001")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO evening (game, rules, stake_cents, currency, played_on, place, seat_count, first_dealer,"
            " status, version, created_at) VALUES ('matt', '{}', 5, 'EUR', '2026-01-01', 'Post', 2, 1, 'open', 0,"
            " '2026-01-01 20:00:00')"
        )
        conn.exec_driver_sql("INSERT INTO player (name, created_at) VALUES ('Anna', '2026-01-01 20:00:00')")
        conn.exec_driver_sql("INSERT INTO player (name, created_at) VALUES ('Bernd', '2026-01-01 20:00:00')")
        conn.exec_driver_sql("INSERT INTO seat (evening_id, position, player_id) VALUES (1, 1, 1), (1, 2, 2)")
        conn.exec_driver_sql(
            "INSERT INTO handrecord (evening_id, number, dealer, data, created_at, updated_at) VALUES"
            ' (1, 1, 1, \'{"mated_by": 1, "move": 3, "card": "A"}\', \'2026-01-01 20:10:00\','
            " '2026-01-01 20:10:00')"
        )
    upgrade_to(str(engine.url), "head")
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT place, stake_cents, pot_start, closed_at, uid FROM evening").all()
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [("Post", 5, 0, None)]
    assert len(rows[0][4]) == 32
    with engine.connect() as conn:  # the night open at the upgrade got its join code (0004)
        code = conn.exec_driver_sql("SELECT join_code FROM evening").scalar()
    assert len(code) == 6 and set(code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    with engine.connect() as conn:  # the seats and hands that point at the night are still there
        assert conn.exec_driver_sql("SELECT count(*) FROM seat").scalar() == 2
        assert conn.exec_driver_sql("SELECT data FROM handrecord").scalar() is not None
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_a_migration_that_fails_on_sqlite_leaves_the_database_as_it_was(tmp_path, monkeypatch):
    from alembic.operations import BatchOperations

    engine = make_engine(f"sqlite:///{tmp_path / 'fail.db'}")
    upgrade_to(str(engine.url), "0001")
    real_create_index = BatchOperations.create_index

    def fail_after_adding_columns(self, *args, **kwargs):  # the last step of 0002 fails
        raise RuntimeError("disk full")

    monkeypatch.setattr(BatchOperations, "create_index", fail_after_adding_columns)
    with pytest.raises(RuntimeError, match="disk full"):
        upgrade_to(str(engine.url), "head")
    monkeypatch.setattr(BatchOperations, "create_index", real_create_index)
    with engine.connect() as conn:
        columns = [row[1] for row in conn.exec_driver_sql("PRAGMA table_info(evening)")]
        version = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    assert "closed_at" not in columns and version == "0001"  # nothing of 0002 stayed behind
    upgrade_to(str(engine.url), "head")  # and the upgrade still works afterwards
    engine.dispose()


def test_an_upgrade_of_sqlite_runs_the_whole_chain_in_one_transaction_read_revision_included(tmp_path, monkeypatch):
    """Processes starting at once on a new database take turns: each must read the schema's revision
    inside its turn, and hold the turn to the end of the chain. Were each migration committed on its
    own, a process could run 0003 on a table a faster one had already taken further (seen in CI as
    ``CircularDependencyError ('retired', 'guest')``)."""
    from sqlalchemy import event

    from scorekeeper.core import db as database

    statements: list[str] = []
    real = database.migration_engine

    def watched(url):
        engine = real(url)
        event.listen(engine, "commit", lambda _conn: statements.append("COMMIT"))
        event.listen(
            engine, "before_cursor_execute", lambda _c, _cur, sql, *_a: statements.append(sql.split()[0].upper())
        )
        return engine

    monkeypatch.setattr(database, "migration_engine", watched)
    upgrade_to(f"sqlite:///{tmp_path / 'new.db'}", "head")
    assert statements[0] == "BEGIN"  # BEGIN IMMEDIATE, before alembic reads the revision
    assert statements.count("COMMIT") == 1 and statements[-1] == "COMMIT"


def test_the_upgrade_records_where_each_carried_pot_went_by_the_rule_of_then(tmp_path):
    """Migration 0016 (docs/rules.md, "The pot at the end of the night"): a pot the old rule gave a night
    is recorded as given to it (its units, at the giving night's stake); the pot the old rule would give
    next waits; every other closed night's pot is gone, so that no old pot comes back at the next night;
    an open night's waits once it is closed."""
    engine = make_engine(f"sqlite:///{tmp_path / 'pots.db'}")
    upgrade_to(str(engine.url), "0015")
    carry = '{"all_pass": "pot", "pot_at_close": "carry"}'
    nights = [  # id, rules, stake, pot_start, created, closed (None: open); all Schafkopf club nights
        (1, carry, 10, 0, "2026-01-01 19:00:00", "2026-01-01 23:00:00"),  # its pot went to 2
        (2, carry, 20, 4, "2026-01-08 19:00:00", "2026-01-08 23:00:00"),  # took 8 units at 10 as 4 at 20
        (3, carry, 10, 0, "2026-01-09 19:00:00", "2026-01-09 23:00:00"),  # took nothing: 2's pot went nowhere
        (4, '{"all_pass": "ramsch"}', 10, 0, "2026-01-10 19:00:00", "2026-01-10 23:00:00"),  # the last closed
        (5, carry, 10, 0, "2026-01-11 19:00:00", None),  # open
    ]
    with engine.begin() as conn:
        for i, rules, stake, pot, created, closed in nights:
            conn.exec_driver_sql(
                "INSERT INTO evening (id, game, rules, stake_cents, currency, played_on, place, seat_count,"
                " first_dealer, status, version, created_at, closed_at, pot_start, uid) VALUES (?, 'schafkopf', ?,"
                " ?, 'EUR', '2026-01-01', '', 4, 1, ?, 0, ?, ?, ?, ?)",
                (i, rules, stake, "open" if closed is None else "closed", created, closed, pot, f"{i:032x}"),
            )
    upgrade_to(str(engine.url), "head")
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT id, pot_to, pot_given FROM evening ORDER BY id").all()
    assert [tuple(r) for r in rows] == [
        (1, f"{2:032x}", 8),
        (2, "", None),
        (3, "", None),
        (4, "", None),
        (5, None, None),
    ]
    engine.dispose()


def test_the_upgrade_leaves_the_pot_the_old_rule_would_give_next_waiting(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'pots.db'}")
    upgrade_to(str(engine.url), "0015")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO evening (id, game, rules, stake_cents, currency, played_on, place, seat_count, first_dealer,"
            " status, version, created_at, closed_at, pot_start, uid) VALUES (1, 'schafkopf',"
            " '{\"all_pass\": \"pot\", \"pot_at_close\": \"carry\"}', 10, 'EUR', '2026-01-01', '', 4, 1, 'closed', 0,"
            " '2026-01-01 19:00:00', '2026-01-01 23:00:00', 0, 'a')"
        )
    upgrade_to(str(engine.url), "head")
    with engine.connect() as conn:
        assert tuple(conn.exec_driver_sql("SELECT pot_to, pot_given FROM evening").one()) == (None, None)
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def empty_url(request, tmp_path):
    """A database without any schema: a SQLite file, or this worker's PostgreSQL database made empty."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    return fresh_postgres(os.environ["SCOREKEEPER_TEST_POSTGRES_URL"])


def _a_tournament_of_before(url: str) -> None:
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO tournament (uid, name, played_on, place, game, rules, rounds, deals, entry_fee_cents,"
            " prizes, seed, keep_apart, status, version, created_at) VALUES ('a', 'Preisjass', '2026-01-01', '',"
            " 'schafkopf', '{}', 2, 32, 1500, '[5000]', 's', '[]', 'open', 0, '2026-01-01 19:00:00')"
        )
    engine.dispose()


@pytest.mark.parametrize(("configured", "stored"), [("CHF", "CHF"), (None, "EUR")])
def test_the_upgrade_gives_the_tournaments_the_clubs_currency_of_then(empty_url, configured, stored):
    """Migration 0018: a tournament stores the currency of its fee and prizes. Those of before get the currency
    the app is configured with (SCOREKEEPER_CURRENCY, handed in by db.upgrade), else the default, EUR."""
    upgrade_to(empty_url, "0017")
    _a_tournament_of_before(empty_url)

    engine = make_engine(empty_url)
    if configured:
        upgrade(engine, currency=configured)  # as the app's start does
    else:
        upgrade_to(empty_url, "head")

    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT currency, entry_fee_cents FROM tournament").all() == [(stored, 1500)]
        if engine.dialect.name == "sqlite":  # the rebuilt table still never reuses an id (0012)
            sql = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'tournament'").scalar()
            assert "AUTOINCREMENT" in sql
        assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []
    engine.dispose()


def _rules_of(engine, table: str) -> dict[int, dict]:
    rows = sa.table(table, sa.column("id"), sa.column("rules", sa.JSON))
    with engine.connect() as conn:
        return dict(conn.execute(sa.select(rows.c.id, rows.c.rules)).all())


def _back_to_0018(engine) -> None:
    """The database as a release of 0018 left it (0019 changes no schema, only data)."""
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0018'")


def test_the_upgrade_writes_out_the_options_a_stored_rule_set_lacks(empty_url):
    """Migration 0019: a rule set stored before an option existed (Schafkopf's klopfen_played, added on
    2026-11-23) gets the value the settlement reads for it (the preset's, else the default): the nights settle
    as before, verify names a night before the upgrade, and the club's export imports again after it."""
    upgrade_to(empty_url, "head")
    engine = make_engine(empty_url)
    with session(engine) as db:
        players = [create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter")]
        seed = start_night(db, players, game="schafkopf")
        knocked = {**SAUSPIEL_CLARA, "klopfen": 1}  # knocking was always played before the option
        record_hand(db=db, night_id=seed.id, hand=knocked)
        bavarian = start_night(db, players, game="schafkopf", rules={"preset": "bavarian"})
        matt = start_night(db, players, game="matt", seats=2, rules={"stake_per_point": 1})
        gone = start_night(db, players, game="schafkopf", rules={"preset": "seed-variant"})
        delete_night(db=db, night_id=gone.id, reason="started by mistake", export=night_json(db=db, night_id=gone.id))
        create_tournament(db=db, name="Preisjass", game="schafkopf", rules={"preset": "bavarian"})
        before = {"evening": _rules_of(engine, "evening"), "tournament": _rules_of(engine, "tournament")}
        result = db.exec(select(HandRecord.result).where(HandRecord.night_id == seed.id)).one()
    old = {  # what the release of 0018 and every one before it stored: the rule sets without the option
        table: {i: {k: v for k, v in rules.items() if k != "klopfen_played"} for i, rules in sets.items()}
        for table, sets in before.items()
    }
    old["evening"][matt.id] = {}  # a rule set of the first schema (the test of 0001 stores '{}')
    with engine.begin() as conn:
        for table, sets in old.items():
            rows = sa.table(table, sa.column("id"), sa.column("rules", sa.JSON))
            for i, rules in sets.items():
                conn.execute(rows.update().where(rows.c.id == i).values(rules=rules))
        deleted = sa.table("deleted_night", sa.column("export", sa.JSON))
        export = conn.execute(sa.select(deleted.c.export)).scalar()
        export["evening"]["rules"].pop("klopfen_played")
        conn.execute(deleted.update().values(export=export))
    _back_to_0018(engine)
    with session(engine) as db:
        assert verify_night(db=db, night_id=seed.id) == [
            "the stored rule set is not complete: klopfen_played missing (its export is refused on import)"
        ]

    upgrade_to(empty_url, "head")

    after = {"evening": _rules_of(engine, "evening"), "tournament": _rules_of(engine, "tournament")}
    assert after["evening"].pop(matt.id) == {"preset": "seed", "stake_per_point": 0}  # as the engine reads '{}'
    before["evening"].pop(matt.id)
    assert after == before  # every option as the engine read it before the upgrade, and as it reads it now
    assert after["evening"][seed.id]["klopfen_played"] is after["evening"][bavarian.id]["klopfen_played"] is True
    assert list(after["evening"][seed.id]) == list(before["evening"][seed.id])  # in the engine's order
    with session(engine, write=True) as db:
        history.refresh_missing(db)  # as the app's start does: the open nights' rows (0019's second part)
        assert verify_night(db=db, night_id=seed.id) == []
        assert db.exec(select(HandRecord.result).where(HandRecord.night_id == seed.id)).one() == result
        file = club_json(db)  # writes every option out, as the nights settle
        assert {n["evening"]["rules"].get("klopfen_played") for n in file["nights"]} == {True, None}  # None: Matt
        assert file["tournaments"][0]["tournament"]["rules"]["klopfen_played"] is True
        read_club(file)
        kept = db.exec(select(DeletedNight.export)).one()
        assert kept["evening"]["rules"]["klopfen_played"] is True
        read_night(kept)  # and so does a deleted night's export
        assert verify_nights(db=db) == []
    engine.dispose()


def test_the_upgrade_leaves_a_rule_set_of_a_preset_that_sets_the_option_as_the_engine_reads_it(tmp_path):
    """The value written is the preset's where the preset sets the option (turnier: no knocking)."""
    url = f"sqlite:///{tmp_path / 'turnier.db'}"
    upgrade_to(url, "head")
    engine = make_engine(url)
    with session(engine) as db:
        create_tournament(db=db, name="Preisjass", game="schafkopf", rules={"preset": "turnier"})
    rows = sa.table("tournament", sa.column("rules", sa.JSON))
    with engine.begin() as conn:
        conn.execute(rows.update().values(rules={"preset": "turnier", "tariff_sauspiel": 1}))
    _back_to_0018(engine)
    upgrade_to(url, "head")
    with engine.connect() as conn:
        stored = conn.execute(sa.select(rows.c.rules)).scalar()
    assert stored == rules_to_json(GAMES["schafkopf"].parse_rules({"preset": "turnier", "tariff_sauspiel": 1}))
    assert stored["klopfen_played"] is False
    engine.dispose()


def test_the_upgrade_has_an_open_night_that_splits_its_pot_written_again_without_its_share(empty_url):
    """Migration 0019: an open club night's result rows hold no share of a pot split at the close (since
    2026-11-27); rows written before held it. They are removed, and the app's start writes them again."""
    upgrade_to(empty_url, "head")
    engine = make_engine(empty_url)
    with session(engine) as db:
        players = [create_player(db=db, name=n) for n in ("Anna", "Bernd", "Clara", "Dieter")]
        closed = closed_split_night(db, players)
        open_night = start_night(db, players, game="schafkopf")  # pot_at_close: split
        for hand in ({"contract": "rundpass"}, SAUSPIEL_CLARA, {"contract": "rundpass"}):  # the pot: 8 units
            record_hand(db=db, night_id=open_night.id, hand=hand)
        carry = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"})
        record_hand(db=db, night_id=carry.id, hand={"contract": "rundpass"})
        closed_rows = _cents(db, closed.id)
        carry_rows = _cents(db, carry.id)
    assert _cents_of(engine, open_night.id) == [-60, -60, 20, 20]
    with engine.begin() as conn:  # as the release of 0018 wrote them: with each one's share of the pot, 0.20
        conn.execute(sa.text("UPDATE night_result SET cents = cents + 20 WHERE evening_id = :n"), {"n": open_night.id})
    _back_to_0018(engine)
    with session(engine) as db:
        assert verify_nights(db=db) == [open_night.id]

    upgrade_to(empty_url, "head")

    assert _cents_of(engine, open_night.id) == []
    with session(engine, write=True) as db:
        assert _cents(db, closed.id) == closed_rows and _cents(db, carry.id) == carry_rows  # kept
        assert history.refresh_missing(db) == 1  # as the app's start does
        assert _cents(db, open_night.id) == [-60, -60, 20, 20]
        assert verify_nights(db=db) == []
    engine.dispose()


def _cents(db, night_id: int) -> list[int]:
    rows = select(NightResult.cents).where(NightResult.night_id == night_id).order_by(NightResult.position)
    return list(db.exec(rows))


def _cents_of(engine, night_id: int) -> list[int]:
    with session(engine) as db:
        return _cents(db, night_id)
