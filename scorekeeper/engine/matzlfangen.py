"""Matzlfangen: four seats, 130 card points, Rufen and four solo contracts.

The rules in the project's words: docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import N_, InvalidHand
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
)
from .results import HandFacts, HandResult, Mark, Steps, side_deltas, solo_deltas, step_marks
from .rules import option

NAME = "matzlfangen"
TITLE = "Matzlfangen"
SEATS = 4
TABLE_SIZES = (4, 5)  # at a table of five the dealer sits out each hand
SUMMARY_HEADER = "contract"  # the export's column that says what each hand was
FOREHAND_DECLARES = True  # the hand form names forehand
TOTAL_POINTS = 130
MATZL_POINTS = 10  # the Matzl is the trump ten
CONTRACTS = ("rufen", "treiben", "neidspiel", "durch", "trumpf_durch")
POINT_CONTRACTS = frozenset({"rufen", "treiben", "neidspiel"})
SLAM_CONTRACTS = frozenset({"durch", "trumpf_durch"})
SUITS = ("eichel", "gras", "herz", "schellen")
SIDES = (None, "declarers", "defenders")
#: The raise levels, from the first raise (1) to the tenth.
RAISE_NAMES = ("Schuß", "Re", "Sub", "Dut", "Hirsch", "Gams", "Jager", "Gweih", "Auffi", "Drauffi")

FIELDS = frozenset(
    {
        "contract",
        "declarer",
        "dealer",
        "partner",
        "raises",
        "points",
        "schwarz",
        "won",
        "matzl",
        "matzl_claimed",
        "trump",
    }
)
_COMMON = frozenset({"contract", "declarer", "dealer", "raises", "trump"})
#: The fields that apply to each contract (``matzl_claimed`` only with a ``matzl``).
ALLOWED = {
    "rufen": _COMMON | {"partner", "points", "schwarz", "matzl", "matzl_claimed"},
    "treiben": _COMMON | {"points", "schwarz", "matzl", "matzl_claimed"},
    "neidspiel": _COMMON | {"points", "schwarz", "matzl", "matzl_claimed"},
    "durch": _COMMON | {"won"},
    "trumpf_durch": _COMMON | {"won", "matzl", "matzl_claimed"},
}


#: Message templates naming a side (the sides are words of the message, translated with it).
_NO_TRICK_MATZL = {
    "declarers": N_("the declarers took no trick, so they cannot have caught the Matzl"),
    "defenders": N_("the defenders took no trick, so they cannot have caught the Matzl"),
}
_MATZL_POINTS = {
    "declarers": N_("the declarers caught the Matzl, a ten, so they have at least {least} points, not {points}"),
    "defenders": N_("the defenders caught the Matzl, a ten, so they have at least {least} points, not {points}"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of Matzlfangen (docs/rules.md)."""

    preset: str = "seed"
    win_threshold: int = option(66, lo=1, hi=TOTAL_POINTS, help="card points the declaring side needs to win")
    no_water_below: int = option(30, lo=0, hi=TOTAL_POINTS, help="a losing side under this has no water")
    no_trick_value: int = option(3, lo=0, hi=100, help="units when the losing side took no trick")
    no_water_value: int = option(2, lo=0, hi=100, help="units when the losing side has no water")
    durch_value: int = option(6, lo=0, hi=100, help="units of a Durch or Trumpf-Durch")
    max_raises: int = option(10, lo=0, hi=len(RAISE_NAMES), help="how many raises are allowed")
    matzl_bonus: int = option(1, lo=0, hi=100, help="units the winners add for a claimed Matzl")
    matzl_annuls_loss: bool = option(True, help="a side that caught the Matzl and lost pays nothing")


PRESETS = {"seed": {}}


def fields(rules: Rules, contract: str | None = None) -> frozenset[str]:
    """The fields that count for a hand of ``contract`` under ``rules`` (None: of any contract): no raise
    where none is allowed (``max_raises`` 0).

    >>> "raises" in fields(Rules()), "raises" in fields(Rules(max_raises=0), "rufen")
    (True, False)
    """
    out = FIELDS if contract is None else ALLOWED.get(contract, frozenset())
    return out - {"raises"} if rules.max_raises == 0 else out


def raise_names(rules: Rules) -> tuple[str, ...]:
    """The raises ``rules`` allow, from the first (``max_raises`` of :data:`RAISE_NAMES`).

    >>> raise_names(Rules(max_raises=2)), raise_names(Rules(max_raises=0))
    (('Schuß', 'Re'), ())
    """
    return RAISE_NAMES[: rules.max_raises]


