"""Recording, editing and undoing a night's hands: the only code that writes hands.

Every hand is stored with the engine's result of it, the state after it (what carries to the
next hand) and the night's sums after it (``running``: the balances). A new hand is validated and
settled from the last hand's stored state, its sums added to the last's: recording costs the same
at hand 10 and hand 1,000. An edit of hand k settles hands k, k+1, ... again from hand k-1's state
(an edit can make a later hand invalid); an undo drops the last hand with its result. Every change
happens in one transaction under the night's lock, bumps the night's ``version`` and leaves an
audit entry; the night's history rows follow (a new hand adds its counts; an edit or an undo
rewrites them).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from scorekeeper.core import history, lifecycle
from scorekeeper.core.errors import N_, Conflict, InvalidInput, N_plural, NotFound
from scorekeeper.core.models import AuditEntry, HandRecord, Night, utcnow
from scorekeeper.core.nights import bump, close_locked, lock_night, touch
from scorekeeper.core.stored import (
    Last,
    Running,
    check_ceiling,
    deals_played,
    hand_record,
    last_hand,
    next_deal_after,
    running_sums,
    stored_columns,
    stored_state,
)
from scorekeeper.core.table import HandRow, Table, Tail, build_table, hand_rows, seats, settle
from scorekeeper.core.text import is_idempotency_key
from scorekeeper.engine import GAMES, Game, deal
from scorekeeper.engine.deal import Deal

__all__ = [
    "Stale",
    "StaleVersion",
    "UndoneHand",
    "add_hands",
    "add_imported_hands",
    "changed_meanwhile",
    "complete_hand",
    "edit_hand",
    "edited_meanwhile",
    "is_idempotency_key",
    "record_hand",
    "undo_last",
]


def _state_before(*, db: Session, night: Night, game: Game, rules: Any, number: int) -> Any:
    """What carries into hand ``number``: the stored state after the hand before it (the engine's
    own output), or the start of the night."""
    if number == 1:
        return game.initial_state(rules, night.pot_start or None)
    return game.state_from_json(stored_state(db=db, night_id=night.id, number=number - 1))


def _running_before(*, db: Session, night: Night, number: int) -> Running:
    """The night's sums before hand ``number``: those stored after the hand before it."""
    if number == 1:
        return Running.start(GAMES[night.game].seats, night.seat_count)
    stored = db.exec(
        select(HandRecord.running).where(HandRecord.night_id == night.id, HandRecord.number == number - 1)
    ).first()
    return Running.from_json(stored)


def _columns(stored: tuple[Any, ...] | None) -> dict[str, Any]:
    return {} if stored is None else dict(zip(("result", "state", "running"), stored, strict=True))


def _store_all(*, db: Session, night: Night) -> None:
    """Settle the night from its start and store every hand's result, state and sums (hands
    written before these were stored).

    :raises InvalidHand: when the engine refuses the night (as settling it whole always did).
    """
    rows = db.exec(
        select(HandRecord.id, HandRecord.dealer, HandRecord.data)
        .where(HandRecord.night_id == night.id)
        .order_by(HandRecord.number)
    ).all()
    datas = [r.data for r in rows]
    columns = stored_columns(
        game=night.game,
        rules=night.rules,
        pot_start=night.pot_start,
        hands=datas,
        dealers=[r.dealer for r in rows],
        seat_count=night.seat_count,
    )
    if columns is None:
        settle(night=night, hands=datas)  # raises the engine's refusal
    if columns:
        db.exec(update(HandRecord), params=[{"id": r.id, **_columns(c)} for r, c in zip(rows, columns, strict=True)])


def _last_stored(*, db: Session, night: Night, last: Last | None = None) -> Last | None:
    """The night's last hand (``last`` where just read), with its result, state and sums stored
    (stored now where missing)."""
    last = last or last_hand(db=db, night_id=night.id)
    if last is not None and (not last.settled or last.running is None):
        _store_all(db=db, night=night)
        last = last_hand(db=db, night_id=night.id)
    return last


