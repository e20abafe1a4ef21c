"""Schafkopf: four seats, 120 card points; Sauspiel, Wenz, Solo, Tout, the pot and Ramsch.

The rules in the project's words: docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidHand
from .fields import (
    FAILED,
    Problems,
    check_fields,
    check_object,
    forbid,
    get_bool,
    get_choice,
    get_int,
    get_points_and_schwarz,
    get_seat,
    seat_keys,
    shown,
    type_name,
)
from .ledger import CEILING
from .results import HandFacts, HandResult, Mark, Steps, side_deltas, solo_deltas, step_marks
from .rules import option

NAME = "schafkopf"
TITLE = "Schafkopf"
SEATS = 4
TABLE_SIZES = (4, 5)  # at a table of five the dealer sits out each hand
SUMMARY_HEADER = "contract"  # the export's column that says what each hand was
FOREHAND_DECLARES = True  # the hand form names forehand
TOTAL_POINTS = 120
CONTRACTS = ("sauspiel", "wenz", "solo", "rundpass", "ramsch")
SUITS = ("eichel", "gras", "herz", "schellen")
CALLABLE_SUITS = ("eichel", "gras", "schellen")
SOLO_CONTRACTS = frozenset({"wenz", "solo"})
MAX_KLOPFEN = 4
SEAT_KEYS = seat_keys(SEATS)

FIELDS = frozenset(
    {
        "contract",
        "suit",
        "declarer",
        "partner",
        "points",
        "schwarz",
        "laufende",
        "tout",
        "won",
        "kontra",
        "re",
        "klopfen",
        "jungfrau",
        "durchmarsch",
        "loser",
    }
)
_GAME = frozenset({"contract", "declarer", "laufende", "kontra", "re", "klopfen", "points", "schwarz"})
#: The fields that apply to each contract (a tout then trades points and schwarz for won).
ALLOWED = {
    "sauspiel": _GAME | {"suit", "partner"},
    "wenz": _GAME | {"tout", "won"},
    "solo": _GAME | {"suit", "tout", "won"},
    "rundpass": frozenset({"contract"}),
    "ramsch": frozenset({"contract", "points", "jungfrau", "durchmarsch", "loser", "klopfen"}),
}


#: The most runners (Laufende) a contract can have (docs/rules.md): every trump from the top;
#: a Wenz has 4 trumps. The hand form offers these counts (web/hands/forms.py).
MAX_RUNNERS = {"sauspiel": 14, "solo": 14, "wenz": 4}


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of Schafkopf (docs/rules.md); presets ``seed``, ``seed-variant``, ``bavarian``, ``turnier``."""

    preset: str = "seed"
    tariff_sauspiel: int = option(2, lo=0, hi=1000, help="units of a Sauspiel")
    tariff_solo: int = option(5, lo=0, hi=1000, help="units of a Wenz or Solo")
    extra: int = option(1, lo=0, hi=1000, help="units for schneider, schwarz and each runner")
    laufende_min: int = option(3, lo=1, hi=14, help="runners paid from this many on")
    laufende_min_wenz: int = option(2, lo=1, hi=4, help="runners paid in a Wenz from this many on")
    laufende_max: int | None = option(
        None, lo=0, hi=14, nullable=True, help="runners beyond this are not paid (0: runners are never paid)"
    )
    kontra_shifts_threshold: bool = option(True, help="after kontra the declaring side wins with 60")
    declarers_schneider_at: int = option(
        29, lo=0, hi=59, help="a losing declaring side with this many or fewer is schneider"
    )
    klopfen_played: bool = option(True, help="players may knock (each knock doubles)")
    all_pass: str = option(
        "pot", choices=("pot", "ramsch", "none", "redeal"), help="what happens when everybody passes"
    )
    pot_stake: int = option(2, lo=0, hi=1000, help="units each player pays into the pot on a rundpass")
    pot_at_close: str = option(
        "split", choices=("split", "carry"), help="what happens to the pot at the end of the night"
    )
    tariff_ramsch: int = option(2, lo=0, hi=1000, help="units the Ramsch loser pays each other player")
    jungfrau: str = option("double_all", choices=("double_all", "double_own", "none"), help="what a Jungfrau doubles")
    durchmarsch_tariff: str = option("solo", choices=("solo", "ramsch"), help="the tariff a Durchmarsch is paid at")
    ramsch_tie: str = option(
        "all_lose", choices=("all_lose", "named"), help="who loses when players tie for most points"
    )