@dataclass(slots=True)  # never changed once made (not frozen: see results.HandResult)
class Hand:
    """One validated Matzlfangen hand. Build it with :meth:`from_json`."""

    contract: str
    declarer: int
    partner: int | None = None
    dealer: int | None = None
    raises: int = 0
    points: int | None = None
    schwarz: bool = False
    won: bool = False  # point contracts: derived from the points
    matzl: str | None = None
    matzl_claimed: bool = True
    trump: str | None = None

    @classmethod
    def from_json(cls, data: object, index: int | None, rules: Rules) -> Hand:
        """Validate one hand of the JSON contract.

        :raises InvalidHand: naming the field and the reason.

        >>> Hand.from_json({"contract": "durch", "declarer": 2, "won": True}, 0, Rules()).won
        True
        """
        data = check_object(data, index, "", "a hand")
        contract = get_choice(data, "contract", index, CONTRACTS)
        check_fields(data, ALLOWED[contract], FIELDS, index, contract)
        # every problem of the hand is found, not the first (a form shows them all at once)
        p = Problems()
        dealer = p.read(get_seat, data, "dealer", index, SEATS, None)
        raises = p.read(get_int, data, "raises", index, 0, rules.max_raises, 0)
        trump = p.read(get_choice, data, "trump", index, SUITS) if "trump" in data else None
        partner = None
        if contract == "rufen":
            forehand = None if dealer in (None, FAILED) else dealer % SEATS + 1
            # In rufen forehand declares: with the dealer given, the declarer may be left out.
            declarer = (
                forehand
                if forehand is not None and "declarer" not in data
                else p.read(get_seat, data, "declarer", index, SEATS)
            )
            if forehand is not None and declarer is not FAILED and declarer != forehand:
                p.add(
                    InvalidHand(
                        index,
                        "declarer",
                        "in rufen forehand declares: with seat {dealer} dealing that is seat {forehand}",
                        dealer=dealer,
                        forehand=forehand,
                    )
                )
            partner = p.read(get_seat, data, "partner", index, SEATS)
            if partner is not FAILED and partner == declarer:
                p.add(InvalidHand(index, "partner", "the partner must be another seat than the declarer"))
        else:
            declarer = p.read(get_seat, data, "declarer", index, SEATS)
        points, schwarz = None, False
        if contract in POINT_CONTRACTS:
            read = p.read(get_points_and_schwarz, data, index, TOTAL_POINTS, rules.win_threshold)
            points, schwarz, won = (FAILED, False, FAILED) if read is FAILED else read
        else:
            won = p.read(get_bool, data, "won", index)
        matzl = p.read(get_choice, data, "matzl", index, SIDES) if "matzl" in data else None
        matzl_claimed = True
        if matzl is None:
            p.read(forbid, data, ("matzl_claimed",), index, "applies only when a side caught the Matzl")
        elif matzl is not FAILED:
            matzl_claimed = p.read(get_bool, data, "matzl_claimed", index, True)
            if won is not FAILED:  # the Matzl's checks need the result
                losing_side = "defenders" if won else "declarers"
                if matzl == losing_side and (schwarz or (contract == "trumpf_durch" and won)):
                    p.add(InvalidHand(index, "matzl", _NO_TRICK_MATZL[losing_side]))
                elif points is not None:
                    side_points = points if matzl == "declarers" else TOTAL_POINTS - points
                    if side_points < MATZL_POINTS:
                        p.add(InvalidHand(index, "matzl", _MATZL_POINTS[matzl], least=MATZL_POINTS, points=side_points))
        p.check()
        return cls(contract, declarer, partner, dealer, raises, points, schwarz, won, matzl, matzl_claimed, trump)


def initial_state(rules: Rules) -> None:
    """Matzlfangen carries nothing from hand to hand."""
    return None


def state_to_json(state: None) -> None:
    """Nothing carries, so nothing is stored."""
    return None


def state_from_json(data: Any) -> None:
    """Nothing carries."""
    return None