def complete_hand(*, night: Night, hand: Any, dealt: Deal) -> Any:
    """The hand as the engine gets it: with what its deal tells (the game says what: in
    Matzlfangen forehand declares a Rufen, so nobody taps the declarer)."""
    return dealt.complete(GAMES[night.game], hand)


def same_people(*, night: Night, hand: Any, dealt: Deal, dealt_by: int | None) -> bool:
    """Whether ``hand``, entered for the deal ``dealt_by`` dealt (kept offline, or on a form another phone
    was quicker than), is played by the same people at the same seats as the deal ``dealt``: at a table of
    five another player sits out; where forehand declares (no declarer entered), another one declares. A
    ``dealt_by`` that names no seat says nothing against it."""
    size = night.seat_count
    if dealt_by is None or type(dealt_by) is not int or not 1 <= dealt_by <= size or dealt_by == dealt.dealer:
        return True
    game = GAMES[night.game]
    declares = game.forehand_declares and isinstance(hand, dict) and "declarer" not in hand
    return dealt.played_as(Deal.at(dealt.number, dealt_by, size, game.seats), declares)


def _same_players(*, db: Session, night: Night, hand: Any, dealt: Deal, dealt_by: int | None) -> None:
    """A hand entered for another deal (``dealt_by`` dealt it: kept offline, then added as the next
    hand) lands as the next hand (``dealt``) only when the same people play it (:func:`same_people`).

    :raises InvalidInput: when other players would play the hand (``dealt_by``; its names: ``dealer``,
        ``now``, and ``number``, the hand it would be).
    """
    if same_people(night=night, hand=hand, dealt=dealt, dealt_by=dealt_by):
        return
    people = seats(db=db, night_id=night.id)
    raise InvalidInput(
        "dealt_by",
        "This hand was entered while {dealer} dealt. As {hand}, {now} deals and other players would play it: "
        "discard it and enter it again as {hand}.",
        dealer=people[dealt_by].name,
        hand=dealt.number,
        now=people[dealt.dealer].name,
    )


def _recorded_with(*, db: Session, night_id: int, key: str | None) -> HandRecord | None:
    """The night's hand recorded with idempotency ``key`` (None for no key, or none recorded with it)."""
    if key is None:
        return None
    return db.exec(select(HandRecord).where(HandRecord.night_id == night_id, HandRecord.idempotency_key == key)).first()


class Stale(Conflict):
    """A form made before another phone changed the night (a hand recorded, edited or taken back meanwhile):
    the form is refused, its hand may be entered again (:func:`changed_meanwhile`, :func:`edited_meanwhile`;
    the pages tell the outbox by its code, web/refusals.py ``CHANGED``)."""


class StaleVersion(Stale):
    """A change or an undo made on a view of the night older than its version now (``seen``, ``now``),
    found under the night's lock: another phone changed the night meanwhile. The pages say the
    message; the API answers 412 (its ``If-Match``)."""

    def __init__(self, template: str, /, *, seen: int, now: int) -> None:
        super().__init__(template)
        self.seen, self.now = seen, now


class UndoneHand(Conflict):
    """A hand sent again with the idempotency key of a hand recorded and undone since (its ``number``):
    the undo stands, nothing is recorded (docs/rules.md, "A hand taken back")."""

    def __init__(self, number: int) -> None:
        super().__init__(
            N_(
                "the hand sent with this idempotency key was recorded as hand {number} and undone since: "
                "it is not recorded again"
            ),
            number=number,
        )
        self.number = number


def _check_not_undone(*, db: Session, night_id: int, key: str) -> None:
    """:raises UndoneHand: when the night's hand recorded with ``key`` was undone (its undo keeps the key)."""
    undone = db.exec(
        select(AuditEntry.hand_number).where(
            AuditEntry.night_id == night_id, AuditEntry.action == "undo", AuditEntry.idempotency_key == key
        )
    ).first()
    if undone is not None:
        raise UndoneHand(undone)


