"""Random valid sessions, for the benchmark, the property tests and the demo nights.

``random_hands(game, rng, n, rules)`` returns ``n`` JSON hands that the engine
accepts under ``rules`` (a validated rule set): the same path as real input.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import konter_a_matt, matt, matzlfangen, schafkopf


def _matzlfangen(rng: random.Random, rules: matzlfangen.Rules, index: int) -> dict[str, Any]:
    dealer = index % 4 + 1
    contract = rng.choices(matzlfangen.CONTRACTS, weights=(70, 12, 8, 5, 5))[0]
    hand: dict[str, Any] = {"contract": contract, "dealer": dealer}
    if rules.max_raises:
        hand["raises"] = min(rules.max_raises, rng.choice((0, 0, 0, 1, 1, 2, rng.randint(0, rules.max_raises))))
    if contract == "rufen":
        declarer = dealer % 4 + 1
        hand["partner"] = rng.choice([s for s in range(1, 5) if s != declarer])
    else:
        hand["declarer"] = rng.randint(1, 4)
    if contract in matzlfangen.POINT_CONTRACTS:
        points = rng.randint(0, matzlfangen.TOTAL_POINTS)
        won = points >= rules.win_threshold
        if rng.random() < 0.05:
            points = matzlfangen.TOTAL_POINTS if won else 0
            hand["schwarz"] = True
        hand["points"] = points
    else:
        won = rng.random() < 0.5
        hand["won"] = won
    if contract != "durch" and rng.random() < 0.25:
        side = rng.choice(("declarers", "defenders"))
        losers = "defenders" if won else "declarers"
        no_trick = hand.get("schwarz") or (contract == "trumpf_durch" and won)
        points = hand.get("points")
        side_points = None if points is None else (points if side == "declarers" else matzlfangen.TOTAL_POINTS - points)
        holds_ten = side_points is None or side_points >= matzlfangen.MATZL_POINTS
        if not (side == losers and no_trick) and holds_ten:
            hand["matzl"] = side
            if rng.random() < 0.2:
                hand["matzl_claimed"] = False
    return hand


def _schafkopf(rng: random.Random, rules: schafkopf.Rules, index: int) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.08:
        if rules.all_pass == "ramsch":
            return _ramsch(rng, rules)
        return {"contract": "rundpass"}
    contract = "sauspiel" if roll < 0.75 else rng.choice(("wenz", "solo"))
    declarer = rng.randint(1, 4)
    hand: dict[str, Any] = {"contract": contract, "declarer": declarer}
    if contract == "sauspiel":
        hand["suit"] = rng.choice(schafkopf.CALLABLE_SUITS)
        hand["partner"] = rng.choice([s for s in range(1, 5) if s != declarer])
    elif contract == "solo":
        hand["suit"] = rng.choice(schafkopf.SUITS)
    hand["laufende"] = rng.randint(0, 4 if contract == "wenz" else 8)
    kontra = rng.random() < 0.15
    if kontra:
        hand["kontra"] = True
        if rng.random() < 0.3:
            hand["re"] = True
    if rng.random() < 0.1 and rules.klopfen_played:
        hand["klopfen"] = rng.randint(1, 2)
    if contract != "sauspiel" and rng.random() < 0.05:
        hand["tout"] = True
        hand["won"] = rng.random() < 0.6
        return hand
    points = rng.randint(0, schafkopf.TOTAL_POINTS)
    if rng.random() < 0.04:
        needed = schafkopf.needed_to_win(rules, kontra, hand.get("re", False))
        points = schafkopf.TOTAL_POINTS if points >= needed else 0
        hand["schwarz"] = True
    hand["points"] = points
    return hand


def _ramsch(rng: random.Random, rules: schafkopf.Rules) -> dict[str, Any]:
    hand: dict[str, Any] = {"contract": "ramsch"}
    if rng.random() < 0.1 and rules.klopfen_played:
        hand["klopfen"] = 1
    if rng.random() < 0.03:
        hand["durchmarsch"] = rng.randint(1, 4)
        return hand
    # Deal the 120 points in steps of 10 over the seats; some seats may stay empty.
    points = [0, 0, 0, 0]
    takers = rng.sample(range(4), rng.choice((2, 3, 4, 4, 4)))
    for _ in range(12):
        points[rng.choice(takers)] += 10
    hand["points"] = {str(s + 1): p for s, p in enumerate(points)}
    jungfrau = [s + 1 for s in range(4) if s not in takers]
    if jungfrau:
        hand["jungfrau"] = jungfrau
    most = max(points)
    tied = [s + 1 for s in range(4) if points[s] == most]
    if len(tied) > 1 and rules.ramsch_tie == "named":
        hand["loser"] = rng.choice(tied)
    return hand


def _konter_a_matt(rng: random.Random, rules: konter_a_matt.Rules, index: int, last: dict | None) -> dict[str, Any]:
    trump_team = rng.choice(konter_a_matt.TEAMS)
    if last is not None and max(last["points_a"], konter_a_matt.TOTAL_POINTS - last["points_a"]) < rules.win_points:
        trump_team = last["trump_team"]  # an undecided partie (a Stänner): the same team chooses trumps again
    points_a = 20 if rng.random() < 0.08 else rng.randint(0, 40)
    hand: dict[str, Any] = {"trump_team": trump_team, "points_a": points_a}
    if points_a in (0, 40) and rng.random() < 0.5:
        hand["schwarz"] = True
    if rng.random() < 0.2:
        hand["matt"] = True
    if rng.random() < 0.15:
        hand["konter"] = True
    return hand


def _matt(rng: random.Random, rules: matt.Rules, index: int) -> dict[str, Any]:
    vorablegen = rng.choice((0, 0, 1, 2))
    if rng.random() < 0.1:
        return {"mated_by": None, "vorablegen": vorablegen}
    move = rng.randint(1, 9 if vorablegen == 2 else 10)
    hand: dict[str, Any] = {"mated_by": rng.randint(1, 2), "move": move, "card": rng.choice(tuple(matt.CARD_VALUES))}
    if vorablegen:
        hand["vorablegen"] = vorablegen
    if vorablegen == 1 and move == 10 and rng.random() < 0.5:
        hand["uebermatt"] = True
    return hand


_SIMPLE: dict[str, Callable[[random.Random, Any, int], dict[str, Any]]] = {
    "matzlfangen": _matzlfangen,
    "schafkopf": _schafkopf,
    "matt": _matt,
}


def random_hands(game: str, rng: random.Random, n: int, rules: Any) -> list[dict[str, Any]]:
    """``n`` random JSON hands of ``game`` that are valid in sequence under ``rules``."""
    if game == "konter_a_matt":
        hands: list[dict[str, Any]] = []
        last = None
        for i in range(n):
            last = _konter_a_matt(rng, rules, i, last)
            hands.append(last)
        return hands
    make = _SIMPLE[game]
    return [make(rng, rules, i) for i in range(n)]
