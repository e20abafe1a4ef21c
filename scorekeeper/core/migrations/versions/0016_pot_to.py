"""Where a carried pot went (``evening.pot_to``, ``evening.pot_given``): the uid of the club night that
took a night's pot and the units it gave. Until then the pot waits, and the club's next night that plays
a pot takes every pot waiting (core/nights.py). Before, where a pot went was worked out from the nights'
times, one night after the other, and a pot could go nowhere: a night still open when the next started,
a night without a pot in between, two tables on one evening.

The nights there are keep what the old rule made of them (``pots_as_then``: the night closed last, by its
last close, gave its pot to the next night started with a pot): a pot it gave to a night is recorded as
given to that night; the pot it would give next waits; every other closed night's pot is marked as gone
before this was recorded (``""``), so that no old pot comes back at the next night. The club file's import
of a file written before this follows the same rule (core/exchange/club_file.py ``_pots_as_then``; a
migration imports nothing that may change, so the two are kept apart and tested on the same nights:
tests/core/test_pot_upgrade.py). The rule is that of every release up to 2026-11-26; the commits of
2026-11-27 before this one went by each night's first close for a few hours (a database cannot say which
code ran it), and a night reopened and closed again in those hours may be read otherwise.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

GONE = ""  # core/models.py POT_GONE


def upgrade() -> None:
    with op.batch_alter_table("evening", schema=None) as batch:
        batch.add_column(sa.Column("pot_to", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("pot_given", sa.Integer(), nullable=True))
        batch.create_index("ix_evening_pot_to", ["pot_to"])
    conn = op.get_bind()
    night = sa.table(
        "evening",
        sa.column("id"),
        sa.column("uid"),
        sa.column("game"),
        sa.column("rules", sa.JSON),
        sa.column("stake_cents"),
        sa.column("pot_start"),
        sa.column("created_at", sa.DateTime),
        sa.column("closed_at", sa.DateTime),
        sa.column("tournament_id"),
        sa.column("pot_to"),
        sa.column("pot_given"),
    )
    audit = sa.table(
        "auditentry", sa.column("id"), sa.column("evening_id"), sa.column("action"), sa.column("at", sa.DateTime)
    )
    events: dict = {}  # each night's closes and reopens, in their order
    for evening_id, action, at in conn.execute(
        sa.select(audit.c.evening_id, audit.c.action, audit.c.at)
        .where(audit.c.action.in_(("close", "reopen")))
        .order_by(audit.c.at, audit.c.id)
    ):
        events.setdefault(evening_id, []).append((at, action))
    rows = conn.execute(
        sa.select(
            night.c.id,
            night.c.uid,
            night.c.rules,
            night.c.stake_cents,
            night.c.pot_start,
            night.c.created_at,
            night.c.closed_at,
            night.c.tournament_id,
        ).where(night.c.game == "schafkopf")
    ).all()
    for night_id, (to, units) in pots_as_then(rows, events).items():
        conn.execute(sa.update(night).where(night.c.id == night_id).values(pot_to=to, pot_given=units))


def pots_as_then(rows, events):
    """Where the old rule (every release before this one: core/nights.py ``_carried_pot``) sent each club
    night's carried pot: ``{id: (pot_to, pot_given)}`` for the rows to write; the rows left out keep
    ``pot_to`` null (their pot waits: the one the old rule would give next, and a night open now).

    The old rule: a night started under rules that play a pot took the pot of the club night closed last
    (of those closed at that moment, by the time of their last close: a night reopened and closed again is
    closed then) when that night's rules carry its pot, unless a night started after that close already
    began with a pot (of any night of the game); it took the units that night's pot held then. So a night
    that began with a pot took it from the night closed last before it started, when no night took it
    between; the pot it would give next is that of the night closed last now, if no night took it since.
    A pot given to a night is recorded as given to it (its units at the giving night's stake: the money
    the later night began with); every other pot of a night closed now counts as gone (``GONE``).
    ``events``: each night's ``(at, action)`` closes and reopens by id, in their order (the audit trail;
    a night without them was closed once, at its ``closed_at``, if it is closed)."""
    club = [r for r in rows if r.tournament_id is None]

    def closed_at(row, moment):  # when ``row`` was closed last before ``moment``, if it was closed then
        if moment is None:
            return row.closed_at
        state = None
        steps = events.get(row.id, [])
        if not any(action == "close" for _, action in steps):  # closed before the audit trail said so
            steps = [(row.closed_at, "close")] if row.closed_at else []
        for at, action in steps:
            if at >= moment:
                break
            state = at if action == "close" else None
        return state

    def carries(row):
        rules = row.rules or {}
        return rules.get("all_pass") == "pot" and rules.get("pot_at_close") == "carry"

    def source(moment):  # the night whose pot a night started at ``moment`` took (now: ``None``), if any
        closed = [(at, r.id, r) for r in club if (at := closed_at(r, moment)) is not None]
        if not closed:
            return None
        at, _, last = max(closed, key=lambda c: (c[0], c[1]))
        taken = any(r.pot_start > 0 and at < r.created_at and (moment is None or r.created_at < moment) for r in rows)
        return last if carries(last) and not taken else None

    given = {}
    for taker in sorted((r for r in club if r.pot_start > 0), key=lambda r: (r.created_at, r.id)):
        last = source(taker.created_at)
        if last is not None and last.id != taker.id and last.id not in given:  # a pot taken twice: the first
            stake = last.stake_cents
            units = (
                taker.pot_start
                if not stake or stake == taker.stake_cents
                else taker.pot_start * taker.stake_cents // stake
            )
            given[last.id] = (taker.uid, units)
    waiting = source(None)
    written = {}
    for row in club:
        if row.id in given:
            written[row.id] = given[row.id]
        elif row.closed_at is not None and (waiting is None or row.id != waiting.id):
            written[row.id] = (GONE, None)
    return written


def downgrade() -> None:
    with op.batch_alter_table("evening", schema=None) as batch:
        batch.drop_index("ix_evening_pot_to")
        batch.drop_column("pot_given")
        batch.drop_column("pot_to")
