"""What the pages call the games' house-rule options and presets, in the page's language.

The engine declares each option with an English key and help text (``engine.rules.option``) and
each preset by a key (``seed``, ``bavarian``): that is the JSON contract, and the API keeps it. A
person reads the words here instead: each option's label and hint, the labels of its choices, and
each preset's name. Game terms (Sauspiel, Ramsch, Stänner ...) stay in their own words.

Every option and preset of every game in the engine's registry has its words here
(tests/web/test_page_words.py), so a new option never shows up on a page as its key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.engine import GAMES


@dataclass(frozen=True)
class Option:
    """An option as the start form shows it: its label, a hint under it, and its choices' labels; and its
    label as it reads in running text (a night's rules line: "rules: by the rule text, the pot at the end of
    the night: …"), where the label, a heading, starts with a word written small in a sentence (None: the
    label, which starts with a game term, Sauspiel, or a German noun)."""

    label: Any
    hint: Any = ""
    choices: Mapping[str, Any] = field(default_factory=dict)
    in_text: Any = None

    @property
    def label_in_text(self) -> str:
        """The label as it reads in the middle of a sentence: ``in_text`` if given, else the label."""
        return str(self.in_text if self.in_text is not None else self.label)


#: Each game's options, in the engine's order.
OPTIONS: dict[str, dict[str, Option]] = {
    "matzlfangen": {
        "win_threshold": Option(
            _l("Points to win"), _l("Card points the declaring side needs to win."), in_text=_l("points to win")
        ),
        "no_water_below": Option(
            _l("No water below"),
            _l("A losing side with fewer card points has no water (kein Wasser)."),
            in_text=_l("no water below"),
        ),
        "no_trick_value": Option(
            _l("Value without a trick"),
            _l("Units when the losing side took no trick."),
            in_text=_l("value without a trick"),
        ),
        "no_water_value": Option(
            _l("Value without water"), _l("Units when the losing side has no water."), in_text=_l("value without water")
        ),
        "durch_value": Option(
            _l("Value of a Durch"), _l("Units of a Durch or Trumpf-Durch."), in_text=_l("value of a Durch")
        ),
        "max_raises": Option(_l("Raises at most"), _l("How often a hand may be raised."), in_text=_l("raises at most")),
        "matzl_bonus": Option(_l("Matzl bonus"), _l("Units the winners add for a Matzl they caught and claimed.")),
        "matzl_annuls_loss": Option(
            _l("A caught Matzl cancels the loss"),
            _l("A side that caught the Matzl and lost pays nothing."),
            in_text=_l("a caught Matzl cancels the loss"),
        ),
    },
    "schafkopf": {
        "tariff_sauspiel": Option(_l("Sauspiel tariff"), _l("Units of a Sauspiel.")),
        "tariff_solo": Option(_l("Solo tariff"), _l("Units of a Wenz or Solo.")),
        "extra": Option(
            _l("Schneider, schwarz, runners"),
            _l("Units for schneider, for schwarz and for each paid runner."),
            in_text=_l("schneider, schwarz, runners"),
        ),
        "laufende_min": Option(
            _l("Runners from"), _l("Runners are paid from this many on."), in_text=_l("runners from")
        ),
        "laufende_min_wenz": Option(
            _l("Runners in a Wenz from"), _l("The same in a Wenz."), in_text=_l("runners in a Wenz from")
        ),
        "laufende_max": Option(
            _l("Runners at most"),
            _l("Runners beyond this many are not paid; empty: no limit; 0: no runners are paid."),
            in_text=_l("runners at most"),
        ),
        "kontra_shifts_threshold": Option(
            _l("60 win after Kontra"),
            _l("After Kontra (without Re) the declaring side wins with 60."),
            in_text=_l("after Kontra, 60 win"),
        ),
        "declarers_schneider_at": Option(
            _l("Declaring side schneider up to"),
            _l("A losing declaring side with this many card points or fewer is schneider."),
            in_text=_l("declaring side schneider up to"),
        ),
        "klopfen_played": Option(
            _l("Knocking allowed"), _l("Players may knock; each knock doubles."), in_text=_l("knocking allowed")
        ),
        "all_pass": Option(
            _l("When everybody passes"),
            choices={
                "pot": _l("everybody pays into the pot"),
                "ramsch": "Ramsch",
                "none": _l("nothing is paid"),
                "redeal": _l("dealt again"),
            },
            in_text=_l("when everybody passes"),
        ),
        "pot_stake": Option(
            _l("Into the pot"), _l("Units each player pays into the pot on a Rundpass."), in_text=_l("into the pot")
        ),
        "pot_at_close": Option(
            _l("The pot at the end of the night"),
            choices={"split": _l("shared among the players"), "carry": _l("carried to the club's next night")},
            in_text=_l("the pot at the end of the night"),
        ),
        "tariff_ramsch": Option(_l("Ramsch tariff"), _l("Units the loser of a Ramsch pays each other player.")),
        "jungfrau": Option(
            _l("A Jungfrau"),
            choices={
                "double_all": _l("doubles every payment"),
                "double_own": _l("doubles what she receives"),
                "none": _l("changes nothing"),
            },
            in_text=_l("a Jungfrau"),
        ),
        "durchmarsch_tariff": Option(
            _l("A Durchmarsch is paid as"),
            choices={"solo": _l("a Solo"), "ramsch": _l("a Ramsch")},
            in_text=_l("a Durchmarsch is paid as"),
        ),
        "ramsch_tie": Option(
            _l("A tie in a Ramsch"),
            _l("Who loses when players tie for most points."),
            choices={"all_lose": _l("all of them lose"), "named": _l("the table names the loser")},
            in_text=_l("a tie in a Ramsch"),
        ),
    },
    "konter_a_matt": {
        "strokes": Option(_l("Strokes"), _l("Strokes each team starts a game with."), in_text=_l("strokes")),
        "win_points": Option(_l("Points to win"), _l("Card points that win a partie."), in_text=_l("points to win")),
        "trump_team_penalty": Option(
            _l("Strokes added to a losing trump team"),
            _l("A trump team that loses gets the strokes added."),
            in_text=_l("strokes added to a losing trump team"),
        ),
        "tie_penalty": Option(_l("Stänner penalty"), _l("Strokes the trump team gets added on a Stänner.")),
        "stake_per_game": Option(
            _l("Units per game"),
            _l("Units each player of the losing team pays a player of the winning team when a game ends; 0: no money."),
            in_text=_l("units per game"),
        ),
    },
    "matt": {
        "stake_per_point": Option(
            _l("Units per point"),
            _l("Units per point of the difference at the end; 0: played for honour."),
            in_text=_l("units per point"),
        ),
    },
}

#: Each game's presets by name (``seed``: the traditional rule text, every option at its default).
PRESETS: dict[str, dict[str, Any]] = {
    "matzlfangen": {"seed": _l("by the rule text")},
    "schafkopf": {
        "seed": _l("by the rule text"),
        "seed-variant": _l("variant"),
        "bavarian": _l("Bavarian"),
        "turnier": _l("tournament"),
    },
    "konter_a_matt": {"seed": _l("by the rule text")},
    "matt": {"seed": _l("by the rule text")},
}


def option(game: str, name: str) -> Option:
    """The words of ``game``'s option ``name`` (its key, for an option this module doesn't know yet)."""
    return OPTIONS.get(game, {}).get(name) or Option(name)


def preset_name(game: str, preset: str) -> str:
    """A preset as people call it: ``preset_name("schafkopf", "bavarian")`` "bayerisch" on a German page."""
    name = PRESETS.get(game, {}).get(preset)
    return preset if name is None else str(name)


def value_text(game: str, name: str, value: Any) -> str:
    """An option's value as a page shows it: a choice by its label, yes or no, a number; "–" for none."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    label = option(game, name).choices.get(value) if isinstance(value, str) else None
    return str(value) if label is None else str(label)


def rule_changes(game: str, rules: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The options of a night's rule set that differ from its preset, as (label, value) in the page's words,
    each label as it reads in running text (they follow "rules: …" in one line)."""
    g = GAMES[game]
    preset = g.presets.get(rules.get("preset", "seed"), {})
    return [
        (option(game, f.name).label_in_text, value_text(game, f.name, rules.get(f.name)))
        for f in g.options()
        if f.name in rules and rules[f.name] != preset.get(f.name, f.default)
    ]


def money_option(game: str) -> str | None:
    """The option without which ``game`` pays no money (None: the game always pays its units)."""
    return GAMES[game].money_option  # the engine's fact (docs/rules.md)


def uses_stake(game: str, rules: Mapping[str, Any]) -> bool:
    """Whether a night of ``game`` under ``rules`` (its options by key) ever turns units into money."""
    return GAMES[game].uses_stake(rules)
