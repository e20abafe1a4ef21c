"""A night at the table on a phone (390x844): start it, record hands, edit, undo; the balances
on the page must be the engine's. Also: nothing scrolls sideways at 360 px, every control is 44 px high."""

from __future__ import annotations

import re

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import close_night, create_night, reopen_night
from scorekeeper.core.table import load_table
from scorekeeper.engine import ledger, settle_json
from tests.support import DURCH, EURO, ROOT

pytestmark = pytest.mark.browser


class Taps:
    """Counts what a thumb does: clicks on controls (typing is counted apart)."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def click(self, selector: str, **kw) -> None:
        self.page.locator(selector, **kw).first.click()
        self.count += 1

    def choose(self, group: str, text: str) -> None:
        """Tap a segmented button by its label."""
        self.click(f"#{group}-group label", has_text=text)


def start_night(page, base: str, game_label: str, players: list[str], first_dealer: int = 1, stake: str = "0,10"):
    page.goto(f"{base}/nights/new")
    page.locator("#game-group label", has_text=re.compile(f"^{re.escape(game_label)}$")).click()
    for i, name in enumerate(players, start=1):
        page.select_option(f"#seat_{i}", label=name)
    page.locator("#first_dealer-group label", has_text=str(first_dealer)).click()
    if page.locator("#stake").is_visible():  # hidden while the night's rules pay no money (Konter a Matt, Matt)
        page.fill("#stake", stake)
    page.fill("#place", "Zur Post")
    page.get_by_role("button", name="Abend beginnen").click()
    page.wait_for_url("**/nights/*")
    return int(page.url.rstrip("/").split("/")[-1].split("#")[0])


def page_balance(page) -> dict[str, int]:
    rows = page.locator("#balance table.balance:not(.match) tbody tr")  # not Matt's table of the match
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        name = cells.nth(0).inner_text().split("\n")[0].replace("gibt", "").strip()
        out[name] = int(cells.nth(1).inner_text())
    return out


def engine_balance(app, night_id: int) -> dict[str, int]:
    """What the engine says for the stored hands, mapped to people by the deal."""
    with database.session(app.extensions["sk_engine"]) as db:
        table = load_table(db=db, night_id=night_id)
        payload = {"game": table.night.game, "rules": table.night.rules, "hands": [h.data for h in table.hands]}
        result = settle_json(payload)
        if table.night.game == "matt":  # deltas are match points; money comes from the engine's balance
            return {table.players[int(seat)].name: units for seat, units in result["balance"].items()}
        totals = {p.name: 0 for p in table.players.values()}
        for hand, res in zip(table.hands, result["hands"], strict=True):
            positions = ledger.seat_positions(table.size, 4 if table.night.game != "matt" else 2, hand.dealer)
            for seat, pos in enumerate(positions, start=1):
                totals[table.players[pos].name] += res["deltas"][str(seat)]
        return totals


def record_rufen(t: Taps, base: str, night: int, partner: str, points: int, raise_to: str | None = None, matzl=None):
    """One typical Rufen hand: open the form, tap the partner, type the points, (raise, Matzl), save."""
    t.page.goto(f"{base}/nights/{night}")
    t.click("#record")
    t.choose("partner", partner)
    t.page.fill("#points", str(points))
    if raise_to:
        t.choose("raises", raise_to)
    if matzl:
        t.choose("matzl", matzl)
    t.click("#save")
    t.page.wait_for_url(f"**/nights/{night}*")


def test_a_matzlfangen_night_of_eight_hands_with_an_edit_and_an_undo_matches_the_engine(page, live, roster):
    base, app = live
    night = start_night(page, base, "Matzlfangen", ["Anna", "Bernd", "Clara", "Dieter"])
    t = Taps(page)
    taps_per_hand = []
    # Rufen hands: forehand declares without a tap; partners are chosen among the other three
    plan = [
        ("Dieter", 70, "Hirsch", None),  # Anna deals, Bernd declares
        ("Anna", 40, None, None),  # Bernd deals, Clara declares
        ("Bernd", 100, None, "Spieler"),  # Clara deals, Dieter declares, declarers caught the Matzl
        ("Clara", 66, "Schuß", None),  # Dieter deals, Anna declares
        ("Anna", 20, None, None),  # Anna deals, Bernd declares
        ("Dieter", 88, "Re", None),
        ("Anna", 65, None, "Gegenspieler"),
    ]
    for partner, points, raise_to, matzl in plan:
        before = t.count
        record_rufen(t, base, night, partner, points, raise_to, matzl)
        taps_per_hand.append(t.count - before)
    # hand 8: a Treiben by Clara, won with 90
    page.goto(f"{base}/nights/{night}")
    t.click("#record")
    t.choose("contract", "Treiben")
    t.choose("declarer", "Clara")
    page.fill("#points", "90")
    t.click("#save")
    page.wait_for_url(f"**/nights/{night}*")
    assert page_balance(page) == engine_balance(app, night)
    assert page.locator("details.hand").count() == 8

    # edit hand 2: the declarers had 80, not 40
    page.goto(f"{base}/nights/{night}/hands/2/edit")
    page.fill("#points", "80")
    page.locator("#save").click()
    page.wait_for_url(f"**/nights/{night}")
    assert "Spiel 2 geändert" in page.content()
    # undo the last hand, with the confirmation
    page.locator("details.hand").first.locator("summary").click()
    page.get_by_role("link", name="Zurücknehmen").click()
    page.locator("#confirm-undo").click()
    page.wait_for_url(f"**/nights/{night}")
    assert page.locator("details.hand").count() == 7
    assert page_balance(page) == engine_balance(app, night)

    # a typical Rufen hand (partner, points, save) is at most 6 taps plus typing the points
    typical = min(taps_per_hand)
    assert typical <= 6, taps_per_hand
    print(f"\nTAPS typical Matzlfangen Rufen hand: {typical} (with a raise and a Matzl: {max(taps_per_hand)})")


def test_no_page_scrolls_sideways_at_360_px_and_every_control_is_44_px_high(browser, live, roster, sign_in):
    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        e = create_night(db=db, game="schafkopf", rules=None, stake_cents=10, player_ids=roster, first_dealer=1)
        record_hand(db=db, night_id=e.id, hand={"contract": "rundpass"})
    context = browser.new_context(viewport={"width": 360, "height": 640}, locale="de-DE")
    page = context.new_page()
    problems = []
    for path in ["/login", "/join", "/login?lang=en"]:
        problems += _layout_problems(page, base + path)
    sign_in(page)
    for path in [
        "/nights/",
        "/account",
        "/users/",
        "/users/1",
        "/players/",
        "/nights/new",
        f"/nights/{e.id}",
        f"/nights/{e.id}/hands/new",
        f"/nights/{e.id}/hands/1/edit",
        f"/nights/{e.id}/hands/undo",
        f"/nights/{e.id}/summary?bank=1",
        f"/nights/{e.id}/close",
        f"/nights/{e.id}/summary?lang=en",
        "/nights/?game=schafkopf&since=2099-01-01",
        f"/players/{roster[0]}",
        f"/players/{roster[0]}/merge",
        "/leaderboard?sort=win_rate",
        "/leaderboard?lang=en",
    ]:
        problems += _layout_problems(page, base + path)
    context.close()
    assert problems == []


def _layout_problems(page, url: str) -> list[str]:
    """What sticks out sideways or is too small to tap on the page at ``url`` (every details opened)."""
    problems = []
    path = url.split("/", 3)[-1]
    page.goto(url)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > 360:
        problems.append(f"{path} is {width} px wide")
    # the body hides what sticks out, so look at every element's edge (wide tables scroll in their own box)
    sticking_out = page.evaluate(
        """() => [...document.body.querySelectorAll('*')]
           .filter(el => !el.closest('.table-scroll') && el.getBoundingClientRect().right > innerWidth + 1)
           .map(el => el.tagName.toLowerCase() + '.' + el.className)"""
    )
    problems += [f"{path}: {what} sticks out to the right" for what in sticking_out[:3]]
    small = page.evaluate(
        """() => [...document.querySelectorAll(
             'button, a.button, .segmented label, input:not([type=hidden]):not([type=radio]), select, .switch')]
           .filter(el => el.offsetParent !== null)
           // a checkbox inside a switch is tapped through its label, which is measured itself
           .filter(el => !(el.type === 'checkbox' && el.closest('.switch')))
           .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
           .filter(([, h]) => h < 44)"""
    )
    problems += [f"{path}: {html} is {h:.0f} px high" for html, h in small]
    return problems


def _save(t: Taps, night: int) -> None:
    t.click("#save")
    t.page.wait_for_url(f"**/nights/{night}*")


def test_a_schafkopf_night_with_the_pot_matches_the_engine(page, live, roster):
    base, app = live
    night = start_night(page, base, "Schafkopf", ["Anna", "Bernd", "Clara", "Dieter"])
    t = Taps(page)
    # 1: everybody passes: 2 units each into the pot
    page.goto(f"{base}/nights/{night}")
    t.click("#record")
    t.choose("contract", "Rundpass")
    _save(t, night)
    # 2: Sauspiel by Anna with Clara (the called Gras ace), won with 75 and 3 runners: takes the pot
    before = t.count
    t.click("#record")
    t.choose("declarer", "Anna")
    t.choose("partner", "Clara")
    t.choose("suit", "Gras")
    page.fill("#points", "75")
    t.choose("laufende", "3")
    _save(t, night)
    sauspiel_taps = t.count - before
    # 3: a Wenz by Dieter, lost with 50, kontra
    t.click("#record")
    t.choose("contract", "Wenz")
    t.choose("declarer", "Dieter")
    page.fill("#points", "50")
    page.locator("label.switch", has_text="Kontra").click()
    _save(t, night)
    assert page_balance(page) == engine_balance(app, night)
    assert "Stock" in page.locator("#balance").inner_text()
    print(f"\nTAPS typical Schafkopf Sauspiel: {sauspiel_taps}")
    # the README's picture is this page as it is now
    page.goto(f"{base}/nights/{night}")
    picture = ROOT / "docs" / "images" / "table-phone.png"
    picture.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(picture))


def test_a_konter_a_matt_night_shows_the_strokes_and_matches_the_engine(page, live, roster):
    base, app = live
    night = start_night(page, base, "Konter a Matt", ["Anna", "Bernd", "Clara", "Dieter"])
    t = Taps(page)
    page.goto(f"{base}/nights/{night}")
    for team, points in [("A", 25), ("B", 20), ("B", 10)]:
        before = t.count
        t.click("#record")
        t.choose("trump_team", f"{team}:")
        page.fill("#points_a", str(points))
        _save(t, night)
    # 25:15 A wins (11 -> 10); 20:20 Stänner, B (trumps) +1 and 1 carried; 10:30 B wins 1 + 1 carried
    assert "A 10 · B 10" in " ".join(page.locator("#balance .state").inner_text().split())
    # played without a stake (issue 26.3): no unit changes hands, and the page shows no money
    assert set(engine_balance(app, night).values()) == {0}
    assert not EURO.search(page.locator("#balance").inner_text())
    print(f"\nTAPS typical Konter a Matt partie: {t.count - before}")
    # the strokes line wraps between its parts, never inside one: at 390 px in English "games won A 0 : B 0"
    # left its last "0" on a line by itself
    for lang in ("en", "de"):
        page.goto(f"{base}/nights/{night}?lang={lang}")
        lines = _lines_of_each_part(page)
        assert len(lines) == 2 and all(count == 1 for _, count in lines), (lang, lines)


def _lines_of_each_part(page) -> list[tuple[str, int]]:
    """Each part of the balance card's state lines (``.state .part``) and on how many lines it stands."""
    return page.evaluate(
        """() => [...document.querySelectorAll("#balance p.state .part")].map(
            part => [part.textContent.trim(), new Set([...part.getClientRects()].map(r => r.top)).size])"""
    )


