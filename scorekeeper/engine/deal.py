"""The deal: who deals hand n, who is forehand, who sits out, which table position is which engine seat.

One convention everywhere: a table has ``table_size`` positions, numbered 1..N clockwise; a hand has
the game's ``seats`` engine seats, numbered 1..S. At a table of one more than the seats the dealer
sits out, and the other positions, in clockwise order from position 1, are seats 1..S. The deal
moves on one position per hand, but for a hand the game deals again by the same dealer
(``Game.is_redeal``: a tournament's all-pass Schafkopf hand): that hand keeps the dealer.

A night's deals are :func:`first_deal`, then :func:`next_deal` after each hand (:func:`deals`).
The offline outbox has a copy in JavaScript (``static/outbox.js``, ``skDeal``), held to this one by
``tests/engine/test_deal_js.py`` over fixtures written from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Refusal


def forehand_of(dealer: int, table_size: int) -> int:
    """The position after the dealer (clockwise).

    >>> forehand_of(4, 4), forehand_of(2, 5)
    (1, 3)
    """
    return dealer % table_size + 1


def seat_positions(table_size: int, seats: int, dealer: int) -> tuple[int, ...]:
    """The table position of each engine seat (seat 1 first) in a hand dealt by ``dealer``.

    >>> seat_positions(4, 4, 2)
    (1, 2, 3, 4)
    >>> seat_positions(5, 4, 2)
    (1, 3, 4, 5)
    """
    if table_size == seats:
        return tuple(range(1, seats + 1))
    if table_size == seats + 1:
        return tuple(p for p in range(1, table_size + 1) if p != dealer)
    raise ValueError(f"a table of {table_size} cannot play a game of {seats} seats")


def seat_of(position: int, positions: Sequence[int]) -> int | None:
    """The engine seat of a table position in a hand, or None when it sits out."""
    try:
        return positions.index(position) + 1
    except ValueError:
        return None


def dealer_of(first_dealer: int, table_size: int, hand_index: int) -> int:
    """The dealing position of the hand at ``hand_index`` (0-based) where no hand is dealt again (a
    blank score sheet): the deal moves on clockwise.

    >>> [dealer_of(3, 4, i) for i in range(5)]
    [3, 4, 1, 2, 3]
    """
    return (first_dealer - 1 + hand_index) % table_size + 1


@dataclass(frozen=True)
class Deal:
    """Hand ``number`` of a night (1-based; a hand dealt again is a hand of its own) as dealt: its
    ``dealer`` and ``forehand`` (table positions), ``positions`` (the table position of each engine
    seat, seat 1 first) and who ``sits_out`` (a table position, or None)."""

    number: int
    dealer: int
    forehand: int
    positions: tuple[int, ...]
    sits_out: int | None

    @classmethod
    def at(cls, number: int, dealer: int, table_size: int, seats: int) -> Deal:
        """Hand ``number`` dealt by ``dealer`` at a table of ``table_size`` playing ``seats`` seats.

        >>> Deal.at(3, 2, 5, 4)
        Deal(number=3, dealer=2, forehand=3, positions=(1, 3, 4, 5), sits_out=2)
        """
        if not 1 <= dealer <= table_size:
            raise ValueError(f"no position {dealer} at a table of {table_size}")
        positions = seat_positions(table_size, seats, dealer)
        return cls(number, dealer, forehand_of(dealer, table_size), positions, None if seats == table_size else dealer)

    @property
    def table_size(self) -> int:
        return len(self.positions) + (self.sits_out is not None)

    def seat_of(self, position: int) -> int | None:
        """The engine seat a table position plays in this hand (None: it sits out)."""
        return seat_of(position, self.positions)

    def position_of(self, seat: int) -> int:
        """The table position playing engine seat ``seat``."""
        return self.positions[seat - 1]

    @property
    def dealer_seat(self) -> int | None:
        """The dealer's engine seat (None where the dealer sits out)."""
        return self.seat_of(self.dealer)

    @property
    def forehand_seat(self) -> int:
        """Forehand's engine seat."""
        return self.seat_of(self.forehand) or 1

    def complete(self, game: Any, hand: Any) -> Any:
        """``hand`` as the engine gets it: with what this deal tells (``Game.complete_hand``: in
        Matzlfangen forehand declares a Rufen, so nobody taps the declarer)."""
        return game.complete_hand(hand, self.dealer_seat, self.forehand_seat)

    def played_as(self, other: Deal, forehand_declares: bool) -> bool:
        """Whether a hand entered for ``other`` (another dealer) is played by the same people in this
        deal: the same positions at the same seats, and where forehand declares, the same forehand."""
        if other.dealer == self.dealer:
            return True
        return self.positions == other.positions and (not forehand_declares or self.forehand == other.forehand)


def keeps_dealer(game: Any, rules: Any, hand: Any) -> bool:
    """Whether ``hand`` (an engine hand, parsed or as JSON) is dealt again by the same dealer. A hand
    the engine refuses moves the deal on (the refusal is reported where the hand is settled)."""
    if not isinstance(hand, game.hand_cls):
        try:
            hand = game.parse_hand(hand, None, rules)
        except Refusal:
            return False
    return bool(game.is_redeal(rules, hand))


def first_deal(game: Any, table_size: int, first_dealer: int) -> Deal:
    """A night's first hand (``game``: an engine ``Game``).

    >>> from scorekeeper.engine import GAMES
    >>> first_deal(GAMES["schafkopf"], 4, 3)
    Deal(number=1, dealer=3, forehand=4, positions=(1, 2, 3, 4), sits_out=None)
    """
    return Deal.at(1, first_dealer, table_size, game.seats)


def next_deal(game: Any, rules: Any, deal: Deal, hand: Any) -> Deal:
    """The hand after ``hand`` (dealt as ``deal``; ``rules`` parsed; ``hand`` parsed or its JSON):
    the deal moves on to forehand, or stays where the game deals that hand again.

    >>> from scorekeeper.engine import GAMES
    >>> g = GAMES["schafkopf"]
    >>> redeal = g.parse_rules({"all_pass": "redeal"})
    >>> d = first_deal(g, 4, 4)
    >>> next_deal(g, redeal, d, {"contract": "rundpass"}).dealer, next_deal(g, redeal, d, {"contract": "wenz"}).dealer
    (4, 1)
    """
    dealer = deal.dealer if keeps_dealer(game, rules, hand) else deal.forehand
    return Deal.at(deal.number + 1, dealer, deal.table_size, game.seats)


def deals(game: Any, rules: Any, table_size: int, first_dealer: int, hands: Iterable[Any]) -> list[Deal]:
    """The deal of each of a night's hands, and of the hand after them (one more than the hands)."""
    deal = first_deal(game, table_size, first_dealer)
    out = [deal]
    for hand in hands:
        deal = next_deal(game, rules, deal, hand)
        out.append(deal)
    return out


def deal_stays(game: Any, rules: Any) -> tuple[str, ...]:
    """The contracts whose hand the same dealer deals again under ``rules`` (for the offline copy,
    which sees only a waiting hand's contract).

    >>> from scorekeeper.engine import GAMES
    >>> g = GAMES["schafkopf"]
    >>> deal_stays(g, g.parse_rules({"all_pass": "redeal"})), deal_stays(g, g.parse_rules(None))
    (('rundpass',), ())
    """
    out = []
    for contract in game.contracts(rules):
        try:
            hand = game.hand_cls(contract)
        except TypeError:
            continue
        if game.is_redeal(rules, hand):
            out.append(contract)
    return tuple(out)