#: Another phone changed the night under the form (a hand taken ``back``, or ``recorded``), at a tournament's
#: table or not: the refusal (singular, plural of the hands the form saw, ``n``; ``now``: the hands now).
_CHANGED = {
    ("back", True): N_plural(
        "Another phone took a hand back meanwhile: this form was made when the table had {n} hand, now it has "
        "{now}. Check it and enter the hand again if it is missing.",
        "Another phone took a hand back meanwhile: this form was made when the table had {n} hands, now it has "
        "{now}. Check it and enter the hand again if it is missing.",
    ),
    ("back", False): N_plural(
        "Another phone took a hand back meanwhile: this form was made when the night had {n} hand, now it has "
        "{now}. Check the table and enter the hand again if it is missing.",
        "Another phone took a hand back meanwhile: this form was made when the night had {n} hands, now it has "
        "{now}. Check the table and enter the hand again if it is missing.",
    ),
    ("recorded", True): N_plural(
        "Another phone recorded a hand meanwhile: this form was made when the table had {n} hand, now it has "
        "{now}. Check it and enter the hand again if it is missing.",
        "Another phone recorded a hand meanwhile: this form was made when the table had {n} hands, now it has "
        "{now}. Check it and enter the hand again if it is missing.",
    ),
    ("recorded", False): N_plural(
        "Another phone recorded a hand meanwhile: this form was made when the night had {n} hand, now it has "
        "{now}. Check the table and enter the hand again if it is missing.",
        "Another phone recorded a hand meanwhile: this form was made when the night had {n} hands, now it has "
        "{now}. Check the table and enter the hand again if it is missing.",
    ),
}


def changed_meanwhile(*, night: Night, expected_hands: int | None, count: int, seen: int | None = None) -> Stale | None:
    """Why a form made when the night had ``expected_hands`` hands is stale now that it has ``count`` (another
    phone recorded or took back a hand meanwhile), or None: the one reason of the save and of the form's preview.
    ``seen``: the hands the form stands for, where more than it was made with (a preview's, behind hands its phone
    sent since, web/hands/routes.py ``_seen``): stale when the night has other than those; the sentence still says
    the count the form was made with, the true one."""
    seen = expected_hands if seen is None else seen
    if expected_hands is None or seen is None or seen == count:
        return None
    at_table = night.tournament_id is not None  # a tournament's table is a table on its pages, never a night
    if count < seen:  # a hand taken back meanwhile: not "recorded"
        return Stale(*_CHANGED["back", at_table], n=expected_hands, now=count)
    return Stale(*_CHANGED["recorded", at_table], n=expected_hands, now=count)


def edited_meanwhile(*, night: Night, expected_version: int | None) -> StaleVersion | None:
    """Why an edit form made at the night's version ``expected_version`` is stale now (another phone recorded,
    edited or took back a hand meanwhile), or None: the one reason of the edit's save and of its preview."""
    if expected_version is None or expected_version == night.version:
        return None
    return StaleVersion(
        N_("the table changed while you were editing: check the hand and edit it again")
        if night.tournament_id is not None  # a tournament's table is a table on its pages, never a night
        else N_("the night changed while you were editing: check the hand and edit it again"),
        seen=expected_version,
        now=night.version,
    )