PRESETS = {
    "seed": {},
    "seed-variant": {"tariff_sauspiel": 1, "tariff_solo": 2, "all_pass": "none"},
    "bavarian": {
        "tariff_sauspiel": 2,
        "tariff_solo": 5,
        "kontra_shifts_threshold": False,
        "declarers_schneider_at": 30,
        "all_pass": "ramsch",
    },
    # one common tournament scheme (docs/rules.md, "Tournaments"): points, not money
    "turnier": {
        "tariff_sauspiel": 1,
        "tariff_solo": 5,
        "extra": 1,
        "laufende_max": 0,
        "all_pass": "redeal",
        "kontra_shifts_threshold": False,
        "declarers_schneider_at": 30,
        "klopfen_played": False,
    },
}


def contracts(rules: Rules) -> tuple[str, ...]:
    """The contracts a hand can be under ``rules``: an all-pass hand is a Ramsch where the rules play one
    (``all_pass`` ramsch), else a Rundpass.

    >>> contracts(Rules()), contracts(Rules(all_pass="ramsch"))[-1]
    (('sauspiel', 'wenz', 'solo', 'rundpass'), 'ramsch')
    """
    return ("sauspiel", "wenz", "solo", "ramsch" if _ramsch_played(rules) else "rundpass")


# What applies under a rule set, asked by the hand form (:func:`fields`) and by a tariff box
# (:func:`idle_options`) alike: each fact once.


def _ramsch_played(rules: Rules) -> bool:
    """An all-pass hand is played as a Ramsch."""
    return rules.all_pass == "ramsch"


def _runners_paid(rules: Rules) -> bool:
    """Runners (Laufende) are paid at all."""
    return rules.laufende_max != 0


def fields(rules: Rules, contract: str | None = None) -> frozenset[str]:
    """The fields that count for a hand of ``contract`` under ``rules`` (None: of any contract played):
    none of a contract not played; no runners where none is paid (``laufende_max`` 0), no knock where none
    is played (``klopfen_played``), no Ramsch loser unless the table names one (``ramsch_tie`` named).

    >>> sorted(fields(Rules(laufende_max=0, klopfen_played=False), "wenz"))
    ['contract', 'declarer', 'kontra', 'points', 're', 'schwarz', 'tout', 'won']
    >>> "loser" in fields(Rules(all_pass="ramsch")), "loser" in fields(Rules(all_pass="ramsch", ramsch_tie="named"))
    (False, True)
    """
    played = contracts(rules)
    if contract is not None and contract not in played:
        return frozenset()
    out = frozenset().union(*(ALLOWED[c] for c in (played if contract is None else (contract,))))
    void = {
        "laufende": not _runners_paid(rules),
        "klopfen": not rules.klopfen_played,
        "loser": rules.ramsch_tie != "named",
    }
    return out - {name for name, never in void.items() if never}


def idle_options(rules: Rules) -> frozenset[str]:
    """The options of ``rules`` that cannot come up under them: the pot's where an all-pass hand pays
    no pot, the Ramsch's where none is played, the runners' thresholds where runners are never paid.

    >>> sorted(idle_options(Rules(all_pass="ramsch")))
    ['pot_at_close', 'pot_stake']
    """
    out = set()
    if rules.all_pass != "pot":  # only a rundpass with a pot pays into it
        out |= {"pot_stake", "pot_at_close"}
    if not _ramsch_played(rules):  # a Durchmarsch, a Jungfrau and a tie for most points are the Ramsch's
        out |= {"tariff_ramsch", "jungfrau", "durchmarsch_tariff", "ramsch_tie"}
    if not _runners_paid(rules):  # from how many on does not matter
        out |= {"laufende_min", "laufende_min_wenz"}
    return frozenset(out)