def settle_hand(rules: Rules, hand: Hand, state: None, index: int | None = None) -> tuple[HandResult, None]:
    """Settle one valid hand: its value, who won, and what every seat pays or gets.

    >>> r, _ = settle_hand(Rules(), Hand("rufen", 1, partner=3, raises=5, points=70, won=True), None)
    >>> r.value, r.deltas
    (6, (6, -6, 6, -6))
    """
    won = hand.won
    winners = "declarers" if won else "defenders"
    steps = Steps()
    contract = hand.contract
    if contract in POINT_CONTRACTS:
        points = hand.points
        verb = "won" if won else "lost"
        steps.add(
            "points",
            f"{contract} {verb} with {points} of {TOTAL_POINTS} ({rules.win_threshold} needed)",
            1,
            contract=contract,
            won=won,
            points=points,
            needed=rules.win_threshold,
        )
        losers_points = TOTAL_POINTS - points if won else points
        if hand.schwarz:
            steps.add("no_trick", "the losing side took no trick", rules.no_trick_value - 1, level=rules.no_trick_value)
        elif losers_points < rules.no_water_below:
            steps.add(
                "no_water",
                f"kein Wasser: the losing side has {losers_points}, under {rules.no_water_below}",
                rules.no_water_value - 1,
                points=losers_points,
                below=rules.no_water_below,
                level=rules.no_water_value,
            )
    else:
        verb = "won: the declarer took every trick" if won else "lost: the declarer lost a trick"
        steps.add("slam", f"{contract} {verb}", rules.durch_value, contract=contract, won=won)
    if hand.raises:
        level = RAISE_NAMES[hand.raises - 1]
        steps.add("raises", f"raised {hand.raises}× to {level}", hand.raises, raises=hand.raises, level=level)
    matzl = hand.matzl
    if matzl is not None:
        if matzl == winners:
            if hand.matzl_claimed:
                steps.add("matzl_bonus", "the winners caught the Matzl and claimed it", rules.matzl_bonus)
            else:
                steps.add("matzl_unclaimed", "the winners caught the Matzl but did not claim it", 0)
        elif rules.matzl_annuls_loss:
            steps.set("matzl_annuls", "the losing side caught the Matzl: nobody pays", 0)
        else:
            steps.add("matzl_no_effect", "the losing side caught the Matzl (no effect under these rules)", 0)
    value = steps.total
    amount = value if won else -value
    if contract == "rufen":
        deltas = side_deltas(SEATS, (hand.declarer, hand.partner), amount)
    else:
        deltas = solo_deltas(SEATS, hand.declarer, amount)
    return HandResult(value, winners, deltas, steps.finish()), None


def finish(rules: Rules, state: None, totals: tuple[int, ...]) -> tuple[tuple[int, ...], None, dict]:
    """The balance is the totals; nothing else is left at the end."""
    return totals, None, {}


def complete_hand(data: Any, dealer_seat: int | None, forehand_seat: int) -> Any:
    """The hand with what the deal tells: in a Rufen forehand declares. At a table of four the
    dealer is a seat and is added (the engine then knows forehand); at a table of five the dealer
    sits out (``dealer_seat`` None) and a Rufen without a declarer gets forehand's seat.

    >>> complete_hand({"contract": "rufen"}, 3, 4)
    {'contract': 'rufen', 'dealer': 3}
    >>> complete_hand({"contract": "rufen"}, None, 2)
    {'contract': 'rufen', 'declarer': 2}
    """
    if not isinstance(data, dict):
        return data
    if dealer_seat is not None:
        return data if "dealer" in data else {**data, "dealer": dealer_seat}
    if data.get("contract") == "rufen" and "declarer" not in data:
        return {**data, "declarer": forehand_seat}
    return data


def facts(hand: Hand, result: HandResult) -> HandFacts:
    """The declarer, the contract, and who caught the Matzl."""
    if hand.matzl is None:
        return HandFacts((hand.declarer,), hand.contract, result.winner == "declarers")
    side = {hand.declarer, hand.partner} - {None}
    catchers = side if hand.matzl == "declarers" else set(range(1, SEATS + 1)) - side
    others = set(range(1, SEATS + 1)) - catchers
    return HandFacts(
        (hand.declarer,),
        hand.contract,
        result.winner == "declarers",
        catchers=tuple(sorted(catchers)),
        losers_of_matzl=tuple(sorted(others)),
        events=("matzl",),
    )


#: The steps that change a hand's value beyond its contract: the losers' lack of a trick or of water,
#: the raises, the Matzl and what it did (a bonus, nothing, or nobody pays).
MARK_STEPS = frozenset(
    {"no_trick", "no_water", "raises", "matzl_bonus", "matzl_unclaimed", "matzl_annuls", "matzl_no_effect"}
)


def marks(rules: Rules, hand: Hand, result: HandResult) -> list[Mark]:
    """What changed the hand's value, from its steps: no trick or no water, the raises, the Matzl.

    >>> r, _ = settle_hand(Rules(), Hand("rufen", 1, partner=3, raises=5, points=50, matzl="declarers"), None)
    >>> [(m.key, m.args.get("level")) for m in marks(Rules(), Hand("rufen", 1), r)]
    [('raises', 'Hirsch'), ('matzl_annuls', None)]
    """
    return step_marks(result.steps_json, MARK_STEPS)


def summary(hand: Hand) -> str | int:
    """What the hand was, for the export's summary column: its contract."""
    return hand.contract
