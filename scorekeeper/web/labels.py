"""What the pages call the engine's keys: games and contracts.

Game terms stay in their own words, in both languages (they are the games' own names);
the games' names come from the engine's registry.
"""

from __future__ import annotations

from scorekeeper.engine import GAMES

GAME_LABELS = {name: game.title for name, game in GAMES.items()}

CONTRACT_LABELS = {
    "rufen": "Rufen",
    "treiben": "Treiben",
    "neidspiel": "Neidspiel",
    "durch": "Durch",
    "trumpf_durch": "Trumpf-Durch",
    "sauspiel": "Sauspiel",
    "wenz": "Wenz",
    "solo": "Solo",
    "rundpass": "Rundpass",
    "ramsch": "Ramsch",
    "trumps": "Trumpf",  # Konter a Matt: the team that chose trumps
}
