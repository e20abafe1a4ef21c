"""How long a tournament's table draw takes (``python tools/bench_draw.py``; for ``manage.py bench``). Not a test.

Prints the median time of drawing round ``rounds + 1`` for ``players`` players after ``rounds``
rounds drawn the same way, with a floor beside it (sorting 200 ids 1000 times) so that figures
from machines of different speed can be compared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorekeeper.engine.tournament import draw_round


def _history(players: int, rounds: int, seed: str) -> list:
    history: list = []
    byes: dict[int, int] = {}
    for round_no in range(1, rounds + 1):
        draw = draw_round(range(1, players + 1), history, seed, round_no, byes)
        history.append(draw.tables)
        for p in draw.byes:
            byes[p] = byes.get(p, 0) + 1
    return history


def time_draw(players: int = 200, rounds: int = 5, runs: int = 7, seed: str = "bench") -> float:
    """The median seconds of drawing round ``rounds + 1`` of ``players`` players (over ``runs`` seeds)."""
    times = []
    for run in range(runs):
        history = _history(players, rounds, f"{seed}{run}")
        start = time.perf_counter()
        draw_round(range(1, players + 1), history, f"{seed}{run}", rounds + 1)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def floor_seconds(runs: int = 7) -> float:
    """The median seconds of sorting 200 shuffled ids 1000 times: the machine's speed, for comparison."""
    ids = list(range(200))
    random.Random(1).shuffle(ids)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(1000):
            sorted(ids)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def print_draw(players: int = 200, rounds: int = 5) -> None:
    """Print the draw's time, its repeats, and the floor."""
    seconds = time_draw(players, rounds)
    history = _history(players, rounds, "bench0")
    repeats = draw_round(range(1, players + 1), history, "bench0", rounds + 1).repeats
    print(
        f"draw of round {rounds + 1} for {players} players: {seconds * 1000:.1f} ms (median, {repeats} repeats); "
        f"floor (sort 200 ids x1000): {floor_seconds() * 1000:.1f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="earlier rounds before the one timed")
    args = parser.parse_args(argv)
    print_draw(args.players, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
