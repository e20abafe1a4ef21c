"""Starting a night: game, every rule option of docs/rules.md with its default, stake, players, first dealer.

The option fields are made from the engine's rule-set declarations
(``engine.rules.option``), so a new option appears here by itself, with the words
``web/options.py`` has for it.
"""

from __future__ import annotations

import json
import uuid
from datetime import date
from typing import Any

from flask import current_app
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, DateField, Field, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from scorekeeper.core.nights import STAKE_MAX_CENTS
from scorekeeper.core.numbers import parse_cents
from scorekeeper.engine import GAMES, InvalidHand
from scorekeeper.web import options
from scorekeeper.web.forms import Form, GetForm, WholeNumberField, checked_choice, choices
from scorekeeper.web.labels import GAME_LABELS
from scorekeeper.web.messages import message


def _club_currency() -> str:
    """The club's currency, a new night's (the history adds up money in it: docs/using.md)."""
    return current_app.config["CURRENCY"]


MAX_SEATS = max(size for game in GAMES.values() for size in game.table_sizes)


def option_field_name(game: str, option: str) -> str:
    return f"{game}__{option}"


def _option_field(game: str, f: Any, preset: dict[str, Any] | None = None) -> Field:
    """The form field of one rule option, showing the value of ``preset`` (else its default)."""
    meta = f.metadata
    default = (preset or {}).get(f.name, f.default)
    words = options.option(game, f.name)
    label, description = words.label, words.hint
    if meta["choices"]:
        pairs = ((c, words.choices.get(c, c)) for c in meta["choices"])
        return SelectField(label, choices=choices(pairs), default=default, description=description)
    if isinstance(f.default, bool):
        return BooleanField(label, default=default, description=description)
    return WholeNumberField(
        label,
        default=default,
        validators=[Optional()],
        description=description,
        render_kw={"inputmode": "numeric", "min": meta["lo"], "max": meta["hi"]},
    )


class RulesForm(Form):
    """A form with a game's rule preset and options (a night's, a tournament's): made by
    :func:`rule_fields`; ``game`` is the form's game field."""

    game: Field
    applied_preset = HiddenField(default="seed")  # the preset whose values the option fields show

    def preset_not_applied(self) -> bool:
        """A preset was chosen but its values are not in the option fields yet (no JavaScript)."""
        game = self.game.data
        applied = self.applied_preset.data or self.applied_preset.default
        return getattr(self, option_field_name(game, "preset")).data != applied

    def refused(self, exc: InvalidHand) -> None:
        """The engine's refusal of the rule set, said at its option's field (else above the form)."""
        name = exc.field.removeprefix("rules.")
        target = getattr(self, option_field_name(self.game.data, name), None)
        if target is None:
            self.form_errors.append(message(exc))
            return
        values = {c.value: c.label for c in getattr(target, "choices", None) or ()}
        target.errors = [*list(target.errors), message(exc, labels={name: target.label.text}, values=values)]

    def option_fields(self, game: str) -> list[Field]:
        return [getattr(self, option_field_name(game, f.name)) for f in GAMES[game].options()]

    def rules(self) -> dict[str, Any]:
        """The chosen game's rule set as the form says it (the preset and every option)."""
        game = self.game.data
        rules: dict[str, Any] = {"preset": getattr(self, option_field_name(game, "preset")).data}
        for f in GAMES[game].options():
            field = getattr(self, option_field_name(game, f.name))
            value = field.data
            if isinstance(field, WholeNumberField) and value is None and not f.metadata["nullable"]:
                value = f.default
            rules[f.name] = value
        return rules

    def apply_preset(self) -> None:
        """Set the chosen game's options to its chosen preset (the no-JavaScript way)."""
        game = self.game.data
        preset = getattr(self, option_field_name(game, "preset")).data
        values = GAMES[game].presets.get(preset, {})
        for f in GAMES[game].options():
            field = getattr(self, option_field_name(game, f.name))
            field.data = values.get(f.name, f.default)
            field.raw_data = None  # a number box shows what was posted unless told otherwise
        self.applied_preset.data = preset


def presets_json(games: Any) -> str:
    """Each game's presets with every option's value, for static/night.js to fill a preset in."""
    return json.dumps(
        {
            name: {
                p: {f.name: values.get(f.name, f.default) for f in GAMES[name].options()}
                for p, values in GAMES[name].presets.items()
            }
            for name in games
        }
    )


