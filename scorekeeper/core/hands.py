"""Recording, editing and undoing a night's hands: the only code that writes hands.

Every change is validated by settling the whole night with the engine (an edit can make a
later hand invalid), happens in one transaction under the night's lock, bumps the night's
``version`` and leaves an audit entry; the night's history rows are rewritten with it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from scorekeeper.core import history
from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.core.models import AuditEntry, HandRecord, Night, utcnow
from scorekeeper.core.nights import check_open, lock_night, touch
from scorekeeper.core.table import HandRow, Table, hand_record, hand_rows, settle
from scorekeeper.engine import GAMES, ledger

__all__ = ["add_hands", "add_imported_hands", "complete_hand", "edit_hand", "record_hand", "undo_last"]


def complete_hand(*, night: Night, hand: Any, dealer: int) -> Any:
    """The hand as the engine gets it: with what the deal tells (the game says what: in
    Matzlfangen forehand declares a Rufen, so nobody taps the declarer)."""
    game = GAMES[night.game]
    positions = ledger.seat_positions(night.seat_count, game.seats, dealer)
    forehand = ledger.seat_of(ledger.forehand_of(dealer, night.seat_count), positions)
    return game.complete_hand(hand, ledger.seat_of(dealer, positions), forehand)


def record_hand(
    *,
    db: Session,
    night_id: int,
    hand: Any,
    idempotency_key: str | None = None,
    expected_hands: int | None = None,
) -> tuple[HandRecord, bool, Table | None]:
    """Record the next hand. Returns the hand, whether it was new, and the table after it (when new).

    A repeat of an ``idempotency_key`` returns the hand first recorded with it.
    ``expected_hands`` is how many hands the form saw: if another phone recorded
    one since, the hand is refused with :class:`Conflict`.

    :raises InvalidHand: when the engine refuses the hand (nothing is saved).
    """
    night = lock_night(db=db, night_id=night_id)
    if idempotency_key is not None:
        if (
            not isinstance(idempotency_key, str)
            or not 1 <= len(idempotency_key) <= 64
            or not (idempotency_key.isascii() and idempotency_key.isprintable())
        ):
            raise InvalidInput("idempotency_key", "the idempotency key must be 1 to 64 printable ASCII characters")
        earlier = db.exec(
            select(HandRecord).where(HandRecord.night_id == night_id, HandRecord.idempotency_key == idempotency_key)
        ).first()
        if earlier is not None:
            return earlier, False, None
    check_open(night)
    hands = hand_rows(db=db, night_id=night_id)
    if expected_hands is not None and expected_hands != len(hands):
        raise Conflict(
            "another phone recorded a hand meanwhile: this form was made when the night had {seen} hands, "
            "now it has {now}. Check the table and enter the hand again if it is missing.",
            seen=expected_hands,
            now=len(hands),
        )
    dealer = ledger.dealer_of(night.first_dealer, night.seat_count, len(hands))
    data = complete_hand(night=night, hand=hand, dealer=dealer)
    settlement = settle(night=night, hands=[*(h.data for h in hands), data])  # validates; the hand is a JSON object
    stored = dict(data)
    record = HandRecord(
        night_id=night_id, number=len(hands) + 1, dealer=dealer, data=stored, idempotency_key=idempotency_key
    )
    db.add(record)
    touch(db=db, night=night, action="record", number=record.number, before=None, after=stored)
    try:
        table = history.refresh(
            db=db, night=night, hands=[*hands, HandRow(record.number, dealer, stored)], settlement=settlement
        )
        db.commit()
    except IntegrityError:
        db.rollback()
        if idempotency_key is not None:
            earlier = db.exec(
                select(HandRecord).where(HandRecord.night_id == night_id, HandRecord.idempotency_key == idempotency_key)
            ).first()
            if earlier is not None:
                return earlier, False, None
        raise Conflict("another phone recorded a hand at the same moment: check the table and try again") from None
    return record, True, table


def add_hands(*, db: Session, night_id: int, hands: list[Any]) -> int:
    """Append many hands at once (demo nights, imports): validated together, one transaction.

    Returns how many hands the night has now.

    :raises InvalidHand: naming the first bad hand (by its index in the whole night); nothing is saved.
    """
    night = lock_night(db=db, night_id=night_id)
    check_open(night)
    existing = hand_rows(db=db, night_id=night_id)
    rows = []
    for i, hand in enumerate(hands, start=len(existing)):
        dealer = ledger.dealer_of(night.first_dealer, night.seat_count, i)
        rows.append(HandRow(i + 1, dealer, dict(complete_hand(night=night, hand=hand, dealer=dealer))))
    settlement = settle(night=night, hands=[h.data for h in (*existing, *rows)])
    now = utcnow()
    if rows:  # one multi-row INSERT: a night of 200 hands is one statement, not 200 ORM objects
        db.exec(
            insert(HandRecord),
            params=[
                {"night_id": night_id, "number": r.number, "dealer": r.dealer, "data": r.data}
                | {"created_at": now, "updated_at": now}
                for r in rows
            ],
        )
    night.version += 1
    db.add(night)
    db.add(AuditEntry(night_id=night_id, hand_number=None, action="import", before=None, after={"hands": len(rows)}))
    history.refresh(db=db, night=night, hands=[*existing, *rows], settlement=settlement)
    db.commit()
    return len(existing) + len(rows)


def edit_hand(*, db: Session, night_id: int, number: int, hand: Any, expected_version: int | None = None) -> HandRecord:
    """Replace hand ``number``; everything after it is recomputed (and must stay valid)."""
    night = lock_night(db=db, night_id=night_id)
    check_open(night)
    if expected_version is not None and expected_version != night.version:
        raise Conflict("the night changed while you were editing: check the hand and edit it again")
    hands = hand_rows(db=db, night_id=night_id)
    record = hand_record(db=db, night_id=night_id, number=number) if 1 <= number <= len(hands) else None
    if record is None:
        raise NotFound(f"no hand {number}")
    data = complete_hand(night=night, hand=hand, dealer=record.dealer)
    rows = [HandRow(h.number, h.dealer, data) if h.number == number else h for h in hands]
    settlement = settle(night=night, hands=[h.data for h in rows])
    before = record.data
    record.data = dict(data)
    record.updated_at = utcnow()
    db.add(record)
    touch(db=db, night=night, action="edit", number=number, before=before, after=record.data)
    history.refresh(db=db, night=night, hands=rows, settlement=settlement)
    db.commit()
    return record


def undo_last(*, db: Session, night_id: int, expected_hands: int | None = None) -> HandRecord:
    """Take back the last hand (kept in the audit trail)."""
    night = lock_night(db=db, night_id=night_id)
    check_open(night)
    hands = hand_rows(db=db, night_id=night_id)
    if not hands:
        raise Conflict("there is no hand to undo")
    if expected_hands is not None and expected_hands != len(hands):
        raise Conflict("another phone changed the night meanwhile: check the table before you undo")
    last = hand_record(db=db, night_id=night_id, number=len(hands))
    db.delete(last)
    touch(db=db, night=night, action="undo", number=last.number, before=last.data, after=None)
    history.refresh(db=db, night=night, hands=hands[:-1])
    db.commit()
    return last


def add_imported_hands(*, db: Session, night: Night, hands: list[dict[str, Any]], audit: list[dict[str, Any]]) -> Table:
    """Write the hands and the audit trail of a night read from an export file, as they were
    (checked and settled by the reader), and the night's history rows (not committed)."""
    db.add_all(HandRecord(night_id=night.id, **h) for h in hands)
    db.flush()  # hands before audit entries, each in file order: their ids keep the order
    db.add_all(AuditEntry(night_id=night.id, **a) for a in audit)
    rows = sorted(hands, key=lambda h: h["number"])
    return history.refresh(db=db, night=night, hands=[HandRow(h["number"], h["dealer"], h["data"]) for h in rows])
