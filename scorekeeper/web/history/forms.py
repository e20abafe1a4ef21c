"""The history pages' filters: GET forms (no CSRF: they change nothing)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, IntegerField, SelectField
from wtforms.validators import NumberRange, Optional, ValidationError


class GetForm(FlaskForm):
    """A filter form read from the query string."""

    class Meta:
        csrf = False


def _checked_choice(form: FlaskForm, field: SelectField) -> None:
    if field.data and field.data not in {str(choice.value) for choice in field.choices}:
        raise ValidationError(_l("Not a valid choice."))


class NightFilterForm(GetForm):
    """Which nights the list shows."""

    game = SelectField(_l("Game"), validate_choice=False, validators=[_checked_choice])
    player = SelectField(_l("Player"), validate_choice=False, validators=[_checked_choice])
    place = SelectField(_l("Place"), validate_choice=False, validators=[_checked_choice])
    season = SelectField(_l("Season"), validate_choice=False, validators=[_checked_choice])
    since = DateField(_l("From"), validators=[Optional()])
    until = DateField(_l("To"), validators=[Optional()])
    page = IntegerField(_l("Page"), validators=[Optional(), NumberRange(min=1, max=10**6)])

    def validate_until(self, field: DateField) -> None:
        if field.data and self.since.data and field.data < self.since.data:
            raise ValidationError(_l("The last day must not be before the first."))


class LeaderboardForm(GetForm):
    """Which season and game the leaderboard shows, and its order."""

    game = SelectField(_l("Game"), validate_choice=False, validators=[_checked_choice])
    season = SelectField(_l("Season"), validate_choice=False, validators=[_checked_choice])
    sort = SelectField(_l("Order by"), validate_choice=False, validators=[_checked_choice])  # history.SORTS
