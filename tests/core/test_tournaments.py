"""A tournament from the creation to the closing, through the use cases: entrants and guests, the
draw (tables are nights), deals that close a table, a redealt all-pass, the paper fallback, the
standings, withdrawals and every refusal."""

from __future__ import annotations

import pytest
from sqlmodel import select

from scorekeeper.core import tournaments as tm
from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.core.hands import edit_hand, record_hand, undo_last
from scorekeeper.core.history_pages import NightFilter, nights_page
from scorekeeper.core.models import NightResult, Player
from scorekeeper.core.nights import reopen_night
from scorekeeper.core.players import create_player, list_players
from scorekeeper.core.table import load_table
from scorekeeper.engine import InvalidHand

#: A Sauspiel won plain under the turnier preset: +1 for declarer and partner, -1 for the others.
SAUSPIEL = {"contract": "sauspiel", "suit": "eichel", "declarer": 1, "partner": 2, "points": 70}
#: A Wenz won plain: +15 for the declarer, -5 for each defender.
WENZ = {"contract": "wenz", "declarer": 3, "points": 61}
WENZ_LOST = {"contract": "wenz", "declarer": 3, "points": 40}
RUNDPASS = {"contract": "rundpass"}


def _tournament(db, n=9, deals=2, rounds=2, **kw):
    t = tm.create_tournament(
        db=db,
        name="Preisschafkopf",
        game="schafkopf",
        rules={"preset": "turnier"},
        rounds=rounds,
        deals=deals,
        seed="fixed",
        **kw,
    )
    for i in range(n):
        p = create_player(db=db, name=f"Spieler {i + 1}")
        tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
    return t


def _play(db, view_round, hands):
    """Record ``hands`` at every table of the round."""
    for table in view_round.tables:
        for hand in hands:
            record_hand(db=db, night_id=table.night.id, hand=hand)


def test_a_table_of_a_round_is_a_night_with_the_tournaments_rules_and_its_deals(db):
    t = _tournament(db, n=9)
    tm.draw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    (r1,) = view.rounds
    assert sorted(len(table.entrants) for table in r1.tables) == [4, 5]
    assert r1.byes == []
    for table in r1.tables:
        assert table.night.tournament_id == t.id and table.night.deals == 2
        assert table.night.rules["tariff_sauspiel"] == 1 and table.night.rules["all_pass"] == "redeal"
        assert table.night.stake_cents == 0


def test_a_table_closes_itself_after_its_last_deal_and_a_redealt_all_pass_does_not_count(db):
    t = _tournament(db, n=8, deals=2)
    tm.draw_round(db=db, tournament_id=t.id)
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0]
    night_id = table.night.id
    record_hand(db=db, night_id=night_id, hand=RUNDPASS)  # dealt again by the same dealer
    record_hand(db=db, night_id=night_id, hand=SAUSPIEL)
    loaded = load_table(db=db, night_id=night_id)
    assert [h.dealer for h in loaded.hands] == [1, 1]  # the all-pass kept the deal
    assert loaded.night.is_open
    record_hand(db=db, night_id=night_id, hand=SAUSPIEL)  # the second deal that counts
    db.rollback()
    loaded = load_table(db=db, night_id=night_id)
    assert [h.dealer for h in loaded.hands] == [1, 1, 2]
    assert not loaded.night.is_open
    with pytest.raises(Conflict):
        record_hand(db=db, night_id=night_id, hand=SAUSPIEL)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert view.rounds[0].tables[0].deals == 2 and view.rounds[0].tables[0].done


def test_a_hand_cannot_become_a_redeal_before_later_hands(db):
    t = _tournament(db, n=8, deals=5)
    tm.draw_round(db=db, tournament_id=t.id)
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    record_hand(db=db, night_id=night_id, hand=SAUSPIEL)
    record_hand(db=db, night_id=night_id, hand=SAUSPIEL)
    with pytest.raises(Conflict, match="dealt again"):
        edit_hand(db=db, night_id=night_id, number=1, hand=RUNDPASS)
    edit_hand(db=db, night_id=night_id, number=2, hand=RUNDPASS)  # the last hand may
    assert [h.dealer for h in load_table(db=db, night_id=night_id).hands] == [1, 2]