def record_hand(
    *,
    db: Session,
    night_id: int,
    hand: Any,
    idempotency_key: str | None = None,
    expected_hands: int | None = None,
    night_uid: str | None = None,
    who: str | None = lifecycle.SYSTEM,
    dealt_by: int | None = None,
    seen: tuple[int, Deal] | None = None,
) -> tuple[HandRecord, bool, Table | None]:
    """Record the next hand. Returns the hand, whether it was new, and the table after it (when new).

    A repeat of an ``idempotency_key`` returns the hand first recorded with it; the key of a hand undone
    since is refused with :class:`UndoneHand` (the undo stands).
    ``expected_hands`` is how many hands the form saw: if another phone recorded
    one since, the hand is refused with :class:`Conflict`. ``dealt_by``: the dealer of the deal the hand
    was entered for (a form's), refused where other players play the next hand. ``seen``: the night's
    version and its next deal as the caller read them (a page's table): used where the night is still
    at that version, else worked out again. ``night_uid`` is the uid of the night
    the form was made for (another night's is refused); ``who`` asks (:mod:`~scorekeeper.core.lifecycle`).

    :raises InvalidHand: when the engine refuses the hand (nothing is saved).
    :raises Conflict: when the night's life does not allow it (closed, a finished table, ...).
    """
    night = lock_night(db=db, night_id=night_id)
    lifecycle.check_form(night, night_uid)
    if idempotency_key is not None:
        if not is_idempotency_key(idempotency_key):
            raise InvalidInput("idempotency_key", "the idempotency key must be 1 to 64 printable ASCII characters")
        earlier = _recorded_with(db=db, night_id=night_id, key=idempotency_key)
        if earlier is not None:
            return earlier, False, None
        _check_not_undone(db=db, night_id=night_id, key=idempotency_key)
    life = lifecycle.life_of(db=db, night=night)
    lifecycle.check(life, lifecycle.RECORD, who)
    last = last_hand(db=db, night_id=night_id)
    count = 0 if last is None else last.number
    if (stale := changed_meanwhile(night=night, expected_hands=expected_hands, count=count)) is not None:
        raise stale
    last = _last_stored(db=db, night=night, last=last)
    game = GAMES[night.game]
    rules = game.parse_rules(night.rules)
    if seen is not None and seen[0] == night.version and seen[1].number == count + 1:
        dealt = seen[1]  # the night as the caller read it: its next deal as worked out then
    else:
        dealt = next_deal_after(night=night, rules=rules, last=last)
    _same_players(db=db, night=night, hand=hand, dealt=dealt, dealt_by=dealt_by)
    dealer = dealt.dealer
    data = complete_hand(night=night, hand=hand, dealt=dealt)
    if last is None:
        state, sums = game.initial_state(rules, night.pot_start or None), Running.start(game.seats, night.seat_count)
    else:
        state, sums = game.state_from_json(last.state), last.running
    (parsed,), (result,), (after,) = game.settle_from(rules, [data], state, count)  # validates; a JSON object
    deals_after = life.deals_played + (0 if game.is_redeal(rules, parsed) else 1)
    sums = sums.after(result.deltas, dealt.positions)
    check_ceiling(
        game=game,
        rules=rules,
        stake_cents=night.stake_cents,
        sums=[sums],
        states=[game.state_to_json(after)],
        first=count,
    )
    stored = dict(data)
    record = HandRecord(
        night_id=night_id,
        number=count + 1,
        dealer=dealer,
        data=stored,
        idempotency_key=idempotency_key,
        result=result.to_json(),
        state=game.state_to_json(after),
        running=sums.to_json(),
    )
    db.add(record)
    touch(db=db, night=night, action="record", number=record.number, before=None, after=stored)
    table = build_table(  # the night after the hand, from what was just settled (nothing read again)
        night=night,
        players=seats(db=db, night_id=night_id),
        hands=Tail(count + 1, [HandRow(count + 1, dealer, stored, record.result)]),
        state=record.state,
        running=sums,
    )
    try:
        db.flush()
        history.add_hand(db=db, table=table)
        _close_at_its_deals(db=db, night=night, before=life.deals_played, after=deals_after)
        db.commit()
    except IntegrityError:
        db.rollback()
        earlier = _recorded_with(db=db, night_id=night_id, key=idempotency_key)
        if earlier is not None:
            return earlier, False, None
        raise Stale("another phone recorded a hand at the same moment: check the table and try again") from None
    return record, True, table


