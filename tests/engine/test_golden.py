"""The engine's output pinned byte for byte: random nights of every game, settled through ``settle``.

Each game's figure is a SHA-256 over, for nights of random valid hands under several rule sets
(and a carried pot where the rules take one): the ``settle`` answer (compact and pretty), every
hand's stored result and state as ``settle_from`` gives them, what ``facts`` and ``summary`` say of
each hand; and, for hands broken at random (a field taken away, added, or given a wrong value,
a nested value spoilt, no object at all), the refusal (its hand, field, template, parameters and
the ``settle`` answer). The figures were made by the engine before it was made quicker (issue 14);
a quicker engine must keep every byte.

When a change of the rules is meant to change the output, the figures change with it: run
``python tests/engine/test_golden.py`` to print the new ones. To see what changed, write the data
before and after the change with ``python tests/engine/test_golden.py --dump DIR`` (one JSON line per
piece of data) and compare the two: only what the change meant to change may differ.

Changed on purpose since: Schafkopf's steps show the pot (``pot_in``, ``pot_out``, ``pot_doubled``,
each adding 0 units just before ``value``) and its ``points``/``tout`` steps name the ``suit``
(issue 14, 3 and 6); compared so, nothing but these steps differed. The rule set gained
``klopfen_played`` (every Schafkopf answer's ``rules`` names it; compared so, nothing else differed)
and the ``turnier`` preset was added to the rule sets (issue 16).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.cli import settle_text
from scorekeeper.engine import GAMES, HandResult, InvalidHand, Step, settle_session
from scorekeeper.engine.samples import random_hands

#: Partial rule sets each game is settled under (the defaults first).
RULE_SETS: dict[str, list[dict[str, Any]]] = {
    "matzlfangen": [
        {},
        {"win_threshold": 61, "no_water_below": 40, "matzl_annuls_loss": False, "matzl_bonus": 2},
        {"max_raises": 3, "no_trick_value": 4, "durch_value": 7},
    ],
    "schafkopf": [
        {},
        {"preset": "seed-variant"},
        {"preset": "bavarian"},
        {"all_pass": "ramsch", "jungfrau": "double_own", "ramsch_tie": "named", "durchmarsch_tariff": "ramsch"},
        {"all_pass": "ramsch", "jungfrau": "none", "laufende_max": 4, "kontra_shifts_threshold": False},
        {"pot_at_close": "carry", "pot_stake": 3, "extra": 2},
        {"preset": "turnier"},
    ],
    "konter_a_matt": [
        {},
        {"strokes": 5, "trump_team_penalty": False, "tie_penalty": 2, "stake_per_game": 3},
        {"strokes": 1, "tie_penalty": 0, "stake_per_game": 1},
    ],
    "matt": [{}, {"stake_per_point": 3}],
}

NIGHTS = 4  # per rule set
HANDS = 120  # per night
BROKEN = 300  # broken hands per rule set

#: Values a broken hand's field is given.
WRONG = (True, False, None, "x", "rufen", "A", "declarers", [], [1], {}, 1.5, 10**20)
WRONG += (-1, 0, 1, 2, 3, 5, 40, 61, 121, 131)


def _dump(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, default=repr).encode() + b"\n"


def _night(game: str, rules_json: dict[str, Any], rng: random.Random, n: int) -> list[dict[str, Any]]:
    return random_hands(game, rng, n, GAMES[game].parse_rules(rules_json))


def _valid(game: str, rules_json: dict[str, Any], seed: int) -> Iterator[bytes]:
    g = GAMES[game]
    rules = g.parse_rules(rules_json)
    rng = random.Random(seed)
    for night in range(NIGHTS):
        hands = _night(game, rules_json, rng, HANDS)
        session: dict[str, Any] = {"game": game, "rules": rules_json, "hands": hands}
        pot = 2 * night if g.takes_pot(rules) and night else None
        if pot is not None:
            session["pot"] = pot
        text = json.dumps(session)
        yield _dump(settle_text(text))
        yield _dump(settle_text(text, pretty=True))
        parsed, results, states = g.settle_from(rules, hands, g.initial_state(rules, pot))
        for hand, result, state in zip(parsed, results, states, strict=True):
            stored = result.to_json()
            assert HandResult.from_json(json.loads(json.dumps(stored))) == result
            assert result.steps == tuple(Step.from_json(s) for s in stored["steps"])
            assert [s.to_json() for s in result.steps] == stored["steps"]
            yield _dump([stored, g.state_to_json(state), repr(g.facts(hand, result)), g.summary(hand), repr(hand)])
        # settled from a stored state half-way, the second half is the same
        half = HANDS // 2
        start = g.state_from_json(json.loads(json.dumps(g.state_to_json(states[half - 1]))))
        _, tail, _ = g.settle_from(rules, hands[half:], start, half)
        assert [r.to_json() for r in tail] == [r.to_json() for r in results[half:]]


def _broken(game: str, rules_json: dict[str, Any], seed: int) -> Iterator[bytes]:
    fields = sorted(__import__(GAMES[game].hand_cls.__module__, fromlist=["FIELDS"]).FIELDS)
    rng = random.Random(seed)
    for _ in range(BROKEN):
        hands = _night(game, rules_json, rng, rng.randint(1, 6))
        hand = dict(hands[-1])
        how = rng.randrange(5)
        nested = [k for k, v in hand.items() if isinstance(v, (dict, list))]
        if how == 4 and nested:  # a Ramsch's points of a seat, a Jungfrau's seat
            key = rng.choice(nested)
            inner = hand[key] = copy.copy(hand[key])
            if isinstance(inner, dict):
                inner[rng.choice((*inner, "5", "0"))] = rng.choice(WRONG)
            else:
                inner.append(rng.choice(WRONG))
        elif how == 0 and hand:
            del hand[rng.choice(sorted(hand))]
        elif how == 1:
            hand[rng.choice(fields)] = rng.choice(WRONG)
        elif how == 2:
            hand[rng.choice((*fields, "bogus", "1"))] = rng.choice(WRONG)
            hand[rng.choice(fields)] = rng.choice(WRONG)
        else:
            hand = rng.choice((None, 3, "x", [], [hand]))
        hands[-1] = hand
        try:
            settle_session(game, rules_json, hands)
        except InvalidHand as exc:
            yield _dump([exc.hand, exc.field, exc.template, exc.params, str(exc)])
        else:
            yield b"accepted\n"
        yield _dump(settle_text(json.dumps({"game": game, "rules": rules_json, "hands": hands})))


def digest(game: str) -> str:
    h = hashlib.sha256()
    for i, rules_json in enumerate(RULE_SETS[game]):
        for chunk in _valid(game, rules_json, 1000 + i):
            h.update(chunk)
        for chunk in _broken(game, rules_json, 2000 + i):
            h.update(chunk)
    return h.hexdigest()


GOLDEN = {
    "matzlfangen": "ea5410ab4133eb2e74d71ba357a3812960a42d10161f7e5a72dcfe8392d6dd9b",
    "schafkopf": "0b30459396f9bc37378cef30c8485684dd8ba1004d9fe69d699e6fea0fa128bb",
    "konter_a_matt": "1c3f148e13db676554784431fcdb4a23ad0c63d39ce59be21f8b2144f7ca1629",
    "matt": "ab8fec0eda89c00f8b670effe4b237cff38fadc5cd881f5c75567c00dcc3f412",
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_engine_gives_every_byte_it_gave_before(game: str) -> None:
    assert digest(game) == GOLDEN[game]


def dump(game: str, path: str) -> None:
    """Write the data :func:`digest` hashes to ``path``, one JSON line per piece, to compare two engines'."""
    with open(path, "w", encoding="utf-8") as out:
        for i, rules_json in enumerate(RULE_SETS[game]):
            for kind, chunks in (
                ("valid", _valid(game, rules_json, 1000 + i)),
                ("broken", _broken(game, rules_json, 2000 + i)),
            ):
                for chunk in chunks:
                    out.write(json.dumps([kind, chunk.decode()], ensure_ascii=False) + "\n")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if sys.argv[1:2] == ["--dump"]:
        folder = Path(sys.argv[2])
        folder.mkdir(parents=True, exist_ok=True)
        for name in GAMES:
            dump(name, str(folder / f"{name}.jsonl"))
    else:
        for name in GAMES:
            print(f'    "{name}": "{digest(name)}",')