def test_standings_add_each_rounds_points_and_count_solos_won_and_lost(db):
    t = _tournament(db, n=8, deals=2)
    tm.draw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    _play(db, view.rounds[0], [WENZ, WENZ_LOST])  # seat 3 declares both: +15 then -15
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert all(line.standing.total == 0 for line in view.standings)
    declarers = [table.entrants[2] for table in view.rounds[0].tables]  # first dealer 1: engine seat 3 = position 3
    for line in view.standings:
        won_lost = (line.standing.solos_won, line.standing.solos_lost)
        assert won_lost == ((1, 1) if line.entrant in declarers else (0, 0))
    tm.draw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    _play(db, view.rounds[1], [SAUSPIEL, SAUSPIEL])
    view = tm.read_tournament(db=db, tournament_id=t.id)
    totals = sorted(line.standing.total for line in view.standings)
    assert totals == [-2, -2, -2, -2, 2, 2, 2, 2]
    assert [line.standing.rank for line in view.standings] == list(range(1, 9))
    for line in view.standings:
        assert line.standing.points[0] == 0 and line.standing.points[1] in (-2, 2)


def test_the_second_round_repeats_no_table_mates_where_the_numbers_allow(db):
    t = _tournament(db, n=16, deals=1)
    tm.draw_round(db=db, tournament_id=t.id)
    _play(db, tm.read_tournament(db=db, tournament_id=t.id).rounds[0], [SAUSPIEL])
    tm.draw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    met = {
        frozenset((a.number, b.number))
        for table in view.rounds[0].tables
        for a in table.entrants
        for b in table.entrants
        if a != b
    }
    for table in view.rounds[1].tables:
        for a in table.entrants:
            for b in table.entrants:
                assert a == b or frozenset((a.number, b.number)) not in met


def test_a_round_is_drawn_only_after_the_last_one_is_over_and_never_beyond_the_rounds(db):
    t = _tournament(db, n=8, deals=1, rounds=1)
    tm.draw_round(db=db, tournament_id=t.id)
    with pytest.raises(Conflict):
        tm.draw_round(db=db, tournament_id=t.id)
    _play(db, tm.read_tournament(db=db, tournament_id=t.id).rounds[0], [SAUSPIEL])
    with pytest.raises(Conflict, match="the only round is drawn"):
        tm.draw_round(db=db, tournament_id=t.id)


def test_redraw_before_the_round_starts_gives_new_tables_and_is_refused_after(db):
    t = _tournament(db, n=12, deals=2)
    tm.draw_round(db=db, tournament_id=t.id)
    before = [
        [e.number for e in table.entrants] for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables
    ]
    tm.redraw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    after = [[e.number for e in table.entrants] for table in view.rounds[0].tables]
    assert after != before and sorted(n for table in after for n in table) == list(range(1, 13))
    record_hand(db=db, night_id=view.rounds[0].tables[0].night.id, hand=SAUSPIEL)
    with pytest.raises(Conflict, match="has started"):
        tm.redraw_round(db=db, tournament_id=t.id)


def test_the_draw_is_reproducible_from_the_seed(db):
    draws = []
    for attempt in range(2):
        t = tm.create_tournament(db=db, name=f"T{attempt}", game="schafkopf", rules={}, seed="same")
        for i in range(13):
            p = create_player(db=db, name=f"P{attempt}-{i}")
            tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
        tm.draw_round(db=db, tournament_id=t.id)
        view = tm.read_tournament(db=db, tournament_id=t.id)
        draws.append([[e.number for e in table.entrants] for table in view.rounds[0].tables])
    assert draws[0] == draws[1]


def test_the_rules_are_fixed_once_round_one_starts(db):
    t = _tournament(db, n=8, deals=2)
    tm.draw_round(db=db, tournament_id=t.id)
    tm.set_rules(db=db, tournament_id=t.id, rules={"preset": "turnier", "tariff_sauspiel": 2})
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert all(table.night.rules["tariff_sauspiel"] == 2 for table in view.rounds[0].tables)
    record_hand(db=db, night_id=view.rounds[0].tables[0].night.id, hand=SAUSPIEL)
    with pytest.raises(Conflict, match="fixed"):
        tm.set_rules(db=db, tournament_id=t.id, rules={"preset": "turnier"})