def add_hands(*, db: Session, night_id: int, hands: list[Any]) -> int:
    """Append many hands at once (demo nights, imports): validated together, one transaction.

    Returns how many hands the night has now.

    :raises InvalidHand: naming the first bad hand (by its index in the whole night); nothing is saved.
    """
    night = lock_night(db=db, night_id=night_id)
    life = lifecycle.life_of(db=db, night=night)
    lifecycle.check(life, lifecycle.RECORD)
    last = _last_stored(db=db, night=night)
    count = 0 if last is None else last.number
    game = GAMES[night.game]
    rules = game.parse_rules(night.rules)
    datas = []
    dealt = next_deal_after(night=night, rules=rules, last=last)
    for hand in hands:
        data = dict(complete_hand(night=night, hand=hand, dealt=dealt))
        datas.append((dealt.dealer, data))
        dealt = deal.next_deal(game, rules, dealt, data)
    state = _state_before(db=db, night=night, game=game, rules=rules, number=count + 1)
    _, results, states = game.settle_from(rules, [d for _, d in datas], state, count)
    lifecycle.check_deals(life, life.deals_played + deals_played(night=night, hands=[d for _, d in datas]))
    sums = running_sums(
        game=night.game,
        seat_count=night.seat_count,
        start=_running_before(db=db, night=night, number=count + 1),
        results=results,
        dealers=[dealer for dealer, _ in datas],
    )
    check_ceiling(
        game=game,
        rules=rules,
        stake_cents=night.stake_cents,
        sums=sums,
        states=[game.state_to_json(s) for s in states],
        first=count,
    )
    now = utcnow()
    if datas:  # one multi-row INSERT: a night of 200 hands is one statement, not 200 ORM objects
        db.exec(
            insert(HandRecord),
            params=[
                {"night_id": night_id, "number": i, "dealer": dealer, "data": data}
                | {"result": result.to_json(), "state": game.state_to_json(after), "running": total.to_json()}
                | {"created_at": now, "updated_at": now}
                for i, (dealer, data), result, after, total in zip(
                    range(count + 1, count + 1 + len(datas)), datas, results, states, sums, strict=True
                )
            ],
        )
    bump(db=db, night=night)
    db.add(AuditEntry(night_id=night_id, hand_number=None, action="import", before=None, after={"hands": len(datas)}))
    history.refresh(db=db, night=night, hands=hand_rows(db=db, night_id=night_id))
    db.commit()
    return count + len(datas)


def edit_hand(
    *,
    db: Session,
    night_id: int,
    number: int,
    hand: Any,
    expected_version: int | None = None,
    night_uid: str | None = None,
    who: str | None = lifecycle.SYSTEM,
) -> HandRecord:
    """Replace hand ``number``; everything after it is recomputed (and must stay valid).

    :raises Conflict: when the night's life does not allow it (closed, a finished table, ...);
        :class:`StaleVersion` when the night has left ``expected_version``.
    """
    night = lock_night(db=db, night_id=night_id)
    lifecycle.check_form(night, night_uid)
    life = lifecycle.life_of(db=db, night=night)
    lifecycle.check(life, lifecycle.EDIT, who)
    if (stale := edited_meanwhile(night=night, expected_version=expected_version)) is not None:
        raise stale
    hands = hand_rows(db=db, night_id=night_id)
    record = hand_record(db=db, night_id=night_id, number=number) if 1 <= number <= len(hands) else None
    if record is None:
        raise NotFound(f"no hand {number}")
    dealt = Deal.at(number, record.dealer, night.seat_count, GAMES[night.game].seats)  # as it was dealt
    data = complete_hand(night=night, hand=hand, dealt=dealt)
    _last_stored(db=db, night=night)
    game = GAMES[night.game]
    rules = game.parse_rules(night.rules)
    state = _state_before(db=db, night=night, game=game, rules=rules, number=number)
    later = [h.data for h in hands[number:]]  # every later hand is settled again, and must stay valid
    parsed, results, states = game.settle_from(rules, [data, *later], state, number - 1)
    was, now = game.is_redeal(rules, game.parse_hand(record.data, None, rules)), game.is_redeal(rules, parsed[0])
    if later and was != now:
        raise Conflict(
            "a hand dealt again keeps its dealer, so every later hand has another dealer: "
            "a hand can become or stop being dealt again only as the last hand (undo the hands after it first)"
        )
    deals_after = life.deals_played + int(was) - int(now)
    lifecycle.check_deals(life, deals_after)
    sums = running_sums(
        game=night.game,
        seat_count=night.seat_count,
        start=_running_before(db=db, night=night, number=number),
        results=results,
        dealers=[h.dealer for h in hands[number - 1 :]],
    )
    check_ceiling(
        game=game,
        rules=rules,
        stake_cents=night.stake_cents,
        sums=sums,
        states=[game.state_to_json(s) for s in states],
        first=number - 1,
    )
    before = record.data
    record.data = dict(data)
    record.updated_at = utcnow()
    record.result = results[0].to_json()
    record.state = game.state_to_json(states[0])
    record.running = sums[0].to_json()
    db.add(record)
    if later:
        ids = dict(
            db.exec(
                select(HandRecord.number, HandRecord.id).where(
                    HandRecord.night_id == night_id, HandRecord.number > number
                )
            ).all()
        )
        db.exec(
            update(HandRecord),
            params=[
                {"id": ids[n], "result": r.to_json(), "state": game.state_to_json(s), "running": t.to_json()}
                for n, r, s, t in zip(range(number + 1, len(hands) + 1), results[1:], states[1:], sums[1:], strict=True)
            ],
        )
    touch(db=db, night=night, action="edit", number=number, before=before, after=record.data)
    db.flush()
    history.refresh(db=db, night=night, hands=hand_rows(db=db, night_id=night_id))
    _close_at_its_deals(db=db, night=night, before=life.deals_played, after=deals_after)
    db.commit()
    return record


