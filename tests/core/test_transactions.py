"""One transaction per write: on SQLite a write session begins ``BEGIN IMMEDIATE`` (a read session a plain
``BEGIN``); the repository locks the night's row before it changes it (PostgreSQL), so phones recording the
same night at the same moment take turns and every hand gets the next number."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing

import pytest
from sqlalchemy import event, func, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import select

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict
from scorekeeper.core.hands import UndoneHand, add_hands, edit_hand, record_hand, undo_last
from scorekeeper.core.models import AuditEntry, HandRecord, Night, Seat
from scorekeeper.core.table import get_night, load_table
from tests.support import BACKENDS, DURCH, fresh_postgres, start_night
from tests.support_tournament import make_tournament

THREADS = 8


@pytest.fixture
def engine(app):
    return app.extensions["sk_engine"]


def sqlite_only(engine) -> None:
    if engine.dialect.name != "sqlite":
        pytest.skip("SQLite's BEGIN modes (PostgreSQL locks the night's row instead)")


def begins(engine) -> list[str]:
    """The BEGIN statements sent on the engine's connections from now on (a list that fills up)."""
    sent: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _log(_conn, _cursor, statement, *_args) -> None:
        if statement.upper().startswith("BEGIN"):
            sent.append(statement)

    return sent


def in_thread(target) -> tuple[threading.Thread, list[BaseException]]:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            target()
        except BaseException as exc:  # pragma: no cover - reported by the test
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, errors


def hand_numbers(engine, night_id: int) -> list[int]:
    with database.session(engine) as db:
        return list(
            db.exec(select(HandRecord.number).where(HandRecord.night_id == night_id).order_by(HandRecord.number))
        )


# --- how transactions begin on SQLite ------------------------------------------------------


def test_every_transaction_of_a_write_session_begins_immediate_and_of_a_read_session_deferred(engine):
    sqlite_only(engine)
    sent = begins(engine)
    with database.session(engine, write=True) as db:
        db.exec(select(func.count()).select_from(Night)).one()
        db.commit()
        db.exec(select(func.count()).select_from(Night)).one()  # the next transaction, on a connection again
        db.rollback()
        db.exec(select(func.count()).select_from(Night)).one()
    assert sent == ["BEGIN IMMEDIATE"] * 3
    sent.clear()
    with database.session(engine) as db:
        db.exec(select(func.count()).select_from(Night)).one()
        db.commit()
        db.exec(select(func.count()).select_from(Night)).one()
    assert sent == ["BEGIN", "BEGIN"]


def test_a_write_session_holds_the_write_lock_from_its_first_read_and_readers_still_read(engine, db, players):
    sqlite_only(engine)
    path = engine.url.database
    night = start_night(db, players)
    holder = database.session(engine, write=True)
    try:
        assert holder.get(Night, night.id).version == 0  # only read so far, yet the database is reserved
        with closing(sqlite3.connect(path, timeout=0.1, isolation_level=None)) as other:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            other.execute("BEGIN")  # a reader is never kept waiting (WAL)
            assert other.execute("SELECT version FROM evening WHERE id = ?", (night.id,)).fetchall() == [(0,)]
            other.execute("COMMIT")

        with database.session(engine) as reader:  # a read session of the app, too
            assert reader.get(Night, night.id).version == 0

        second_started = threading.Event()

        def second_writer() -> None:
            with database.session(engine, write=True) as db:
                second_started.set()
                record_hand(db=db, night_id=night.id, hand=DURCH)

        thread, errors = in_thread(second_writer)
        second_started.wait(5)
        time.sleep(0.3)
        assert thread.is_alive()  # waiting for the lock (the busy timeout is 15 s)
        assert hand_numbers(engine, night.id) == []
        holder.commit()  # the first write session ends its transaction: the second one goes on
        thread.join(10)
        assert not thread.is_alive() and errors == []
        assert hand_numbers(engine, night.id) == [1]
    finally:
        holder.close()


def test_a_read_then_write_of_a_read_session_can_fail_where_a_write_session_cannot(engine, db, players):
    """Why write sessions begin IMMEDIATE: a deferred transaction that read before another connection wrote
    cannot write at all (SQLITE_BUSY_SNAPSHOT); waiting does not help."""
    sqlite_only(engine)
    night = start_night(db, players)
    with database.session(engine) as late:
        late.get(Night, night.id)  # its snapshot is taken
        with database.session(engine, write=True) as quick:
            record_hand(db=quick, night_id=night.id, hand=DURCH)
        with pytest.raises(OperationalError, match="locked"):
            record_hand(db=late, night_id=night.id, hand=DURCH)
        late.rollback()
    with database.session(engine, write=True) as db:  # the same read-then-write, begun IMMEDIATE
        db.get(Night, night.id)
        with database.session(engine, write=True) as other:
            thread, errors = in_thread(lambda: record_hand(db=other, night_id=night.id, hand=DURCH))
            time.sleep(0.2)
            record, created, _ = record_hand(db=db, night_id=night.id, hand=DURCH)
            thread.join(10)
    assert errors == [] and created and record.number == 2
    assert hand_numbers(engine, night.id) == [1, 2, 3]


