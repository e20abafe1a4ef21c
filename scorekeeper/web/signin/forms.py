"""Signing in, the first admin, joining a night, and one's own password."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import InputRequired

from scorekeeper.web.forms import NewPasswordMixin


class LoginForm(FlaskForm):
    name = StringField(_l("Name"), validators=[InputRequired(message=_l("Enter your name."))])
    password = PasswordField(_l("Password"), validators=[InputRequired(message=_l("Enter your password."))])


class SetupForm(NewPasswordMixin, FlaskForm):
    """The first admin."""

    name = StringField(_l("Name"), validators=[InputRequired(message=_l("the name must not be empty"))])


class PasswordForm(NewPasswordMixin, FlaskForm):
    """Change one's own password."""

    current = PasswordField(_l("Your password now"), validators=[InputRequired(message=_l("Enter your password."))])
    password = PasswordField(_l("New password"), validators=[InputRequired(message=_l("Enter a password."))])


class JoinForm(FlaskForm):
    code = StringField(_l("Code"), validators=[InputRequired(message=_l("Enter the code shown on the table page."))])