def test_a_guest_gets_a_start_number_but_is_not_on_the_roster(db):
    t = _tournament(db, n=3)
    guest = tm.add_entrant(db=db, tournament_id=t.id, guest="Gast Gustl")
    assert guest.number == 4
    assert "Gast Gustl" not in [p.name for p in list_players(db=db)]
    assert db.get(Player, guest.player_id).guest
    with pytest.raises(InvalidInput, match="already a player"):
        tm.add_entrant(db=db, tournament_id=t.id, guest="spieler 1")
    with pytest.raises(InvalidInput, match="entered already"):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=db.exec(select(Player.id).order_by(Player.id)).first())
    with pytest.raises(InvalidInput):
        tm.add_entrant(db=db, tournament_id=t.id)


def test_tournament_tables_are_not_in_the_clubs_history(db):
    t = _tournament(db, n=8, deals=1)
    tm.draw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    _play(db, view.rounds[0], [SAUSPIEL])
    night_ids = [table.night.id for table in view.rounds[0].tables]
    assert db.exec(select(NightResult).where(NightResult.night_id.in_(night_ids))).all() == []
    assert nights_page(db=db, filters=NightFilter()).total == 0


def test_paper_points_must_sum_to_zero_and_close_the_table(db):
    t = _tournament(db, n=8, deals=32)
    tm.draw_round(db=db, tournament_id=t.id)
    with pytest.raises(InvalidInput, match="add up to zero"):
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[5, -5, 3, 0])
    with pytest.raises(InvalidInput, match="each of the 4"):
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[5, -5])
    with pytest.raises(InvalidInput):
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[5, -5, "x", 0])
    with pytest.raises(NotFound):
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=9, points=[0, 0, 0, 0])
    tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=1, points=[12, -7, 3, -8])
    view = tm.read_tournament(db=db, tournament_id=t.id)
    table = view.rounds[0].tables[0]
    assert table.paper and table.done and table.points == [12, -7, 3, -8]
    assert view.standings[0].standing.total == 12
    record_hand(db=db, night_id=view.rounds[0].tables[1].night.id, hand=SAUSPIEL)
    with pytest.raises(Conflict, match="deals recorded"):
        tm.enter_paper(db=db, tournament_id=t.id, round_number=1, table=2, points=[0, 0, 0, 0])


def test_eleven_players_one_sits_out_and_scores_zero(db):
    t = _tournament(db, n=11, deals=1)
    tm.draw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert [len(table.entrants) for table in view.rounds[0].tables] == [5, 5]
    (bye,) = view.rounds[0].byes
    line = next(line for line in view.standings if line.entrant.number == bye.number)
    assert line.standing.points == (0,)


def test_a_withdrawn_participant_is_not_drawn_again_and_keeps_their_points(db):
    t = _tournament(db, n=9, deals=1)
    tm.draw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    record_hand(db=db, night_id=view.rounds[0].tables[0].night.id, hand=SAUSPIEL)
    with pytest.raises(Conflict, match="being played"):
        tm.withdraw_entrant(db=db, tournament_id=t.id, number=1)
    for table in view.rounds[0].tables[1:]:
        record_hand(db=db, night_id=table.night.id, hand=SAUSPIEL)
    tm.withdraw_entrant(db=db, tournament_id=t.id, number=9)
    tm.draw_round(db=db, tournament_id=t.id)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert [len(table.entrants) for table in view.rounds[1].tables] == [4, 4]
    assert 9 not in [e.number for table in view.rounds[1].tables for e in table.entrants]
    line = next(line for line in view.standings if line.entrant.number == 9)
    assert line.standing.points[0] is not None and line.standing.points[1] is None


def test_withdrawing_during_a_drawn_round_that_has_not_started_draws_it_again(db):
    t = _tournament(db, n=9, deals=1)
    tm.draw_round(db=db, tournament_id=t.id)
    tm.withdraw_entrant(db=db, tournament_id=t.id, number=2)
    view = tm.read_tournament(db=db, tournament_id=t.id)
    assert [len(table.entrants) for table in view.rounds[0].tables] == [4, 4]
    with pytest.raises(Conflict, match="already"):
        tm.withdraw_entrant(db=db, tournament_id=t.id, number=2)
    with pytest.raises(NotFound):
        tm.withdraw_entrant(db=db, tournament_id=t.id, number=99)