def test_foreign_keys_are_checked_in_write_and_read_sessions(engine, players):
    sqlite_only(engine)
    for write in (True, False):
        with database.session(engine, write=write) as db:
            assert db.exec(text("PRAGMA foreign_keys")).one() == (1,)
            assert db.exec(text("PRAGMA journal_mode")).one() == ("wal",)
            db.add(Seat(night_id=999_999, position=1, player_id=players[0].id))
            with pytest.raises(IntegrityError):
                db.flush()
            db.rollback()


# --- phones recording the same night at once (SQLite and PostgreSQL) ---------------------------


def test_phones_recording_the_same_night_at_once_all_succeed_with_the_next_numbers(engine, db, players):
    night = start_night(db, players)
    per_thread = 5
    barrier = threading.Barrier(THREADS)
    numbers: list[int] = []

    def phone() -> None:
        with database.session(engine, write=True) as session:
            barrier.wait(10)
            for _ in range(per_thread):
                record, created, _ = record_hand(db=session, night_id=night.id, hand=DURCH)
                assert created
                numbers.append(record.number)

    started = [in_thread(phone) for _ in range(THREADS)]
    for thread, _ in started:
        thread.join(60)
    assert [e for _, errors in started for e in errors] == []
    total = THREADS * per_thread
    assert sorted(numbers) == list(range(1, total + 1))
    assert hand_numbers(engine, night.id) == list(range(1, total + 1))
    with database.session(engine) as check:
        assert check.get(Night, night.id).version == total
        assert check.exec(select(func.count()).select_from(AuditEntry)).one() == total
        table = load_table(db=check, night_id=night.id)
        assert table.balance == [18 * total, -6 * total, -6 * total, -6 * total]  # every hand settled once


def test_the_same_hand_sent_by_many_phones_at_once_is_recorded_once(engine, db, players):
    night = start_night(db, players)
    barrier = threading.Barrier(THREADS)
    answers: list[tuple[int, bool]] = []

    def phone() -> None:
        with database.session(engine, write=True) as session:
            barrier.wait(10)
            record, created, _ = record_hand(db=session, night_id=night.id, hand=DURCH, idempotency_key="hand-1")
            answers.append((record.number, created))

    started = [in_thread(phone) for _ in range(THREADS)]
    for thread, _ in started:
        thread.join(60)
    assert [e for _, errors in started for e in errors] == []
    assert sorted(answers) == [(1, False)] * (THREADS - 1) + [(1, True)]
    assert hand_numbers(engine, night.id) == [1]


def test_a_hand_undone_keeps_its_key_and_is_never_recorded_again_through_it(engine, db, players):
    """A phone that never got its answer sends the hand again after another phone undid it: the undo stands."""
    night = start_night(db, players)
    record_hand(db=db, night_id=night.id, hand=DURCH, idempotency_key="phone-a-1")
    undone = undo_last(db=db, night_id=night.id)
    version = get_night(db=db, night_id=night.id).version
    with pytest.raises(UndoneHand) as refused:
        record_hand(db=db, night_id=night.id, hand=DURCH, idempotency_key="phone-a-1", expected_hands=0)
    db.rollback()
    assert refused.value.number == undone.number == 1
    assert hand_numbers(engine, night.id) == []
    assert get_night(db=db, night_id=night.id).version == version
    _, created, _ = record_hand(db=db, night_id=night.id, hand=DURCH, idempotency_key="phone-b-1")
    assert created  # another key records the hand as ever


def test_an_undo_for_a_version_the_night_has_left_is_refused_and_changes_nothing(engine, db, players):
    night = start_night(db, players)
    record_hand(db=db, night_id=night.id, hand=DURCH)
    seen = get_night(db=db, night_id=night.id).version
    edit_hand(db=db, night_id=night.id, number=1, hand={**DURCH, "won": False})  # the count of hands stays 1
    with pytest.raises(Conflict, match="another phone changed the night meanwhile"):
        undo_last(db=db, night_id=night.id, expected_version=seen)
    db.rollback()
    assert hand_numbers(engine, night.id) == [1]
    assert undo_last(db=db, night_id=night.id, expected_version=seen + 1).number == 1