def test_a_matt_match_shows_the_match_score_and_matches_the_engine(page, live, roster):
    base, app = live
    night = start_night(page, base, "Matt", ["Anna", "Bernd"])
    t = Taps(page)
    page.goto(f"{base}/nights/{night}")
    for who, move, card in [("Anna", "7", "A"), ("Bernd", "4", "K")]:
        before = t.count
        t.click("#record")
        t.choose("mated_by", who)
        t.click("#move-group label", has_text=move)
        t.choose("card", card)
        _save(t, night)
    # Anna 7 x 11 = 77, Bernd 4 x 4 = 16
    assert "Anna 77 : 16 Bernd" in " ".join(page.locator("#balance .state").first.inner_text().split())
    assert set(engine_balance(app, night).values()) == {0}  # no stake per point (issue 26.3): no money
    assert not EURO.search(page.locator("#balance").inner_text())
    print(f"\nTAPS typical Matt Durchgang: {t.count - before}")
    # at 360 px in German "gewonnene Partien: Anna 0 : 0 Bernd" left "Bernd" on a line by itself: the second
    # name now starts on the line of the score before it
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(f"{base}/nights/{night}?lang=de")
    tops = page.evaluate(
        """() => [...document.querySelectorAll("#balance p.state .who")].map(who => {
            const score = who.previousElementSibling.getClientRects();
            return [who.textContent, who.getClientRects()[0].top, score[score.length - 1].top];
        })"""
    )
    assert len(tops) == 2 and all(abs(name - score) < 2 for _, name, score in tops), tops


