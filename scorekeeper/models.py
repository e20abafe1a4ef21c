"""The database tables (SQLModel). Schema changes go through Alembic (scorekeeper/migrations)."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel


def new_uid() -> str:
    return uuid.uuid4().hex


def utcnow() -> datetime:
    """Now, in UTC, with its time zone (SQLModel stores aware datetimes)."""
    return datetime.now(UTC)


class Player(SQLModel, table=True):
    """A person of the club's roster."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=40, unique=True, index=True)
    created_at: datetime = Field(default_factory=utcnow)


class Evening(SQLModel, table=True):
    """A night at the table: one game under one complete, frozen rule set."""

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(max_length=20, index=True)
    rules: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    stake_cents: int = Field(ge=0)
    currency: str = Field(default="EUR", max_length=3)
    played_on: date = Field(index=True)
    place: str = Field(default="", max_length=80)
    seat_count: int
    first_dealer: int
    status: str = Field(default="open", max_length=10)
    version: int = Field(default=0)  # bumped by every change: phones poll it
    created_at: datetime = Field(default_factory=utcnow)
    closed_at: datetime | None = None
    pot_start: int = Field(default=0)  # Schafkopf: units carried into the pot from the club's last night
    uid: str = Field(default_factory=new_uid, max_length=32, unique=True, index=True)  # stable across export and import


class Seat(SQLModel, table=True):
    """Who sits at which table position (1..N, clockwise) on an evening."""

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    position: int = Field(primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)


class HandRecord(SQLModel, table=True):
    """One recorded hand: the engine's JSON hand (engine seats) and the dealer's table position."""

    __table_args__ = (
        UniqueConstraint("evening_id", "number"),
        UniqueConstraint("evening_id", "idempotency_key"),
    )

    id: int | None = Field(default=None, primary_key=True)
    evening_id: int = Field(foreign_key="evening.id", index=True)
    number: int  # 1, 2, ... in the order played
    dealer: int  # table position of the dealer
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    idempotency_key: str | None = Field(default=None, max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class AuditEntry(SQLModel, table=True):
    """Every change to an evening's hands: when, what before, what after."""

    id: int | None = Field(default=None, primary_key=True)
    evening_id: int = Field(foreign_key="evening.id", index=True)
    hand_number: int | None = None
    action: str = Field(max_length=20)  # record, edit, undo
    before: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    after: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    at: datetime = Field(default_factory=utcnow)