@dataclass(slots=True)  # never changed once made (not frozen: see results.HandResult)
class Hand:
    """One validated Schafkopf hand. Build it with :meth:`from_json`.

    For ``ramsch``, ``ramsch_points`` holds each seat's card points (seat 1 first).
    """

    contract: str
    declarer: int | None = None
    partner: int | None = None
    suit: str | None = None
    points: int | None = None
    schwarz: bool = False
    laufende: int = 0
    tout: bool = False
    won: bool = False
    kontra: bool = False
    re: bool = False
    klopfen: int = 0
    ramsch_points: tuple[int, ...] | None = None
    jungfrau: tuple[int, ...] = ()
    durchmarsch: int | None = None
    loser: int | None = None

    @classmethod
    def from_json(cls, data: object, index: int | None, rules: Rules) -> Hand:
        """Validate one hand of the JSON contract.

        :raises InvalidHand: naming the field and the reason.

        >>> Hand.from_json({"contract": "solo", "suit": "herz", "declarer": 1, "points": 61}, 0, Rules()).won
        True
        """
        data = check_object(data, index, "", "a hand")
        contract = get_choice(data, "contract", index, CONTRACTS)
        check_fields(data, ALLOWED[contract], FIELDS, index, contract)
        if contract == "rundpass":
            if rules.all_pass == "ramsch":
                raise InvalidHand(index, "contract", "under these rules an all-pass hand is played as ramsch")
            return cls(contract)
        if contract == "ramsch":
            if rules.all_pass != "ramsch":
                raise InvalidHand(
                    index,
                    "contract",
                    "ramsch is only played with all_pass ramsch, not {all_pass}",
                    all_pass=rules.all_pass,
                )
            return cls._ramsch_from_json(data, index, rules)
        # every problem of the hand is found, not the first (a form shows them all at once)
        p = Problems()
        declarer = p.read(get_seat, data, "declarer", index, SEATS)
        partner = None
        suit = None
        if contract == "sauspiel":
            suit = p.read(get_choice, data, "suit", index, CALLABLE_SUITS)
            partner = p.read(get_seat, data, "partner", index, SEATS)
            if partner is not FAILED and partner == declarer:
                p.add(InvalidHand(index, "partner", "the partner must be another seat than the declarer"))
            tout = False
        else:
            if contract == "solo":
                suit = p.read(get_choice, data, "suit", index, SUITS)
            tout = "tout" in data and p.read(get_bool, data, "tout", index) is True
        max_runners = MAX_RUNNERS.get(contract, MAX_RUNNERS["solo"])
        laufende = p.read(get_int, data, "laufende", index, 0, max_runners, 0)
        kontra = "kontra" in data and p.read(get_bool, data, "kontra", index) is True
        re = "re" in data and p.read(get_bool, data, "re", index) is True
        if re and not kontra:
            p.add(InvalidHand(index, "re", "re needs kontra first"))
        klopfen = p.read(_klopfen, data, index, rules)
        points, schwarz = None, False
        if tout:
            p.read(forbid, data, ("points", "schwarz"), index, "does not apply to a tout: it is won or lost")
            won = p.read(get_bool, data, "won", index)
        else:
            if contract != "sauspiel":  # a Sauspiel has no won field at all (check_fields)
                p.read(forbid, data, ("won",), index, "applies only to a tout")
            needed = needed_to_win(rules, kontra, re)
            read = p.read(get_points_and_schwarz, data, index, TOTAL_POINTS, needed)
            points, schwarz, won = (None, False, False) if read is FAILED else read
        p.check()
        return cls(contract, declarer, partner, suit, points, schwarz, laufende, tout, won, kontra, re, klopfen)

    @classmethod
    def _ramsch_from_json(cls, data: dict, index: int | None, rules: Rules) -> Hand:
        klopfen = _klopfen(data, index, rules)
        durchmarsch = None if data.get("durchmarsch") is None else get_seat(data, "durchmarsch", index, SEATS)
        if durchmarsch is not None:
            forbid(data, ("loser",), index, "does not apply to a durchmarsch")
            if "jungfrau" in data:
                _durchmarsch_jungfrau(_seat_list(data["jungfrau"], "jungfrau", index), durchmarsch, index)
            if "points" in data:
                points = _ramsch_points(data["points"], index)
                if points[durchmarsch - 1] != TOTAL_POINTS:
                    field = f"points.{durchmarsch}"
                    raise InvalidHand(index, field, "a durchmarsch takes every trick, so all 120 points")
            else:
                points = tuple(TOTAL_POINTS if s == durchmarsch else 0 for s in range(1, SEATS + 1))
            return cls("ramsch", klopfen=klopfen, ramsch_points=points, durchmarsch=durchmarsch)
        if "points" not in data:
            raise InvalidHand(index, "points", "points is required: each seat's card points")
        points = _ramsch_points(data["points"], index)
        jungfrau = _seat_list(data.get("jungfrau", []), "jungfrau", index)
        for seat in jungfrau:
            if points[seat - 1]:
                raise InvalidHand(
                    index,
                    "jungfrau",
                    "seat {seat} took no trick, so it cannot have {points} points",
                    seat=seat,
                    points=points[seat - 1],
                )
        if len(jungfrau) >= SEATS - 1:
            raise InvalidHand(index, "jungfrau", "when three players took no trick the fourth made a durchmarsch")
        most = max(points)
        tied = tuple(s for s in range(1, SEATS + 1) if points[s - 1] == most)
        loser = None
        if rules.ramsch_tie == "named" and len(tied) > 1:
            loser = get_seat(data, "loser", index, SEATS, None)
            if loser is None:
                raise InvalidHand(
                    index, "loser", "seats {seats} tie for most points: name the loser", seats=", ".join(map(str, tied))
                )
            if loser not in tied:
                raise InvalidHand(
                    index, "loser", "the loser must be one of the tied seats {seats}", seats=", ".join(map(str, tied))
                )
        else:
            forbid(data, ("loser",), index, "is named only when players tie for most points (ramsch_tie named)")
        return cls("ramsch", klopfen=klopfen, ramsch_points=points, jungfrau=jungfrau, loser=loser)


