"""The pots of before, where the rule of then sent them: migration 0016 for a database, the club file's import
for a file written before where a pot went was recorded (docs/backup.md, "The pot carried in"; docs/rules.md,
"A carried pot waits"). The two keep the rule apart (a migration imports nothing that may change); here they
are held to the same nights.

The rule of then (core/nights.py ``_carried_pot`` of every release before 0016): a night started under rules
that play a pot took the pot of the club night closed last (by its last close: a night reopened and closed
again is closed then) when that night carried its pot and no night started after that close began with a pot.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta

import pytest
from sqlmodel import select

from scorekeeper.cli import main
from scorekeeper.core.db import make_engine, upgrade_to
from scorekeeper.core.exchange.club_file import club_json, import_club
from scorekeeper.core.models import Night, Player
from scorekeeper.core.nights import pots_from_nowhere
from scorekeeper.engine import GAMES
from scorekeeper.engine.rules import rules_to_json
from tests.support import BACKENDS, answer_text, as_file, fresh_postgres, start_night

RULES = {  # complete, as a night stores its rules
    kind: rules_to_json(GAMES["schafkopf"].parse_rules(rules))
    for kind, rules in (
        ("carry", {"all_pass": "pot", "pot_at_close": "carry"}),
        ("split", {"all_pass": "pot", "pot_at_close": "split"}),
        ("ramsch", {"all_pass": "ramsch"}),
    )
}
NAMES = ("Anna", "Bernd", "Clara", "Dieter")
START = datetime(2026, 1, 1, 19, 0)


def night(rules, started, events=(), pot_start=0, rundpasses=0, stake=10):
    """A Schafkopf club night of before: started at minute ``started``; ``events``: its closes and reopens,
    ``("close", minute)``; ``rundpasses``: all-passes, each 8 units into the pot."""
    return {"rules": rules, "started": started, "events": events, "pot": pot_start, "hands": rundpasses, "stake": stake}


#: Each case: the nights of before, and where each one's pot went by the rule of then (the night that took
#: it and the units it gave; "" gone before this was recorded; None: it waits, or its night is open).
CASES = {
    # D2: A's pot went to B, which B holds
    "the next night took it": (
        {"A": night("carry", 0, [("close", 10)], rundpasses=1), "B": night("carry", 20, pot_start=8)},
        {"A": ("B", 8), "B": None},
    ),
    # D3: A reopened and closed again after B: A is the night closed last, its pot (16 now) waits
    "a night reopened and closed again is closed last": (
        {
            "A": night("carry", 0, [("close", 10), ("reopen", 30), ("close", 40)], rundpasses=2),
            "B": night("ramsch", 15, [("close", 25)]),
        },
        {"A": None, "B": ""},
    ),
    # D3, both carry: A's 16 waits, B's 24 went nowhere (B was no longer the night closed last)
    "a night reopened after the next closed gives its pot, not the next": (
        {
            "A": night("carry", 0, [("close", 20), ("reopen", 30), ("close", 40)], rundpasses=2),
            "B": night("carry", 5, [("close", 25)], rundpasses=3),
        },
        {"A": None, "B": ""},
    ),
    # the night closed last when C started was B (A's close came after): C took B's; A's waits
    "the night closed last before the next started gives": (
        {
            "A": night("carry", 0, [("close", 40)], rundpasses=1),
            "B": night("carry", 5, [("close", 20)], rundpasses=2),
            "C": night("carry", 30, pot_start=16),
        },
        {"A": None, "B": ("C", 16), "C": None},
    ),
    # A was reopened when C started: C took B's (closed then); A's, closed since, waits
    "a night reopened when the next started gives nothing then": (
        {
            "A": night("carry", 0, [("close", 20), ("reopen", 25), ("close", 45)], rundpasses=1),
            "B": night("carry", 5, [("close", 10)], rundpasses=2),
            "C": night("carry", 30, pot_start=16),
        },
        {"A": None, "B": ("C", 16), "C": None},
    ),
    # D5: A gave its pot to B, was reopened and closed again, and C took it again: recorded as B's
    "a pot taken twice is recorded as the first night's": (
        {
            "A": night("carry", 0, [("close", 10), ("reopen", 30), ("close", 40)], rundpasses=1),
            "B": night("carry", 20, [("close", 25)], pot_start=8),
            "C": night("carry", 50, pot_start=8),
        },
        {"A": ("B", 8), "B": "", "C": None},
    ),
    # a taker at another stake: the money it began with, at the giving night's stake (8 units at 10 are 4 at 20)
    "a pot taken at another stake": (
        {"A": night("carry", 0, [("close", 10)], rundpasses=1), "B": night("carry", 20, [("close", 30)], 4, 0, 20)},
        {"A": ("B", 8), "B": None},
    ),
    # a night started after a Ramsch night closed took nothing; a night of split pots carries none
    "a night without a pot closed last": (
        {
            "A": night("carry", 0, [("close", 10)], rundpasses=1),
            "B": night("ramsch", 5, [("close", 15)]),
            "C": night("split", 20, [("close", 30)], rundpasses=1),
            "D": night("carry", 40, rundpasses=1),
        },
        {"A": "", "B": "", "C": "", "D": None},
    ),
    # open when the upgrade came, reopened: its pot goes on once it closes, as the old rule gave it then
    "a night reopened now": (
        {
            "A": night("carry", 0, [("close", 10)], rundpasses=1),
            "B": night("carry", 20, [("close", 30), ("reopen", 40)], pot_start=8, rundpasses=1),
        },
        {"A": ("B", 8), "B": None},
    ),
}


def minute(m: int) -> datetime:
    return START + timedelta(minutes=m)


def uid(name: str) -> str:
    return f"{ord(name):032x}"


def expected(case: str) -> dict[str, tuple[str | None, int | None]]:
    went = CASES[case][1]
    return {
        name: (None, None) if to is None else ("", None) if to == "" else (uid(to[0]), to[1])
        for name, to in went.items()
    }


def closed(spec) -> bool:
    return bool(spec["events"]) and spec["events"][-1][0] == "close"


# --- the database of before, upgraded -----------------------------------------------


@pytest.fixture(params=BACKENDS)
def empty_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    return fresh_postgres(os.environ["SCOREKEEPER_TEST_POSTGRES_URL"])


def upgraded(url: str, nights: dict) -> dict[str, tuple[str | None, int | None]]:
    """``nights`` written into a database of schema 0015 (their closes and reopens in the audit trail, as the
    old releases wrote them), upgraded: where each night's pot went."""
    upgrade_to(url, "0015")
    engine = make_engine(url)
    # a time as the database's driver takes it: SQLite's as the text SQLAlchemy writes (Python's own adapter of a
    # datetime is deprecated since 3.12, an error under the suite's filterwarnings on Python 3.13)
    stamp = minute if engine.dialect.name == "postgresql" else (lambda m: minute(m).isoformat(" "))
    try:
        _write_nights(engine, nights, stamp)
    finally:
        engine.dispose()
    upgrade_to(url, "head")
    engine = make_engine(url)
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT uid, pot_to, pot_given FROM evening").all()
    engine.dispose()
    names = {uid(name): name for name in nights}
    return {names[r[0]]: (r[1], r[2]) for r in rows}


