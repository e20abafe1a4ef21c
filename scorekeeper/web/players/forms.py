"""Roster forms."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, InputRequired

from scorekeeper.web.forms import choices


class PlayerForm(FlaskForm):
    """Add or rename a player (the name rules live in text.clean_name)."""

    name = StringField(_l("Name"), validators=[InputRequired(message=_l("the name must not be empty"))])
    submit = SubmitField(_l("Save"))


class RetireForm(FlaskForm):
    """Retire a player (1) or bring them back (0)."""

    retired = RadioField(choices=choices([("1", "1"), ("0", "0")]), validators=[InputRequired()])


class MergeForm(FlaskForm):
    """Merge another record of the same person into this one."""

    other = SelectField(
        _l("The duplicate record"),
        validate_choice=False,
        validators=[InputRequired(message=_l("Choose the record to merge into this one."))],
    )
    confirm = BooleanField(
        _l("Yes, these two records are the same person"),
        validators=[DataRequired(message=_l("Tick the box to confirm that both records are the same person."))],
    )
