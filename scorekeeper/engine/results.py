"""What settling produces: steps, hand results and the settlement of a session."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .rules import rules_to_json


class Step(NamedTuple):
    """One line of the calculation, as pages read it (:attr:`HandResult.steps`).

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
        return step_json(*self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        """The step :meth:`to_json` wrote (a stored result; not validated: the engine wrote it)."""
        return cls(data["key"], data["what"], data["units"], data["total"], data["args"])


def step_json(key: str, what: str, units: int, total: int, args: Mapping[str, Any]) -> dict[str, Any]:
    """A step as JSON: how it is stored and printed (the one place of its keys and their order)."""
    return {"what": what, "units": units, "total": total, "key": key, "args": args}


_NO_ARGS: Mapping[str, Any] = {}
_SEAT_KEYS = tuple(str(seat) for seat in range(1, 11))


class Steps:
    """Builds the steps of one hand, keeping the running total.

    The steps are built as JSON, the form in which a result is stored and printed;
    :attr:`HandResult.steps` reads them as :class:`Step` when a page asks.
    """

    __slots__ = ("items", "total")

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.total = 0

    def add(self, key: str, what: str, units: int, **args: Any) -> None:
        """A step that adds ``units`` to the value."""
        total = self.total = self.total + units
        self.items.append(step_json(key, what, units, total, args))

    def set(self, key: str, what: str, new_total: int, **args: Any) -> None:
        """A step that sets the value (a doubling, an annulment): its units are the difference."""
        units = new_total - self.total
        self.total = new_total
        self.items.append(step_json(key, what, units, new_total, args))

    def finish(self) -> list[dict[str, Any]]:
        """Close with the ``value`` step and return all steps (as JSON)."""
        items = self.items
        items.append(step_json("value", "value", self.total, self.total, _NO_ARGS))
        return items


def side_deltas(seats: int, team: tuple[int, ...], amount: int) -> tuple[int, ...]:
    """Each seat of ``team`` gets ``amount``, every other seat pays it (a partnership game).

    >>> side_deltas(4, (1, 3), 6)
    (6, -6, 6, -6)
    """
    deltas = [-amount] * seats
    for seat in team:
        deltas[seat - 1] = amount
    return tuple(deltas)


def solo_deltas(seats: int, declarer: int, amount: int) -> tuple[int, ...]:
    """Every other seat pays ``amount`` to the declarer (negative: the declarer pays each).

    >>> solo_deltas(4, 2, -5)
    (5, -15, 5, 5)
    """
    deltas = [-amount] * seats
    deltas[declarer - 1] = amount * (seats - 1)
    return tuple(deltas)


class Mark(NamedTuple):
    """A short fact that changed a hand's value, as a row's badge, the PDF's log and the CSV say it
    (a game's ``marks(rules, hand, result)``): ``key`` names it (a page's label), ``args`` its
    particulars (a count, a level, seats). Kontra, Schneider, 3 runners, the Matzl and what it did."""

    key: str
    args: Mapping[str, Any]


def step_marks(steps: Any, keys: frozenset[str]) -> list[Mark]:
    """The marks the steps of a hand (as JSON) name: one per step whose ``key`` is in ``keys``;
    steps of one key in a row (three knocks) are one mark, the last one's args and their ``count``.

    >>> step_marks([{"key": "kontra", "args": {}}, {"key": "klopfen", "args": {"knock": 1}},
    ...             {"key": "klopfen", "args": {"knock": 2}}, {"key": "value", "args": {}}],
    ...            frozenset({"kontra", "klopfen"}))
    [Mark(key='kontra', args={'count': 1}), Mark(key='klopfen', args={'knock': 2, 'count': 2})]
    """
    marks: list[Mark] = []
    for step in steps:
        key = step["key"]
        if key not in keys:
            continue
        if marks and marks[-1].key == key:
            marks[-1] = Mark(key, {**step["args"], "count": marks[-1].args["count"] + 1})
        else:
            marks.append(Mark(key, {**step["args"], "count": 1}))
    return marks


@dataclass(slots=True)  # never changed once made (see below)
class HandResult:
    """The result of one hand.

    ``deltas`` are units per seat (seat 1 first). ``pot`` is what went into the
    Schafkopf pot in this hand (negative: taken out), ``None`` where a game has
    no pot. ``extra`` holds game-specific output (strokes, match score, ...).
    ``steps_json`` are the steps as JSON (as :meth:`Steps.finish` built them, or as
    stored); :attr:`steps` reads them as :class:`Step`. The JSON that :meth:`to_json`
    gives shares them, and the ``extra``'s values: not to be changed.

    Results, hands and states are not frozen dataclasses, yet nothing changes them once
    made: settling makes one of each per hand, and a frozen dataclass's ``__init__`` (which
    sets field by field through ``object.__setattr__``) takes three times as long.
    """

    value: int
    winner: Any
    deltas: tuple[int, ...]
    steps_json: list[dict[str, Any]]
    pot: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps of the calculation, the ``value`` step last."""
        return tuple(map(Step.from_json, self.steps_json))

    def to_json(self) -> dict[str, Any]:
        deltas = dict(zip(_SEAT_KEYS, self.deltas))  # noqa: B905 (_SEAT_KEYS is longer; zip is slower given strict=)
        if self.pot is not None:
            deltas["pot"] = self.pot
        out = {"winner": self.winner, "value": self.value, "deltas": deltas, "steps": self.steps_json}
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandResult:
        """The result :meth:`to_json` wrote (a stored result; not validated: the engine wrote it).

        >>> r = HandResult(6, "declarers", (6, -6), [Step("value", "value", 6, 6, {}).to_json()], 2, {"x": [1]})
        >>> HandResult.from_json(r.to_json()) == r, r.steps
        (True, (Step(key='value', what='value', units=6, total=6, args={}),))
        """
        deltas = data["deltas"]
        pot = deltas.get("pot")
        seats = len(deltas) - (pot is not None)
        extra = {k: v for k, v in data.items() if k not in _RESULT_KEYS}
        return cls(
            data["value"], data["winner"], tuple(deltas[key] for key in _SEAT_KEYS[:seats]), data["steps"], pot, extra
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
