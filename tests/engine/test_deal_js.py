"""The outbox's copy of the deal (static/outbox.js ``skDeal``, needed offline) agrees with the engine's
(engine/deal.py): the engine writes fixtures (random nights of every game at both table sizes, with hands
dealt again, from every first dealer) and node runs outbox.js's deal over them."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from scorekeeper.engine import GAMES, deal
from tests.engine.test_deal import TABLES, night_hands

OUTBOX = Path(__file__).resolve().parents[2] / "static" / "outbox.js"

#: runs outbox.js in a bare context (no window: only the deal is defined) and checks every fixture:
#: the deal after the first k hands of a night, for every k
CHECK = """
const fs = require("fs"), vm = require("vm");
const scope = {};
vm.runInNewContext(fs.readFileSync(process.argv[2], "utf8"), { self: scope });
const cases = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const wrong = [];
let checked = 0;
for (const c of cases) {
  c.deals.forEach((expected, k) => {
    const got = scope.skDeal(c.start, c.contracts.slice(0, k));
    checked++;
    if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push({ name: c.name, k, expected, got });
  });
}
console.log(JSON.stringify({ checked, wrong: wrong.slice(0, 5) }));
"""


def fixtures(seed: int = 24) -> list[dict]:
    """Nights as the engine deals them: the start the page gives outbox.js, each hand's contract, and the
    engine's deal of every hand (and of the one after the last)."""
    rng = random.Random(seed)
    cases = []
    for name, size in TABLES:
        game = GAMES[name]
        for first in range(1, size + 1):
            rules, hands = night_hands(name, rng, 12)
            listed = deal.deals(game, rules, size, first, hands)
            cases.append(
                {
                    "name": f"{name} at {size}, {first} deals first",
                    "start": {
                        "number": 1,
                        "dealer": first,
                        "size": size,
                        "seats": game.seats,
                        "stays": list(deal.deal_stays(game, rules)),
                    },
                    "contracts": [h.get("contract", "") for h in hands],
                    "deals": [
                        {
                            "number": d.number,
                            "dealer": d.dealer,
                            "forehand": d.forehand,
                            "positions": list(d.positions),
                            "sitsOut": d.sits_out,
                        }
                        for d in listed
                    ],
                }
            )
    return cases


def test_the_outbox_deals_as_the_engine_does(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    cases = fixtures()
    assert any(c["start"]["stays"] and set(c["contracts"]) & set(c["start"]["stays"]) for c in cases)  # redeals
    path = tmp_path / "deals.json"
    path.write_text(json.dumps(cases))
    script = tmp_path / "check.js"
    script.write_text(CHECK)
    out = subprocess.run([node, str(script), str(OUTBOX), str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["wrong"] == []
    assert answer["checked"] == sum(len(c["deals"]) for c in cases)
