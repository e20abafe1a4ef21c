"""Who you are: signing in and out, the first admin's setup address, joining a night with its code,
and your own account's password."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import logout_user

from scorekeeper import config
from scorekeeper.core import accounts
from scorekeeper.core.errors import Conflict, InvalidInput
from scorekeeper.core.models import Night
from scorekeeper.core.numbers import parse_int
from scorekeeper.core.tournaments import table_of
from scorekeeper.web.access import (
    GUESTS,
    PUBLIC,
    VIEWER,
    access,
    identity,
    join,
    leave_nights,
    safe_next,
    session_ended,
    sign_in,
    spent_nights,
)
from scorekeeper.web.context import get_db, read_db
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.messages import field_error
from scorekeeper.web.signin.forms import JoinForm, LoginForm, PasswordForm, SetupForm

bp = Blueprint("signin", __name__)


def _addr() -> str:
    return request.remote_addr or "unknown"


REFUSED = {
    "paused": lambda: _("Too many wrong attempts. Wait a quarter of an hour and try again."),
    "slowed": lambda: _("Many wrong attempts for this name. Wait a few seconds and try again."),
    "crowded": lambda: _("Many attempts at once from here. Wait a few seconds and try again."),
}


def _checked(name: str, password: str) -> tuple[accounts.Attempt, object]:
    """A password check, counted before it is done (:func:`accounts.reserve_sign_in`): the attempt and
    the account (None: wrong, or refused unchecked when ``attempt.refused``).

    The request holds one connection at a time and none during the check: the count is a short write,
    the account a short read, and after the check its outcome another short write."""
    attempt = accounts.reserve_sign_in(db=get_db(), name=name, addr=_addr())
    if attempt.refused:
        return attempt, None
    user = accounts.authenticate(db=read_db(), name=name, password=password)
    accounts.settle_attempt(db=get_db(), attempt=attempt, success=user is not None)
    return attempt, user


@bp.route("/login", methods=["GET", "POST"])
@access(PUBLIC)
def login():
    """Sign in with name and password; after five wrong passwords for a name from one address, that
    address waits 15 minutes for the name (docs/production.md: the rate limit)."""
    form = LoginForm()
    target = safe_next(request.args.get("next")) or url_for("nights.index")
    status = 200
    if form.validate_on_submit():
        attempt, user = _checked(form.name.data, form.password.data)
        if attempt.refused:
            form.form_errors.append(REFUSED[attempt.refused]())
            status = 429
        elif user is not None:
            sign_in(user)
            return redirect(target)
        else:
            form.form_errors.append(_("The name or the password is not right."))
            status = 400
    elif request.method == "POST":
        status = 400
    no_admin = not accounts.has_admin(read_db())
    return render_template("signin/login.html", form=form, no_admin=no_admin), status


@bp.post("/logout")
@access(PUBLIC)
def logout():
    """Sign out, everywhere: the account's sessions end (also a copy of this cookie), and so do the
    guest sessions of the nights this browser joined (they get new codes). A guest (no account) leaves
    the table, in a guest's words: back to joining a night (also a guest whose night is gone, or who
    closed it and read it on). The page's script has asked first what to do with the hands waiting on
    the phone and forgotten the pages kept offline (static/app.js); without it, the answers that follow
    say nobody is signed in, and the service worker forgets the pages then."""
    if not ConfirmForm().validate_on_submit():
        abort(400, _("The form was not complete: reload the page and try again."))
    who = identity()
    # a guest: also one whose night is gone, or who closed it, or whose code changed since (another guest left)
    guest = who.user_id is None and bool(session.get(GUESTS)) and not session_ended()
    if who.user_id is not None:
        accounts.end_sessions(db=get_db(), user_id=who.user_id)  # also a copy of this cookie stops working
    leave_nights()
    logout_user()
    session.clear()
    g.pop("identity", None)  # nobody now: this answer says so to the service worker
    if guest:
        flash(_("You have left the table."))
        return redirect(url_for(".join_night"))
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
        or accounts.has_admin(read_db())
    ):
        abort(404, _("This setup address is not valid (any more). Sign in instead."))
    form = SetupForm()
    status = 200
    if form.validate_on_submit():
        db = get_db()
        try:  # the password is hashed before the write (no lock held meanwhile)
            user = accounts.create_user(
                db=db, name=form.name.data, password=form.password.data, role="admin", first=True
            )
        except InvalidInput as exc:
            db.rollback()
            field_error(form, exc)
        except Conflict:  # another request made the first admin meanwhile
            abort(404, _("This setup address is not valid (any more). Sign in instead."))
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
@access(PUBLIC)
def join_night():
    """Join an open night from another phone with the code from its table page.

    The code never travels in a URL, where access logs would keep it: it is posted. The QR code
    opens ``/join#CODE``; a browser never sends the part after ``#``, and static/join.js fills it in.
    A tournament's table cards open ``/join?table=1#CODE``: the page then speaks of a table.
    """
    form = JoinForm()
    if request.method == "GET":  # tells nothing about a code: only a counted POST does
        # a guest's night reopened since (web/access.py _spent_answer, ?night=): the hands its phone keeps for it
        # are listed, sent once it is joined again with the new code (templates/errors/_night_ended.html)
        kept = parse_int(request.args.get("night") or "")
        if kept is not None and kept in spent_nights():
            night = read_db().get(Night, kept)
            if night is not None and night.is_open:
                g.spent_night = night
        return render_template("signin/join.html", form=form)
    if not form.validate_on_submit():
        return render_template("signin/join.html", form=form), 400
    attempt = accounts.reserve_join(db=get_db(), addr=_addr())  # counted before the code is looked up
    if attempt.refused:
        if attempt.refused == "crowded":
            form.code.errors.append(REFUSED["crowded"]())
        else:
            form.code.errors.append(_("Too many wrong codes. Wait a quarter of an hour and try again."))
        return render_template("signin/join.html", form=form), 429
    night = accounts.night_for_code(db=read_db(), code=form.code.data)
    accounts.settle_attempt(db=get_db(), attempt=attempt, success=night is not None)
    if night is None:
        return _join_refused(
            form,
            _("No open night or tournament table has this code. Closed nights and finished tables can't be joined."),
        )
    join(night)
    table = table_of(db=read_db(), night_id=night.id)
    if table is None:
        flash(_("You have joined this night: you can record its hands until it is closed."))
    else:  # a tournament's table is no night to its players
        flash(
            _(
                "You have joined table %(n)s of %(tournament)s (round %(r)s): "
                "you can record its deals until it is done.",
                n=table.number,
                tournament=table.tournament.name,
                r=table.round,
            )
        )
    return redirect(url_for("nights.show", night_id=night.id))


@bp.route("/account", methods=["GET", "POST"])
@access(VIEWER)
def account():
    """Change one's own password (every other session of the account ends).

    Checking the password now and hashing the new one happen outside any write transaction: the
    check is counted first (a short write), and the new password is written in a short one after."""
    user = identity().user
    form = PasswordForm()
    status = 200
    if form.validate_on_submit():
        attempt, checked = _checked(user.name, form.current.data)
        if attempt.refused:
            form.current.errors.append(REFUSED[attempt.refused]())
        elif checked is None:
            form.current.errors.append(_("This is not your password."))
        else:
            try:
                user = accounts.update_user(db=get_db(), user_id=user.id, password=form.password.data)
            except InvalidInput as exc:
                field_error(form, exc)
            else:
                sign_in(user)
                flash(_("Your password is changed."))
                return redirect(url_for(".account"))
    if request.method == "POST":
        status = 400
    return render_template("signin/account.html", form=form, user=user), status
