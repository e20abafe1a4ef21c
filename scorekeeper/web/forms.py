"""Form pieces the blueprints share: choices, GET forms for filters, the game picker."""

from __future__ import annotations

from typing import Any

from flask import g
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, PasswordField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import EqualTo, InputRequired, StopValidation, ValidationError

from scorekeeper.core.numbers import parse_int
from scorekeeper.engine import GAMES
from scorekeeper.web.i18n import FORM_TRANSLATIONS
from scorekeeper.web.labels import GAME_LABELS


class Form(FlaskForm):
    """The app's forms: WTForms' own messages in the page's language, German included (web/i18n.py)."""

    class Meta:
        def get_translations(self, form: Any) -> Any:
            return FORM_TRANSLATIONS

    def validate(self, extra_validators: Any = None) -> bool:
        valid = super().validate(extra_validators)
        if g.get("csrf_refused") and "csrf_token" in self:
            self.csrf_token.errors = []  # the page says it once, in its words, above the form (web/app.py)
        return valid


class ReopenForm(Form):
    """Reopening a closed night or a closed tournament: the reason, kept with it."""

    reason = StringField(_l("Reason"), validators=[InputRequired(message=_l("Give a reason."))])


class WholeNumberField(IntegerField):
    """A whole number as a person types it, read by the one reader (core/numbers.py): ASCII digits, a
    leading minus (the field's range says whether it may be below 0), spaces around it let go.
    ``"١٠"``, ``"1_0"`` or ``"+1"`` are refused with WTForms' own message in the page's language
    (``int()`` would read them as 10, 10 and 1)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        self.data = parse_int(str(valuelist[0]).strip(" \t"), digits=64, signed=True)  # too large: its range says so
        if self.data is None:
            raise ValueError(self.gettext("Not a valid integer value."))

    def pre_validate(self, form: Any) -> None:
        """A word typed, no number read: that one message, not the range's too (which says nothing of it);
        nothing typed is its validators' to say (``Optional``, ``InputRequired``)."""
        if self.process_errors and self.raw_data and str(self.raw_data[0]).strip():
            raise StopValidation()


class GetForm(Form):
    """A filter form read from the query string."""

    class Meta:
        csrf = False


def checked_choice(form: FlaskForm, field: SelectField) -> None:
    if field.data and field.data not in {str(choice.value) for choice in field.choices}:
        raise ValidationError(_l("Not a valid choice."))


def choices(pairs: Any) -> list[SelectChoice]:
    """WTForms choices from ``(value, label)`` pairs."""
    return [p if isinstance(p, SelectChoice) else SelectChoice(str(p[0]), p[1]) for p in pairs]


def game_choices(everything: str | None) -> list[SelectChoice]:
    """The games to pick from (first ``everything``, meaning no game in particular, if given)."""
    first = [("", everything)] if everything else []
    return choices([*first, *((name, GAME_LABELS[name]) for name in GAMES)])


class NewPasswordMixin:
    """A new password, typed twice."""

    password = PasswordField(_l("Password"), validators=[InputRequired(message=_l("Enter a password."))])
    confirm = PasswordField(
        _l("The password again"),
        validators=[
            InputRequired(message=_l("Enter the password a second time.")),
            EqualTo("password", message=_l("The two passwords are not the same.")),
        ],
    )


class ConfirmForm(Form):
    """Only the CSRF token: a button that changes something (sign out, join, revoke)."""