def _klopfen(data: dict, index: int | None, rules: Rules) -> int:
    """The knocks of a game or a Ramsch (0 when not given).

    :raises InvalidHand: for a knock under rules that play none (``klopfen_played`` false).
    """
    klopfen = get_int(data, "klopfen", index, 0, MAX_KLOPFEN, 0)
    if klopfen and not rules.klopfen_played:
        raise InvalidHand(index, "klopfen", "knocking is not played under these rules")
    return klopfen


def _durchmarsch_jungfrau(jungfrau: tuple[int, ...], durchmarsch: int, index: int | None) -> None:
    """A Durchmarsch leaves the three other seats without a trick: ``jungfrau`` may say so or be empty.

    Either way it changes nothing (a Durchmarsch is paid as it is); a list that says anything else
    contradicts the Durchmarsch.

    :raises InvalidHand: for the Durchmarsch seat as a Jungfrau, or only some of the other seats.
    """
    others = tuple(s for s in range(1, SEATS + 1) if s != durchmarsch)
    if not jungfrau or jungfrau == others:
        return
    if durchmarsch in jungfrau:
        raise InvalidHand(
            index,
            "jungfrau",
            "seat {seat} made the durchmarsch and took every trick, so it is no jungfrau",
            seat=durchmarsch,
        )
    raise InvalidHand(
        index,
        "jungfrau",
        "a durchmarsch leaves seats {others} without a trick: jungfrau names all three or none, not {seats}",
        others=", ".join(map(str, others)),
        seats=", ".join(map(str, jungfrau)),
    )


def _ramsch_points(value: object, index: int | None) -> tuple[int, ...]:
    obj = check_object(value, index, "points", "points in a ramsch")
    for key in obj:
        if key not in SEAT_KEYS:
            field = f"points.{key}"
            raise InvalidHand(index, field, "unknown seat {key}: seats are 1 to {seats}", key=shown(key), seats=SEATS)
    points = tuple(
        get_int({f"points.{key}": obj[key]}, f"points.{key}", index, 0, TOTAL_POINTS)
        if key in obj
        else _missing_seat(key, index)
        for key in SEAT_KEYS
    )
    total = sum(points)
    if total != TOTAL_POINTS:
        raise InvalidHand(
            index, "points", "the card points must add up to {needed}, not {total}", needed=TOTAL_POINTS, total=total
        )
    return points


def _missing_seat(key: str, index: int | None) -> int:
    field = f"points.{key}"
    raise InvalidHand(index, field, "points of seat {seat} are required", seat=key)


def _seat_list(value: object, name: str, index: int | None) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise InvalidHand(index, name, "{name} must be a list of seats, not {type}", name=name, type=type_name(value))
    seats = tuple(get_seat({name: v}, name, index, SEATS) for v in value)
    if len(set(seats)) != len(seats):
        raise InvalidHand(index, name, "{name} names a seat twice", name=name)
    return tuple(sorted(seats))


