"""Each hand is stored with its result and the state after it; a new hand is settled from the last
stored state, an edit from the hand before it. Checked against settling every night afresh:
random nights of all four games (tables of four and five) after random records, edits and undos.
"""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import update
from sqlmodel import select

from scorekeeper.core import history
from scorekeeper.core.db import make_engine, upgrade_to
from scorekeeper.core.hands import add_hands, complete_hand, edit_hand, record_hand, undo_last
from scorekeeper.core.models import HandRecord
from scorekeeper.core.stored import Running
from scorekeeper.core.table import HandRow, Tail, build_table, hand_rows, load_table, seats
from scorekeeper.engine import GAMES, HandResult, InvalidHand
from scorekeeper.engine.deal import Deal
from scorekeeper.engine.samples import random_hands
from tests.support import start_night

#: (game, table size, rules): every game, both table sizes where the game has two.
NIGHTS = [
    ("matzlfangen", 4, None),
    ("matzlfangen", 5, None),
    ("schafkopf", 4, None),
    ("schafkopf", 5, {"preset": "bavarian"}),
    ("schafkopf", 5, {"pot_at_close": "carry"}),
    ("konter_a_matt", 4, {"stake_per_game": 3}),
    ("matt", 2, {"stake_per_point": 1}),
]


def _hands(game: str, rng: random.Random, n: int, rules) -> list[dict]:
    hands = random_hands(game, rng, n, GAMES[game].parse_rules(rules))
    return [{k: v for k, v in h.items() if k != "dealer"} for h in hands]  # the night knows its dealer


def _pick(night, number: int, pool: list[dict], rng: random.Random) -> dict:
    """A hand of the pool that is valid as hand ``number`` of the night (who deals tells who declares
    a Rufen); whether it fits the hands before it (Konter a Matt after a Stänner) is left to chance."""
    game = GAMES[night.game]
    rules = game.parse_rules(night.rules)
    dealt = Deal.at(number, (night.first_dealer + number - 2) % night.seat_count + 1, night.seat_count, game.seats)
    while True:
        hand = rng.choice(pool)
        try:
            game.parse_hand(complete_hand(night=night, hand=hand, dealt=dealt), None, rules)
        except InvalidHand:
            continue
        return hand


def _fresh(db, night_id: int):
    """The night settled afresh from its hands' JSON, ignoring everything stored."""
    table = load_table(db=db, night_id=night_id)
    night = table.night
    hands = [HandRow(h.number, h.dealer, h.data) for h in hand_rows(db=db, night_id=night_id)]
    return build_table(night=night, players=seats(db=db, night_id=night_id), hands=hands)


def check(db, night_id: int) -> None:
    """Stored results, states, the table read from them and the history rows equal a fresh settle."""
    db.rollback()
    fresh = _fresh(db, night_id)
    stored = load_table(db=db, night_id=night_id)
    night = stored.night
    game = GAMES[night.game]
    records = db.exec(select(HandRecord).where(HandRecord.night_id == night_id).order_by(HandRecord.number)).all()
    rules = fresh.settlement.rules
    state = game.initial_state(rules, night.pot_start or None)
    for record, result in zip(records, fresh.settlement.results, strict=True):
        _, state = game.settle_hand(rules, game.parse_hand(record.data, None, rules), state)
        assert record.result == json.loads(json.dumps(result.to_json())), record.number
        assert HandResult.from_json(record.result) == result
        assert record.state == json.loads(json.dumps(game.state_to_json(state))), record.number
        assert game.state_from_json(record.state) == state
    assert list(stored.settlement.results) == list(fresh.settlement.results)
    assert list(stored.settlement.hands) == list(fresh.settlement.hands)
    assert stored.settlement.totals == fresh.settlement.totals
    assert stored.settlement.balance == fresh.settlement.balance
    assert stored.settlement.pot == fresh.settlement.pot
    assert stored.settlement.extra == fresh.settlement.extra
    assert stored.settlement.to_json() == fresh.settlement.to_json()
    assert (stored.rows, stored.balance, stored.positions) == (fresh.rows, fresh.balance, fresh.positions)
    sums = Running.start(game.seats, night.seat_count)
    for record, row in zip(records, fresh.rows, strict=True):
        sums = Running(sums.totals, tuple(u + r for u, r in zip(sums.units, row, strict=True)))
        assert Running.from_json(record.running).units == sums.units, record.number
    if records:
        assert Running.from_json(records[-1].running).totals == fresh.settlement.totals
    for newest in (1, 3, 20):  # the table page's read: the newest hands only, the same figures
        tail = load_table(db=db, night_id=night_id, newest=newest)
        assert len(tail.hands) == len(fresh.hands)
        assert (tail.balance, tail.settlement.totals, tail.settlement.pot) == (
            fresh.balance,
            fresh.settlement.totals,
            fresh.settlement.pot,
        )
        assert tail.settlement.extra == fresh.settlement.extra
        shown = range(max(0, len(fresh.hands) - newest), len(fresh.hands))
        assert [tail.rows[i] for i in shown] == [fresh.rows[i] for i in shown]
        assert [tail.settlement.results[i] for i in shown] == [fresh.settlement.results[i] for i in shown]
        assert [tail.positions[i] for i in shown] == [fresh.positions[i] for i in shown]
    assert history.verify_night(db=db, night_id=night_id) == []