def test_a_tournament_closes_only_when_every_round_is_over_and_then_locks(db):
    t = _tournament(db, n=8, deals=1, rounds=1)
    with pytest.raises(Conflict, match="not over"):
        tm.close_tournament(db=db, tournament_id=t.id)
    tm.draw_round(db=db, tournament_id=t.id)
    _play(db, tm.read_tournament(db=db, tournament_id=t.id).rounds[0], [SAUSPIEL])
    tm.close_tournament(db=db, tournament_id=t.id)
    for change in (
        lambda: tm.add_entrant(db=db, tournament_id=t.id, guest="Spät"),
        lambda: tm.draw_round(db=db, tournament_id=t.id),
        lambda: tm.set_rules(db=db, tournament_id=t.id, rules={}),
        lambda: tm.close_tournament(db=db, tournament_id=t.id),
    ):
        with pytest.raises(Conflict, match="closed"):
            change()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ""),
        ("name", "x" * 81),
        ("rounds", 0),
        ("rounds", 21),
        ("deals", 0),
        ("deals", "32"),
        ("entry_fee_cents", -1),
        ("prizes", [100, -5]),
        ("prizes", "100"),
        ("game", "matt"),
    ],
)
def test_a_bad_tournament_is_refused_and_nothing_is_stored(db, field, value):
    args = {"name": "T", "game": "schafkopf", "rules": {}} | {field: value}
    with pytest.raises((InvalidInput, InvalidHand)):
        tm.create_tournament(db=db, **args)
    db.rollback()
    assert tm.list_tournaments(db=db) == []


def test_a_round_needs_four_players(db):
    t = _tournament(db, n=3)
    with pytest.raises(Conflict, match="at least 4"):
        tm.draw_round(db=db, tournament_id=t.id)


def test_a_tournament_table_cannot_be_deleted_as_a_night(db):
    from scorekeeper.core.nights import delete_night

    t = _tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    with pytest.raises(Conflict, match=r"tournament.s table is not deleted on its own: it goes with its round"):
        delete_night(db=db, night_id=night_id, reason="oops", export={})


def test_merging_players_moves_their_tournaments_and_refuses_two_of_one_tournament(db):
    from scorekeeper.core.players import merge_players

    t = _tournament(db, n=2)
    other = create_player(db=db, name="Doppelt")
    tm.add_entrant(db=db, tournament_id=t.id, player_id=other.id)
    ids = [e.player_id for e in tm.read_tournament(db=db, tournament_id=t.id).entrants]
    with pytest.raises(InvalidInput, match="both played tournament"):
        merge_players(db=db, keep_id=ids[0], merge_id=other.id)
    db.rollback()
    solo = create_player(db=db, name="Einzeln")
    t2 = tm.create_tournament(db=db, name="Zweites", game="schafkopf", rules={})
    tm.add_entrant(db=db, tournament_id=t2.id, player_id=solo.id)
    merge_players(db=db, keep_id=ids[0], merge_id=solo.id)
    played = tm.player_tournaments(db=db, player_id=ids[0])
    assert [p.tournament.name for p in played] == ["Zweites", "Preisschafkopf"]  # the same day: the newer first
    assert [(p.rank, p.total, p.entrants) for p in played] == [(1, 0, 1), (played[1].rank, 0, 3)]


def test_the_tournament_does_not_close_while_a_table_of_an_earlier_round_is_reopened(db):
    """An admin reopens a table of round 1 during round 2 to correct it and takes its deal back (0 of 1
    deals): round 2 finishes, and Close is refused until round 1's table has its deal again ("every
    round over"); the round is named. Before: only the last round was asked, and the tournament closed
    with that table's points of round 1 missing and the table frozen half corrected."""
    t = _tournament(db, n=8, deals=1)
    tm.draw_round(db=db, tournament_id=t.id)
    _play(db, tm.read_tournament(db=db, tournament_id=t.id).rounds[0], [SAUSPIEL])
    tm.draw_round(db=db, tournament_id=t.id)
    first = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    reopen_night(db=db, night_id=first, reason="Punkte falsch", who="admin")
    undo_last(db=db, night_id=first)
    _play(db, tm.read_tournament(db=db, tournament_id=t.id).rounds[1], [SAUSPIEL])
    with pytest.raises(Conflict, match="round 1 is not over"):
        tm.close_tournament(db=db, tournament_id=t.id)
    db.rollback()
    record_hand(db=db, night_id=first, hand=SAUSPIEL)  # the corrected deal: the table closes itself
    assert tm.close_tournament(db=db, tournament_id=t.id).status == "closed"


