"""The end of the night: money per player, the fewest payments, the pot, statistics, the chart.

Built from a settled :class:`table.Table`; the page, the PDF and the exports
all show this one object, so they can never disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.models import POT_GONE
from scorekeeper.core.table import Table
from scorekeeper.engine import GAMES, HandFacts, ledger

POT = None  # the pot as a party of the payments (the club's cash box): no name, so no player's name is taken for it


@dataclass(frozen=True)
class Line:
    """One player's result: units, their money, the share of the pot, the total."""

    position: int
    name: str
    units: int
    cents: int
    pot_share: int
    total: int


@dataclass(frozen=True)
class PotClose:
    """What happens to the Schafkopf pot at the end of the night (all in cents but ``units``)."""

    mode: str  # split, carry, kept (a tournament's table: its pot goes to no night), or gone (carried before the
    # pots were followed, and no night took it: migration 0016's ``""``, holding units)
    start_units: int
    units: int  # in the pot at the end
    cents: int
    share: int  # each player's share (split)
    remainder: int  # cents that stay in the pot (split), or everything (carry)


@dataclass(frozen=True)
class Payment:
    payer: str | None  # a player's name, or POT
    payee: str | None
    cents: int


#: The counts a hand adds to its players' statistics beyond the hands played, declared and won: each
#: is a ``night_result`` column (:class:`~scorekeeper.core.models.NightResult`), and says which engine
#: seats of the hand (its game's :class:`~scorekeeper.engine.HandFacts`) it counts one for. The night's
#: statistics, the club's history rows, their check and a player's page all read this table: a new
#: statistic is an entry here and its column (with a migration).
SEAT_COUNTS: dict[str, Callable[[HandFacts], Iterable[int]]] = {
    "matzl_caught": lambda f: f.catchers,  # Matzlfangen: on the side that caught the Matzl ...
    "matzl_lost": lambda f: f.losers_of_matzl,  # ... and on the side whose Matzl was caught
    "touts": lambda f: f.declarers if f.tout else (),  # Schafkopf: touts declared ...
    "touts_won": lambda f: f.declarers if f.tout and f.won else (),  # ... and won
    "games_won": lambda f: f.game_winners,  # Konter a Matt: games (down to zero strokes) won by the team
    "matches_won": lambda f: (f.match_winner,) if f.match_winner else (),  # Matt: matches won
}
#: Every count of a player's night row (``night_result``): hands played, declared and won, then :data:`SEAT_COUNTS`.
ROW_COUNTS = ("hands", "declared", "won", *SEAT_COUNTS)


@dataclass
class PlayerStats:
    """One player's counts of one night; the club's history adds these up night by night."""

    name: str
    hands: int = 0
    declared: Counter = field(default_factory=Counter)  # contract -> hands declared
    won: Counter = field(default_factory=Counter)  # contract -> hands won as declarer
    counts: Counter = field(default_factory=Counter)  # a column of SEAT_COUNTS -> how many

    @property
    def matzl(self) -> int:
        """Matzl caught (on the catching side), as the night's statistics table shows it."""
        return self.counts["matzl_caught"]

    def row(self) -> dict[str, int]:
        """The counts as the player's night row has them: :data:`ROW_COUNTS` -> how many."""
        totals = {"hands": self.hands, "declared": sum(self.declared.values()), "won": sum(self.won.values())}
        return totals | {column: self.counts[column] for column in SEAT_COUNTS}


@dataclass(frozen=True)
class Summary:
    table: Table
    lines: list[Line]
    payments: list[Payment]
    bank: list[Payment]  # the naive alternative: everyone pays the bank / the bank pays everyone
    pot: PotClose | None
    players: list[PlayerStats]
    biggest: tuple[int, int] | None  # (hand number, value)
    counts: dict[str, int]  # stanner, uebermatt, matzl, rundpass ...
    series: list[list[int]]  # per position: running balance in cents after each hand (0 at the start)
    extra: dict[str, Any]

    @property
    def closed(self) -> bool:
        return not self.table.night.is_open