def test_another_phone_at_the_table_sees_a_new_hand_without_reloading(browser, live, roster):
    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        e = create_night(db=db, game="matzlfangen", rules=None, stake_cents=10, player_ids=roster[:4], first_dealer=1)
        code = e.join_code
    # the other phone joins with the code, without an account
    watcher = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE").new_page()
    watcher.goto(f"{base}/nights/{e.id}")
    assert "/login" in watcher.url
    watcher.goto(f"{base}/join#{code}")
    assert watcher.input_value("#code") == code and "#" not in watcher.url
    watcher.click("button[type=submit]")
    watcher.wait_for_url(f"{base}/nights/{e.id}")
    assert watcher.locator("details.hand").count() == 0
    with database.session(app.extensions["sk_engine"]) as db:  # the scorer's phone records a hand
        record_hand(db=db, night_id=e.id, hand={"contract": "rufen", "partner": 4, "points": 70})
    # the page polls every second here (3 s in use); no reload
    watcher.locator("details.hand").first.wait_for(timeout=5_000)
    assert watcher.locator("#record").inner_text().strip() == "Spiel 2 eintragen"
    assert page_balance(watcher) == {"Anna": -1, "Bernd": 1, "Clara": -1, "Dieter": 1}
    watcher.context.close()


def test_the_join_panel_of_an_open_table_page_shows_the_code_that_joins_after_a_reopening(
    page, live, matzlfangen_night
):
    """The scorer's phone has the table page open; an admin closes the night and reopens it (a correction):
    the reopened night has a new code and the earlier one joins nothing. The page takes the change by its
    polling, and so does the join panel ("Ein anderes Handy tritt bei"): its code and its QR code are the
    new ones, not the dead code the next phone at the table would type in vain."""
    from scorekeeper.core.models import Night

    base, app = live
    night = matzlfangen_night
    page.goto(f"{base}/nights/{night}")
    shown = page.locator(".join-code").inner_text().strip()
    qr = page.locator("details.join img.qr").get_attribute("src")
    with database.session(app.extensions["sk_engine"], write=True) as db:
        record_hand(db=db, night_id=night, hand=DURCH)
        close_night(db=db, night_id=night)
        reopen_night(db=db, night_id=night, reason="Korrektur")
        code = db.get(Night, night).join_code
    assert code != shown
    page.locator("#live", has_text="Durch").wait_for(timeout=10_000)  # the poll has seen the change
    page.locator("details.join > summary").click()
    assert page.locator(".join-code").inner_text().strip() == code, "the panel shows the code that joins nothing"
    assert page.locator("details.join img.qr").get_attribute("src") != qr  # the QR code drawn again
    assert page.locator("details.join img.qr").evaluate("img => img.complete && img.naturalWidth > 0")


