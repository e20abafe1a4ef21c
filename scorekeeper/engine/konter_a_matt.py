"""Konter a Matt: two fixed teams (A = seats 1 and 3, B = seats 2 and 4), strokes counted down.

The rules in the project's words: docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidHand
from .fields import FAILED, Problems, check_keys, check_object, get_bool, get_choice, get_int
from .results import HandFacts, HandResult, Mark, Steps, side_deltas, step_marks
from .rules import option

NAME = "konter_a_matt"
TITLE = "Konter a Matt"
SEATS = 4
TABLE_SIZES = (4,)
SUMMARY_HEADER = "trumps, points A:B"  # the export's column that says what each hand was
TOTAL_POINTS = 40
TEAMS = ("A", "B")
#: The seats of each team.
TEAM_SEATS = {"A": (1, 3), "B": (2, 4)}
FIELDS = frozenset({"trump_team", "points_a", "schwarz", "matt", "konter"})


#: A partie pays nothing unless it ends a game, and then ``stake_per_game``: at 0 no unit is ever paid.
MONEY_OPTION = "stake_per_game"


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of Konter a Matt (docs/rules.md)."""

    preset: str = "seed"
    strokes: int = option(11, lo=1, hi=100, help="strokes each team starts a game with")
    win_points: int = option(21, lo=21, hi=TOTAL_POINTS, help="card points that win a partie")
    trump_team_penalty: bool = option(True, help="a trump team that loses gets the strokes added")
    tie_penalty: int = option(1, lo=0, hi=10, help="strokes the trump team gets added on a Stänner")
    stake_per_game: int = option(0, lo=0, hi=1000, help="units each loser pays one winner when a game ends")


PRESETS = {"seed": {}}


def fields(rules: Rules, contract: str | None = None) -> frozenset[str]:
    """The fields of a partie: every one counts under any rules (the game has no contracts)."""
    return FIELDS


@dataclass(slots=True)  # never changed once made (not frozen: see results.HandResult)
class Hand:
    """One validated partie. Build it with :meth:`from_json`."""

    trump_team: str
    points_a: int
    schwarz: bool = False
    matt: bool = False
    konter: bool = False

    @classmethod
    def from_json(cls, data: object, index: int | None, rules: Rules) -> Hand:
        """Validate one partie of the JSON contract.

        :raises InvalidHand: naming the field and the reason.

        >>> Hand.from_json({"trump_team": "A", "points_a": 25, "matt": True}, 0, Rules()).matt
        True
        """
        data = check_object(data, index, "", "a partie")
        check_keys(data, FIELDS, index)
        p = Problems()  # every problem of the partie, not the first
        trump_team = p.read(get_choice, data, "trump_team", index, TEAMS)
        points_a = p.read(get_int, data, "points_a", index, 0, TOTAL_POINTS)
        schwarz = "schwarz" in data and p.read(get_bool, data, "schwarz", index) is True
        if schwarz and points_a is not FAILED and points_a not in (0, TOTAL_POINTS):
            p.add(
                InvalidHand(
                    index,
                    "schwarz",
                    "the losing team took no trick, so the points are 40:0 or 0:40, not {points_a}:{points_b}",
                    points_a=points_a,
                    points_b=TOTAL_POINTS - points_a,
                )
            )
        matt = "matt" in data and p.read(get_bool, data, "matt", index) is True
        konter = "konter" in data and p.read(get_bool, data, "konter", index) is True
        p.check()
        return cls(trump_team, points_a, schwarz, matt, konter)

    @property
    def worth(self) -> int:
        """N = 1 + schwarz + matt + konter."""
        return 1 + self.schwarz + self.matt + self.konter


@dataclass(slots=True)  # never changed once made (not frozen: see results.HandResult)
class State:
    """What carries between parties: strokes, the Stänner carry, games won."""

    strokes_a: int
    strokes_b: int
    carry: int = 0
    stuck_trump_team: str | None = None  # after a Stänner the same team chooses trumps again
    game: int = 1
    games_a: int = 0
    games_b: int = 0


def initial_state(rules: Rules) -> State:
    """Both teams at ``strokes``, nothing carried."""
    return State(rules.strokes, rules.strokes)


def state_to_json(state: State) -> dict[str, Any]:
    """Strokes, carry, the team stuck with trumps, the game and the games won, as stored with a hand.

    >>> state_from_json(state_to_json(State(3, 5, 2, "A", 2, 1, 0))) == State(3, 5, 2, "A", 2, 1, 0)
    True
    """
    return {
        "strokes_a": state.strokes_a,
        "strokes_b": state.strokes_b,
        "carry": state.carry,
        "stuck_trump_team": state.stuck_trump_team,
        "game": state.game,
        "games_a": state.games_a,
        "games_b": state.games_b,
    }


def state_from_json(data: Any) -> State:
    """The state :func:`state_to_json` wrote (the engine's own output: not validated)."""
    return State(
        data["strokes_a"],
        data["strokes_b"],
        data["carry"],
        data["stuck_trump_team"],
        data["game"],
        data["games_a"],
        data["games_b"],
    )


def _other(team: str) -> str:
    return "B" if team == "A" else "A"