def _write_nights(engine, nights: dict, stamp) -> None:
    """``nights`` written as the old releases wrote them (``stamp``: a minute's time as the driver takes it)."""
    with engine.begin() as conn:
        for i, (name, spec) in enumerate(nights.items(), start=1):
            last = spec["events"][-1][1] if closed(spec) else None
            conn.exec_driver_sql(
                "INSERT INTO evening (id, game, rules, stake_cents, currency, played_on, place, seat_count,"
                " first_dealer, status, version, created_at, closed_at, pot_start, uid) VALUES (%(id)s, 'schafkopf',"
                " %(rules)s, %(stake)s, 'EUR', '2026-01-01', '', 4, 1, %(status)s, 0, %(created)s, %(closed)s,"
                " %(pot)s, %(uid)s)"
                if engine.dialect.name == "postgresql"
                else "INSERT INTO evening (id, game, rules, stake_cents, currency, played_on, place, seat_count,"
                " first_dealer, status, version, created_at, closed_at, pot_start, uid) VALUES (:id, 'schafkopf',"
                " :rules, :stake, 'EUR', '2026-01-01', '', 4, 1, :status, 0, :created, :closed, :pot, :uid)",
                {
                    "id": i,
                    "rules": json.dumps(RULES[spec["rules"]]),
                    "stake": spec["stake"],
                    "status": "closed" if last is not None else "open",
                    "created": stamp(spec["started"]),
                    "closed": None if last is None else stamp(last),
                    "pot": spec["pot"],
                    "uid": uid(name),
                },
            )
            for action, at in spec["events"]:
                conn.exec_driver_sql(
                    "INSERT INTO auditentry (evening_id, action, at) VALUES (%(id)s, %(action)s, %(at)s)"
                    if engine.dialect.name == "postgresql"
                    else "INSERT INTO auditentry (evening_id, action, at) VALUES (:id, :action, :at)",
                    {"id": i, "action": action, "at": stamp(at)},
                )


