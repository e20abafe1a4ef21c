"""Benchmarks that print numbers (``python manage.py bench ...``); not tests."""

from __future__ import annotations

import json
import random
import statistics
import time

from .cli import settle_text
from .engine import GAMES
from .engine.samples import random_hands

NIGHT = 300  # hands in a long night at the table


def bench_engine(hands_per_game: int = 100_000, seed: int = 1) -> dict[str, dict[str, float]]:
    """Settle ``hands_per_game`` random valid hands per game through the ``settle`` path.

    The hands come as 300-hand nights of JSON text; each night is parsed, settled
    and its result serialised, exactly as ``python manage.py settle`` does.
    Returns hands per second and the median time of one 300-hand night per game.
    """
    figures = {}
    for name, game in GAMES.items():
        rng = random.Random(seed)
        rules = game.parse_rules(None)
        nights = []
        left = hands_per_game
        while left > 0:
            n = min(NIGHT, left)
            nights.append(json.dumps({"game": name, "hands": random_hands(name, rng, n, rules)}))
            left -= n
        per_night = []
        start = time.perf_counter()
        for text in nights:
            t0 = time.perf_counter()
            status, _ = settle_text(text)
            assert status == 0, "a random hand was rejected: the generator is wrong"
            per_night.append(time.perf_counter() - t0)
        elapsed = time.perf_counter() - start
        figures[name] = {
            "hands": hands_per_game,
            "seconds": elapsed,
            "hands_per_second": hands_per_game / elapsed,
            "night_ms": statistics.median(per_night) * 1000,
        }
    return figures


def print_engine(figures: dict[str, dict[str, float]]) -> None:
    """One line per game."""
    print(f"{'game':<15}{'hands':>9}{'seconds':>9}{'hands/s':>10}{'300-hand night':>16}")
    for name, f in figures.items():
        print(f"{name:<15}{f['hands']:>9}{f['seconds']:>9.2f}{f['hands_per_second']:>10,.0f}{f['night_ms']:>13.2f} ms")