def rule_fields(games: Any, default: str = "seed") -> dict[str, Field]:
    """The preset and option fields of these games (by name) for a :class:`RulesForm`: the preset
    ``default`` where the game has it."""
    attrs: dict[str, Any] = {}
    for name in games:
        game = GAMES[name]
        presets = list(game.presets)
        attrs[option_field_name(name, "preset")] = SelectField(
            _l("Rule preset"),
            choices=choices((p, options.PRESETS.get(name, {}).get(p, p)) for p in presets),
            default=default if default in game.presets else "seed",
        )
        for f in game.options():
            attrs[option_field_name(name, f.name)] = _option_field(name, f, game.presets.get(default, {}))
    return attrs


class NightFormBase(RulesForm):
    game = RadioField(
        _l("Game"), choices=choices(GAME_LABELS.items()), default=next(iter(GAMES)), validators=[InputRequired()]
    )
    #: required where the night's rules turn units into money (options.uses_stake); else never asked
    stake = StringField(_l("Stake per unit"), default="0,10")
    #: the club's currency (SCOREKEEPER_CURRENCY) unless the night is played in another
    currency = StringField(_l("Currency"), default=_club_currency, validators=[InputRequired(), Length(min=3, max=3)])
    played_on = DateField(_l("Date"), default=date.today, validators=[InputRequired()])
    place = StringField(_l("Place"), validators=[Optional(), Length(max=80)])
    first_dealer = RadioField(_l("First dealer"), choices=choices((i, i) for i in range(1, MAX_SEATS + 1)), default="1")
    #: the form's one-time key: the same form sent twice starts one night (core/nights.py ``start_night``)
    idempotency_key = HiddenField(default=lambda: uuid.uuid4().hex)

    def uses_stake(self) -> bool:
        """Whether the chosen game under the chosen rules ever pays money (a Konter a Matt night without a
        stake per game, or a Matt night without a stake per point, pays none)."""
        return self.game.data not in GAMES or options.uses_stake(self.game.data, self.rules())

    def stake_cents(self) -> int | None:
        """The stake per unit in cents (None if it is no amount); where the night never pays money, the
        stake typed if it is one, else 0."""
        cents = parse_cents(self.stake.data)
        return cents if self.uses_stake() or (cents is not None and cents <= STAKE_MAX_CENTS) else 0

    def validate_stake(self, field: Field) -> None:
        if not self.uses_stake():
            return  # a stake that nothing would ever multiply: whatever the field says, it is not asked
        cents = parse_cents(field.data)
        if cents is None:
            raise ValidationError(_l("Enter the stake as an amount such as 0,10"))
        if cents > STAKE_MAX_CENTS:
            raise ValidationError(_l("The stake may be at most %(max)s", max="1000,00"))

    def seat_fields(self) -> list[Field]:
        return [getattr(self, f"seat_{i}") for i in range(1, MAX_SEATS + 1)]


def _build_form() -> type[NightFormBase]:
    attrs: dict[str, Any] = {}
    for i in range(1, MAX_SEATS + 1):
        attrs[f"seat_{i}"] = SelectField(_l("Seat %(n)s", n=i), choices=choices(()), validate_choice=False)
    attrs.update(rule_fields(GAMES))
    return type("NightForm", (NightFormBase,), attrs)


NightForm = _build_form()


class NightFilterForm(GetForm):
    """Which nights the list shows."""

    game = SelectField(_l("Game"), validate_choice=False, validators=[checked_choice])
    player = SelectField(_l("Player"), validate_choice=False, validators=[checked_choice])
    place = SelectField(_l("Place"), validate_choice=False, validators=[checked_choice])
    season = SelectField(_l("Season"), validate_choice=False, validators=[checked_choice])
    since = DateField(_l("From"), validators=[Optional()])
    until = DateField(_l("To"), validators=[Optional()])
    page = WholeNumberField(_l("Page"), validators=[Optional(), NumberRange(min=1, max=10**6)])

    def validate_until(self, field: DateField) -> None:
        if field.data and self.since.data and field.data < self.since.data:
            raise ValidationError(_l("The last day must not be before the first."))


class ChangeNightForm(Form):
    """An admin corrects a night's date and place."""

    played_on = DateField(_l("Date"), validators=[InputRequired(message=_l("Enter the date."))])
    place = StringField(_l("Place"), validators=[Optional(), Length(max=80)])


class DeleteNightForm(Form):
    """An admin deletes a night started by mistake: a reason, and a yes that can't be a slip."""

    reason = StringField(_l("Reason"), validators=[InputRequired(message=_l("Give a reason."))])
    confirm = BooleanField(
        _l("Yes, delete this night"), validators=[InputRequired(message=_l("Tick the box to delete the night."))]
    )
