"""The organiser's forms: a tournament (its rules as a night's: web/nights/forms.py), a participant,
a table's points from paper."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import DateField, Field, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from scorekeeper.core.numbers import parse_cents, parse_int
from scorekeeper.core.tournaments import DEALS_MAX, FEE_MAX_CENTS, NAME_MAX, PRIZES_MAX, ROUNDS_MAX, TOURNAMENT_GAMES
from scorekeeper.web.forms import Form, WholeNumberField, choices
from scorekeeper.web.labels import GAME_LABELS
from scorekeeper.web.nights.forms import RulesForm, rule_fields

#: The preset a new tournament starts from (RULES.md: a common Bavarian tournament scheme).
PRESET = "turnier"


def parse_prizes(text: Any) -> list[int] | None:
    """``"100; 50; 25,50"``: amounts, first place first, as cents; None if one is no amount. A place left
    empty between two is no amount (``"100;;25"`` would give the third place's prize to the second); empty
    ones at the end are nothing.

    >>> parse_prizes("100; 50; 25,50"), parse_prizes(""), parse_prizes("100; x"), parse_prizes("100;;25")
    ([10000, 5000, 2550], [], None, None)
    >>> parse_prizes("100; 50; ")
    [10000, 5000]
    """
    parts = [p.strip() for p in re.split(r"[;\n]", text or "")]
    while parts and not parts[-1]:
        parts.pop()
    cents = [parse_cents(p) if p else None for p in parts]
    return None if any(c is None for c in cents) else cents


class TournamentFormBase(RulesForm):
    name = StringField(
        _l("Name"), validators=[InputRequired(message=_l("Give the tournament a name.")), Length(max=NAME_MAX)]
    )
    game = RadioField(
        _l("Game"),
        choices=choices((g, GAME_LABELS[g]) for g in TOURNAMENT_GAMES),
        default=TOURNAMENT_GAMES[-1] if "schafkopf" not in TOURNAMENT_GAMES else "schafkopf",
        validators=[InputRequired()],
    )
    played_on = DateField(_l("Date"), default=date.today, validators=[InputRequired()])
    place = StringField(_l("Place"), validators=[Optional(), Length(max=NAME_MAX)])
    rounds = WholeNumberField(
        _l("Rounds"),
        default=2,
        validators=[InputRequired(), NumberRange(min=1, max=ROUNDS_MAX)],
        render_kw={"inputmode": "numeric", "min": 1, "max": ROUNDS_MAX},
    )
    deals = WholeNumberField(
        _l("Deals per round"),
        default=32,
        validators=[InputRequired(), NumberRange(min=1, max=DEALS_MAX)],
        render_kw={"inputmode": "numeric", "min": 1, "max": DEALS_MAX},
    )
    entry_fee = StringField(_l("Entry fee"), default="0")
    prizes = StringField(_l("Prizes"), description=_l("Amounts for 1st, 2nd, … place, separated by ; (optional)"))
    applied_preset = HiddenField(default=PRESET)

    def validate_entry_fee(self, field: Field) -> None:
        cents = parse_cents(field.data)
        if cents is None:
            raise ValidationError(_l("Enter the entry fee as an amount such as 10,00"))
        if cents > FEE_MAX_CENTS:
            raise ValidationError(_l("The entry fee may be at most %(max)s", max="1000,00"))

    def validate_prizes(self, field: Field) -> None:
        prizes = parse_prizes(field.data)
        if prizes is None:
            raise ValidationError(_l("Enter the prizes as amounts separated by ;, such as 100; 50; 25"))
        if len(prizes) > PRIZES_MAX:
            raise ValidationError(_l("At most %(n)s prizes", n=PRIZES_MAX))


TournamentForm = type("TournamentForm", (TournamentFormBase,), rule_fields(TOURNAMENT_GAMES, PRESET))


class EntrantForm(Form):
    """A participant: a player of the roster, or a guest's name."""

    player = SelectField(_l("From the roster"), choices=choices(()), validate_choice=False)
    guest = StringField(_l("Or a guest"), validators=[Optional(), Length(max=40)])


class KeepApartForm(Form):
    """Two participants (start numbers) the draw seats at different tables."""

    first = WholeNumberField(
        _l("Start number"),
        validators=[InputRequired(message=_l("Enter two start numbers."))],
        render_kw={"inputmode": "numeric", "min": 1},
    )
    second = WholeNumberField(
        _l("and start number"),
        validators=[InputRequired(message=_l("Enter two start numbers."))],
        render_kw={"inputmode": "numeric", "min": 1},
    )


class PaperForm(Form):
    """A table's points per player from its paper list, and each player's solos won and lost
    (optional: both left empty, the player's solos are unknown). Each field is read here; what the
    figures may be together (points adding up to zero, solos no table could have) is the core's rule
    alone (:func:`scorekeeper.core.tournaments.enter_paper`), whose refusals the route says at their
    fields. It carries the table's night and its
    players it was made for (``night_uid``, ``players``: their ids by table position): the points go by
    position, so a table drawn again meanwhile is refused (:func:`scorekeeper.core.tournaments.enter_paper`)."""

    night_uid = HiddenField()
    players = HiddenField()
    version = HiddenField()  # the table's night's version: its points entered or cleared since, it is stale

    def made_for(self, table: Any) -> None:
        """Make the form the one of ``table`` (a ``TableView``) as it is now."""
        self.night_uid.data = table.night.uid
        self.players.data = " ".join(str(p) for p in table.player_ids)
        self.version.data = str(table.night.version)
        if table.paper:  # its points typed before: the form corrects them, it does not ask for all again
            for i, (points, solos) in enumerate(zip(table.points, table.paper_solos, strict=True), start=1):
                self[f"p{i}"].data = points
                if solos is not None:
                    self[f"w{i}"].data, self[f"l{i}"].data = solos

    def values(self) -> dict[str, Any]:
        """The list as the core takes it (web/paper.py ``VALUES``): the points, the solos and what it was made
        for."""
        return {"points": self.points(), "solos": self.solos(), **self.made_for_values()}

    def made_for_values(self) -> dict[str, Any]:
        """What the form says it was made for, as the core takes it (``night_uid``, ``player_ids``,
        ``night_version``; each None where the form does not say): their shapes are the core's to check."""
        return {
            "night_uid": self.night_uid.data or None,
            "player_ids": self.player_ids(),
            "night_version": self.made_at(),
        }

    def player_ids(self) -> list[int] | None:
        """The players the form was made for; None when it does not say (a form of before); none (``[]``, no
        table's players: the core refuses its shape, the route says the form is stale) where it says something
        else than ids (forged, or mangled)."""
        ids = (self.players.data or "").split()
        if not ids:
            return None
        numbers = [parse_int(p) for p in ids]
        return [] if None in numbers else numbers

    def made_at(self) -> int | None:
        """The table's version the form was made at; None when it does not say (a form of before), -1 (no
        version: the core refuses it, the route says the form is stale) where it says something else."""
        if self.version.data in (None, ""):
            return None
        number = parse_int(self.version.data)
        return -1 if number is None else number

    def _seats(self) -> range:
        return range(1, sum(1 for name in self._fields if name[0] == "p" and name[1:].isdigit()) + 1)

    def points(self) -> list[Any]:
        return [getattr(self, f"p{i}").data for i in self._seats()]

    def solos(self) -> list[list[int] | None]:
        return [self._solos(i) for i in self._seats()]

    def _solos(self, i: int) -> list[int] | None:
        won, lost = getattr(self, f"w{i}").data, getattr(self, f"l{i}").data
        return None if won is None and lost is None else [won or 0, lost or 0]

    def rows(self) -> list[tuple[Field, Field, Field]]:
        """Per player: points, solos won, solos lost (the form's order: one player's line after another)."""
        return [(getattr(self, f"p{i}"), getattr(self, f"w{i}"), getattr(self, f"l{i}")) for i in self._seats()]


def paper_form(names: list[str], deals: int, **kwargs: Any) -> PaperForm:
    """The paper form of a table with these players (by table position); solos at most ``deals``, as the
    browser is told (``formdata=None``: a new one, not the one posted). The form reads each field (a number, and
    the points there at all); the ranges are the core's alone (:func:`scorekeeper.core.tournaments.paper_problems`),
    so that a post is told every problem at once, the table's with the fields'."""
    attrs: dict[str, Any] = {}
    for i, name in enumerate(names, start=1):
        attrs[f"p{i}"] = WholeNumberField(
            name,
            validators=[InputRequired(message=_l("Enter the points of each player."))],
            render_kw={"inputmode": "numeric", "enterkeyhint": "next"},
        )
        for key, label in (("w", _l("Solos won")), ("l", _l("Solos lost"))):
            attrs[f"{key}{i}"] = WholeNumberField(
                label,
                validators=[Optional()],
                render_kw={"inputmode": "numeric", "min": 0, "max": deals, "enterkeyhint": "next"},
            )
    return type("TablePaperForm", (PaperForm,), attrs)(**kwargs)


class ConfirmForm(Form):
    """The confirmation a page that asks first posts (a withdrawal: the start number; clearing a table's
    paper points: the table's number), which a post from anywhere else lacks."""

    confirm = HiddenField()


class ActionForm(Form):
    """A button that changes something (draw, redraw, close, withdraw): the form token only."""


def rules_form(game: str, rules: dict[str, Any]) -> RulesForm:
    """The house rules of a tournament's game, showing ``rules`` (its rules now) until posted."""
    cls = type(
        "TournamentRulesForm",
        (RulesForm,),
        {"game": HiddenField(default=game), **rule_fields([game], rules.get("preset", PRESET))},
    )
    cls.applied_preset = HiddenField(default=rules.get("preset", PRESET))
    form = cls()
    if not form.is_submitted():
        for name, value in rules.items():
            field = getattr(form, f"{game}__{name}", None)
            if field is not None:
                field.data = value
    form.game.data = game
    return form