def test_a_rename_on_another_phone_shows_at_the_table_by_the_next_poll_and_an_open_undo_still_takes_back_its_hand(
    page, browser, sign_in, live, roster, night_with_a_hand
):
    """Two phones on the real server: the table phone has the undo confirmation of hand 1 open; the admin
    renames Bernd on another phone. The table page polled there names him anew without a reload (the roster's
    stamp in its tag), and the open confirmation still takes back hand 1 (a name moves no night's version)."""
    base, app = live
    night = night_with_a_hand
    watcher = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE").new_page()
    sign_in(watcher)
    watcher.goto(f"{base}/nights/{night}")
    page.goto(f"{base}/nights/{night}/hands/undo")  # the table phone, about to confirm
    admin = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE").new_page()
    sign_in(admin)
    admin.goto(f"{base}/players/{roster[1]}/rename")
    admin.fill("input[name=name]", "Bernhard")
    admin.click("main button[type=submit]")
    admin.wait_for_url(re.compile(rf"{base}/players/.*"))
    watcher.locator("#balance", has_text="Bernhard").wait_for(timeout=5_000)  # polled, not reloaded
    page.click("#confirm-undo")
    page.wait_for_url(re.compile(rf"{base}/nights/{night}(#.*)?$"))
    assert "inzwischen geändert" not in page.locator("main").inner_text()
    with database.session(app.extensions["sk_engine"]) as db:
        assert load_table(db=db, night_id=night).hands == []  # hand 1 taken back
    watcher.context.close()
    admin.context.close()
