"""Which of a game's rules a tariff lists under a rule set: the options that matter there.

A score sheet prints the tournament's rules in one box. An option that cannot come up under the
rules (the pot's stake when an all-pass is dealt again, the Ramsch's tariff when there is no
Ramsch, the runners' thresholds when runners are never paid) is left out, so that the box says
only what the table plays. Pure: the games' rule dataclasses only.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.engine import get_game

__all__ = ["tariff", "tariff_options"]


def tariff_options(game: str, rules: Any) -> tuple[str, ...]:
    """The names of the options of ``rules`` (a game's parsed rules) that apply, in the game's order.

    >>> from scorekeeper.engine import get_game
    >>> turnier = get_game("schafkopf").parse_rules({"preset": "turnier"})
    >>> tariff_options("schafkopf", turnier)  # doctest: +NORMALIZE_WHITESPACE
    ('tariff_sauspiel', 'tariff_solo', 'extra', 'laufende_max', 'kontra_shifts_threshold',
     'declarers_schneider_at', 'klopfen_played', 'all_pass')
    """
    return get_game(game).applying_options(rules)


def tariff(game: str, rules: Any) -> tuple[tuple[str, Any], ...]:
    """Each option of :func:`tariff_options` with its value under ``rules``: what a tariff box prints.

    >>> from scorekeeper.engine import get_game
    >>> tariff("schafkopf", get_game("schafkopf").parse_rules({"preset": "turnier"}))[:2]
    (('tariff_sauspiel', 1), ('tariff_solo', 5))
    """
    return tuple((name, getattr(rules, name)) for name in tariff_options(game, rules))
