"""Matt: two players, a match of two rounds of two Durchgänge.

The rules in the project's words: docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidHand
from .fields import FAILED, Problems, check_keys, check_object, forbid, get_bool, get_choice, get_int, get_seat
from .results import HandFacts, HandResult, Mark, Steps, step_marks
from .rules import option

NAME = "matt"
TITLE = "Matt"
SEATS = 2
TABLE_SIZES = (2,)
SUMMARY_HEADER = "mated by"  # the export's column that says what each hand was
TOTAL_POINTS = None  # no card points: the mating card scores
MONEY_FROM_BALANCE = True  # the money is the match points' final difference, not the hands' sum
DURCHGAENGE_PER_MATCH = 4
MAX_MOVES = 10
#: The mating card's value.
CARD_VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "7": 7}
CARD_NAMES = {"A": "Ace", "10": "Ten", "K": "King", "Q": "Queen", "7": "Seven"}
FIELDS = frozenset({"mated_by", "move", "card", "vorablegen", "uebermatt"})


#: The balance is ``stake_per_point`` times the final difference: at 0 no unit is ever paid.
MONEY_OPTION = "stake_per_point"


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of Matt (docs/rules.md)."""

    preset: str = "seed"
    stake_per_point: int = option(0, lo=0, hi=1000, help="units per point of the final difference")


PRESETS = {"seed": {}}


def fields(rules: Rules, contract: str | None = None) -> frozenset[str]:
    """The fields of a Durchgang: every one counts under any rules (the game has no contracts)."""
    return FIELDS


@dataclass(slots=True)  # never changed once made (not frozen: see results.HandResult)
class Hand:
    """One validated Durchgang. Build it with :meth:`from_json`."""

    mated_by: int | None
    move: int | None = None
    card: str | None = None
    vorablegen: int = 0
    uebermatt: bool = False

    @classmethod
    def from_json(cls, data: object, index: int | None, rules: Rules) -> Hand:
        """Validate one Durchgang of the JSON contract.

        :raises InvalidHand: naming the field and the reason.

        >>> Hand.from_json({"mated_by": 2, "move": 7, "card": "A"}, 0, Rules()).card
        'A'
        """
        data = check_object(data, index, "", "a Durchgang")
        check_keys(data, FIELDS, index)
        if "mated_by" not in data:
            raise InvalidHand(index, "mated_by", "mated_by is required: the seat that gave mate, or null for a draw")
        mated_by = None if data["mated_by"] is None else get_seat(data, "mated_by", index, SEATS)
        vorablegen = get_int(data, "vorablegen", index, 0, 2) if "vorablegen" in data else 0
        if mated_by is None:
            forbid(data, ("move", "card", "uebermatt"), index, "does not apply to a draw")
            return cls(None, vorablegen=vorablegen)
        p = Problems()  # every problem of the Durchgang, not the first
        move = p.read(get_int, data, "move", index, 1, MAX_MOVES)
        if vorablegen == 2 and move is not FAILED and move > MAX_MOVES - 1:
            p.add(InvalidHand(index, "move", "with both players laying a card aside only 9 moves are played"))
        card = p.read(get_choice, data, "card", index, tuple(CARD_VALUES))
        uebermatt = "uebermatt" in data and p.read(get_bool, data, "uebermatt", index) is True
        if uebermatt and move is not FAILED and not (vorablegen == 1 and move == MAX_MOVES):
            p.add(
                InvalidHand(
                    index,
                    "uebermatt",
                    "Übermatt is only possible when exactly one player laid aside and mate fell on move 10",
                )
            )
        p.check()
        return cls(mated_by, move, card, vorablegen, uebermatt)


@dataclass(slots=True)  # never changed once made (not frozen: see results.HandResult)
class State:
    """The match under way: its number, Durchgänge played and its score."""

    match: int = 1
    played: int = 0
    score: tuple[int, int] = (0, 0)
    matches_won: tuple[int, int] = (0, 0)


def initial_state(rules: Rules) -> State:
    """The first match, nothing played."""
    return State()


