"""Issue 26.5: every page a user can reach, of each game and of the tournaments, on a phone (390 x 844, German):
axe-core finds nothing serious or critical and every tap target is at least 44 px tall.

One app and one club for the whole module (a night of each game open and one closed, a tournament before its
draw and one being played, a guest at a table); each page is loaded once and both checks read that load. Which
pages those are comes from the app's own routes: a GET route that is neither here nor excluded, with its
reason, fails ``test_every_page_of_the_app_is_checked_or_excluded_with_a_reason``."""

from __future__ import annotations

from collections import defaultdict

import pytest
from sqlmodel import select

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import CLOSED, Night, TournamentTable
from scorekeeper.core.nights import close_night, create_night
from scorekeeper.core.players import create_player
from tests.browser.conftest import PHONE, _sign_in
from tests.browser.test_accessibility import describe, violations
from tests.browser.test_tap_targets import MIN, SMALL_TARGETS
from tests.support import served_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAMES = ("matzlfangen", "schafkopf", "konter_a_matt", "matt")
#: per game: players at the table and the hands recorded (an open night and a closed one each)
PLAYED = {
    "matzlfangen": (
        4,
        [
            {"contract": "rufen", "partner": 4, "points": 70, "raises": 5},
            {"contract": "durch", "declarer": 1, "won": True},
        ],
    ),
    "schafkopf": (
        5,
        [
            {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 70, "laufende": 3},
            {"contract": "rundpass"},
        ],
    ),
    "konter_a_matt": (4, [{"trump_team": "A", "points_a": 30}, {"trump_team": "B", "points_a": 20}]),
    "matt": (2, [{"mated_by": 1, "move": 7, "card": "A"}, {"mated_by": 2, "move": 4, "card": "K"}]),
}
NAMES = ("Anna", "Bernd", "Clara", "Dieter", "Eva", "Franz", "Gerda", "Hans")

#: The GET routes that are no page a user looks at, and why.
EXCLUDED = {
    "static": "files (CSS, scripts, icons)",
    "favicon": "an icon",
    "manifest": "the web app manifest (JSON)",
    "offline.service_worker": "the service worker's script",
    "nights.live": "the table page's live part, polled by its script into the table page (checked there)",
    "nights.version": "a version number the table page's script polls",
    "nights.join_qr": "an SVG picture of the join code, inside the table page",
    "nights.export_csv": "a download (CSV)",
    "nights.export_json": "a download (JSON)",
    "nights.pdf": "a PDF (looked at in tests/web/test_pdf.py)",
    "sessions.summary_pdf_alias": "the same PDF at its old address",
    "tournaments.cards": "a PDF",
    "tournaments.results": "a PDF",
    "tournaments.sheets": "a PDF",
    "index": "a redirect to the nights",
}
#: Checked in a test of their own: the setup page exists only while the club has no admin.
ELSEWHERE = {"signin.setup": "test_the_first_admins_setup_page"}


def _nights(db, roster) -> dict[str, int]:
    out = {}
    for game in GAMES:
        seats, hands = PLAYED[game]
        for state in ("open", "closed"):
            night = create_night(
                db=db, game=game, rules=None, stake_cents=10, player_ids=roster[:seats], first_dealer=1
            )
            for hand in hands:
                record_hand(db=db, night_id=night.id, hand=hand)
            if state == "closed":
                close_night(db=db, night_id=night.id)
            out[f"{game}-{state}"] = night.id
    return out


def _tournaments(db, roster) -> dict[str, int]:
    waiting = tm.create_tournament(db=db, name="Herbst", game="schafkopf", rules={"preset": "turnier"}, deals=4)
    playing = tm.create_tournament(db=db, name="Frühjahr", game="schafkopf", rules={"preset": "turnier"}, deals=4)
    for t in (waiting, playing):
        for player in roster:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=player)
    tm.draw_round(db=db, tournament_id=playing.id)
    tables = db.exec(select(TournamentTable).where(TournamentTable.tournament_id == playing.id)).all()
    table = min(tables, key=lambda t: t.number)
    record_hand(db=db, night_id=table.night_id, hand=PLAYED["schafkopf"][1][0])
    # the next table's points from paper: its paper form and its clearing page open (a table without them,
    # or with deals recorded, is told so on the tournament's page)
    tm.enter_paper(db=db, tournament_id=playing.id, round_number=1, table=table.number + 1, points=[3, -3, 0, 0])
    # a closed tournament, for the page that reopens it (closed as it stands: its rounds don't matter there)
    done = tm.create_tournament(db=db, name="Winter", game="schafkopf", rules={"preset": "turnier"}, deals=4)
    done.status = CLOSED
    db.commit()
    return {
        "waiting": waiting.id,
        "playing": playing.id,
        "closed": done.id,
        "table": table.night_id,
        "table_number": table.number,
    }


