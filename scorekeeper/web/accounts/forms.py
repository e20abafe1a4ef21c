"""The club's account forms (the rules for names and passwords live in core/accounts.py)."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField, StringField
from wtforms.validators import InputRequired

from scorekeeper.web.forms import NewPasswordMixin, choices

ROLE_NAMES = {"viewer": _l("Viewer"), "scorer": _l("Scorer"), "admin": _l("Admin")}
ROLE_LABELS = {
    "viewer": _l("Viewer: reads the history"),
    "scorer": _l("Scorer: starts nights, records hands"),
    "admin": _l("Admin: everything, also accounts and reopening nights"),
}


def _role_choices():
    return choices(list(ROLE_LABELS.items()))


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


class TokenForm(FlaskForm):
    label = StringField(_l("What the token is for"))
