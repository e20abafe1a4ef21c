"""Signing in and out, the first admin, joining a night with its code, and the club's accounts."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import login_user, logout_user

from ... import accounts, config, repository
from .. import get_db, read_db
from ..auth import ADMIN, GUESTS, NIGHT_WRITE, PUBLIC, VIEWER, access, identity, join, safe_next
from ..errors import message
from .forms import (
    ConfirmForm,
    JoinForm,
    LoginForm,
    PasswordForm,
    ResetPasswordForm,
    RoleForm,
    SetupForm,
    TokenForm,
    UserForm,
)

bp = Blueprint("auth", __name__)


def _addr() -> str:
    return request.remote_addr or "unknown"


def _sign_in(user) -> None:
    guests = session.get(GUESTS)
    session.clear()  # a new session on sign-in: nothing of the one before carries over
    if guests:
        session[GUESTS] = guests
    login_user(user)
    session.permanent = True


def _field_error(form, exc: repository.InvalidInput) -> None:
    field = getattr(form, exc.field, None)
    (field.errors if field is not None else form.form_errors).append(message(exc))


@bp.route("/login", methods=["GET", "POST"])
@access(PUBLIC)
def login():
    """Sign in with name and password; after five wrong passwords for a name, a pause of 15 minutes."""
    form = LoginForm()
    target = safe_next(request.args.get("next")) or url_for("history.nights")
    status = 200
    if form.validate_on_submit():
        keys = {"addr": _addr(), "name": accounts.attempt_key(form.name.data)}  # known names or not: the same
        if accounts.limited(read_db(), **keys):
            form.form_errors.append(_("Too many wrong attempts. Wait a quarter of an hour and try again."))
            status = 429
        else:
            user = accounts.authenticate(read_db(), form.name.data, form.password.data)
            if user is not None:
                accounts.clear_failures(get_db(), name=keys["name"])
                _sign_in(user)
                return redirect(target)
            accounts.record_failure(get_db(), **keys)
            form.form_errors.append(_("The name or the password is not right."))
            status = 400
    elif request.method == "POST":
        status = 400
    no_admin = not accounts.has_admin(get_db())
    return render_template("accounts/login.html", form=form, no_admin=no_admin), status


@bp.post("/logout")
@access(PUBLIC)
def logout():
    """Sign out (and leave every night joined as a guest)."""
    if not ConfirmForm().validate_on_submit():
        abort(400, _("The form was not complete: reload the page and try again."))
    user = identity().user
    if user is not None:
        accounts.end_sessions(get_db(), user.id)  # also a copy of this cookie stops working
    logout_user()
    session.clear()
    flash(_("You are signed out."))
    return redirect(url_for(".login"))


@bp.route("/setup/<token>", methods=["GET", "POST"])
@access(PUBLIC)
def setup(token: str):
    """The first admin, once: the address with its token is printed when the app starts without one."""
    instance = current_app.instance_path
    expected = config.read_setup_token(instance)
    if expected is None or not accounts.setup_token_matches(expected, token) or accounts.has_admin(get_db()):
        abort(404, _("This setup address is not valid (any more). Sign in instead."))
    form = SetupForm()
    status = 200
    if form.validate_on_submit():
        db = get_db()
        try:
            user = accounts.create_user(db, form.name.data, form.password.data, "admin")
        except repository.InvalidInput as exc:
            db.rollback()
            _field_error(form, exc)
        else:
            config.remove_setup_token(instance)
            _sign_in(user)
            flash(_("Welcome, %(name)s: you are the club's admin.", name=user.name))
            return redirect(url_for("history.nights"))
    if request.method == "POST":
        status = 400
    return render_template("accounts/setup.html", form=form), status


# --- joining a night -----------------------------------------------------------


def _join_refused(form: JoinForm, text: str):
    form.code.errors.append(text)
    return render_template("accounts/join.html", form=form), 400


@bp.route("/join", methods=["GET", "POST"])
@bp.route("/join/<code>", methods=["GET", "POST"])
@access(PUBLIC)
def join_night(code: str | None = None):
    """Join an open night from another phone: the code (or the QR code) from its table page."""
    db = get_db()
    form = JoinForm(data={"code": code} if code and request.method == "GET" else None)
    if request.method == "GET":  # tells nothing about the code: only a counted POST does
        return render_template("accounts/join.html", form=form)
    if not form.validate_on_submit():
        return render_template("accounts/join.html", form=form), 400
    if accounts.limited(db, join=_addr()):
        form.code.errors.append(_("Too many wrong codes. Wait a quarter of an hour and try again."))
        return render_template("accounts/join.html", form=form), 429
    evening = accounts.night_for_code(db, form.code.data)
    if evening is None:
        accounts.record_failure(db, join=_addr())
        return _join_refused(form, _("No open night has this code. Closed nights can't be joined."))
    join(evening)
    flash(_("You have joined this night: you can record its hands until it is closed."))
    return redirect(url_for("tables.show", evening_id=evening.id))


@bp.get("/nights/<int:evening_id>/join.svg")
@access(NIGHT_WRITE)
def join_qr(evening_id: int):
    """The QR code of the night's join address, drawn on the server as SVG."""
    import io

    import segno

    db = get_db()
    try:
        evening = repository.get_evening(db=db, evening_id=evening_id)
    except repository.NotFound:
        abort(404, _("There is no such night."))
    if evening.status != "open" or not evening.join_code:
        abort(404, _("A closed night can't be joined."))
    url = url_for(".join_night", code=evening.join_code, _external=True)
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", border=2, omitsize=True, xmldecl=False, title=_("Join"))
    return out.getvalue(), 200, {"Content-Type": "image/svg+xml", "Cache-Control": "no-store"}


