"""What the tournament browser tests share (test_tournament.py, test_tournament_day.py,
test_outbox_seams.py): the roster made in the database, a tournament created through the organiser's
form, its participants entered from the roster one after the other, a table's phone joining."""

from __future__ import annotations

import re

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.models import Tournament
from scorekeeper.core.players import create_player


def make_roster(app, names: list[str]) -> None:
    """The club's roster: one player per name."""
    with database.session(app.extensions["sk_engine"]) as db:
        for name in names:
            create_player(db=db, name=name)


def create_tournament(page, base: str, app, name: str, rounds: int, deals: int, prizes: str = "") -> Tournament:
    """The organiser creates a Schafkopf tournament on its form (the turnier preset, the default):
    the tournament as stored, checked to be what the form said."""
    page.goto(f"{base}/tournaments/new")
    page.fill("#name", name)
    page.locator("#game-group label", has_text=re.compile("^Schafkopf$")).click()
    page.fill("#rounds", str(rounds))
    page.fill("#deals", str(deals))
    if prizes:
        page.fill("#prizes", prizes)
    assert (
        page.input_value("#schafkopf__preset") == "turnier"
        or page.locator("input[name=schafkopf__preset][value=turnier]").is_checked()
    )
    with page.expect_navigation():
        page.locator("button[name=create]").click()
    assert re.fullmatch(r".*/tournaments/\d+", page.url), page.url
    tid = int(page.url.rstrip("/").split("/")[-1])
    with database.session(app.extensions["sk_engine"]) as db:
        t = tm.get_tournament(db=db, tournament_id=tid)
        assert (t.game, t.rounds, t.deals, t.rules["preset"]) == ("schafkopf", rounds, deals, "turnier")
        assert t.rules["all_pass"] == "redeal"
        return t


def enter_from_roster(page, names: list[str]) -> None:
    """Each name chosen from the roster and entered, one after the other (start numbers in this order)."""
    for name in names:
        page.select_option("#player", label=name)
        with page.expect_navigation():
            page.locator("#entrants form:has(#player) button[type=submit]").click()


def join_table(page, base: str, night: int, code: str) -> None:
    """A table's phone joins its table with the code on the table's card, and sees the table page."""
    page.goto(f"{base}/join")
    page.fill("#code", code)
    page.click("form:has(#code) button[type=submit]")  # not the sign-out of a table joined before
    page.wait_for_url(f"{base}/nights/{night}")


def entered(page) -> list[str]:
    """The participants' lines on the organiser's page."""
    return [" ".join(t.split()) for t in page.locator("ol.entrants > li").all_inner_texts()]
