"""The engine's steps in the user's language, with players' names for seats.

The engine gives every step a ``key`` and ``args`` beside its English ``what``;
here each key has a sentence (a msgid of the translations). A key without a
sentence falls back to the engine's English text, so a new step never breaks a page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask_babel import gettext as _

from scorekeeper.engine import Mark, Step
from scorekeeper.web.labels import card_name, contract_name
from scorekeeper.web.messages import capital

#: The contracts whose steps name no contract in their args: they are what the step says.
_RUNDPASS = {"contract": "rundpass"}
_RAMSCH = {"contract": "ramsch"}


def _names(seats: Any, names: Mapping[int, str] | None) -> str:
    seats = seats if isinstance(seats, list) else [seats]
    return ", ".join(names.get(s, str(s)) if names else str(s) for s in seats)


def _points(a: Mapping[str, Any], n: Mapping[int, str] | None) -> str:
    name = contract_name(a)
    if a["won"]:
        return _("%(game)s won with %(points)s (%(needed)s needed)", game=name, points=a["points"], needed=a["needed"])
    return _("%(game)s lost with %(points)s (%(needed)s needed)", game=name, points=a["points"], needed=a["needed"])


def _tout(a: Mapping[str, Any], n: Mapping[int, str] | None) -> str:
    name = contract_name(a, tout=True)
    return _("%(game)s won", game=name) if a["won"] else _("%(game)s lost", game=name)


def _slam(a: Mapping[str, Any], n: Mapping[int, str] | None) -> str:
    name = contract_name(a)
    return (
        _("%(game)s won: every trick taken", game=name) if a["won"] else _("%(game)s lost: a trick was lost", game=name)
    )


TEXTS: dict[str, Callable[[Mapping[str, Any], Mapping[int, str] | None], str]] = {
    "value": lambda a, n: _("value"),
    # Matzlfangen
    "points": _points,
    "no_trick": lambda a, n: _("the losing side took no trick"),
    "no_water": lambda a, n: _(
        "kein Wasser: the losing side has %(points)s, under %(below)s", points=a["points"], below=a["below"]
    ),
    "slam": _slam,
    "raises": lambda a, n: _("raised %(count)s× to %(level)s", count=a["raises"], level=a["level"]),
    "matzl_bonus": lambda a, n: _("the winners caught the Matzl and claimed it"),
    "matzl_unclaimed": lambda a, n: _("the winners caught the Matzl but did not claim it"),
    "matzl_annuls": lambda a, n: _("the losing side caught the Matzl: nobody pays"),
    "matzl_no_effect": lambda a, n: _("the losing side caught the Matzl (no effect under these rules)"),
    # Schafkopf
    "rundpass_none": lambda a, n: _("%(game)s (everybody passed): nothing is paid", game=contract_name(_RUNDPASS)),
    "rundpass_redeal": lambda a, n: _(
        "%(game)s (everybody passed): the same dealer deals again, the deal does not count",
        game=contract_name(_RUNDPASS),
    ),
    "rundpass_pot": lambda a, n: _(
        "%(game)s (everybody passed): each player pays %(stake)s into the pot",
        game=contract_name(_RUNDPASS),
        stake=a["stake"],
    ),
    # the pot (Stock): paid beside the value (the step adds 0 units), what the pot holds after the hand
    "pot_in": lambda a, n: _("+%(paid)s into the pot, the pot holds %(pot)s", paid=a["paid"], pot=a["pot"]),
    "pot_out": lambda a, n: _(
        "declarer and partner take %(each)s each from the pot (-%(taken)s), the pot holds %(pot)s",
        each=a["each"],
        taken=a["taken"],
        pot=a["pot"],
    ),
    "pot_doubled": lambda a, n: _(
        "declarer and partner pay %(each)s each into the pot, doubling it (+%(paid)s), the pot holds %(pot)s",
        each=a["each"],
        paid=a["paid"],
        pot=a["pot"],
    ),
    "tout": _tout,
    "schneider": lambda a, n: (
        _("schneider: the defenders are schneider")
        if a["side"] == "defenders"
        else _("schneider: the declaring side is schneider")
    ),
    "schwarz": lambda a, n: _("schwarz: the losing side took no trick"),
    "laufende": lambda a, n: (
        _("%(count)s runners", count=a["runners"])
        if a["runners"] == a["paid"]
        else _("%(count)s runners, %(paid)s paid", count=a["runners"], paid=a["paid"])
    ),
    "tout_doubles": lambda a, n: _("tout doubles"),
    "kontra": lambda a, n: _("kontra doubles"),
    "re": lambda a, n: _("re doubles"),
    "klopfen": lambda a, n: _("knock %(n)s doubles", n=a["knock"]),
    "durchmarsch": lambda a, n: _(
        "%(game)s: Durchmarsch by %(who)s", game=contract_name(_RAMSCH), who=_names(a["seat"], n)
    ),
    "ramsch": lambda a, n: _(
        "%(game)s: most points (%(points)s) lose: %(who)s",
        game=contract_name(_RAMSCH),
        points=a["points"],
        who=_names(a["losers"], n),
    ),
    "ramsch_all_tied": lambda a, n: _("everybody tied: nobody pays"),
    "jungfrau": lambda a, n: _("Jungfrau %(who)s doubles", who=_names(a["seat"], n)),
    "jungfrau_own": lambda a, n: _("Jungfrau %(who)s receives double", who=_names(a["seat"], n)),
    # Konter a Matt
    "partie": lambda a, n: (
        _("team %(team)s won %(score)s", team=a["team"], score=a["score"])
        if "team" in a
        else _("partie %(score)s: undecided", score=a["score"])
    ),
    "matt": lambda a, n: _("Matt was said"),
    "konter": lambda a, n: _("Konter was said"),
    "stanner": lambda a, n: _("Stänner: %(n)s carried to the next decided partie", n=a["carried"]),
    "carry": lambda a, n: _("%(n)s carried from the Stänner before", n=a["carried"]),
    # Matt
    "draw": lambda a, n: _("no mate after 10 moves: a draw"),
    "move": lambda a, n: _("mate on move %(move)s", move=a["move"]),
    "vorablegen": lambda a, n: _("a card was laid aside: one move more"),
    "card": lambda a, n: _("× %(factor)s for the mating card %(card)s", factor=a["factor"], card=card_name(a["card"])),
    "uebermatt": lambda a, n: _("Übermatt doubles"),
}


def step_text(step: Step, names: Mapping[int, str] | None = None) -> str:
    """One step as a sentence in the user's language, a line of its own: it begins with a capital letter
    ("Schneider: ...", "Kontra doubles", "Value"), whatever the sentence or the engine's English begins with."""
    text = TEXTS.get(step.key)
    if text is None:
        return capital(step.what)
    try:
        return capital(text(step.args, names))
    except KeyError:
        return capital(step.what)


