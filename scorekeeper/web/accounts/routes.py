"""The club's accounts (admins): roles, "may sign in", new passwords, API tokens."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from scorekeeper.core import accounts
from scorekeeper.core.errors import Conflict, InvalidInput, NotFound
from scorekeeper.web.access import ADMIN, access, identity, sign_in
from scorekeeper.web.accounts.forms import (
    ResetPasswordForm,
    RoleForm,
    TokenForm,
    UserForm,
)
from scorekeeper.web.context import found, get_db
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.messages import field_error, message

bp = Blueprint("accounts", __name__, url_prefix="/users")


@bp.route("/", methods=["GET", "POST"])
@access(ADMIN)
def users():
    """Every account, and a form for a new one."""
    db = get_db()
    form = UserForm()
    status = 200
    if form.validate_on_submit():
        try:
            user = accounts.create_user(db=db, name=form.name.data, password=form.password.data, role=form.role.data)
        except InvalidInput as exc:
            db.rollback()
            field_error(form, exc)
        else:
            flash(_("The account %(name)s is there.", name=user.name))
            return redirect(url_for(".users"))
    if request.method == "POST":
        status = 400
    return render_template("accounts/users.html", form=form, users=accounts.list_users(db)), status


def _user(user_id: int):
    return found(accounts.get_user, _("There is no such account."), user_id=user_id)


def _user_page(user, status=200, role_form=None, password_form=None, token_form=None, new_token=None):
    return (
        render_template(
            "accounts/user.html",
            user=user,
            role_form=role_form or RoleForm(data={"role": user.role, "active": "1" if user.active else "0"}),
            password_form=password_form or ResetPasswordForm(),
            token_form=token_form or TokenForm(),
            revoke_form=ConfirmForm(),
            tokens=accounts.tokens(db=get_db(), user_id=user.id),
            new_token=new_token,
        ),
        status,
    )


@bp.get("/<int:user_id>")
@access(ADMIN)
def user(user_id: int):
    """One account: role, password, API tokens."""
    return _user_page(_user(user_id))


@bp.post("/<int:user_id>/role")
@access(ADMIN)
def user_role(user_id: int):
    user = _user(user_id)
    form = RoleForm()
    if form.validate_on_submit():
        before = user.stamp
        try:
            user = accounts.update_user(
                db=get_db(), user_id=user_id, role=form.role.data, active=form.active.data == "1"
            )
        except InvalidInput as exc:
            field_error(form, exc)
        except Conflict as exc:
            form.form_errors.append(message(exc))
        else:
            if user.stamp == before:  # saved as it was: its sessions go on
                flash(_("Nothing to change: %(name)s keeps the role and may sign in as before.", name=user.name))
            else:
                flash(_("The account %(name)s is changed.", name=user.name))
            return redirect(url_for(".user", user_id=user_id))
    return _user_page(_user(user_id), 400, role_form=form)


@bp.post("/<int:user_id>/password")
@access(ADMIN)
def user_password(user_id: int):
    user = _user(user_id)
    form = ResetPasswordForm()
    if form.validate_on_submit():
        try:
            changed = accounts.update_user(db=get_db(), user_id=user_id, password=form.password.data)
        except InvalidInput as exc:
            field_error(form, exc)
        else:
            if user_id == identity().user_id:  # one's own: this session goes on, the others end
                sign_in(changed)
            flash(_("%(name)s has a new password; their other sessions are ended.", name=user.name))
            return redirect(url_for(".user", user_id=user_id))
    return _user_page(user, 400, password_form=form)


@bp.post("/<int:user_id>/tokens")
@access(ADMIN)
def user_token(user_id: int):
    """A new API token, shown once on the answer page."""
    user = _user(user_id)
    form = TokenForm()
    if form.validate_on_submit():
        try:
            _, token = accounts.create_token(db=get_db(), user=user, label=form.label.data or "")
        except InvalidInput as exc:
            field_error(form, exc)
        else:
            page, status = _user_page(user, new_token=token)
            return page, status, {"Cache-Control": "no-store"}
    return _user_page(user, 400, token_form=form)


@bp.post("/<int:user_id>/tokens/<int:token_id>/revoke")
@access(ADMIN)
def revoke_token(user_id: int, token_id: int):
    _user(user_id)
    if not ConfirmForm().validate_on_submit():
        abort(400, _("The form was not complete: reload the page and try again."))
    try:
        accounts.revoke_token(db=get_db(), token_id=token_id, user_id=user_id)
    except NotFound:
        abort(404, _("There is no such token."))
    flash(_("The token is revoked: it opens nothing any more."))
    return redirect(url_for(".user", user_id=user_id))
