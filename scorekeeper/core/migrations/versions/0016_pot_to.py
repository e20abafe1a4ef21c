"""Where a carried pot went (``evening.pot_to``, ``evening.pot_given``): the uid of the club night that
took a night's pot and the units it gave. Until then the pot waits, and the club's next night that plays
a pot takes every pot waiting (core/nights.py). Before, where a pot went was worked out from the nights'
times, one night after the other, and a pot could go nowhere: a night still open when the next started,
a night without a pot in between, two tables on one evening.

The nights there are keep what the old rule made of them: a pot it gave to a night is recorded as given
to that night; the pot it would give next waits; every other closed night's pot is marked as gone before
this was recorded (``""``), so that no old pot comes back at the next night.

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
    audit = sa.table("auditentry", sa.column("evening_id"), sa.column("action"), sa.column("at", sa.DateTime))
    closes = dict(
        conn.execute(
            sa.select(audit.c.evening_id, sa.func.min(audit.c.at))
            .where(audit.c.action == "close")
            .group_by(audit.c.evening_id)
        ).all()
    )
    rows = conn.execute(
        sa.select(
            night.c.id,
            night.c.uid,
            night.c.rules,
            night.c.stake_cents,
            night.c.pot_start,
            night.c.created_at,
            night.c.closed_at,
        ).where(night.c.game == "schafkopf", night.c.tournament_id.is_(None))
    ).all()

    def first_close(row):
        return closes.get(row.id) or row.closed_at

    def carries(row):
        rules = row.rules or {}
        return rules.get("all_pass") == "pot" and rules.get("pot_at_close") == "carry"

    closed = sorted((r for r in rows if first_close(r) is not None), key=lambda r: (first_close(r), r.id))
    given = {}  # the old rule: a night's pot went to the first night started with a pot after it first closed,
    # when it was the night first closed last before that night started
    for taker in sorted((r for r in rows if r.pot_start > 0), key=lambda r: (r.created_at, r.id)):
        before = [r for r in closed if first_close(r) < taker.created_at]
        source = before[-1] if before else None
        if source is not None and source.id != taker.id and carries(source) and source.id not in given:
            stake = source.stake_cents
            units = (
                taker.pot_start
                if not stake or stake == taker.stake_cents
                else taker.pot_start * taker.stake_cents // stake
            )
            given[source.id] = (taker.uid, units)
    waiting = closed[-1].id if closed and carries(closed[-1]) and closed[-1].id not in given else None
    for row in closed:
        to, units = given.get(row.id, (GONE, None))
        if row.id != waiting:
            conn.execute(sa.update(night).where(night.c.id == row.id).values(pot_to=to, pot_given=units))


def downgrade() -> None:
    with op.batch_alter_table("evening", schema=None) as batch:
        batch.drop_index("ix_evening_pot_to")
        batch.drop_column("pot_given")
        batch.drop_column("pot_to")
