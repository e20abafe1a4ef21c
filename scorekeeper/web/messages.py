"""Turning refusals of the engine and the core into messages in the user's language, in the page's words.

The engine and the core say what is wrong in English with their JSON keys and values (``{name}`` is
``declarer``, a suit is ``'herz'``, a seat is ``3``): the API says it so, and keeps saying it so. A
page names things as it shows them: a field by its label, a choice by its label, a game and a
contract by their names, a seat by the player's name; the few sentences that speak of JSON itself
(``null``, a key) are said in the page's own words.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from flask_babel import get_translations, gettext
from flask_babel import lazy_gettext as _l

from scorekeeper.core.errors import Conflict, InvalidInput
from scorekeeper.engine import InvalidHand
from scorekeeper.engine.errors import N_
from scorekeeper.web.i18n import day, number
from scorekeeper.web.labels import CONTRACT_LABELS, GAME_LABELS

#: Words the engine fills into its messages that are themselves English (the kind of a bad value).
TYPE_WORDS = frozenset(
    {N_("true or false"), N_("a whole number"), N_("a text"), N_("a list"), N_("an object"), N_("a decimal number")}
)

#: The placeholders that hold an amount (units, cents, a stake in cents; a range's or the night's ceiling's ``limit``):
#: a page writes them grouped as its language groups thousands (``131.072.000`` in German, ``131,072,000`` in
#: English), the API as JSON writes them.
AMOUNTS = frozenset({"units", "limit", "cents", "stake"})

#: Refusals of the engine that a page says in its own words (the engine's speak of seats, keys and null).
PAGE_SENTENCES: dict[str, Any] = {
    "the partner must be another seat than the declarer": _l("The declarer cannot be their own partner."),
    "mated_by is required: the seat that gave mate, or null for a draw": _l("Choose who gave mate, or a draw."),
    "re needs kontra first": _l("Re only after Kontra."),
    # a field's own refusals say its label first, apart: a label such as "Matzl caught by", "Trumps chosen by"
    # or "Mate given by" begins no sentence ("Trumps chosen by is required" reads wrongly; "...: missing." does not)
    "{name} must be one of {choices}, not {value}": _l("{name}: choose one of {choices}, not {value}."),
    "{name} is required": _l("{name}: missing."),
    "{name} may not be null": _l("{name}: missing."),
    "{name} must be between {lo} and {hi}": _l("{name}: must be between {lo} and {hi}."),
    "{name} must be at least {lo}": _l("{name}: must be at least {lo}."),
    "{name} must be a whole number, not {type}": _l("{name}: must be a whole number, not {type}."),
    "{name} must be true or false, not {type}": _l("{name}: must be ticked or not, not {type}."),
    "{name} must be a seat number, not {type}": _l("{name}: choose a player, not {type}."),
    "{name} must be a seat from 1 to {seats}, not {value}": _l("{name}: choose a player of this table."),
    "{name} must be a list of seats, not {type}": _l("{name}: choose players, not {type}."),
    "{name} names a seat twice": _l("{name}: a player is named twice."),
    "{name} does not apply to {contract}": _l("{name}: does not apply to {contract}."),
    "{name} does not apply to a draw": _l("{name}: not in a draw."),
    "{name} does not apply to a tout: it is won or lost": _l("{name}: not in a Tout, which is won or lost."),
    "{name} applies only to a tout": _l("{name}: only in a Tout."),
    "{name} does not apply to a durchmarsch": _l("{name}: not in a Durchmarsch."),
    "{name} applies only when a side caught the Matzl": _l("{name}: only when a side caught the Matzl."),
    "points is required: each seat's card points": _l("Enter each player's card points."),
    "ramsch is only played with all_pass ramsch, not {all_pass}": _l("Under these house rules no Ramsch is played."),
    "{name} is named only when players tie for most points (ramsch_tie named)": _l(
        "{name} is named only when players tie for most points and the house rules let the table name the loser."
    ),
}

#: Refusals of the engine that name seats, as a page says them where it knows who sits there: the
#: sentence, and its placeholders that hold a seat (or seats, joined by ", "), each said as a name.
SEAT_SENTENCES: dict[str, tuple[Any, tuple[str, ...]]] = {
    "in rufen forehand declares: with seat {dealer} dealing that is seat {forehand}": (
        _l("In a Rufen forehand declares: with {dealer} dealing that is {forehand}."),
        ("dealer", "forehand"),
    ),
    "seat {seat} took no trick, so it cannot have {points} points": (
        _l("{seat} took no trick, so cannot have {points} points."),
        ("seat",),
    ),
    "seats {seats} tie for most points: name the loser": (
        _l("{seats} tie for most points: name the loser."),
        ("seats",),
    ),
    "the loser must be one of the tied seats {seats}": (
        _l("The loser must be one of {seats}, who tie for most points."),
        ("seats",),
    ),
    "points of seat {seat} are required": (_l("Enter the card points of {seat}."), ("seat",)),
    "seat {seat} made the durchmarsch and took every trick, so it is no jungfrau": (
        _l("{seat} made the Durchmarsch and took every trick, so is no Jungfrau."),
        ("seat",),
    ),
    "a durchmarsch leaves seats {others} without a trick: jungfrau names all three or none, not {seats}": (
        _l("A Durchmarsch leaves {others} without a trick: tick all three as Jungfrau, or none."),
        ("others", "seats"),
    ),
}


def _seat_names(value: Any, seats: Mapping[int, str]) -> str:
    """``3`` or ``"1, 3"`` (seats) as the players' names."""
    out = []
    for part in str(value).split(", "):
        seat = int(part) if part.isdigit() else None
        out.append(seats.get(seat, part) if seat is not None else part)
    return ", ".join(out)


