"""Two writers at the same moment, made to meet where a test wants them: one held at a point while it holds
its locks (its commit, or a function of the core it has called), another started meanwhile on its own
session. PostgreSQL (READ COMMITTED, row locks) shows the races; SQLite's write session holds the whole
database, and the same tests answer the same there. The races of tests/core/test_roster_defects.py,
test_name_defects.py, test_lock_order.py and test_tournament_races.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import text

from scorekeeper.core import db as database


class Held:
    """A use case run in a thread on its own write session, held at its commit until :meth:`release`:
    another writer meanwhile finds it under way, as at the same moment. ``held_if`` (given the session):
    held only at the commit it says yes to (an account's, not the commits before its password's hash)."""

    def __init__(self, engine, use_case, *, held_if: Callable[[Any], bool] | None = None, **kwargs):
        self.gate, self.at_commit, self.result, self.error = threading.Event(), threading.Event(), None, None
        self.held_if = held_if
        self.thread = threading.Thread(target=self._run, args=(engine, use_case, kwargs), daemon=True)
        self.thread.start()
        assert self.at_commit.wait(10)

    def _run(self, engine, use_case, kwargs):
        with database.session(engine, write=True) as session:
            commit = session.commit

            def held_commit():
                if self.held_if is None or self.held_if(session):
                    self.at_commit.set()
                    self.gate.wait(10)
                commit()

            session.commit = held_commit
            try:
                self.result = use_case(db=session, **kwargs)
            except BaseException as exc:  # reported by the test
                self.error = exc
            finally:
                self.at_commit.set()

    def release(self):
        self.gate.set()
        self.thread.join(15)
        assert not self.thread.is_alive()


class Other:
    """A second use case in a thread on its own write session, started while a :class:`Held` one (or one
    held at :class:`HeldAt`) is under way."""

    def __init__(self, engine, use_case, **kwargs):
        self.result, self.error = None, None
        self.thread = threading.Thread(target=self._run, args=(engine, use_case, kwargs), daemon=True)
        self.thread.start()

    def _run(self, engine, use_case, kwargs):
        with database.session(engine, write=True) as session:
            try:
                self.result = use_case(db=session, **kwargs)
            except BaseException as exc:  # reported by the test
                self.error = exc

    def join(self):
        self.thread.join(15)
        assert not self.thread.is_alive()


class HeldAt:
    """``owner.name`` (a function of a module of the core, replaced for the test by ``monkeypatch``) held once
    called, in whichever thread calls it, until :meth:`release`: after it returns (``before=False``: what it
    locked stays held, as a merge's ``players._lock_pair``), or before it runs (``before=True``: what its caller
    holds so far stays held). ``holding`` is set when it is reached."""

    def __init__(self, monkeypatch, owner, name: str, *, before: bool = False):
        self.gate, self.holding = threading.Event(), threading.Event()
        real = getattr(owner, name)

        def held(*args, **kwargs):
            if before:
                self._hold()
            result = real(*args, **kwargs)
            if not before:
                self._hold()
            return result

        monkeypatch.setattr(owner, name, held)

    def _hold(self):
        self.holding.set()
        self.gate.wait(10)

    def release(self):
        self.gate.set()


def waiting_for_a_lock(db, seconds: float = 10) -> None:
    """Until another session of this database waits for a lock (PostgreSQL's ``pg_stat_activity``)."""
    query = text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    deadline = time.monotonic() + seconds
    while db.exec(query).scalar_one() == 0:
        db.rollback()
        assert time.monotonic() < deadline, "no session waits for a lock"
        time.sleep(0.01)
    db.rollback()