@pytest.mark.parametrize(("game", "size", "rules"), NIGHTS)
def test_random_records_edits_and_undos_leave_what_a_fresh_settle_gives(db, players, game, size, rules):
    rng = random.Random(f"{game}-{size}-{rules}")
    night = start_night(db, players, game=game, seats=size, rules=rules, first_dealer=rng.randint(1, size))
    pool = _hands(game, rng, 200, rules)
    count = 0
    for _ in range(60):
        roll = rng.random()
        try:
            if roll < 0.6 or count == 0:
                record_hand(db=db, night_id=night.id, hand=_pick(night, count + 1, pool, rng))
                count += 1
            elif roll < 0.85:
                number = rng.randint(1, count)
                edit_hand(db=db, night_id=night.id, number=number, hand=_pick(night, number, pool, rng))
            else:
                undo_last(db=db, night_id=night.id)
                count -= 1
        except InvalidHand:  # an edit that makes a later hand invalid (Konter a Matt) is refused
            db.rollback()
        check(db, night.id)
    assert count == len(hand_rows(db=db, night_id=night.id))
    assert history.verify_nights(db=db) == []


def test_hands_added_at_once_are_stored_as_if_recorded_one_by_one(db, players):
    night = start_night(db, players, game="schafkopf", seats=5)
    hands = _hands("schafkopf", random.Random(3), 40, None)
    add_hands(db=db, night_id=night.id, hands=hands[:25])
    for hand in hands[25:]:
        record_hand(db=db, night_id=night.id, hand=hand)
    add_hands(db=db, night_id=night.id, hands=hands[:5])
    check(db, night.id)


def test_an_edit_that_makes_a_later_hand_invalid_is_refused_and_changes_nothing(db, players):
    night = start_night(db, players, game="konter_a_matt")
    record_hand(db=db, night_id=night.id, hand={"trump_team": "A", "points_a": 20})  # a Stänner: A again
    record_hand(db=db, night_id=night.id, hand={"trump_team": "A", "points_a": 30})
    before = [(r.result, r.state) for r in db.exec(select(HandRecord).order_by(HandRecord.number))]
    with pytest.raises(InvalidHand) as refused:
        edit_hand(db=db, night_id=night.id, number=1, hand={"trump_team": "B", "points_a": 20})  # now B must choose
    assert refused.value.hand == 1
    db.rollback()
    assert [(r.result, r.state) for r in db.exec(select(HandRecord).order_by(HandRecord.number))] == before
    check(db, night.id)