def needed_to_win(rules: Rules, kontra: bool, re: bool) -> int:
    """Card points the declaring side needs: 61, or 60 after kontra without re if the rules shift it."""
    return 60 if kontra and not re and rules.kontra_shifts_threshold else 61


@dataclass(slots=True)  # never changed once made (not frozen: see results.HandResult)
class State:
    """What carries from hand to hand: the pot's content in units."""

    pot: int = 0


def initial_state(rules: Rules, pot: Any = None) -> State:
    """The pot at the start: empty, or the units carried from the club's last night (``pot``).

    :raises InvalidHand: for a pot under rules without one, or a pot that is not an even number of units.
    """
    if pot is None:
        return State()
    if rules.all_pass != "pot":
        raise InvalidHand(None, "pot", "a pot to start with applies only to schafkopf with all_pass pot")
    get_int({"pot": pot}, "pot", None, 0, CEILING)
    if pot % 2:
        raise InvalidHand(None, "pot", "the pot holds an even number of units (it is shared in halves)")
    return State(pot)


def state_to_json(state: State) -> dict[str, Any]:
    """The pot, as stored with a hand.

    >>> state_from_json(state_to_json(State(8)))
    State(pot=8)
    """
    return {"pot": state.pot}


def state_from_json(data: Any) -> State:
    """The state :func:`state_to_json` wrote (the engine's own output: not validated)."""
    return State(data["pot"])


def carries_pot(rules: Rules) -> bool:
    """Whether a night under these rules leaves its pot to the club's next night of the game."""
    return rules.all_pass == "pot" and rules.pot_at_close == "carry"


def takes_pot(rules: Rules) -> bool:
    """Whether a night under these rules starts with the pot a former night carried."""
    return rules.all_pass == "pot"


def is_redeal(rules: Rules, hand: Hand) -> bool:
    """Whether ``hand`` is dealt again by the same dealer and does not count: a rundpass under ``all_pass`` redeal.

    >>> is_redeal(Rules(all_pass="redeal"), Hand("rundpass")), is_redeal(Rules(), Hand("rundpass"))
    (True, False)
    """
    return hand.contract == "rundpass" and rules.all_pass == "redeal"


def settle_hand(rules: Rules, hand: Hand, state: State, index: int | None = None) -> tuple[HandResult, State]:
    """Settle one valid hand and move the pot.

    The pot's moves are steps of their own (``pot_in``, ``pot_out``, ``pot_doubled``) just before
    ``value``: they add 0 units to the value (the pot is paid beside it) and name what each player of
    the side pays or takes and what the pot holds after the hand.

    >>> h = Hand("solo", 1, suit="herz", laufende=4, tout=True, won=True)
    >>> r, _ = settle_hand(Rules(), h, State())
    >>> r.value, r.deltas
    (18, (54, -18, -18, -18))
    >>> r, _ = settle_hand(Rules(), Hand("sauspiel", 1, 3, "gras", 70, won=True), State(8))
    >>> r.deltas, [(s.key, s.units, s.total, dict(s.args)) for s in r.steps[1:]]
    ((6, -2, 6, -2), [('pot_out', 0, 2, {'seats': [1, 3], 'each': 4, 'taken': 8, 'pot': 0}), ('value', 2, 2, {})])
    """
    if hand.contract == "rundpass":
        return _rundpass(rules, state)
    if hand.contract == "ramsch":
        value, winner, deltas, steps, extra = _ramsch(rules, hand)
    else:
        value, winner, deltas, steps, extra = _game(rules, hand)
    if rules.all_pass != "pot":
        return HandResult(value, winner, deltas, steps.finish(), None, extra), state
    pot = state.pot
    pot_delta = 0
    if hand.contract == "sauspiel" and pot:
        half = pot // 2
        side = [hand.declarer, hand.partner]
        if hand.won:
            share, pot_delta = half, -pot
            steps.add(
                "pot_out",
                f"declarer and partner take {half} each from the pot (-{pot}), the pot holds 0",
                0,
                seats=side,
                each=half,
                taken=pot,
                pot=0,
            )
        else:
            share, pot_delta = -half, pot
            steps.add(
                "pot_doubled",
                f"declarer and partner pay {half} each into the pot, doubling it (+{pot}), the pot holds {2 * pot}",
                0,
                seats=side,
                each=half,
                paid=pot,
                pot=2 * pot,
            )
        shared = list(deltas)
        for seat in side:
            shared[seat - 1] += share
        deltas = tuple(shared)
        state = State(pot + pot_delta)  # else the pot stays as it was
    extra["pot_before"] = pot
    extra["pot_after"] = pot + pot_delta
    return HandResult(value, winner, deltas, steps.finish(), pot_delta, extra), state


