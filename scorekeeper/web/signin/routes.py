"""Who you are: signing in and out, the first admin's setup address, joining a night with its code,
and your own account's password."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import logout_user

from scorekeeper import config
from scorekeeper.core import accounts
from scorekeeper.core.errors import InvalidInput
from scorekeeper.web.access import PUBLIC, VIEWER, access, identity, join, safe_next, sign_in
from scorekeeper.web.context import get_db, read_db
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.messages import field_error
from scorekeeper.web.signin.forms import JoinForm, LoginForm, PasswordForm, SetupForm

bp = Blueprint("signin", __name__)


def _addr() -> str:
    return request.remote_addr or "unknown"


@bp.route("/login", methods=["GET", "POST"])
@access(PUBLIC)
def login():
    """Sign in with name and password; after five wrong passwords for a name, a pause of 15 minutes."""
    form = LoginForm()
    target = safe_next(request.args.get("next")) or url_for("nights.index")
    status = 200
    if form.validate_on_submit():
        keys = {"addr": _addr(), "name": accounts.attempt_key(form.name.data)}  # known names or not: the same
        if accounts.limited(read_db(), **keys):
            form.form_errors.append(_("Too many wrong attempts. Wait a quarter of an hour and try again."))
            status = 429
        else:
            user = accounts.authenticate(db=read_db(), name=form.name.data, password=form.password.data)
            if user is not None:
                accounts.clear_failures(get_db(), name=keys["name"])
                sign_in(user)
                return redirect(target)
            accounts.record_failure(get_db(), **keys)
            form.form_errors.append(_("The name or the password is not right."))
            status = 400
    elif request.method == "POST":
        status = 400
    no_admin = not accounts.has_admin(get_db())
    return render_template("signin/login.html", form=form, no_admin=no_admin), status


@bp.post("/logout")
@access(PUBLIC)
def logout():
    """Sign out (and leave every night joined as a guest)."""
    if not ConfirmForm().validate_on_submit():
        abort(400, _("The form was not complete: reload the page and try again."))
    user = identity().user
    if user is not None:
        accounts.end_sessions(db=get_db(), user_id=user.id)  # also a copy of this cookie stops working
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
    if (
        expected is None
        or not accounts.setup_token_matches(expected=expected, given=token)
        or accounts.has_admin(get_db())
    ):
        abort(404, _("This setup address is not valid (any more). Sign in instead."))
    form = SetupForm()
    status = 200
    if form.validate_on_submit():
        db = get_db()
        try:
            user = accounts.create_user(db=db, name=form.name.data, password=form.password.data, role="admin")
        except InvalidInput as exc:
            db.rollback()
            field_error(form, exc)
        else:
            config.remove_setup_token(instance)
            sign_in(user)
            flash(_("Welcome, %(name)s: you are the club's admin.", name=user.name))
            return redirect(url_for("nights.index"))
    if request.method == "POST":
        status = 400
    return render_template("signin/setup.html", form=form), status


def _join_refused(form: JoinForm, text: str):
    form.code.errors.append(text)
    return render_template("signin/join.html", form=form), 400


@bp.route("/join", methods=["GET", "POST"])
@bp.route("/join/<code>", methods=["GET", "POST"])
@access(PUBLIC)
def join_night(code: str | None = None):
    """Join an open night from another phone: the code (or the QR code) from its table page."""
    db = get_db()
    form = JoinForm(data={"code": code} if code and request.method == "GET" else None)
    if request.method == "GET":  # tells nothing about the code: only a counted POST does
        return render_template("signin/join.html", form=form)
    if not form.validate_on_submit():
        return render_template("signin/join.html", form=form), 400
    if accounts.limited(db, join=_addr()):
        form.code.errors.append(_("Too many wrong codes. Wait a quarter of an hour and try again."))
        return render_template("signin/join.html", form=form), 429
    night = accounts.night_for_code(db=db, code=form.code.data)
    if night is None:
        accounts.record_failure(db, join=_addr())
        return _join_refused(form, _("No open night has this code. Closed nights can't be joined."))
    join(night)
    flash(_("You have joined this night: you can record its hands until it is closed."))
    return redirect(url_for("nights.show", night_id=night.id))


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
        elif accounts.authenticate(db=read_db(), name=user.name, password=form.current.data) is None:
            accounts.record_failure(db, **key)
            form.current.errors.append(_("This is not your password."))
        else:
            try:
                user = accounts.update_user(db=db, user_id=user.id, password=form.password.data)
            except InvalidInput as exc:
                field_error(form, exc)
            else:
                sign_in(user)
                flash(_("Your password is changed."))
                return redirect(url_for(".account"))
    if request.method == "POST":
        status = 400
    return render_template("signin/account.html", form=form, user=user, logout_form=ConfirmForm()), status
