"""How long a tournament's table draw takes and how many repeats it leaves (``python tools/bench_draw.py``;
``manage.py bench draw``). Not a test.

Plays tournaments out round by round as the app does (each draw plans the rounds still to come):
the slowest and the median draw of a round for ``players`` players over ``rounds`` rounds, and for
the fields of ``KNOWN`` the repeated table-mates over the whole tournament against the known
optimum; with a floor (sorting 200 ids 1000 times) so that figures from machines of different speed
can be compared.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scorekeeper.engine.tournament import draw_round

#: (players, rounds): the fewest repeated table-mates over the whole tournament. 16 over 4 and 5
#: rounds: the affine plane of order 4; 8 and 12 over 3 rounds: tests/engine/test_draw_schedule.py
#: (every schedule tried; three tables of four repeat three pairs a round); 16 over 6 rounds: 144
#: pairs seated among 120; 20 over 5, 24 over 6 and 7, 28 over 9: the schedules of
#: ``tournament.DESIGNS``; 200 over 6: schedules without repeats are known.
KNOWN = {
    (8, 3): 8,
    (12, 3): 6,
    (16, 4): 0,
    (16, 5): 0,
    (16, 6): 24,
    (20, 4): 0,
    (20, 5): 0,
    (24, 6): 0,
    (24, 7): 0,
    (28, 9): 0,
    (200, 6): 0,
}


def play(players: int, rounds: int, seed: str) -> tuple[list[float], int]:
    """Draw every round of a tournament: the seconds of each draw and the repeats over all rounds."""
    history: list = []
    byes: dict[int, int] = {}
    times, repeats = [], 0
    for round_no in range(1, rounds + 1):
        start = time.perf_counter()
        draw = draw_round(range(1, players + 1), history, seed, round_no, byes, rounds=rounds)
        times.append(time.perf_counter() - start)
        repeats += draw.repeats
        history.append(draw.tables)
        for p in draw.byes:
            byes[p] = byes.get(p, 0) + 1
    return times, repeats


def time_draw(players: int = 200, rounds: int = 6, runs: int = 3, seed: str = "bench") -> float:
    """The median seconds of a round's draw in tournaments of ``players`` over ``rounds`` rounds."""
    times: list[float] = []
    for run in range(runs):
        times += play(players, rounds, f"{seed}{run}")[0]
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


def print_draw(players: int = 200, rounds: int = 6, seeds: int = 5) -> None:
    """Print the draw's time for ``players`` over ``rounds``, the repeats of the known fields, and the floor."""
    times: list[float] = []
    for seed in range(seeds):
        times += play(players, rounds, f"bench{seed}")[0]
    print(
        f"draw of a round for {players} players over {rounds} rounds: {statistics.median(times) * 1000:.0f} ms "
        f"median, {max(times) * 1000:.0f} ms slowest ({seeds} tournaments)"
    )
    for (n, r), best in KNOWN.items():
        runs = [play(n, r, f"bench{seed}") for seed in range(seeds)]
        found = [repeats for _, repeats in runs]
        slowest = max(max(t) for t, _ in runs)
        print(
            f"{n:>3} players over {r} rounds: repeats {found} (known optimum {best}), slowest {slowest * 1000:.0f} ms"
        )
    print(f"floor (sort 200 ids x1000): {floor_seconds() * 1000:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6, help="the tournament's rounds")
    parser.add_argument("--seeds", type=int, default=5, help="tournaments played for each figure")
    args = parser.parse_args(argv)
    print_draw(args.players, args.rounds, args.seeds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
