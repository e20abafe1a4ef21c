"""Two changes of one tournament at the same moment (PostgreSQL: READ COMMITTED, row locks): a paper
correction while a person replaced after an earlier round is merged (a deadlock), two organisers
withdrawing or replacing the same participant (both were told it was done)."""

from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.core import db as database
from scorekeeper.core import players as roster
from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict
from scorekeeper.core.models import Entrant, Player, Seat, TournamentRound, TournamentTable
from scorekeeper.core.players import create_player, merge_players
from tests.core.races import HeldAt, Other
from tests.support_tournament import make_tournament


def _postgres(app):
    engine = app.extensions["sk_engine"]
    if engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's: SQLite's write session holds the whole database")
    return engine


def _paper_round(db, t, number):
    for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[number - 1].tables:
        tm.enter_paper(db=db, tournament_id=t.id, round_number=number, table=table.number, points=[1, -1, 0, 0])


def test_a_paper_correction_while_a_replaced_person_is_merged_waits_never_a_deadlock(app, db, monkeypatch):
    """Round 1 on paper, then start number 1 replaced: the person replaced still sits at round 1's table
    but is no longer a participant. The merge of that person holds them, then bumps the tournament; the
    correction of round 1's table held the tournament, then (``lock_night``) the table's players: each
    waited for the other (PostgreSQL: a deadlock, a 500). Now the correction holds them first."""
    engine = app.extensions["sk_engine"]
    t = make_tournament(db, 8, rounds=2)
    tm.draw_round(db=db, tournament_id=t.id)
    _paper_round(db, t, 1)
    gone = db.exec(select(Entrant).where(Entrant.tournament_id == t.id, Entrant.number == 1)).one().player_id
    tm.replace_entrant(db=db, tournament_id=t.id, number=1, guest="Ersatz")
    table = next(x for x in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables if gone in x.player_ids)
    same = create_player(db=db, name="Sepp")  # the same person as the one replaced, at no night
    held = HeldAt(monkeypatch, roster, "_lock_pair")  # the merge holds its players and is about to move their rows
    merge = Other(engine, merge_players, keep_id=same.id, merge_id=gone)
    assert held.holding.wait(10)
    paper = Other(engine, tm.enter_paper, tournament_id=t.id, round_number=1, table=table.number, points=[2, -2, 0, 0])
    paper.thread.join(1)
    held.release()
    merge.join()
    paper.join()
    assert (merge.error, paper.error) == (None, None)  # one of them was a deadlock: a 500
    db.rollback()
    assert db.get(Player, gone, populate_existing=True) is None
    assert same.id in set(db.exec(select(Seat.player_id).where(Seat.night_id == table.night.id)))
    row = db.get(TournamentTable, (t.id, 1, table.number), populate_existing=True)
    assert row.paper == [2, -2, 0, 0]


def test_a_withdrawal_read_before_another_organisers_is_refused_as_a_second_one(app, db):
    """The page read the participant, then waited for the tournament's lock while another organiser
    withdrew them: the core did not read them again and drew the round a second time ("has withdrawn" to
    both, the tables' printed codes dead)."""
    engine = _postgres(app)
    t = make_tournament(db, 9, rounds=2)
    tm.draw_round(db=db, tournament_id=t.id)
    night_ids = sorted(x.night.id for x in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables)
    with database.session(engine, write=True) as first, database.session(engine, write=True) as second:
        page = tm.read_tournament(db=first, tournament_id=t.id)  # the page, before the lock (it holds them)
        tm.withdraw_entrant(db=second, tournament_id=t.id, number=3)
        drawn = sorted(r.night_id for r in second.exec(select(TournamentTable).where(TournamentTable.round == 1)))
        with pytest.raises(Conflict) as refused:
            tm.withdraw_entrant(db=first, tournament_id=t.id, number=3)
        assert refused.value.message == "this participant has withdrawn already"
        first.rollback()
        assert page.entrants
    db.rollback()
    now = sorted(r.night_id for r in db.exec(select(TournamentTable).where(TournamentTable.tournament_id == t.id)))
    assert now == drawn != night_ids  # drawn again once, by the first withdrawal
    assert db.get(TournamentRound, (t.id, 1), populate_existing=True).attempt == 0


def test_a_replacement_read_before_another_organisers_is_refused_and_makes_nothing(app, db):
    """Two organisers replacing start number 2 at once: both were told "... takes the place of ...",
    the first replacement lost, and the second one's guest left on no table."""
    engine = _postgres(app)
    t = make_tournament(db, 8, rounds=2)
    was = db.exec(select(Entrant).where(Entrant.tournament_id == t.id, Entrant.number == 2)).one().player_id
    with database.session(engine, write=True) as first, database.session(engine, write=True) as second:
        page = tm.read_tournament(db=first, tournament_id=t.id)  # the page, before the lock (it holds them)
        tm.replace_entrant(db=second, tournament_id=t.id, number=2, guest="Erste", was=was)
        with pytest.raises(Conflict) as refused:
            tm.replace_entrant(db=first, tournament_id=t.id, number=2, guest="Zweite", was=was)
        assert refused.value.template == tm.REPLACED_MEANWHILE
        first.rollback()
        assert page.entrants
    db.rollback()
    entrant = db.exec(
        select(Entrant)
        .where(Entrant.tournament_id == t.id, Entrant.number == 2)
        .execution_options(populate_existing=True)
    ).one()
    assert db.get(Player, entrant.player_id).name == "Erste"
    assert [f["player_id"] for f in entrant.former] == [was]
    assert db.exec(select(Player).where(Player.name == "Zweite")).first() is None


def test_a_replacement_for_a_page_of_who_was_replaced_since_is_refused(db):
    """The same, one after the other (either backend): the second organiser's page named the first person."""
    t = make_tournament(db, 8, rounds=2)
    was = db.exec(select(Entrant).where(Entrant.tournament_id == t.id, Entrant.number == 2)).one().player_id
    tm.replace_entrant(db=db, tournament_id=t.id, number=2, guest="Erste", was=was)
    with pytest.raises(Conflict):
        tm.replace_entrant(db=db, tournament_id=t.id, number=2, guest="Zweite", was=was)
    db.rollback()
    assert db.exec(select(Player).where(Player.name == "Zweite")).first() is None
