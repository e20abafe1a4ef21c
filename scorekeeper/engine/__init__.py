"""The settlement engine: pure Python, no web or database imports.

``settle_session(game, rules, hands)`` validates a whole session and settles it
hand by hand (the Schafkopf pot and Konter a Matt strokes carry over);
``settle_json(payload)`` is the JSON contract of docs/rules.md on top of it.

>>> s = settle_json({"game": "matzlfangen", "hands": [
...     {"contract": "rufen", "declarer": 1, "partner": 3, "points": 70, "raises": 5}]})
>>> s["hands"][0]["value"], s["totals"]
(6, {'1': 6, '2': -6, '3': 6, '4': -6})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from . import konter_a_matt, matt, matzlfangen, schafkopf
from .errors import InvalidHand
from .fields import check_keys, check_object, get_choice
from .results import HandFacts, HandResult, Mark, Settlement, Step, stored_deltas
from .rules import options, parse_rules

__all__ = [
    "GAMES",
    "Game",
    "HandFacts",
    "HandResult",
    "InvalidHand",
    "Mark",
    "Settlement",
    "Step",
    "get_game",
    "settle_json",
    "settle_session",
    "stored_deltas",
]


def _no_pot(rules: Any) -> bool:
    return False


def _no_redeal(rules: Any, hand: Any) -> bool:
    return False


def _none_idle(rules: Any) -> frozenset[str]:
    return frozenset()  # every option can come up


@dataclass(frozen=True)
class Game:
    """One game as the engine knows it, with every fact of it that the app needs (built from its module).

    Nothing outside the engine branches on a game's name: it asks the game.
    """

    name: str
    title: str  # the game's own name, as players write it
    seats: int  # engine seats of a hand
    table_sizes: tuple[int, ...]  # players a night may have (one more than the seats: the dealer sits out)
    total_points: int | None  # card points in a hand (None: the game counts none)
    all_contracts: tuple[str, ...]  # what a declaring side can play under some rules (the pages label these keys)
    solo_contracts: frozenset[str]  # the contracts a player plays alone against three
    teams: Mapping[str, tuple[int, ...]]  # fixed teams and their seats (Konter a Matt's A and B; others: none)
    rules_cls: type
    presets: Mapping[str, Mapping[str, Any]]
    hand_cls: type
    _initial_state: Callable[..., Any]
    settle_hand: Callable[..., tuple[HandResult, Any]]
    finish: Callable[..., tuple[tuple[int, ...], int | None, dict]]
    complete_hand: Callable[[Any, int | None, int], Any]  # what the deal adds (the dealer's and forehand's seats)
    facts: Callable[[Any, HandResult], HandFacts]  # who declared, what, and what the statistics count
    marks: Callable[[Any, Any, HandResult], list[Mark]]  # what changed a hand's value (a row's badges)
    forehand_declares: bool  # the hand form names forehand (who declares a Rufen, who leads)
    money_from_balance: bool  # the night's money is the engine's final balance, not the sum of the hands
    money_option: str | None  # the rule option whose 0 means no unit is ever paid (None: units are always paid)
    carries_pot: Callable[[Any], bool]  # a night under these rules leaves its pot to the next night
    takes_pot: Callable[[Any], bool]  # a night under these rules starts with a carried pot
    is_redeal: Callable[[Any, Any], bool]  # the hand (validated) is dealt again by the same dealer: the deal stays
    summary_header: str  # the export's column that says what each hand was
    summary: Callable[[Any], str | int]  # what a hand was, for that column (an int: a seat, named by the caller)
    state_to_json: Callable[[Any], Any]  # what carries, as stored with a hand (the engine's own output)
    state_from_json: Callable[[Any], Any]  # ... and read back (not validated: only the engine writes it)
    _contracts: Callable[[Any], tuple[str, ...]]  # see contracts()
    _fields: Callable[[Any, str | None], frozenset[str]]  # see fields()
    _idle_options: Callable[[Any], frozenset[str]]  # see applying_options()

    @classmethod
    def from_module(cls, module: ModuleType) -> Game:
        return cls(
            module.NAME,
            module.TITLE,
            module.SEATS,
            module.TABLE_SIZES,
            module.TOTAL_POINTS,
            getattr(module, "CONTRACTS", ()),
            getattr(module, "SOLO_CONTRACTS", frozenset()),
            getattr(module, "TEAM_SEATS", {}),
            module.Rules,
            module.PRESETS,
            module.Hand,
            module.initial_state,
            module.settle_hand,
            module.finish,
            module.complete_hand,
            module.facts,
            module.marks,
            getattr(module, "FOREHAND_DECLARES", False),
            getattr(module, "MONEY_FROM_BALANCE", False),
            getattr(module, "MONEY_OPTION", None),
            getattr(module, "carries_pot", _no_pot),
            getattr(module, "takes_pot", _no_pot),
            getattr(module, "is_redeal", _no_redeal),
            module.SUMMARY_HEADER,
            module.summary,
            module.state_to_json,
            module.state_from_json,
            getattr(module, "contracts", lambda rules: getattr(module, "CONTRACTS", ())),
            module.fields,
            getattr(module, "idle_options", _none_idle),
        )

    def contracts(self, rules: Any) -> tuple[str, ...]:
        """The contracts a hand can be under ``rules`` (validated), in the order the pages offer them
        (a game without contracts: none). Schafkopf plays an all-pass hand as a Ramsch or a Rundpass, never both.

        >>> GAMES["schafkopf"].contracts(GAMES["schafkopf"].parse_rules({"all_pass": "ramsch"}))
        ('sauspiel', 'wenz', 'solo', 'ramsch')
        """
        return self._contracts(rules)

    def fields(self, rules: Any, contract: str | None = None) -> frozenset[str]:
        """The hand's fields that count under ``rules`` (validated) for ``contract`` (None: for any contract the
        rules play): none of a contract not played, none the rules never pay or never play (Schafkopf's runners
        with ``laufende_max`` 0, knocks without ``klopfen_played``, the Ramsch loser unless ``ramsch_tie`` named;
        Matzlfangen's raises with ``max_raises`` 0). The hand form asks for these only.

        >>> sorted(GAMES["matzlfangen"].fields(GAMES["matzlfangen"].parse_rules({"max_raises": 0}), "durch"))
        ['contract', 'dealer', 'declarer', 'trump', 'won']
        """
        return self._fields(rules, contract)

    def applying_options(self, rules: Any) -> tuple[str, ...]:
        """The names of the rule options that can come up under ``rules`` (validated), in the game's order:
        what a tariff box prints (engine/tariff.py). Schafkopf's pot, Ramsch and runner thresholds apply only
        where its rules pay a pot, play a Ramsch and pay runners, the same facts :meth:`fields` asks.

        >>> GAMES["schafkopf"].applying_options(GAMES["schafkopf"].parse_rules({"preset": "turnier"}))[-2:]
        ('klopfen_played', 'all_pass')
        """
        idle = self._idle_options(rules)
        return tuple(f.name for f in self.options() if f.name not in idle)

    def uses_stake(self, rules: Any) -> bool:
        """Whether a night under ``rules`` (validated, or a rule set's options by key) ever pays a unit:
        not where the game's money option is 0 (Konter a Matt, Matt without a stake).

        >>> GAMES["matt"].uses_stake({"stake_per_point": 0}), GAMES["schafkopf"].uses_stake({})
        (False, True)
        """
        name = self.money_option
        if name is None:
            return True
        return bool(rules.get(name) if isinstance(rules, Mapping) else getattr(rules, name, None))

    def scores_hands(self, rules: Any) -> bool:
        """Whether a hand under ``rules`` can give a seat anything (its deltas: units, or Matt's points):
        not in Konter a Matt without a stake, whose deltas are all 0."""
        return self.money_from_balance or self.uses_stake(rules)

    def hand_money(self, rules: Any, deltas: Sequence[int]) -> tuple[int, ...]:
        """The units a hand's ``deltas`` (per seat) pay under ``rules`` (validated): the deltas themselves, or,
        where the night's money is the engine's balance (:attr:`money_from_balance`: Matt, whose deltas are
        points), the balance of the hand's points alone. That balance grows by what each hand adds (Matt:
        ``stake_per_point`` times the difference), so the hands' payments add up to the night's balance; without
        a stake they are all 0.

        >>> matt = GAMES["matt"]
        >>> matt.hand_money(matt.parse_rules({"stake_per_point": 2}), (77, 0))
        (154, -154)
        >>> matt.hand_money(matt.parse_rules(None), (77, 0)), GAMES["schafkopf"].hand_money(None, (-2, 2, -2, 2))
        ((0, 0), (-2, 2, -2, 2))
        """
        if not self.money_from_balance:
            return tuple(deltas)
        balance, _, _ = self.finish(rules, self.initial_state(rules), tuple(deltas))
        return tuple(balance)

    def parse_rules(self, data: Any) -> Any:
        """A complete, validated rule set from a partial one (``None``: the defaults)."""
        return parse_rules(self.rules_cls, self.presets, data)

    def parse_hand(self, data: Any, index: int | None, rules: Any) -> Any:
        """One validated, frozen hand."""
        return self.hand_cls.from_json(data, index, rules)

    def options(self) -> list:
        """The rule options (dataclass fields with their constraints in ``metadata``)."""
        return options(self.rules_cls)

    def initial_state(self, rules: Any, pot: Any = None) -> Any:
        """What carries from hand to hand at the start; ``pot``: units carried into the pot.

        :raises InvalidHand: for a pot where the game and rules have none.
        """
        if self.takes_pot(rules):
            return self._initial_state(rules, pot)
        if pot is not None:
            raise InvalidHand(None, "pot", "a pot to start with applies only to schafkopf with all_pass pot")
        return self._initial_state(rules)

    def settle_from(
        self, rules: Any, hands: Sequence[Any], state: Any, start: int = 0
    ) -> tuple[list[Any], list[HandResult], list[Any]]:
        """Validate ``hands`` (JSON objects or validated hands; the first is hand index ``start``)
        and settle them in order from ``state``: the hands, their results and the state after each.

        Settling a night from a stored state gives what settling it from the start would.

        :raises InvalidHand: for the first hand refused (by its index in the whole night).
        """
        hand_cls, parse = self.hand_cls, self.hand_cls.from_json
        parsed = [h if isinstance(h, hand_cls) else parse(h, i, rules) for i, h in enumerate(hands, start)]
        settle_hand = self.settle_hand
        results, states = [], []
        for i, hand in enumerate(parsed, start):
            result, state = settle_hand(rules, hand, state, i)
            results.append(result)
            states.append(state)
        return parsed, results, states


GAMES: dict[str, Game] = {m.NAME: Game.from_module(m) for m in (matzlfangen, schafkopf, konter_a_matt, matt)}


def get_game(name: Any) -> Game:
    """The game called ``name``.

    :raises InvalidHand: for an unknown game.
    """
    get_choice({"game": name}, "game", None, GAMES)
    return GAMES[name]


def settle_session(game: str, rules: Any, hands: Sequence[Any], pot: Any = None) -> Settlement:
    """Validate every hand, then settle them in order.

    ``rules`` is a partial rule set (a mapping or ``None``) or an already
    validated rule-set object; ``hands`` are JSON objects or validated hands.
    ``pot`` is what a Schafkopf pot holds at the start (units carried from the
    club's last night); other games take none. Nothing is half-settled: the
    first invalid hand raises.

    :raises InvalidHand: naming the hand index, the field and the reason.
    """
    g = get_game(game)
    if not isinstance(rules, g.rules_cls):
        rules = g.parse_rules(rules)
    state = g.initial_state(rules, pot)
    parsed, results, states = g.settle_from(rules, hands, state)
    totals = tuple(map(sum, zip(*[r.deltas for r in results], strict=True))) if results else (0,) * g.seats
    balance, pot_end, extra = g.finish(rules, states[-1] if states else state, totals)
    return Settlement(g.name, rules, tuple(parsed), tuple(results), totals, balance, pot_end, extra, pot or 0)


SESSION_KEYS = frozenset({"game", "rules", "hands", "pot"})


def settle_json(payload: Any) -> dict[str, Any]:
    """The JSON contract: ``{"game", "rules"?, "hands"}`` in, the settlement out.

    :raises InvalidHand: for anything invalid, with ``hand`` None for the session's own keys.
    """
    check_object(payload, None, "", "the input")
    check_keys(payload, SESSION_KEYS, None)
    if "game" not in payload:
        raise InvalidHand(None, "game", "game is required")
    hands = payload.get("hands")
    if hands is None:
        raise InvalidHand(None, "hands", "hands is required (a list of hands)")
    if not isinstance(hands, list):
        raise InvalidHand(None, "hands", "hands must be a list of hands")
    return settle_session(payload["game"], payload.get("rules"), hands, payload.get("pot")).to_json()