def test_a_stale_edit_or_undo_at_a_tournaments_table_names_the_table_not_a_night(engine, db):
    """A tournament's table is a table on its pages: its refusals say so (a club night's say the night)."""
    t = make_tournament(db)
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    record_hand(db=db, night_id=table.id, hand={"contract": "rundpass"})
    seen = get_night(db=db, night_id=table.id).version
    record_hand(db=db, night_id=table.id, hand={"contract": "rundpass"})  # another phone
    with pytest.raises(Conflict, match=r"^the table changed while you were editing") as edit:
        edit_hand(db=db, night_id=table.id, number=1, hand={"contract": "rundpass"}, expected_version=seen)
    db.rollback()
    with pytest.raises(Conflict, match=r"^another phone changed the table meanwhile") as undo:
        undo_last(db=db, night_id=table.id, expected_version=seen)
    db.rollback()
    assert "night" not in edit.value.message + undo.value.message
    assert hand_numbers(engine, table.id) == [1, 2]


def test_editing_and_undoing_while_another_phone_records_keeps_the_numbers_whole(engine, db, players):
    night = start_night(db, players)
    add_hands(db=db, night_id=night.id, hands=[DURCH] * 8)
    barrier = threading.Barrier(3)

    def recorder() -> None:
        with database.session(engine, write=True) as session:
            barrier.wait(10)
            for _ in range(10):
                record_hand(db=session, night_id=night.id, hand=DURCH)

    def editor() -> None:
        with database.session(engine, write=True) as session:
            barrier.wait(10)
            for _ in range(10):
                edit_hand(db=session, night_id=night.id, number=2, hand=DURCH)

    def undoer() -> None:
        with database.session(engine, write=True) as session:
            barrier.wait(10)
            for _ in range(5):
                undo_last(db=session, night_id=night.id)

    started = [in_thread(f) for f in (recorder, editor, undoer)]
    for thread, _ in started:
        thread.join(60)
    assert [e for _, errors in started for e in errors] == []
    assert hand_numbers(engine, night.id) == list(range(1, 8 + 10 - 5 + 1))
    with database.session(engine) as check:
        assert check.get(Night, night.id).version == 1 + 10 + 10 + 5  # add_hands, records, edits, undos


def test_a_change_of_a_night_sees_the_newest_version_even_when_the_session_held_an_older_one(engine, db, players):
    """The night is read afresh under the lock: a version the session read in an earlier transaction
    is not written back over a newer one."""
    night = start_night(db, players)
    with database.session(engine, write=True) as phone:
        held = get_night(db=phone, night_id=night.id)
        phone.commit()
        with database.session(engine, write=True) as other:
            record_hand(db=other, night_id=night.id, hand=DURCH)
        assert held.version == 0  # what this session read before
        record_hand(db=phone, night_id=night.id, hand=DURCH)
        assert held.version == 2
    with database.session(engine) as check:
        assert check.get(Night, night.id).version == 2


# --- server processes starting at once -----------------------------------------------------


STARTS = """
import sys
from scorekeeper import create_app
create_app({"DATABASE_URL": sys.argv[1], "SECRET_KEY": "test"}).extensions["sk_engine"].dispose()
"""


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_server_processes_starting_at_once_on_a_new_database_all_start(backend, tmp_path):
    """gunicorn's workers each migrate the database on start: they take turns (and one failing would stop
    gunicorn). SQLite: BEGIN IMMEDIATE, and WAL switched on under a retry; PostgreSQL: an advisory lock."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'new.db'}"
    else:
        url = fresh_postgres(os.environ["SCOREKEEPER_TEST_POSTGRES_URL"])
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path / "instance")}
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", STARTS, url], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        for _ in range(4)
    ]
    outputs = [p.communicate(timeout=60)[0] for p in starts]
    assert [p.returncode for p in starts] == [0] * 4, "\n".join(outputs)[-3000:]


def test_a_stale_hand_form_at_a_tournaments_table_names_the_table_not_a_night(engine, db):
    """Review: the table words reached the stale edit and undo, not the stale new hand (``expected_hands``):
    at a tournament's table that refusal still says "when the night had 0 hands"."""
    t = make_tournament(db)
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night
    record_hand(db=db, night_id=table.id, hand={"contract": "rundpass"})  # another phone
    with pytest.raises(Conflict, match=r"^Another phone recorded a hand meanwhile") as stale:
        record_hand(db=db, night_id=table.id, hand={"contract": "rundpass"}, expected_hands=0)
    db.rollback()
    assert "night" not in stale.value.message
    assert hand_numbers(engine, table.id) == [1]