def state_to_json(state: State) -> dict[str, Any]:
    """The match under way, as stored with a hand.

    >>> state_from_json(state_to_json(State(2, 3, (10, 44), (1, 0))))
    State(match=2, played=3, score=(10, 44), matches_won=(1, 0))
    """
    return {
        "match": state.match,
        "played": state.played,
        "score": list(state.score),
        "matches_won": list(state.matches_won),
    }


def state_from_json(data: Any) -> State:
    """The state :func:`state_to_json` wrote (the engine's own output: not validated)."""
    return State(data["match"], data["played"], tuple(data["score"]), tuple(data["matches_won"]))


def settle_hand(rules: Rules, hand: Hand, state: State, index: int | None = None) -> tuple[HandResult, State]:
    """Score one Durchgang: (move, +1 if a card was laid aside) × card value, doubled for Übermatt.

    >>> r, _ = settle_hand(Rules(), Hand(1, 7, "A"), State())
    >>> r.value, r.deltas
    (77, (77, 0))
    """
    steps = Steps()
    if hand.mated_by is None:
        steps.add("draw", "no mate after 10 moves: a draw", 0)
        deltas = (0, 0)
    else:
        steps.add("move", f"mate on move {hand.move}", hand.move, move=hand.move)
        if hand.vorablegen:
            steps.add("vorablegen", "a card was laid aside: one move more", 1, players=hand.vorablegen)
        card_value = CARD_VALUES[hand.card]
        steps.set(
            "card",
            f"× {card_value} for the mating {CARD_NAMES[hand.card]}",
            steps.total * card_value,
            card=hand.card,
            factor=card_value,
        )
        if hand.uebermatt:
            steps.set("uebermatt", "Übermatt doubles", steps.total * 2)
        deltas = (steps.total, 0) if hand.mated_by == 1 else (0, steps.total)
    value = steps.total
    score = (state.score[0] + deltas[0], state.score[1] + deltas[1])
    played = state.played + 1
    match_over = played == DURCHGAENGE_PER_MATCH
    match_winner = None
    if match_over and score[0] != score[1]:
        match_winner = 1 if score[0] > score[1] else 2
    extra = {
        "match": state.match,
        "durchgang": played,
        "match_score": {"1": score[0], "2": score[1]},
        "match_over": match_over,
        "match_winner": match_winner,
    }
    if match_over:
        won = (state.matches_won[0] + (match_winner == 1), state.matches_won[1] + (match_winner == 2))
        new = State(state.match + 1, 0, (0, 0), won)
    else:
        new = State(state.match, played, score, state.matches_won)
    return HandResult(value, hand.mated_by, deltas, steps.finish(), None, extra), new


def finish(rules: Rules, state: State, totals: tuple[int, ...]) -> tuple[tuple[int, ...], None, dict]:
    """Balance: the difference of the points times ``stake_per_point`` (zero-sum)."""
    diff = (totals[0] - totals[1]) * rules.stake_per_point
    return (
        (diff, -diff),
        None,
        {"matches_won": {"1": state.matches_won[0], "2": state.matches_won[1]}},
    )


def complete_hand(data: Any, dealer_seat: int | None, forehand_seat: int) -> Any:
    """Nothing to add from the deal."""
    return data


def facts(hand: Hand, result: HandResult) -> HandFacts:
    """Nobody declares in Matt; an Übermatt and a won match are counted."""
    return HandFacts(
        events=("uebermatt",) if hand.uebermatt else (),
        match_winner=result.extra.get("match_winner"),
    )


#: The steps that change a Durchgang's value beyond the move and the card: a card laid aside, Übermatt.
MARK_STEPS = frozenset({"vorablegen", "uebermatt"})


def marks(rules: Rules, hand: Hand, result: HandResult) -> list[Mark]:
    """What changed the Durchgang's value, from its steps: Vorablegen, Übermatt.

    >>> h = Hand(1, 10, "A", vorablegen=1, uebermatt=True)
    >>> r, _ = settle_hand(Rules(), h, State())
    >>> [m.key for m in marks(Rules(), h, r)]
    ['vorablegen', 'uebermatt']
    """
    return step_marks(result.steps_json, MARK_STEPS)


def summary(hand: Hand) -> str | int:
    """What the Durchgang was, for the export's summary column: the seat that gave mate, or a draw."""
    return "draw" if hand.mated_by is None else hand.mated_by