def test_a_redeal_corrected_into_the_last_deal_finishes_the_table_as_recording_it_would(db):
    """A table of a 2-deal round records deal 1, then an all-pass dealt again (it does not count). It
    was a mistake: somebody had played a Sauspiel, and the phone edits the last hand into it. The table
    has played its 2 deals and closes itself, as after recording them, so round 2 can be drawn.
    Before: it stayed open ("all dealt", a state only a reopened table has) and the round never ended."""
    t = _tournament(db, n=8, deals=2)
    tm.draw_round(db=db, tournament_id=t.id)
    first, *others = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables
    for table in others:
        for _ in range(2):
            record_hand(db=db, night_id=table.night.id, hand=SAUSPIEL)
    record_hand(db=db, night_id=first.night.id, hand=SAUSPIEL)
    record_hand(db=db, night_id=first.night.id, hand=RUNDPASS)
    edit_hand(db=db, night_id=first.night.id, number=2, hand=SAUSPIEL)
    db.rollback()
    table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0]
    assert table.deals == 2
    assert not table.night.is_open, "the table played its 2 deals and is still open"
    tm.draw_round(db=db, tournament_id=t.id)


def test_a_table_reopened_with_all_its_deals_stays_open_through_its_corrections(db):
    """An admin reopens a finished table to correct a hand: the edit keeps it open (the organiser
    closes it when the correction is done), unlike a change that makes its last deal count."""
    t = _tournament(db, n=8, deals=1)
    tm.draw_round(db=db, tournament_id=t.id)
    _play(db, tm.read_tournament(db=db, tournament_id=t.id).rounds[0], [SAUSPIEL])
    night_id = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.id
    reopen_night(db=db, night_id=night_id, reason="Punkte falsch", who="admin")
    edit_hand(db=db, night_id=night_id, number=1, hand={**SAUSPIEL, "points": 80})
    db.rollback()
    assert tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0].night.is_open


def test_once_every_round_is_drawn_nobody_is_entered_who_would_play_none(db):
    """A participant entered after the last draw (also into a reopened tournament) would rank with 0
    points among the others and could take a prize place: refused, naming the rounds."""
    t = _tournament(db, n=8, deals=1, rounds=1)
    tm.draw_round(db=db, tournament_id=t.id)
    late = create_player(db=db, name="Zu Spät")
    with pytest.raises(Conflict, match="the only round is drawn"):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=late.id)
    with pytest.raises(Conflict, match="the only round is drawn"):
        tm.add_entrant(db=db, tournament_id=t.id, guest="Gast Gustl")
    db.rollback()
    assert len(tm.read_tournament(db=db, tournament_id=t.id).entrants) == 8


def test_a_round_whose_hands_were_all_taken_back_is_not_drawn_again(db):
    """An admin reopens every table of the round and takes its deals back: the round has been played
    (the audit trail keeps its hands), so drawing it again, which would delete that trail, is refused,
    and so is a change of the rules."""
    t = _tournament(db, n=8, deals=1, rounds=2)
    tm.draw_round(db=db, tournament_id=t.id)
    tables = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables
    _play(db, tm.read_tournament(db=db, tournament_id=t.id).rounds[0], [SAUSPIEL])
    for table in tables:
        reopen_night(db=db, night_id=table.night.id, reason="Punkte falsch", who="admin")
        undo_last(db=db, night_id=table.night.id)
    with pytest.raises(Conflict, match="round 1 has started"):
        tm.redraw_round(db=db, tournament_id=t.id)
    with pytest.raises(Conflict, match="round 1 has started"):
        tm.set_rules(db=db, tournament_id=t.id, rules={"preset": "turnier", "all_pass": "ramsch"})