def test_verify_finds_a_night_whose_stored_result_was_changed(db, players):
    good = start_night(db, players)
    bad = start_night(db, players, game="schafkopf")
    for night in (good, bad):
        for hand in _hands(night.game, random.Random(5), 6, None):
            record_hand(db=db, night_id=night.id, hand=hand)
    assert history.verify_nights(db=db) == []
    record = db.exec(select(HandRecord).where(HandRecord.night_id == bad.id, HandRecord.number == 3)).one()
    changed = dict(record.result, value=record.result["value"] + 1)
    db.exec(update(HandRecord).where(HandRecord.id == record.id).values(result=changed))
    db.commit()
    assert history.verify_nights(db=db) == [bad.id]
    assert history.verify_night(db=db, night_id=bad.id) == ["hand 3: the stored result differs"]


def test_hands_without_stored_results_are_settled_when_read_and_stored_with_the_next_hand(db, players):
    night = start_night(db, players, game="konter_a_matt")
    hands = _hands("konter_a_matt", random.Random(8), 12, None)
    for hand in hands[:10]:
        record_hand(db=db, night_id=night.id, hand=hand)
    table = load_table(db=db, night_id=night.id)
    db.exec(update(HandRecord).values(result=None, state=None))  # as written before 0006
    db.commit()
    assert load_table(db=db, night_id=night.id).balance == table.balance
    assert history.verify_night(db=db, night_id=night.id) == [f"hand {n}: no stored result" for n in range(1, 11)]
    record_hand(db=db, night_id=night.id, hand=hands[10])
    check(db, night.id)


def test_a_table_of_the_newest_hands_adds_the_next_hand_alone_as_a_whole_night_would(db, players):
    night = start_night(db, players, game="schafkopf", seats=5, rules={"all_pass": "pot"})
    hands = _hands("schafkopf", random.Random(12), 30, {"all_pass": "pot"})
    add_hands(db=db, night_id=night.id, hands=hands[:29])
    tail = load_table(db=db, night_id=night.id, newest=1)
    assert isinstance(tail.hands, Tail) and len(tail.hands.read) == 1
    with pytest.raises(LookupError):
        tail.hands[0]  # not read: a page of the newest hands can't show an older one by mistake
    data = complete_hand(night=night, hand=hands[29], dealt=tail.next_deal)
    preview = tail.with_hand(30, data)
    whole = load_table(db=db, night_id=night.id).with_hand(30, data)
    assert (preview.balance, preview.settlement.pot, preview.rows[29]) == (
        whole.balance,
        whole.settlement.pot,
        whole.rows[29],
    )
    assert preview.settlement.results[29] == whole.settlement.results[29]


def test_nights_stored_before_their_sums_get_them_with_the_next_hand(db, players):
    night = start_night(db, players, game="matt", seats=2, rules={"stake_per_point": 1})
    hands = _hands("matt", random.Random(9), 8, {"stake_per_point": 1})
    for hand in hands[:7]:
        record_hand(db=db, night_id=night.id, hand=hand)
    db.exec(update(HandRecord).values(running=None))  # as written before 0007
    db.commit()
    assert history.verify_night(db=db, night_id=night.id) == [f"hand {n}: the stored sums differ" for n in range(1, 8)]
    assert load_table(db=db, night_id=night.id, newest=20).balance == load_table(db=db, night_id=night.id).balance
    record_hand(db=db, night_id=night.id, hand=hands[7])
    check(db, night.id)


