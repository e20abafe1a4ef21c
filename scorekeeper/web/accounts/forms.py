"""Sign-in, joining a night, and account forms (the rules for names and passwords live in accounts.py)."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, RadioField, StringField
from wtforms.validators import EqualTo, InputRequired

from scorekeeper.web.forms import choices

ROLE_NAMES = {"viewer": _l("Viewer"), "scorer": _l("Scorer"), "admin": _l("Admin")}
ROLE_LABELS = {
    "viewer": _l("Viewer: reads the history"),
    "scorer": _l("Scorer: starts nights, records hands"),
    "admin": _l("Admin: everything, also accounts and reopening nights"),
}


def _role_choices():
    return choices(list(ROLE_LABELS.items()))


class LoginForm(FlaskForm):
    name = StringField(_l("Name"), validators=[InputRequired(message=_l("Enter your name."))])
    password = PasswordField(_l("Password"), validators=[InputRequired(message=_l("Enter your password."))])


class NewPasswordMixin:
    password = PasswordField(_l("Password"), validators=[InputRequired(message=_l("Enter a password."))])
    confirm = PasswordField(
        _l("The password again"),
        validators=[
            InputRequired(message=_l("Enter the password a second time.")),
            EqualTo("password", message=_l("The two passwords are not the same.")),
        ],
    )


class SetupForm(NewPasswordMixin, FlaskForm):
    """The first admin."""

    name = StringField(_l("Name"), validators=[InputRequired(message=_l("the name must not be empty"))])


class UserForm(NewPasswordMixin, FlaskForm):
    """A new account."""

    name = StringField(_l("Name"), validators=[InputRequired(message=_l("the name must not be empty"))])
    role = RadioField(
        _l("Role"), choices=_role_choices(), default="scorer", validators=[InputRequired(message=_l("Choose a role."))]
    )


class RoleForm(FlaskForm):
    role = RadioField(_l("Role"), choices=_role_choices(), validators=[InputRequired(message=_l("Choose a role."))])
    active = RadioField(
        _l("May sign in"),
        choices=choices([("1", _l("yes")), ("0", _l("no"))]),
        validators=[InputRequired(message=_l("Choose whether the account may sign in."))],
    )


class ResetPasswordForm(NewPasswordMixin, FlaskForm):
    """A new password for an account (by an admin)."""


class PasswordForm(NewPasswordMixin, FlaskForm):
    """Change one's own password."""

    current = PasswordField(_l("Your password now"), validators=[InputRequired(message=_l("Enter your password."))])
    password = PasswordField(_l("New password"), validators=[InputRequired(message=_l("Enter a password."))])


class TokenForm(FlaskForm):
    label = StringField(_l("What the token is for"))


class JoinForm(FlaskForm):
    code = StringField(_l("Code"), validators=[InputRequired(message=_l("Enter the code shown on the table page."))])


class ConfirmForm(FlaskForm):
    """Only the CSRF token: a button that changes something (sign out, join, revoke)."""