def _choice(value: Any, values: Mapping[str, Any]) -> Any:
    """A choice the engine names (as written in JSON, ``'herz'``, or bare, ``herz``) by its label; JSON's
    ``null`` is the form's empty choice ("nobody")."""
    if not isinstance(value, str):
        return value
    bare = value[1:-1] if len(value) > 1 and value[0] == value[-1] == "'" else "" if value == "null" else value
    label = values.get(bare)
    return value if label is None else str(label)


def message(
    exc: InvalidHand | InvalidInput | Conflict,
    label: str | None = None,
    *,
    labels: Mapping[str, Any] | None = None,
    values: Mapping[str, Any] | None = None,
    seats: Mapping[int, str] | None = None,
    sentence: bool = False,
) -> str:
    """The refusal in the user's language (English where no translation exists), in the page's words.

    ``label`` is the label of the field the message is shown at: it replaces the field's key
    (``{name}``). ``labels`` name other fields by their keys, ``values`` name choices by their
    keys (the message's ``{value}`` and ``{choices}``), ``seats`` name the engine's seats by the
    players' names. Games and contracts are always named by their names. ``sentence``: the message
    stands on its own (the hand form's, at a field and atop the form) and begins with a capital letter.
    """
    params = {k: gettext(v) if isinstance(v, str) and v in TYPE_WORDS else v for k, v in exc.params.items()}
    params.update({k: day(v) for k, v in params.items() if isinstance(v, date)})  # in the user's notation
    params.update({k: number(v) for k, v in params.items() if k in AMOUNTS and type(v) is int})
    template: Any = PAGE_SENTENCES.get(exc.template, exc.template)
    if seats and exc.template in SEAT_SENTENCES:
        template, seat_params = SEAT_SENTENCES[exc.template]
        params.update({k: _seat_names(params[k], seats) for k in seat_params if k in params})
    name = params.get("name")
    if label and name == getattr(exc, "field", None):
        params["name"] = label
    elif labels and name in labels:
        params["name"] = str(labels[name])
    if "game" in params:
        params["game"] = GAME_LABELS.get(params["game"], params["game"])
    if "contract" in params:
        params["contract"] = CONTRACT_LABELS.get(params["contract"], params["contract"])
    if values:
        if "value" in params:
            params["value"] = _choice(params["value"], values)
        if isinstance(params.get("choices"), str):
            params["choices"] = ", ".join(_choice(c, values) for c in params["choices"].split(", "))
    if getattr(exc, "plural", None) is not None and template is exc.template:  # counted: the plural of n
        text = get_translations().ngettext(template, exc.plural, exc.params["n"])
    else:
        text = gettext(template) if isinstance(template, str) else str(template)
    text = text.format(**params)
    return capital(text) if sentence else text


def capital(text: str) -> str:
    """``text`` with a capital letter first, as a line a person reads on its own begins (the rest as it is)."""
    return text[:1].upper() + text[1:]


def field_error(form, exc: InvalidInput) -> None:
    """A refusal of the core next to its form field (above the form when no field is to blame)."""
    field = getattr(form, exc.field, None)
    (field.errors if field is not None else form.form_errors).append(message(exc))