def _rundpass(rules: Rules, state: State) -> tuple[HandResult, State]:
    steps = Steps()
    if rules.all_pass == "none":
        steps.add("rundpass_none", "everybody passed: nothing is paid", 0)
        return HandResult(0, None, (0,) * SEATS, steps.finish()), state
    if rules.all_pass == "redeal":
        steps.add("rundpass_redeal", "everybody passed: the same dealer deals again, the deal does not count", 0)
        return HandResult(0, None, (0,) * SEATS, steps.finish()), state
    stake = rules.pot_stake
    steps.add("rundpass_pot", f"everybody passed: each player pays {stake} into the pot", stake, stake=stake)
    pot_delta = stake * SEATS
    pot = state.pot + pot_delta
    steps.add("pot_in", f"+{pot_delta} into the pot, the pot holds {pot}", 0, each=stake, paid=pot_delta, pot=pot)
    extra = {"pot_before": state.pot, "pot_after": pot}
    return HandResult(stake, None, (-stake,) * SEATS, steps.finish(), pot_delta, extra), State(pot)


def _game(rules: Rules, hand: Hand) -> tuple:
    contract = hand.contract
    won = hand.won
    steps = Steps()
    tariff = rules.tariff_sauspiel if contract == "sauspiel" else rules.tariff_solo
    name = contract if contract != "solo" else ("solo" if hand.suit == "herz" else f"{hand.suit} solo")
    verb = "won" if won else "lost"
    # the suit (a Solo's trumps, a Sauspiel's called ace) lets a page name the contract as players do
    suit = {} if hand.suit is None else {"suit": hand.suit}
    if hand.tout:
        steps.add("tout", f"{name} tout {verb}", tariff, contract=contract, name=name, won=won, tariff=tariff, **suit)
    else:
        needed = needed_to_win(rules, hand.kontra, hand.re)
        steps.add(
            "points",
            f"{name} {verb} with {hand.points} of {TOTAL_POINTS} ({needed} needed)",
            tariff,
            contract=contract,
            name=name,
            won=won,
            points=hand.points,
            needed=needed,
            **suit,
        )
        points = hand.points
        schneider = hand.schwarz or (points >= 91 if won else points <= rules.declarers_schneider_at)
        if schneider:
            side = "the defenders are" if won else "the declaring side is"
            steps.add(
                "schneider", f"schneider: {side} schneider", rules.extra, side="defenders" if won else "declarers"
            )
        if hand.schwarz:
            steps.add("schwarz", "schwarz: the losing side took no trick", rules.extra)
    runners = hand.laufende
    minimum = rules.laufende_min_wenz if contract == "wenz" else rules.laufende_min
    paid = 0 if runners < minimum else runners if rules.laufende_max is None else min(runners, rules.laufende_max)
    if paid:  # none paid (too few, or laufende_max 0): the steps do not speak of runners
        what = f"{runners} runners" if paid == runners else f"{runners} runners, {paid} paid"
        steps.add("laufende", what, paid * rules.extra, runners=runners, paid=paid)
    if hand.tout:
        steps.set("tout_doubles", "tout doubles", steps.total * 2)
    if hand.kontra:
        steps.set("kontra", "kontra doubles", steps.total * 2)
    if hand.re:
        steps.set("re", "re doubles", steps.total * 2)
    if hand.klopfen:
        _knocks(steps, hand.klopfen)
    value = steps.total
    amount = value if won else -value
    if contract == "sauspiel":
        deltas = side_deltas(SEATS, (hand.declarer, hand.partner), amount)
    else:
        deltas = solo_deltas(SEATS, hand.declarer, amount)
    return value, "declarers" if won else "defenders", deltas, steps, {}


