"""The hand form on a phone (390x844 and 360x640), with and without JavaScript: a refused save is seen at once
(the summary atop the form, focused, clear of the sticky Save bar; its link brings the field into view), the
choices follow the rules as they are tapped, a table of five says who sits out, and the first dealer is one
of the players chosen. (Issue "At the table", points 1, 4 and 12.)"""

from __future__ import annotations

import re

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.nights import create_night
from scorekeeper.core.table import load_table

pytestmark = pytest.mark.browser

SIZES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}


@pytest.fixture
def phone(browser, sign_in):
    """``phone(size, js=True)``: a German phone of that size, signed in as the admin."""
    contexts = []

    def make(size: str, js: bool = True):
        context = browser.new_context(viewport=SIZES[size], locale="de-DE", java_script_enabled=js)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        sign_in(page)
        return page

    yield make
    for context in contexts:
        context.close()


def night_of(live, roster, game: str, seats: int = 4, rules=None) -> int:
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        night = create_night(db=db, game=game, rules=rules, stake_cents=10, player_ids=roster[:seats], first_dealer=1)
        return night.id


def stored(live, night: int) -> list[dict]:
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        return [h.data for h in load_table(db=db, night_id=night).hands]


def in_view(page, selector: str) -> bool:
    """Wholly inside the viewport and above the sticky Preview/Save bar."""
    return page.evaluate(
        """(sel) => {
            const r = document.querySelector(sel).getBoundingClientRect();
            const bar = document.querySelector('.sticky-bottom');
            const shown = bar && getComputedStyle(bar).display !== 'none';
            const bottom = shown ? bar.getBoundingClientRect().top : innerHeight;
            return r.height > 0 && r.top >= 0 && r.bottom <= bottom;
        }""",
        selector,
    )


def focused(page) -> str:
    return page.evaluate("document.activeElement && (document.activeElement.id || document.activeElement.name)")


def visible_labels(page, group: str) -> list[str]:
    return [t.strip() for t in page.locator(f"#{group}-group .segmented label:visible").all_inner_texts()]


def tap(page, group: str, text: str) -> None:
    page.locator(f"#{group}-group label", has_text=re.compile(f"^{re.escape(text)}$")).click()


def toggle(page, name: str) -> None:
    page.locator("label.switch").filter(has=page.locator(f"#{name}")).click()


# --- 1. a refused save is seen at once ------------------------------------------------------


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_refused_save_says_so_at_the_top_and_leads_to_the_field(phone, live, roster, size, js):
    base, _ = live
    night = night_of(live, roster, "matzlfangen")
    page = phone(size, js)
    page.goto(f"{base}/nights/{night}/hands/new")
    tap(page, "partner", "Anna")
    page.fill("#points", "70")
    toggle(page, "schwarz")
    page.locator("#save").click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"/nights/{night}/hands/new")  # still the form: nothing was saved
    assert stored(live, night) == []
    # the summary is where the eye is: in view, clear of the Save bar, focused, announced
    assert page.locator("#error-summary[role=alert]").count() == 1
    assert page.locator("#error-summary h2").inner_text() == "Nicht gespeichert"
    assert in_view(page, "#error-summary")
    assert focused(page) == "error-summary"
    assert page.title().startswith("Nicht gespeichert")
    # its link brings the field into view, above the Save bar
    link = page.locator("#error-summary a")
    assert link.count() == 1 and "keine 60 Augen" in link.inner_text()
    link.click()
    page.wait_for_timeout(300)
    assert in_view(page, "label.switch:has(#schwarz)")
    if js:  # the script puts the focus on the field's control
        assert focused(page) == "schwarz"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_schafkopf_declarer_as_partner_without_javascript_is_refused_at_the_top(phone, live, roster, size):
    base, _ = live
    night = night_of(live, roster, "schafkopf")
    page = phone(size, js=False)  # only without JavaScript can the declarer be tapped as partner
    page.goto(f"{base}/nights/{night}/hands/new")
    tap(page, "declarer", "Anna")
    tap(page, "partner", "Anna")
    tap(page, "suit", "Gras")
    page.fill("#points", "70")
    page.locator("#save").click()
    page.wait_for_load_state("load")
    assert stored(live, night) == []
    assert in_view(page, "#error-summary") and focused(page) == "error-summary"
    assert "nicht sein eigener Partner" in page.locator("#error-summary a").inner_text()
    page.locator("#error-summary a").click()
    page.wait_for_timeout(300)
    assert in_view(page, "#partner-group legend")


def test_the_live_preview_says_what_is_wrong_and_the_summary_goes_once_it_is_put_right(phone, live, roster):
    base, _ = live
    night = night_of(live, roster, "matzlfangen")
    page = phone("390x844")
    page.goto(f"{base}/nights/{night}/hands/new")
    tap(page, "partner", "Anna")
    page.fill("#points", "70")
    toggle(page, "schwarz")
    page.locator("#preview-errors a").wait_for()
    assert page.locator("#preview h2").inner_text() == "Keine Vorschau"
    page.locator("#save").click()
    page.wait_for_load_state("load")
    assert page.locator("#error-summary").count() == 1
    toggle(page, "schwarz")  # put right: the preview settles, the refusal's messages go
    page.locator("#preview .payments").wait_for()
    assert page.locator("#error-summary").count() == 0
    assert page.locator("#schwarz-errors").count() == 0
    page.locator("#save").click()
    page.wait_for_url(f"**/nights/{night}#balance")
    assert stored(live, night) == [{"contract": "rufen", "partner": 1, "points": 70, "dealer": 1}]


# --- 4. only the choices the rules allow -------------------------------------------------------