@pytest.mark.parametrize("case", list(CASES))
def test_the_upgrade_sends_each_pot_where_the_rule_of_then_sent_it(empty_url, case):
    """Migration 0016 (D3: a night reopened and closed again was the night closed last, whose pot the old
    rule gave next; 0016 went by each night's first close and lost it, or gave another night's)."""
    assert upgraded(empty_url, CASES[case][0]) == expected(case)


# --- a club's file of before, imported ------------------------------------------------


def old_club_file(nights: dict) -> dict:
    """A club's file as a Scorekeeper before where a pot went was recorded wrote it (no ``pot_to``,
    ``pot_given``, ``pot_from``)."""

    def at(m: int) -> str:
        return minute(m).isoformat() + "+00:00"

    files = []
    for name, spec in nights.items():
        last = spec["events"][-1][1] if closed(spec) else None
        hands = [
            {
                "number": n,
                "dealer": (n - 1) % 4 + 1,
                "data": {"contract": "rundpass"},
                "idempotency_key": None,
                "created_at": at(spec["started"]),
                "updated_at": at(spec["started"]),
            }
            for n in range(1, spec["hands"] + 1)
        ]
        audit = [
            {"hand_number": h["number"], "action": "record", "before": None, "after": h["data"], "at": h["created_at"]}
            for h in hands
        ]
        audit += [
            {
                "hand_number": None,
                "action": action,
                "before": None,
                "after": {"reason": "a hand was missing"} if action == "reopen" else None,
                "at": at(m),
            }
            for action, m in spec["events"]
        ]
        evening = {
            "uid": uid(name),
            "game": "schafkopf",
            "rules": RULES[spec["rules"]],
            "stake_cents": spec["stake"],
            "currency": "EUR",
            "played_on": "2026-01-01",
            "place": "",
            "seat_count": 4,
            "first_dealer": 1,
            "status": "closed" if last is not None else "open",
            "closed_at": None if last is None else at(last),
            "pot_start": spec["pot"],
            "created_at": at(spec["started"]),
        }
        players = [{"position": i, "name": n} for i, n in enumerate(NAMES, start=1)]
        files.append(
            {
                "format": "scorekeeper-night",
                "version": 1,
                "evening": evening,
                "players": players,
                "hands": hands,
                "audit": audit,
            }
        )
    return {
        "format": "scorekeeper-club",
        "version": 2,
        "players": [{"name": n, "retired": False, "created_at": at(0)} for n in NAMES],
        "roster_changes": [],
        "nights": files,
        "tournaments": [],
    }


def pots_of(db, nights: dict) -> dict[str, tuple[str | None, int | None]]:
    names = {uid(name): name for name in nights}
    return {names[n.uid]: (n.pot_to, n.pot_given) for n in db.exec(select(Night)) if n.uid in names}


@pytest.mark.parametrize("case", list(CASES))
def test_a_club_file_of_before_sends_each_pot_where_the_rule_of_then_sent_it(db, case):
    """The club file's import does what migration 0016 does (D2: it marked every old pot gone and recorded
    no night that took one; D3: it went by each night's first close, as 0016 did)."""
    import_club(db=db, data=old_club_file(CASES[case][0]))
    assert pots_of(db, CASES[case][0]) == expected(case)


