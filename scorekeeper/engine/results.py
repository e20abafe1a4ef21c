"""What settling produces: steps, hand results and the settlement of a session."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .rules import rules_to_json


class Step(NamedTuple):
    """One line of the calculation (an immutable tuple: cheap, as a hand makes several).

    ``units`` is what this step adds to the value (negative when it takes away;
    a doubling adds the value it had), ``total`` the value after it. The last
    step of a hand is ``value``: its ``units`` equal the hand's value, and the
    ``units`` of all the steps before it add up to that value.
    ``key`` and ``args`` let a translated page say the same thing in its language;
    ``what`` is the English sentence.
    """

    key: str
    what: str
    units: int
    total: int
    args: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "units": self.units, "total": self.total, "key": self.key, "args": self.args}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        """The step :meth:`to_json` wrote (a stored result; not validated: the engine wrote it)."""
        return cls(data["key"], data["what"], data["units"], data["total"], data["args"])


_NO_ARGS: Mapping[str, Any] = {}
_SEAT_KEYS = tuple(str(seat) for seat in range(1, 11))


class Steps:
    """Builds the step list of one hand, keeping the running total."""

    __slots__ = ("items", "total")

    def __init__(self) -> None:
        self.items: list[Step] = []
        self.total = 0

    def add(self, key: str, what: str, units: int, **args: Any) -> None:
        """A step that adds ``units`` to the value."""
        self.total += units
        self.items.append(Step(key, what, units, self.total, args))

    def set(self, key: str, what: str, new_total: int, **args: Any) -> None:
        """A step that sets the value (a doubling, an annulment): its units are the difference."""
        units = new_total - self.total
        self.total = new_total
        self.items.append(Step(key, what, units, new_total, args))

    def finish(self) -> tuple[Step, ...]:
        """Close with the ``value`` step and return all steps."""
        self.items.append(Step("value", "value", self.total, self.total, _NO_ARGS))
        return tuple(self.items)


def side_deltas(seats: int, team: tuple[int, ...], amount: int) -> tuple[int, ...]:
    """Each seat of ``team`` gets ``amount``, every other seat pays it (a partnership game).

    >>> side_deltas(4, (1, 3), 6)
    (6, -6, 6, -6)
    """
    return tuple(amount if seat in team else -amount for seat in range(1, seats + 1))


def solo_deltas(seats: int, declarer: int, amount: int) -> tuple[int, ...]:
    """Every other seat pays ``amount`` to the declarer (negative: the declarer pays each).

    >>> solo_deltas(4, 2, -5)
    (5, -15, 5, 5)
    """
    return tuple(amount * (seats - 1) if seat == declarer else -amount for seat in range(1, seats + 1))


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of one hand.

    ``deltas`` are units per seat (seat 1 first). ``pot`` is what went into the
    Schafkopf pot in this hand (negative: taken out), ``None`` where a game has
    no pot. ``extra`` holds game-specific output (strokes, match score, ...).
    """

    value: int
    winner: Any
    deltas: tuple[int, ...]
    steps: tuple[Step, ...]
    pot: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def deltas_json(self) -> dict[str, int]:
        out = dict(zip(_SEAT_KEYS, self.deltas, strict=False))  # _SEAT_KEYS is longer
        if self.pot is not None:
            out["pot"] = self.pot
        return out

    def to_json(self) -> dict[str, Any]:
        out = {
            "winner": self.winner,
            "value": self.value,
            "deltas": self.deltas_json(),
            "steps": [s.to_json() for s in self.steps],
        }
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandResult:
        """The result :meth:`to_json` wrote (a stored result; not validated: the engine wrote it).

        >>> r = HandResult(6, "declarers", (6, -6), (Step("value", "value", 6, 6, {}),), 2, {"x": [1]})
        >>> HandResult.from_json(r.to_json()) == r
        True
        """
        deltas = data["deltas"]
        pot = deltas.get("pot")
        seats = len(deltas) - (pot is not None)
        extra = {k: v for k, v in data.items() if k not in _RESULT_KEYS}
        return cls(
            data["value"],
            data["winner"],
            tuple(deltas[key] for key in _SEAT_KEYS[:seats]),
            tuple(Step.from_json(s) for s in data["steps"]),
            pot,
            extra,
        )


_RESULT_KEYS = frozenset({"winner", "value", "deltas", "steps"})


def stored_deltas(data: Mapping[str, Any]) -> tuple[int, ...]:
    """The seats' deltas of a stored result (:meth:`HandResult.to_json`), without building the result."""
    deltas = data["deltas"]
    return tuple(deltas[key] for key in _SEAT_KEYS[: len(deltas) - ("pot" in deltas)])


@dataclass(frozen=True, slots=True)
class Settlement:
    """A whole session settled: the rule set, every hand's result, the totals.

    ``totals`` are the sums of the deltas per seat; ``pot`` the pot at the end
    (Schafkopf), else ``None``. ``balance`` is what money is made of: units per
    seat that add up to zero. It equals ``totals`` except in Matt, where the
    deltas are match points and the balance is their difference times
    ``stake_per_point``; and it leaves out what is still in the Schafkopf pot.
    """

    game: str
    rules: Any
    hands: tuple[Any, ...]
    results: tuple[HandResult, ...]
    totals: tuple[int, ...]
    balance: tuple[int, ...]
    pot: int | None = None  # what the pot holds at the end
    extra: Mapping[str, Any] = field(default_factory=dict)
    pot_start: int = 0  # what it held at the start (carried from the club's last night)

    def to_json(self) -> dict[str, Any]:
        totals = {str(seat): t for seat, t in enumerate(self.totals, start=1)}
        if self.pot is not None:
            totals["pot"] = self.pot - self.pot_start  # what this night put in (or took out): totals add up to 0
        out = {
            "game": self.game,
            "rules": rules_to_json(self.rules),
            "hands": [r.to_json() for r in self.results],
            "totals": totals,
            "balance": {str(seat): b for seat, b in enumerate(self.balance, start=1)},
        }
        if self.pot is not None:
            out["pot_start"] = self.pot_start
            out["pot_end"] = self.pot
        out.update(self.extra)
        return out


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What the club's statistics count of one hand, in engine seats; each game says it of its own hands.

    ``declarers`` are the declaring side's seats (Konter a Matt: the trump team), ``contract``
    what they played (None where nobody declared) and ``won`` whether they won. ``catchers``
    and ``losers_of_matzl`` are Matzlfangen's seats that caught the Matzl or lost it.
    ``events`` are what the night's summary counts (``matzl``, ``stanner``, ``uebermatt``,
    ``rundpass``). ``game_winners`` are the seats of a team that won a Konter a Matt game with
    this hand, ``match_winner`` the Matt player who won the match with it.
    """

    declarers: tuple[int, ...] = ()
    contract: str | None = None
    won: bool | None = None
    tout: bool = False
    catchers: tuple[int, ...] = ()
    losers_of_matzl: tuple[int, ...] = ()
    events: tuple[str, ...] = ()
    game_winners: tuple[int, ...] = ()
    match_winner: int | None = None
