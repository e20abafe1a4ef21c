"""Issue 25.3: the standings fit a phone (390 and 360 px wide: rank, player, total and prize on screen, the
rounds and solos in a line below each player), the big screen keeps every column, and the organiser types a
paper list from the keyboard (Tab from field to field, Enter saves)."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from scorekeeper.core.players import create_player

pytestmark = pytest.mark.browser

NAMES = ["Franz Xaver Obermaier", "Resi Huber", "Sepp", "Vroni", "Alois", "Kathi", "Hias", "Burgl", "Wastl"]


def played(live, prizes: list[int]) -> int:
    """Nine players with ``prizes`` (cents), two rounds played (a table of five among them): its id."""
    _, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        t = tm.create_tournament(
            db=db, name="Preisschafkopf", game="schafkopf", rules={"preset": "turnier"}, deals=1, seed="s",
            prizes=prizes,
        )  # fmt: skip
        for name in NAMES:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=name).id)
        for number in (1, 2):
            tm.draw_round(db=db, tournament_id=t.id)
            for table in tm.read_tournament(db=db, tournament_id=t.id).rounds[number - 1].tables:
                record_hand(db=db, night_id=table.night.id, hand={"contract": "wenz", "declarer": 3, "points": 61})
        return t.id


@pytest.fixture
def tournament(live) -> int:
    """Nine players with prizes, two rounds played (a table of five among them): the standings' widest case."""
    return played(live, [5000, 2500, 1000])


@pytest.fixture
def prize_of_a_hundred(live) -> int:
    """The same standings with a first prize of 100,00 EUR, a usual Preisschafkopf's."""
    return played(live, [10000, 5000, 2500])


def _on_screen(page, selector: str) -> bool:
    """Whether every element matching ``selector`` is inside the viewport's width (nothing cut or off-screen)."""
    return page.evaluate(
        """s => [...document.querySelectorAll(s)].every(e => {
             const r = e.getBoundingClientRect();
             return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth; })""",
        selector,
    )


@pytest.mark.parametrize("width,height", [(390, 844), (360, 640)])
def test_the_standings_fit_a_phone_with_rounds_and_solos_below_each_player(page, live, tournament, width, height):
    base, _ = live
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{base}/tournaments/{tournament}/standings")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    table = page.locator("table.standings")
    assert table.evaluate("t => t.getBoundingClientRect().right <= window.innerWidth")
    assert _on_screen(page, "table.standings td.prize") and _on_screen(page, "table.standings td.total")
    assert "50,00" in page.locator("table.standings td.prize").first.inner_text()
    assert not page.locator("table.standings th.col-round").first.is_visible()
    detail = page.locator("tr.standings-detail").first
    assert detail.is_visible() and "R2" in detail.inner_text() and "Soli gew./verl." in detail.inner_text()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("width,height", [(390, 844), (360, 640)])
def test_the_standings_on_a_phone_show_a_prize_of_a_hundred_euros_whole(
    page, live, prize_of_a_hundred, lang, width, height
):
    """Rank, player, total and prize are on a phone's screen (docs/tournaments.md, "Standings"): a first prize
    of 100,00 EUR does not push the table past a screen of 360 px ("Prei", "100,00 EU", scrolled sideways)."""
    base, _ = live
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{base}/tournaments/{prize_of_a_hundred}/standings?lang={lang}")
    assert "100" in page.locator("table.standings td.prize").first.inner_text()
    right = page.locator("table.standings").evaluate("t => t.getBoundingClientRect().right")
    box = page.locator("table.standings").evaluate("t => t.parentElement.getBoundingClientRect().right")
    assert right <= box, f"the standings end at {right} px, their box at {box} px"
    assert _on_screen(page, "table.standings td.prize")
    assert _on_screen(page, "table.standings th:not(.col-round):not(.col-solos)")  # "Preis" whole


def test_the_big_screen_keeps_every_column(page, live, tournament):
    base, _ = live
    page.set_viewport_size({"width": 1600, "height": 900})
    page.goto(f"{base}/tournaments/{tournament}/standings?board=1")
    assert page.locator("table.standings th.col-round").nth(1).is_visible()
    assert page.locator("table.standings td.col-solos").first.is_visible()
    assert page.locator("tr.standings-detail").count() == 0


def test_a_paper_list_is_typed_from_the_keyboard(page, live):
    base, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, seed="s")
        for name in NAMES[:8]:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=name).id)
        tm.draw_round(db=db, tournament_id=t.id)
    page.goto(f"{base}/tournaments/{t.id}/rounds/1/tables/1/paper")
    assert page.evaluate("document.activeElement.name") == "p1"  # the first field has the focus
    for value in ("12", "1", "0", "-12", "", "", "5", "0", "1", "-5", "0", "0"):
        page.keyboard.type(value)
        page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")  # Enter in the last field saves
    page.wait_for_url(f"{base}/tournaments/{t.id}?said=round-1#round-1")  # the message said at the round
    with database.session(app.extensions["sk_engine"]) as db:
        view = tm.read_tournament(db=db, tournament_id=t.id)
        table = view.rounds[0].tables[0]
        assert table.points == [12, -12, 5, -5]
        known = {line.entrant.number: line.solos_known for line in view.standings}
        assert [known[e.number] for e in table.entrants] == [True, False, True, True]