def _admin_pages(ids: dict[str, int], player: int) -> dict[str, str]:
    pages = {
        "nights": "/nights/",
        "nights filtered": f"/nights/?player={player}",
        "new night": "/nights/new",
        "players": "/players/",
        "player": f"/players/{player}",
        "player rename": f"/players/{player}/rename",
        "player merge": f"/players/{player}/merge",
        "leaderboard": "/leaderboard",
        "account": "/account",
        "accounts": "/users/",
        "an account": "/users/1",
        "not found": "/nights/999999",
        "tournaments": "/tournaments/",
        "new tournament": "/tournaments/new",
    }
    for game in GAMES:
        pages[f"leaderboard {game}"] = f"/leaderboard?game={game}"
        night, closed = ids[f"{game}-open"], ids[f"{game}-closed"]
        pages |= {
            f"{game} table": f"/nights/{night}",
            f"{game} settlement": f"/nights/{night}/summary",
            f"{game} settlement with the bank": f"/nights/{night}/summary?bank=1",
            f"{game} hand form": f"/nights/{night}/hands/new",
            f"{game} hand edit": f"/nights/{night}/hands/1/edit",
            f"{game} undo": f"/nights/{night}/hands/undo",
            f"{game} change": f"/nights/{night}/change",
            f"{game} close": f"/nights/{night}/close",
            f"{game} delete": f"/nights/{night}/delete",
            f"{game} closed table": f"/nights/{closed}",
            f"{game} closed settlement": f"/nights/{closed}/summary",
            f"{game} reopen": f"/nights/{closed}/reopen",
        }
    waiting, playing, table = ids["waiting"], ids["playing"], ids["table"]
    return pages | {
        "tournament before the draw": f"/tournaments/{waiting}",
        "tournament rules": f"/tournaments/{waiting}/rules",
        "tournament withdraw": f"/tournaments/{waiting}/entrants/1/withdraw",
        "tournament replace": f"/tournaments/{waiting}/entrants/1/replace",
        "tournament playing": f"/tournaments/{playing}",
        "tournament playing rules": f"/tournaments/{playing}/rules",
        "tournament playing withdraw": f"/tournaments/{playing}/entrants/2/withdraw",
        "tournament playing replace": f"/tournaments/{playing}/entrants/2/replace",
        "tournament standings": f"/tournaments/{playing}/standings",
        "tournament reopen": f"/tournaments/{ids['closed']}/reopen",
        "tournament paper": f"/tournaments/{playing}/rounds/1/tables/{ids['table_number'] + 1}/paper",
        "tournament paper clear": f"/tournaments/{playing}/rounds/1/tables/{ids['table_number'] + 1}/paper/clear",
        "tournament table": f"/nights/{table}",
        "tournament table hand form": f"/nights/{table}/hands/new",
        "tournament table settlement": f"/nights/{table}/summary",
    }


#: (who, name) -> path: "admin" signed in, "nobody" signed out, "guest" joined the open Matzlfangen night by code
def _all_pages(ids: dict[str, int], player: int) -> dict[tuple[str, str], str]:
    pages = {("admin", name): path for name, path in _admin_pages(ids, player).items()}
    pages |= {("nobody", "sign in"): "/login", ("nobody", "join"): "/join", ("nobody", "offline"): "/offline"}
    night = ids["matzlfangen-open"]
    pages |= {
        ("guest", "table"): f"/nights/{night}",
        ("guest", "hand form"): f"/nights/{night}/hands/new",
        ("guest", "settlement"): f"/nights/{night}/summary",
    }
    return pages


#: the pages' names for parametrising (the ids are the same on every run: a fresh database)
PAGE_NAMES = list(_all_pages(defaultdict(int), 1))