def test_schafkopf_offers_only_what_the_rules_allow_as_it_is_tapped(phone, live, roster):
    base, _ = live
    night = night_of(live, roster, "schafkopf")
    page = phone("390x844")
    page.goto(f"{base}/nights/{night}/hands/new")
    # Sauspiel: the called ace is never Herz; the partner is never the declarer
    assert visible_labels(page, "suit") == ["Eichel", "Gras", "Schellen"]
    assert not page.locator("#solo_suit-group").is_visible()
    tap(page, "declarer", "Anna")
    assert visible_labels(page, "partner") == ["Bernd", "Clara", "Dieter"]
    tap(page, "partner", "Clara")
    tap(page, "declarer", "Clara")  # the partner chosen became the declarer: no partner chosen now
    assert visible_labels(page, "partner") == ["Anna", "Bernd", "Dieter"]
    assert page.locator("input[name=partner]:checked").count() == 0
    # runners: up to 14; a Wenz has at most 4 and 7 chosen goes back to 0
    assert visible_labels(page, "laufende") == [str(n) for n in range(15)]
    tap(page, "laufende", "7")
    tap(page, "contract", "Wenz")
    assert visible_labels(page, "laufende") == ["0", "1", "2", "3", "4"]
    assert page.locator("input[name=laufende]:checked").get_attribute("value") == "0"
    # won/lost only with a tout, and then no points
    assert not page.locator("#won-group").is_visible()
    assert page.locator("#points").is_visible()
    toggle(page, "tout")
    assert page.locator("#won-group").is_visible()
    assert not page.locator("#points").is_visible() and not page.locator("#schwarz").is_visible()
    # Re after Kontra
    assert not page.locator("#re").is_visible()
    toggle(page, "kontra")
    assert page.locator("#re").is_visible()
    toggle(page, "kontra")
    # a Solo has its own suit, Herz among them
    tap(page, "contract", "Solo")
    assert visible_labels(page, "solo_suit") == ["Eichel", "Gras", "Herz", "Schellen"]
    tap(page, "contract", "Wenz")
    tap(page, "won", "gewonnen")
    page.locator("#save").click()
    page.wait_for_url(f"**/nights/{night}#balance")
    assert stored(live, night) == [{"contract": "wenz", "declarer": 3, "tout": True, "won": True}]


def test_a_sauspiel_still_takes_six_taps(phone, live, roster):
    base, _ = live
    night = night_of(live, roster, "schafkopf")
    page = phone("360x640")
    page.goto(f"{base}/nights/{night}")
    taps = 0
    for action in (
        lambda: page.locator("#record").click(),
        lambda: tap(page, "declarer", "Anna"),
        lambda: tap(page, "partner", "Clara"),
        lambda: tap(page, "suit", "Gras"),
        lambda: tap(page, "laufende", "3"),
    ):
        action()
        taps += 1
    page.fill("#points", "75")
    page.locator("#save").click()
    taps += 1
    page.wait_for_url(f"**/nights/{night}#balance")
    assert taps == 6
    assert stored(live, night) == [
        {"contract": "sauspiel", "declarer": 1, "partner": 3, "suit": "gras", "points": 75, "laufende": 3}
    ]


def test_the_first_dealer_is_one_of_the_players_chosen(phone, live, roster):
    base, _ = live
    page = phone("360x640")
    page.goto(f"{base}/nights/new")
    for i, name in enumerate(["Anna", "Bernd", "Clara", "Dieter"], start=1):
        page.select_option(f"#seat_{i}", label=name)
    assert visible_labels(page, "first_dealer") == ["1", "2", "3", "4"]  # a table of four: no seat 5
    page.select_option("#seat_5", label="Eva")
    assert visible_labels(page, "first_dealer") == ["1", "2", "3", "4", "5"]
    page.locator("#first_dealer-group label", has_text="5").click()
    page.select_option("#seat_5", label="—")  # Eva leaves: seat 5 goes, the first dealer is seat 1 again
    assert visible_labels(page, "first_dealer") == ["1", "2", "3", "4"]
    assert page.locator("input[name=first_dealer]:checked").get_attribute("value") == "1"
    page.locator("#game-group label", has_text=re.compile("^Matt$")).click()
    assert visible_labels(page, "first_dealer") == ["1", "2"]


# --- 12. a table of five: who sits out --------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
def test_at_a_schafkopf_table_of_five_who_sits_out_is_said_at_the_top(phone, live, roster, size):
    base, _ = live
    night = night_of(live, roster, "schafkopf", seats=5)
    page = phone(size)
    page.goto(f"{base}/nights/{night}/hands/new")
    assert page.locator("#sits-out").inner_text() == "Anna setzt aus · Es spielen: Bernd, Clara, Dieter, Eva"
    assert in_view(page, "#sits-out")
    assert visible_labels(page, "declarer") == ["Bernd", "Clara", "Dieter", "Eva"]
    assert page.locator("#declarer-group .sits-out").inner_text() == "Anna setzt aus"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


def test_a_refused_page_keeps_the_matzl_bonus_on_for_a_matzl_tapped_afterwards(phone, live, roster):
    base, _ = live
    night = night_of(live, roster, "matzlfangen")
    page = phone("390x844")
    page.goto(f"{base}/nights/{night}/hands/new")
    tap(page, "partner", "Anna")
    page.fill("#points", "70")
    toggle(page, "schwarz")
    page.locator("#save").click()  # refused while nobody caught the Matzl (its bonus toggle hidden, not posted)
    page.wait_for_load_state("load")
    toggle(page, "schwarz")
    tap(page, "matzl", "Spieler")
    assert page.locator("#matzl_claimed").is_checked()
    page.locator("#save").click()
    page.wait_for_url(f"**/nights/{night}#balance")
    assert stored(live, night)[0]["matzl_claimed"] is True
