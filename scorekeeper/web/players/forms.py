"""Roster forms."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField
from wtforms.validators import InputRequired


class PlayerForm(FlaskForm):
    """Add or rename a player (the name rules live in repository.clean_name)."""

    name = StringField(_l("Name"), validators=[InputRequired(message=_l("the name must not be empty"))])
    submit = SubmitField(_l("Save"))