def test_the_upgrade_to_0006_stores_the_results_of_the_hands_recorded_before(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade_to(str(engine.url), "0005")
    hands = _hands("schafkopf", random.Random(4), 9, None)
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO evening (game, rules, stake_cents, currency, played_on, place, seat_count, first_dealer,"
            " status, version, created_at, pot_start, uid) VALUES ('schafkopf', '{}', 10, 'EUR', '2026-01-01', '',"
            " 4, 1, 'open', 0, '2026-01-01 20:00:00', 4, 'abc')"
        )
        for number, hand in enumerate(hands, start=1):
            conn.exec_driver_sql(
                "INSERT INTO handrecord (evening_id, number, dealer, data, created_at, updated_at)"
                " VALUES (1, ?, ?, ?, '2026-01-01 20:10:00', '2026-01-01 20:10:00')",
                (number, (number - 1) % 4 + 1, json.dumps(hand)),
            )
    upgrade_to(str(engine.url), "head")
    game = GAMES["schafkopf"]
    rules = game.parse_rules({})
    _, results, states = game.settle_from(rules, hands, game.initial_state(rules, 4))
    with engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT result, state FROM handrecord ORDER BY number").all()
    assert [json.loads(r) for r, _ in stored] == [json.loads(json.dumps(r.to_json())) for r in results]
    assert [json.loads(s) for _, s in stored] == [game.state_to_json(s) for s in states]
    with engine.connect() as conn:  # and 0007 their sums: units by table position, totals by seat
        running = [json.loads(r) for (r,) in conn.exec_driver_sql("SELECT running FROM handrecord ORDER BY number")]
    units = [0] * 4
    for result, sums in zip(results, running, strict=True):
        units = [u + d for u, d in zip(units, result.deltas, strict=True)]  # four at the table: seat = position
        assert sums == {"totals": units, "units": units}
    engine.dispose()


def test_the_upgrade_to_0008_stores_schafkopf_results_again_with_the_pots_steps(tmp_path):
    """A Schafkopf night stored at 0007 has steps without the pot: 0008 stores the engine's current
    output (steps with the pot), and nothing else moves; other games are not touched."""
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade_to(str(engine.url), "0007")
    hands = _hands("schafkopf", random.Random(4), 9, None)
    with engine.begin() as conn:
        for night_id, game in ((1, "schafkopf"), (2, "matzlfangen")):
            conn.exec_driver_sql(
                "INSERT INTO evening (game, rules, stake_cents, currency, played_on, place, seat_count, first_dealer,"
                " status, version, created_at, pot_start, uid) VALUES (?, '{}', 10, 'EUR', '2026-01-01', '',"
                " 4, 1, 'open', 0, '2026-01-01 20:00:00', ?, ?)",
                (game, 4 if game == "schafkopf" else 0, f"night-{night_id}"),
            )
        for number, hand in enumerate(hands, start=1):  # as 0007 left them: results whose steps are old
            old = {"steps": [{"key": "old", "what": "old", "units": 0, "args": {}}], "deltas": [0, 0, 0, 0]}
            conn.exec_driver_sql(
                "INSERT INTO handrecord (evening_id, number, dealer, data, created_at, updated_at, result, state,"
                " running) VALUES (1, ?, ?, ?, '2026-01-01 20:10:00', '2026-01-01 20:10:00', ?, '{}', '{}')",
                (number, (number - 1) % 4 + 1, json.dumps(hand), json.dumps(old)),
            )
        conn.exec_driver_sql(
            "INSERT INTO handrecord (evening_id, number, dealer, data, created_at, updated_at, result, state, running)"
            " VALUES (2, 1, 1, '{}', '2026-01-01 20:10:00', '2026-01-01 20:10:00', '{\"kept\": 1}', 'null', '{}')"
        )
    upgrade_to(str(engine.url), "head")
    game = GAMES["schafkopf"]
    rules = game.parse_rules({})
    _, results, states = game.settle_from(rules, hands, game.initial_state(rules, 4))
    with engine.connect() as conn:
        stored = conn.exec_driver_sql(
            "SELECT result, state, running FROM handrecord WHERE evening_id = 1 ORDER BY number"
        ).all()
        other = conn.exec_driver_sql("SELECT result FROM handrecord WHERE evening_id = 2").scalar_one()
    assert [json.loads(r) for r, _, _ in stored] == [json.loads(json.dumps(r.to_json())) for r in results]
    assert [json.loads(s) for _, s, _ in stored] == [game.state_to_json(s) for s in states]
    units = [0] * 4
    for result, (_, _, running) in zip(results, stored, strict=True):
        units = [u + d for u, d in zip(units, result.deltas, strict=True)]
        assert json.loads(running) == {"totals": units, "units": units}
    assert json.loads(other) == {"kept": 1}  # another game's results are not stored again
    engine.dispose()