@pytest.fixture(scope="module")
def site(browser, sqlite_template, static_cache, tmp_path_factory):
    """The app with the club above, served in a thread, and a phone per visitor: yields (pages, phones)."""
    tmp = tmp_path_factory.mktemp("every_page")
    with served_app(tmp, sqlite_template, static_cache, poll_seconds=60) as (base, app):
        with database.session(app.extensions["sk_engine"], write=True) as db:
            roster = [create_player(db=db, name=n).id for n in NAMES]
            ids = _nights(db, roster) | _tournaments(db, roster)
            code = db.get(Night, ids["matzlfangen-open"]).join_code
        phones = {who: browser.new_context(viewport=PHONE, locale="de-DE") for who in ("admin", "nobody", "guest")}
        pages = {who: context.new_page() for who, context in phones.items()}
        for page in pages.values():
            page.set_default_timeout(10_000)
        _sign_in(pages["admin"], (base, app))
        guest = pages["guest"]
        guest.goto(f"{base}/join")
        guest.fill("#code", code)
        guest.click("button[type=submit]")
        guest.wait_for_url(f"{base}/nights/{ids['matzlfangen-open']}")
        yield base, _all_pages(ids, roster[0]), pages, app
        for context in phones.values():
            context.close()


def test_every_page_of_the_app_is_checked_or_excluded_with_a_reason(site):
    """Each GET route of the app is among the pages below, or excluded with its reason."""
    _base, pages, _phones, app = site
    adapter = app.url_map.bind("localhost")
    covered = set()
    for path in pages.values():
        endpoint, _args = adapter.match(path.split("?")[0], method="GET")
        covered.add(endpoint)
    # the JSON API (api.*) has no pages: tests/web/test_openapi.py checks its answers against its OpenAPI document
    routes = {r.endpoint for r in app.url_map.iter_rules() if "GET" in r.methods and not r.endpoint.startswith("api.")}
    unchecked = routes - covered - set(EXCLUDED) - set(ELSEWHERE)
    assert not unchecked, f"pages nobody checks: {sorted(unchecked)}"
    assert not (set(EXCLUDED) & covered), "a page is both checked and excluded"


@pytest.mark.parametrize("who_name", PAGE_NAMES, ids=[f"{who}: {name}" for who, name in PAGE_NAMES])
def test_the_page_has_no_serious_accessibility_finding_and_no_small_tap_target(site, who_name):
    base, pages, phones, _app = site
    who, _name = who_name
    path = pages[who_name]
    page = phones[who]
    answer = page.goto(f"{base}{path}")
    assert answer.status == (404 if path == "/nights/999999" else 200), f"{path} ({who}): {answer.status}"
    assert page.url == f"{base}{path}", f"{path} ({who}) went on to {page.url}"
    problems = []
    found = violations(page)
    if found:
        problems.append(describe(found, f"{path} ({who})"))
    small = page.evaluate(SMALL_TARGETS, MIN)
    if small:
        problems.append(f"tap targets under {MIN} px on {path} ({who}): " + "; ".join(small))
    assert not problems, "\n".join(problems)


def test_the_first_admins_setup_page(browser, live):
    """The setup page, shown only while the club has no admin (its address is printed at the app's start)."""
    from scorekeeper import config

    base, app = live
    token = config.read_setup_token(app.instance_path)
    assert token
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(f"{base}/setup/{token}")
        assert page.locator("form").count() == 1
        found = violations(page)
        assert not found, describe(found, "/setup/<token>")
        small = page.evaluate(SMALL_TARGETS, MIN)
        assert not small, small
    finally:
        context.close()


def test_the_tap_target_check_finds_a_small_link_on_a_line_of_its_own_not_one_in_a_sentence(site):
    """The check itself: a lone 20 px link is reported, a link inside a sentence is text (WCAG 2.5.8)."""
    base, _pages, phones, _app = site
    page = phones["admin"]
    page.goto(f"{base}/players/")
    page.evaluate(
        """() => document.querySelector('main').insertAdjacentHTML('beforeend',
             '<p><a href="#" id="lone">Zurück</a></p><p>Siehe <a href="#" id="inline">die Regeln</a> dazu.</p>')"""
    )
    small = page.evaluate(SMALL_TARGETS, MIN)
    assert any(s.startswith('#lone "Zurück"') for s in small), small
    assert not any("#inline" in s for s in small), small
