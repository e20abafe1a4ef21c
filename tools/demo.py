"""Realistic demo nights: ``python manage.py demo`` makes one night per game."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from sqlmodel import Session, select

from scorekeeper.core.hands import add_hands
from scorekeeper.core.models import Player
from scorekeeper.core.nights import create_night
from scorekeeper.core.players import create_player
from scorekeeper.engine import GAMES
from scorekeeper.engine.samples import random_hands

ROSTER = ("Anna Huber", "Bernd Maier", "Clara Schütz", "Dieter Weiß", "Eva Gruber", "Franz Rößler")
#: (game, players at the table, hands, rule set)
NIGHTS = (
    ("matzlfangen", 4, 48, {}),
    ("schafkopf", 4, 40, {"preset": "bavarian"}),
    ("konter_a_matt", 4, 30, {}),
    ("matt", 2, 8, {"stake_per_point": 1}),
)
PLACES = ("Gasthaus zur Post", "Vereinsheim", "Dorfwirt Hackenbuch")


def roster(db: Session, names: tuple[str, ...] = ROSTER) -> list[Player]:
    """The demo players, made if missing."""
    players = []
    for name in names:
        found = db.exec(select(Player).where(Player.name == name)).first()
        players.append(found or create_player(db=db, name=name))
    return players


def make_night(
    db: Session,
    rng: random.Random,
    game: str,
    players: list[Player],
    hands: int,
    rules: dict,
    played_on: date,
    place: str,
    stake_cents: int = 10,
) -> int:
    """One night of random valid hands; returns its id."""
    night = create_night(
        db=db,
        game=game,
        rules=rules,
        stake_cents=stake_cents,
        player_ids=[p.id for p in players],
        first_dealer=1,  # random_hands deals from seat 1 on, as the night does
        played_on=played_on,
        place=place,
    )
    complete = GAMES[game].parse_rules(night.rules)
    sample = random_hands(game, rng, hands, complete)
    add_hands(db=db, night_id=night.id, hands=sample)
    return night.id


def make_demo(db: Session, seed: int = 2026) -> list[int]:
    """One realistic night per game, the newest last."""
    rng = random.Random(seed)
    people = roster(db)
    ids = []
    today = date.today()
    for days_ago, (game, seats, hands, rules) in zip(range(len(NIGHTS), 0, -1), NIGHTS, strict=True):
        at_table = rng.sample(people, seats)
        ids.append(
            make_night(db, rng, game, at_table, hands, rules, today - timedelta(days=days_ago), rng.choice(PLACES))
        )
    return ids


#: A busy club's roster over ten years: some come, some go.
CLUB = (
    *ROSTER,
    "Georg Lindner",
    "Hanna Brandl",
    "Ilse Kammerer",
    "Josef Stadler",
    "Karin Obermeier",
    "Ludwig Hainz",
    "Maria Reisinger",
    "Nikolaus Pichler",
    "Olga Wimmer",
    "Paul Zehetmair",
)
#: (game, share of the nights, players at the table, hands a night, rule set)
CLUB_NIGHTS = (
    ("schafkopf", 40, 4, (160, 260), {"preset": "bavarian"}),
    ("matzlfangen", 35, 4, (160, 260), {}),
    ("konter_a_matt", 15, 4, (120, 220), {}),
    ("matt", 10, 2, (120, 200), {"stake_per_point": 1}),
)


def make_club(db: Session, nights: int, seed: int = 2016, progress: Any = None) -> int:
    """``nights`` nights of a busy club, four a week for as long as it takes, ending today.

    About 200 hands a night, a mix of the games, tables of four and five, players who
    join and leave over the years. Returns the number of hands made.
    """
    rng = random.Random(seed)
    people = roster(db, CLUB)
    first = date.today() - timedelta(days=(nights * 7) // 4)
    hands = 0
    for i in range(nights):
        game, _share, seats, (lo, hi), rules = rng.choices(CLUB_NIGHTS, weights=[n[1] for n in CLUB_NIGHTS])[0]
        if game == "schafkopf" and rng.random() < 0.15:
            seats = 5  # a table of five: the dealer sits out
        window = max(seats, len(people) * (i + 1) // nights + 6)  # the roster grows over the years
        at_table = rng.sample(people[:window][-12:], seats)
        count = rng.randint(lo, hi)
        make_night(db, rng, game, at_table, count, rules, first + timedelta(days=(i * 7) // 4), rng.choice(PLACES))
        hands += count
        if progress is not None:
            progress(i + 1, hands)
    return hands