def _close_at_its_deals(*, db: Session, night: Night, before: int, after: int) -> None:
    """A tournament's table closes itself when a change makes its last deal count: a hand recorded, or
    a hand dealt again corrected into one that counts (the table's deals ``before`` and ``after`` it).
    A table reopened with all its deals (an admin correcting it) stays open through its edits."""
    if night.deals is not None and before < night.deals <= after:
        close_locked(db=db, night=night, why="last deal")


def undo_last(
    *,
    db: Session,
    night_id: int,
    expected_hands: int | None = None,
    expected_version: int | None = None,
    who: str | None = lifecycle.SYSTEM,
) -> HandRecord:
    """Take back the last hand (kept in the audit trail, with its idempotency key: the hand sent again
    with that key is not recorded again). ``expected_hands``: how many hands the caller saw;
    ``expected_version``: the night's version it saw (a confirmation page's: any change since refuses).

    :raises Conflict: when the night's life does not allow it (closed, a finished table, no hand, ...),
        or the night is not as the caller saw it (:class:`StaleVersion`: it has left ``expected_version``).
    """
    night = lock_night(db=db, night_id=night_id)
    lifecycle.check(lifecycle.life_of(db=db, night=night), lifecycle.UNDO, who)
    hands = hand_rows(db=db, night_id=night_id)
    changed = (
        N_("another phone changed the table meanwhile: check it before you undo")
        if night.tournament_id is not None  # a tournament's table is a table on its pages, never a night
        else N_("another phone changed the night meanwhile: check the table before you undo")
    )
    if expected_version is not None and expected_version != night.version:
        raise StaleVersion(changed, seen=expected_version, now=night.version)
    if expected_hands is not None and expected_hands != len(hands):
        raise Conflict(changed)
    last = hand_record(db=db, night_id=night_id, number=len(hands))
    db.delete(last)
    touch(db=db, night=night, action="undo", number=last.number, before=last.data, after=None, key=last.idempotency_key)
    history.refresh(db=db, night=night, hands=hands[:-1])  # the hands before it keep their results
    db.commit()
    return last


def add_imported_hands(*, db: Session, night: Night, hands: list[dict[str, Any]], audit: list[dict[str, Any]]) -> Table:
    """Write the hands and the audit trail of a night read from an export file, as they were
    (checked and settled by the reader), and the night's history rows (not committed)."""
    ordered = sorted(hands, key=lambda h: h["number"])
    datas = [h["data"] for h in ordered]
    columns = stored_columns(
        game=night.game,
        rules=night.rules,
        pot_start=night.pot_start,
        hands=datas,
        dealers=[h["dealer"] for h in ordered],
        seat_count=night.seat_count,
    )
    stored = {} if columns is None else {h["number"]: c for h, c in zip(ordered, columns, strict=True)}
    db.add_all(HandRecord(night_id=night.id, **h, **_columns(stored.get(h["number"]))) for h in hands)
    db.flush()  # hands before audit entries, each in file order: their ids keep the order
    db.add_all(AuditEntry(night_id=night.id, **a) for a in audit)
    return history.refresh(db=db, night=night, hands=hand_rows(db=db, night_id=night.id))