def _pot_close(table: Table) -> PotClose | None:
    s = table.settlement
    if s.pot is None:
        return None
    stake = table.night.stake_cents
    cents = ledger.cents(s.pot, stake)
    if s.rules.pot_at_close == "split":
        share, remainder = divmod(cents, len(table.players))
        return PotClose("split", s.pot_start, s.pot, cents, share, remainder)
    night = table.night
    mode = "carry" if night.tournament_id is None else "kept"  # a tournament's pot stays in the tournament
    if mode == "carry" and night.pot_to == POT_GONE and s.pot and not night.is_open:
        mode = "gone"  # carried before where a pot went was recorded, and no night took it (nights.pots_gone)
    return PotClose(mode, s.pot_start, s.pot, cents, 0, cents)


def money_lines(table: Table) -> tuple[PotClose | None, list[Line]]:
    """What the pot does at the end, and each player's money (by table position)."""
    stake = table.night.stake_cents
    pot = _pot_close(table)
    share = pot.share if pot and pot.mode == "split" else 0
    lines = []
    for position, player in sorted(table.players.items()):
        units = table.balance[position - 1]
        cents = ledger.cents(units, stake)
        lines.append(Line(position, player.name, units, cents, share, cents + share))
    return pot, lines


def night_money(table: Table) -> tuple[PotClose | None, dict[int, int]]:
    """What the night pays each table position, in cents, and what its pot did. A closed night: the
    settlement's (:func:`money_lines`: with each one's share of a pot split at the close) and its pot's
    close; an open night: its balance's money (:meth:`Table.money`), the pot still on the table (None).
    The table page and the API say this, so they agree with the settlement, its PDF and the history."""
    if table.night.is_open:
        return None, {position: table.money(position) for position in table.players}
    pot, lines = money_lines(table)
    return pot, {line.position: line.total for line in lines}


def count_hand(
    stats: dict[int, PlayerStats], positions: tuple[int, ...], facts: HandFacts, *, redeal: bool = False
) -> None:
    """Add one hand's counts (``facts``, played by the table ``positions`` of its seats) to ``stats``.

    A ``redeal`` (:meth:`Table.dealt_again`: everybody passed under ``all_pass: "redeal"``, and the same
    dealer deals again) is no hand played: it counts among nobody's hands, as it counts among no
    tournament's deals (docs/rules.md, "The club's history")."""
    for position in positions if not redeal else ():
        stats[position].hands += 1
    for seat in facts.declarers:
        player = stats[positions[seat - 1]]
        player.declared[facts.contract] += 1
        player.won[facts.contract] += bool(facts.won)
    for column, seats in SEAT_COUNTS.items():
        for seat in seats(facts):
            stats[positions[seat - 1]].counts[column] += 1


def summarize(table: Table) -> Summary:
    """Everything the end-of-night page and PDF show."""
    night = table.night
    game = GAMES[night.game]
    pot, lines = money_lines(table)
    # The pot is a party of the payments when money goes into it or comes out of it.
    parties = [(line.name, line.total) for line in lines]
    pot_balance = -sum(total for _, total in parties)
    if pot_balance:
        parties.append((POT, pot_balance))
    transfers = ledger.minimal_transfers([b for _, b in parties])
    payments = [Payment(parties[a][0], parties[b][0], c) for a, b, c in transfers]
    bank = [Payment(name, POT, -b) if b < 0 else Payment(POT, name, b) for name, b in parties if b and name is not POT]

    stats = {p: PlayerStats(table.players[p].name) for p in table.players}
    counts: Counter = Counter()
    biggest = None
    for i, (record, result) in enumerate(zip(table.hands, table.settlement.results, strict=True)):
        facts = game.facts(table.settlement.hands[i], result)
        count_hand(stats, table.positions[i], facts, redeal=table.dealt_again(record.number))
        counts.update(facts.events)
        if biggest is None or result.value > biggest[1]:
            biggest = (record.number, result.value)

    # what each hand pays (Matt: its share of the final balance), so the last point is each one's money
    series = [[0] for _ in lines]
    for number in range(1, len(table.hands) + 1):
        paid = table.hand_money(number)
        for k, line in enumerate(lines):
            series[k].append(series[k][-1] + paid[line.position - 1])
    return Summary(
        table,
        lines,
        payments,
        bank,
        pot,
        [stats[p] for p in sorted(stats)],
        biggest,
        dict(counts),
        series,
        dict(table.settlement.extra),
    )