def settle_hand(rules: Rules, hand: Hand, state: State, index: int | None = None) -> tuple[HandResult, State]:
    """Settle one partie: strike strokes, carry Stänner, end the game at 0.

    :raises InvalidHand: when after a Stänner another team chose trumps.

    >>> r, s = settle_hand(Rules(), Hand("A", 25), initial_state(Rules()))
    >>> r.extra["strokes"], r.winner
    ({'A': 10, 'B': 11}, 'A')
    """
    trump = hand.trump_team
    if state.stuck_trump_team is not None and trump != state.stuck_trump_team:
        raise InvalidHand(
            index,
            "trump_team",
            "after a Stänner the same team chooses trumps again: team {team}",
            team=state.stuck_trump_team,
        )
    points = {"A": hand.points_a, "B": TOTAL_POINTS - hand.points_a}
    need = rules.win_points  # more than half the points: at most one team has them
    winner = "A" if points["A"] >= need else "B" if points["B"] >= need else None
    strokes = {"A": state.strokes_a, "B": state.strokes_b}
    steps = Steps()
    score = f"{points['A']}:{points['B']}"
    if winner is None:
        steps.add("partie", f"partie {score}: undecided, worth {hand.worth}", 1, score=score)
    else:
        steps.add("partie", f"team {winner} won {score} ({rules.win_points} needed)", 1, team=winner, score=score)
    if hand.schwarz:
        steps.add("schwarz", "schwarz: the losing team took no trick", 1)
    if hand.matt:
        steps.add("matt", "Matt was said", 1)
    if hand.konter:
        steps.add("konter", "Konter was said", 1)
    worth = steps.total
    if winner is None:
        steps.set("stanner", f"Stänner: {worth} carried to the next decided partie", 0, carried=worth)
        strokes[trump] += rules.tie_penalty
        carry = state.carry + worth
        new = State(strokes["A"], strokes["B"], carry, trump, state.game, state.games_a, state.games_b)
        extra = _extra(points, strokes, carry, state.game, None)
        extra["stanner"] = True
        extra["trump_team_lost"] = False  # nobody lost a Stänner
        return HandResult(0, None, (0,) * SEATS, steps.finish(), None, extra), new
    if state.carry:
        steps.add("carry", f"{state.carry} carried from the Stänner before", state.carry, carried=state.carry)
    value = steps.total
    strokes[winner] = max(0, strokes[winner] - value)
    if winner != trump and rules.trump_team_penalty:
        strokes[trump] += worth
    game_over = strokes[winner] == 0
    deltas = (0,) * SEATS
    if game_over:
        deltas = side_deltas(SEATS, TEAM_SEATS[winner], rules.stake_per_game)
        games_a = state.games_a + (winner == "A")
        games_b = state.games_b + (winner == "B")
        new = State(rules.strokes, rules.strokes, 0, None, state.game + 1, games_a, games_b)
    else:
        new = State(strokes["A"], strokes["B"], 0, None, state.game, state.games_a, state.games_b)
    extra = _extra(points, strokes, 0, state.game, winner if game_over else None)
    extra["stanner"] = False
    extra["trump_team_lost"] = winner != trump
    return HandResult(value, winner, deltas, steps.finish(), None, extra), new


def _extra(points: dict, strokes: dict, carry: int, game: int, game_winner: str | None) -> dict:
    """What a partie's result says beside its value (the dicts are the result's own: not changed after)."""
    return {
        "points": points,
        "strokes": strokes,
        "carry": carry,
        "game": game,
        "game_over": game_winner is not None,
        "game_winner": game_winner,
    }


def finish(rules: Rules, state: State, totals: tuple[int, ...]) -> tuple[tuple[int, ...], None, dict]:
    """The balance is the totals; the running game and the games won go beside them."""
    return (
        totals,
        None,
        {
            "strokes": {"A": state.strokes_a, "B": state.strokes_b},
            "carry": state.carry,
            "games_won": {"A": state.games_a, "B": state.games_b},
        },
    )


def complete_hand(data: Any, dealer_seat: int | None, forehand_seat: int) -> Any:
    """Nothing to add from the deal."""
    return data


def facts(hand: Hand, result: HandResult) -> HandFacts:
    """The trump team declares ("trumps"); a Stänner and a won game are counted."""
    winner = result.extra.get("game_winner")
    return HandFacts(
        TEAM_SEATS[hand.trump_team],
        "trumps",
        result.winner == hand.trump_team,
        events=("stanner",) if result.extra.get("stanner") else (),
        game_winners=TEAM_SEATS[winner] if winner else (),
    )


#: The steps that make a partie worth more than 1: Schwarz, Matt and Konter said, a Stänner carried.
MARK_STEPS = frozenset({"schwarz", "matt", "konter", "stanner", "carry"})


def marks(rules: Rules, hand: Hand, result: HandResult) -> list[Mark]:
    """Who chose trumps (a ``side`` mark: the row names the team by it), then what made the partie
    worth more than 1.

    >>> h = Hand("B", 25, matt=True)
    >>> r, _ = settle_hand(Rules(), h, initial_state(Rules()))
    >>> [(m.key, dict(m.args)) for m in marks(Rules(), h, r)]
    [('side', {'word': 'trumps', 'team': 'B', 'seats': [2, 4]}), ('matt', {'count': 1})]
    """
    team = hand.trump_team
    side = Mark("side", {"word": "trumps", "team": team, "seats": list(TEAM_SEATS[team])})
    return [side, *step_marks(result.steps_json, MARK_STEPS)]


def summary(hand: Hand) -> str | int:
    """What the hand was, for the export's summary column: the trump team and both teams' points.

    >>> summary(Hand("A", 25))
    'A, 25:15'
    """
    return f"{hand.trump_team}, {hand.points_a}:{TOTAL_POINTS - hand.points_a}"