# --- one's own account ---------------------------------------------------------


@bp.route("/account", methods=["GET", "POST"])
@access(VIEWER)
def account():
    """Change one's own password (every other session of the account ends)."""
    db = get_db()
    user = identity().user
    form = PasswordForm()
    status = 200
    key = {"name": accounts.attempt_key(user.name)}
    if form.validate_on_submit():
        if accounts.limited(read_db(), **key):
            form.current.errors.append(_("Too many wrong attempts. Wait a quarter of an hour and try again."))
        elif accounts.authenticate(read_db(), user.name, form.current.data) is None:
            accounts.record_failure(db, **key)
            form.current.errors.append(_("This is not your password."))
        else:
            try:
                user = accounts.update_user(db, user.id, password=form.password.data)
            except repository.InvalidInput as exc:
                _field_error(form, exc)
            else:
                _sign_in(user)
                flash(_("Your password is changed."))
                return redirect(url_for(".account"))
    if request.method == "POST":
        status = 400
    return render_template("accounts/account.html", form=form, user=user, logout_form=ConfirmForm()), status


# --- the club's accounts (admins) --------------------------------------------


@bp.route("/users/", methods=["GET", "POST"])
@access(ADMIN)
def users():
    """Every account, and a form for a new one."""
    db = get_db()
    form = UserForm()
    status = 200
    if form.validate_on_submit():
        try:
            user = accounts.create_user(db, form.name.data, form.password.data, form.role.data)
        except repository.InvalidInput as exc:
            db.rollback()
            _field_error(form, exc)
        else:
            flash(_("The account %(name)s is there.", name=user.name))
            return redirect(url_for(".users"))
    if request.method == "POST":
        status = 400
    return render_template("accounts/users.html", form=form, users=accounts.list_users(db)), status


def _user(user_id: int):
    try:
        return accounts.get_user(get_db(), user_id)
    except repository.NotFound:
        abort(404, _("There is no such account."))


def _user_page(user, status=200, role_form=None, password_form=None, token_form=None, new_token=None):
    return (
        render_template(
            "accounts/user.html",
            user=user,
            role_form=role_form or RoleForm(data={"role": user.role, "active": "1" if user.active else "0"}),
            password_form=password_form or ResetPasswordForm(),
            token_form=token_form or TokenForm(),
            revoke_form=ConfirmForm(),
            tokens=accounts.tokens(get_db(), user.id),
            new_token=new_token,
        ),
        status,
    )


@bp.get("/users/<int:user_id>")
@access(ADMIN)
def user(user_id: int):
    """One account: role, password, API tokens."""
    return _user_page(_user(user_id))


@bp.post("/users/<int:user_id>/role")
@access(ADMIN)
def user_role(user_id: int):
    user = _user(user_id)
    form = RoleForm()
    if form.validate_on_submit():
        try:
            accounts.update_user(get_db(), user_id, role=form.role.data, active=form.active.data == "1")
        except repository.InvalidInput as exc:
            _field_error(form, exc)
        except repository.Conflict as exc:
            form.form_errors.append(message(exc))
        else:
            flash(_("The account %(name)s is changed.", name=user.name))
            return redirect(url_for(".user", user_id=user_id))
    return _user_page(_user(user_id), 400, role_form=form)


@bp.post("/users/<int:user_id>/password")
@access(ADMIN)
def user_password(user_id: int):
    user = _user(user_id)
    form = ResetPasswordForm()
    if form.validate_on_submit():
        try:
            accounts.update_user(get_db(), user_id, password=form.password.data)
        except repository.InvalidInput as exc:
            _field_error(form, exc)
        else:
            flash(_("%(name)s has a new password; their other sessions are ended.", name=user.name))
            return redirect(url_for(".user", user_id=user_id))
    return _user_page(user, 400, password_form=form)


@bp.post("/users/<int:user_id>/tokens")
@access(ADMIN)
def user_token(user_id: int):
    """A new API token, shown once on the answer page."""
    user = _user(user_id)
    form = TokenForm()
    if form.validate_on_submit():
        try:
            _, token = accounts.create_token(get_db(), user, form.label.data or "")
        except repository.InvalidInput as exc:
            _field_error(form, exc)
        else:
            page, status = _user_page(user, new_token=token)
            return page, status, {"Cache-Control": "no-store"}
    return _user_page(user, 400, token_form=form)


@bp.post("/users/<int:user_id>/tokens/<int:token_id>/revoke")
@access(ADMIN)
def revoke_token(user_id: int, token_id: int):
    _user(user_id)
    if not ConfirmForm().validate_on_submit():
        abort(400, _("The form was not complete: reload the page and try again."))
    try:
        accounts.revoke_token(get_db(), token_id, user_id=user_id)
    except repository.NotFound:
        abort(404, _("There is no such token."))
    flash(_("The token is revoked: it opens nothing any more."))
    return redirect(url_for(".user", user_id=user_id))