def test_a_club_file_of_before_holds_no_pot_from_nowhere_and_moves_again(db, other_db):
    """D2: a club's file of before imported (``manage.py import``): the night that took a pot holds it from
    the night that gave it, so ``manage.py verify`` finds no pot from nowhere, and the club's file written
    now imports elsewhere (before: "a pot from nowhere", exit 1, and the new file refused)."""
    nights = CASES["the next night took it"][0]
    import_club(db=db, data=old_club_file(nights))
    assert pots_from_nowhere(db=db) == []
    again = as_file(club_json(db))
    import_club(db=other_db, data=again)
    assert pots_from_nowhere(db=other_db) == []
    assert pots_of(other_db, nights) == pots_of(db, nights)


def test_a_club_file_of_before_gives_the_pot_of_a_night_reopened_and_closed_again_to_the_next_night(db):
    """D3: under the old release the next pot night started with A's 16 units; after the import it does too
    (before: A's pot was gone and the next night started with 0, A's summary still saying it was carried)."""
    import_club(db=db, data=old_club_file(CASES["a night reopened and closed again is closed last"][0]))
    players = [db.exec(select(Player).where(Player.name == name)).one() for name in NAMES]
    next_night = start_night(db, players, game="schafkopf", rules=RULES["carry"])
    assert next_night.pot_start == 16
    a = db.exec(select(Night).where(Night.uid == uid("A"))).one()
    assert (a.pot_to, a.pot_given) == (next_night.uid, 16)
    assert pots_from_nowhere(db=db) == []


def test_verify_names_a_closed_night_whose_carried_pot_went_to_no_night(app, db, monkeypatch, capsys):
    """D3: a night whose settlement says its pot was carried to the club's next night, which no night took and
    which waits for none (gone by the rule of then: here B, closed after A first closed, was no longer the night
    closed last once A closed again). ``verify`` names it with its units, for the club to settle by hand; not a
    wrong result of today's (the exit status stays 0). A pot that waits, or that carries nothing, is not named."""
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", app.config["DATABASE_URL"])
    import_club(
        db=db, data=old_club_file(CASES["a night reopened after the next closed gives its pot, not the next"][0])
    )
    import_club(db=db, data=old_club_file({"R": night("ramsch", 50, [("close", 60)])}))  # carries nothing
    b = db.exec(select(Night).where(Night.uid == uid("B"))).one()

    assert main(["verify"]) == 0

    assert capsys.readouterr().err.splitlines() == [
        f"night {b.id} of 2026-01-01: its pot of 24 units, carried to the club's next night, went to no night: the "
        "rule before the pots were followed (migration 0016) gave the next night another night's pot, or the night "
        "that took it is gone; settle it by hand (docs/backup.md, 'The pot carried in')"
    ]


@pytest.mark.parametrize(
    ("lang", "said", "carried"),
    [
        (
            "en",
            "Carried out before the club recorded where a pot goes, but no night took it: settle it by hand.",
            "Carried to the club's next night.",
        ),
        (
            "de",
            "Weitergegeben, bevor der Verein festhielt, wohin ein Stock geht, doch kein Abend hat ihn übernommen: "
            "von Hand abrechnen.",
            "Geht in den nächsten Abend des Vereins.",
        ),
    ],
)
def test_the_settlement_of_a_pot_gone_to_no_night_says_so(client, db, lang, said, carried):
    """D3: the settlement of a night whose pot went to no night by the rule of then said it was carried to the
    club's next night, which takes nothing of it; the night whose pot waits still says it is carried."""
    import_club(
        db=db, data=old_club_file(CASES["a night reopened after the next closed gives its pot, not the next"][0])
    )
    gone, waits = (db.exec(select(Night).where(Night.uid == uid(name))).one() for name in ("B", "A"))

    page = answer_text(client.get(f"/nights/{gone.id}/summary?lang={lang}"))
    assert said in page and carried not in page
    page = answer_text(client.get(f"/nights/{waits.id}/summary?lang={lang}"))
    assert carried in page and said not in page