def _side(a: Mapping[str, Any], n: Mapping[int, str] | None) -> str:
    """Who played the hand and as what (a row names its side by this): Konter a Matt's trump team."""
    who = " + ".join(_names(seat, n) for seat in a["seats"])
    if a.get("word") == "trumps":
        return _("Trumps: team %(team)s (%(who)s)", team=a["team"], who=who)
    return who


def _times(word: str, a: Mapping[str, Any]) -> str:
    """A game's word, with how often where more than once: ``Jungfrau``, ``2× Jungfrau``."""
    return word if a.get("count", 1) == 1 else f"{a['count']}× {word}"


#: A hand's marks (``Game.marks``: what changed its value) as the short labels of its row's badges,
#: the PDF's log and the CSV. The games' own words (Kontra, Schneider, Tout, Übermatt) stay as they are.
MARK_TEXTS: dict[str, Callable[[Mapping[str, Any], Mapping[int, str] | None], str]] = {
    # Matzlfangen
    "no_trick": lambda a, n: _("no trick"),
    "no_water": lambda a, n: _("kein Wasser"),
    "raises": lambda a, n: _("raised to %(level)s", level=a["level"]),
    "matzl_bonus": lambda a, n: _("Matzl claimed"),
    "matzl_unclaimed": lambda a, n: _("Matzl not claimed"),
    "matzl_annuls": lambda a, n: _("Matzl: nobody pays"),
    "matzl_no_effect": lambda a, n: _("Matzl (no effect)"),
    # Schafkopf
    "tout_doubles": lambda a, n: "Tout",
    "schneider": lambda a, n: "Schneider",
    "schwarz": lambda a, n: "Schwarz",
    "laufende": lambda a, n: (
        _("%(count)s runners", count=a["runners"])
        if a["runners"] == a["paid"]
        else _("%(count)s runners, %(paid)s paid", count=a["runners"], paid=a["paid"])
    ),
    "kontra": lambda a, n: "Kontra",
    "re": lambda a, n: "Re",
    "klopfen": lambda a, n: _("knocked %(n)s×", n=a["knock"]),
    "jungfrau": lambda a, n: _times("Jungfrau", a),
    "jungfrau_own": lambda a, n: _times("Jungfrau", a),
    "pot_out": lambda a, n: _("%(taken)s from the pot", taken=a["taken"]),
    "pot_doubled": lambda a, n: _("pot doubled (+%(paid)s)", paid=a["paid"]),
    # Konter a Matt
    "side": _side,
    "matt": lambda a, n: "Matt",
    "konter": lambda a, n: "Konter",
    "stanner": lambda a, n: "Stänner",
    "carry": lambda a, n: _("+%(n)s from the Stänner", n=a["carried"]),
    # Matt
    "vorablegen": lambda a, n: "Vorablegen",
    "uebermatt": lambda a, n: "Übermatt",
}


def mark_text(mark: Mark, names: Mapping[int, str] | None = None) -> str:
    """One mark as its label in the user's language; a mark without a label says its key."""
    text = MARK_TEXTS.get(mark.key)
    try:
        return mark.key if text is None else text(mark.args, names)
    except KeyError:
        return mark.key