def _ramsch(rules: Rules, hand: Hand) -> tuple:
    steps = Steps()
    seats = range(1, SEATS + 1)
    if hand.durchmarsch is not None:
        winner = hand.durchmarsch
        tariff = rules.tariff_solo if rules.durchmarsch_tariff == "solo" else rules.tariff_ramsch
        steps.add(
            "durchmarsch", f"durchmarsch by seat {winner}: paid as a {rules.durchmarsch_tariff}", tariff, seat=winner
        )
        _knocks(steps, hand.klopfen)
        value = steps.total
        deltas = solo_deltas(SEATS, winner, value)
        return value, None, deltas, steps, {"losers": [s for s in seats if s != winner]}
    points = hand.ramsch_points
    most = max(points)
    losers = [s for s in seats if points[s - 1] == most] if hand.loser is None else [hand.loser]
    tariff = rules.tariff_ramsch
    who = ", ".join(map(str, losers))
    steps.add("ramsch", f"ramsch: most points ({most}) lose: seat {who}", tariff, losers=losers, points=most)
    if rules.jungfrau == "double_all":
        for seat in hand.jungfrau:
            steps.set("jungfrau", f"Jungfrau: seat {seat} took no trick, doubles", steps.total * 2, seat=seat)
    elif rules.jungfrau == "double_own":
        for seat in hand.jungfrau:
            steps.add("jungfrau_own", f"Jungfrau: seat {seat} took no trick and receives double", 0, seat=seat)
    winners = [s for s in seats if s not in losers]
    if not winners:
        steps.set("ramsch_all_tied", "everybody tied: nobody pays", 0)
    _knocks(steps, hand.klopfen)
    value = steps.total
    doubled = set(hand.jungfrau) if rules.jungfrau == "double_own" else set()
    receive = {s: value * 2 if s in doubled else value for s in winners}
    paid_by_each = sum(receive.values())
    deltas = tuple(receive[s] * len(losers) if s in receive else -paid_by_each for s in seats)
    return value, None, deltas, steps, {"losers": losers}


def _knocks(steps: Steps, klopfen: int) -> None:
    for knock in range(1, klopfen + 1):
        steps.set("klopfen", f"knock {knock} doubles", steps.total * 2, knock=knock)


def finish(rules: Rules, state: State, totals: tuple[int, ...]) -> tuple[tuple[int, ...], int | None, dict]:
    """The balance is the totals; the pot (with ``all_pass`` pot) is reported beside it."""
    if rules.all_pass != "pot":
        return totals, None, {}
    return totals, state.pot, {}


def complete_hand(data: Any, dealer_seat: int | None, forehand_seat: int) -> Any:
    """Nothing to add from the deal: the form names the declarer."""
    return data


def facts(hand: Hand, result: HandResult) -> HandFacts:
    """The declarer (none in a Rundpass or Ramsch), the contract, a Tout, a Rundpass."""
    events = ("rundpass",) if hand.contract == "rundpass" else ()
    if hand.declarer is None:
        return HandFacts((), hand.contract, None, events=events)
    return HandFacts((hand.declarer,), hand.contract, result.winner == "declarers", tout=hand.tout, events=events)


#: The steps that change a hand's value beyond its contract and its points: a Tout, Schneider and
#: Schwarz, the runners paid, Kontra and Re, the knocks, a Jungfrau, and the pot's share taken or paid.
MARK_STEPS = frozenset(
    {
        "tout_doubles",
        "schneider",
        "schwarz",
        "laufende",
        "kontra",
        "re",
        "klopfen",
        "jungfrau",
        "jungfrau_own",
        "pot_out",
        "pot_doubled",
    }
)


def marks(rules: Rules, hand: Hand, result: HandResult) -> list[Mark]:
    """What changed the hand's value, from its steps (a knock or a Jungfrau counted once, with how often).

    >>> h = Hand("sauspiel", 1, 3, "gras", 50, laufende=3, kontra=True, re=True)
    >>> r, _ = settle_hand(Rules(), h, State(4))
    >>> [m.key for m in marks(Rules(), h, r)]
    ['laufende', 'kontra', 're', 'pot_doubled']
    """
    return step_marks(result.steps_json, MARK_STEPS)


def summary(hand: Hand) -> str | int:
    """What the hand was, for the export's summary column: its contract."""
    return hand.contract
