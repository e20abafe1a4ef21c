"""The app on a phone at the table, in Chromium at 390x844 and 360x640: the screen stays on while a
night is open, the dark theme keeps every text readable, the app can go on the home screen, and the
settlement is shared as text (or copied)."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import close_night, create_night
from tests.browser.conftest import _sign_in
from tests.support import wait_until

pytestmark = pytest.mark.browser

PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}

#: A Screen Wake Lock the test can watch: counts requests, lets a lock go, and turns the page hidden or visible.
FAKE_WAKE_LOCK = """
(() => {
  window.__wake = { requests: 0, held: [] };
  let visible = true;
  Object.defineProperty(document, "visibilityState", { get: () => (visible ? "visible" : "hidden") });
  Object.defineProperty(document, "hidden", { get: () => !visible });
  window.__setVisible = (v) => {
    visible = v;
    if (!v) window.__wake.held.splice(0).forEach((s) => s.release());
    document.dispatchEvent(new Event("visibilitychange"));
  };
  class Sentinel extends EventTarget {
    constructor() { super(); this.released = false; this.type = "screen"; }
    release() { this.released = true; this.dispatchEvent(new Event("release")); return Promise.resolve(); }
  }
  Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
    request(type) {
      window.__wake.requests += 1;
      const s = new Sentinel();
      window.__wake.held.push(s);
      return Promise.resolve(s);
    },
  } });
})();
"""

NO_WAKE_LOCK = "Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: undefined });"


def night_of(app, roster, hands=0, closed=False, stake_cents=10) -> int:
    with database.session(app.extensions["sk_engine"], write=True) as db:
        night = create_night(
            db=db,
            game="matzlfangen",
            rules=None,
            player_ids=roster[:4],
            first_dealer=1,
            stake_cents=stake_cents,
            place="Zur Post",
        )
        for partner in (4, 4, 2)[:hands]:
            record_hand(db=db, night_id=night.id, hand={"contract": "rufen", "partner": partner, "points": 70})
        if closed:
            close_night(db=db, night_id=night.id)
        return night.id


@pytest.fixture(params=list(PHONES))
def phone(request, browser, live):
    """``phone(scheme="light", locale="de-DE", script=None)``: a signed-in page at the parametrised size."""
    contexts = []

    def make(scheme="light", locale="de-DE", script=None):
        context = browser.new_context(viewport=PHONES[request.param], locale=locale, color_scheme=scheme)
        contexts.append(context)
        if script:
            context.add_init_script(script)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        _sign_in(page, live)
        return page

    make.size = PHONES[request.param]
    yield make
    for context in contexts:
        context.close()


def wake_requests(page) -> int:
    page.wait_for_timeout(100)
    return page.evaluate("window.__wake.requests")


# --- 14: the screen stays on -------------------------------------------------------------------------


def test_the_screen_stays_on_at_an_open_nights_table_and_comes_back_after_the_phone_was_away(phone, live, roster):
    base, app = live
    night = night_of(app, roster)
    page = phone(script=FAKE_WAKE_LOCK)
    page.goto(f"{base}/nights/{night}")
    assert wake_requests(page) == 1
    page.evaluate("window.__setVisible(false)")  # the phone is put away: the browser lets the lock go
    assert wake_requests(page) == 1
    page.evaluate("window.__setVisible(true)")  # and taken up again: the lock is asked for anew
    assert wake_requests(page) == 2
    assert page.evaluate("window.__wake.held.filter(s => !s.released).length") == 1
    page.evaluate("window.__setVisible(true)")  # shown again while it is held: no second lock
    assert wake_requests(page) == 2
    page.click("#record")  # the hand form of the open night keeps it on too
    page.wait_for_selector("#hand-form")
    assert wake_requests(page) == 1
    assert page.errors == []


def test_the_screen_may_dim_elsewhere_and_after_the_night(phone, live, roster):
    base, app = live
    closed = night_of(app, roster, hands=1, closed=True)
    page = phone(script=FAKE_WAKE_LOCK)
    for path in ("/nights/", f"/nights/{closed}", f"/nights/{closed}/summary", "/players/"):
        page.goto(base + path)
        assert wake_requests(page) == 0, path


def test_without_the_wake_lock_api_the_table_works_as_before(phone, live, roster):
    base, app = live
    night = night_of(app, roster)
    page = phone(script=NO_WAKE_LOCK)
    page.goto(f"{base}/nights/{night}")
    page.click("#record")
    page.wait_for_selector("#hand-form")
    assert page.errors == []


# --- 15: the dark theme ----------------------------------------------------------------------------------

#: Every visible element with text of its own: its colour against the ground it stands on (the first
#: ancestor with a background), as the browser computed them. Disabled and faded controls are exempt.
CONTRASTS = """
() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ground = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c;
    }
    return [255, 255, 255];
  };
  const faded = (el) => {
    for (let e = el; e; e = e.parentElement) if (parseFloat(getComputedStyle(e).opacity) < 1) return true;
    return false;
  };
  const poor = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || el.closest("svg, [disabled], [hidden]") || faded(el)) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== "visible") continue;
    const a = lum(rgb(style.color)), b = lum(ground(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const what = `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}"`;
    if (ratio < 4.5) poor.push(`${what} ${ratio.toFixed(2)}`);
  }
  return poor;
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_of_the_pages_is_readable_in_the_phones_colour_scheme(phone, live, roster, scheme):
    base, app = live
    night = night_of(app, roster, hands=2)
    closed = night_of(app, roster, hands=1, closed=True)
    page = phone(scheme=scheme)
    for path in (
        "/nights/",
        f"/nights/{night}",
        f"/nights/{night}/hands/new",
        f"/nights/{night}/summary",
        f"/nights/{closed}",
        "/nights/new",
        "/players/",
        "/leaderboard/",
    ):
        page.goto(base + path)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark")
        ground = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert (ground == "rgb(18, 20, 18)") == (scheme == "dark"), path
        assert page.evaluate(CONTRASTS) == [], path
    # a hand form with its errors shown (the error summary, the fields in red)
    page.goto(f"{base}/nights/{night}/hands/new")
    page.locator("#save").click()
    page.wait_for_selector("#error-summary, .form-errors, .errors")
    assert page.evaluate(CONTRASTS) == []


# --- 16: on the home screen ------------------------------------------------------------------------------


def test_chromium_reads_the_manifest_without_errors(phone, live):
    base, _ = live
    page = phone()
    page.goto(f"{base}/nights/")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{base}/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = cdp.send("Page.getAppManifest").get("data", "")
    assert '"display": "standalone"' in parsed or '"display":"standalone"' in parsed
    answer = page.request.get(f"{base}/favicon.ico")
    assert answer.ok and answer.headers["content-type"] in ("image/vnd.microsoft.icon", "image/x-icon")


# --- 17: sharing the settlement ------------------------------------------------------------------------

FAKE_SHARE = """
window.__shared = [];
Object.defineProperty(navigator, "share", {
  configurable: true, value: (data) => { window.__shared.push(data); return Promise.resolve(); },
});
"""
NO_SHARE_FAKE_CLIPBOARD = """
window.__copied = [];
Object.defineProperty(navigator, "share", { configurable: true, value: undefined });
Object.defineProperty(navigator, "clipboard", {
  configurable: true, value: { writeText: (t) => { window.__copied.push(t); return Promise.resolve(); } },
});
"""


@pytest.mark.parametrize(("locale", "label", "pays"), [("de-DE", "Teilen", " zahlt "), ("en-GB", "Share", " pays ")])
def test_share_hands_the_settlement_to_the_phones_share_sheet(phone, live, roster, locale, label, pays):
    base, app = live
    night = night_of(app, roster, hands=3)
    page = phone(locale=locale, script=FAKE_SHARE)
    page.goto(f"{base}/nights/{night}/summary?lang={locale[:2]}")
    button = page.locator("#share")
    assert button.inner_text() == label
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= phone.size["width"]
    button.click()
    wait_until(page, "() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    text = page.evaluate("document.getElementById('share-text').textContent")
    assert shared["text"] == text
    for name in ("Anna", "Bernd", "Clara", "Dieter"):
        assert f"\n{name}: " in text
    assert pays in text
    # what it says about each player's money is what the balance table shows
    rows = page.locator("table.balance tbody tr")
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        assert f"{cells.nth(0).inner_text()}: {cells.last.inner_text()}" in text.splitlines()
    assert page.evaluate("document.documentElement.scrollWidth") <= phone.size["width"]
    assert page.errors == []


def test_without_a_share_sheet_the_text_is_copied_and_the_page_says_so(phone, live, roster):
    base, app = live
    night = night_of(app, roster, hands=2)
    page = phone(locale="en-GB", script=NO_SHARE_FAKE_CLIPBOARD)
    page.goto(f"{base}/nights/{night}/summary?lang=en")
    page.click("#share")
    wait_until(page, "() => window.__copied.length === 1")
    assert page.evaluate("window.__copied[0]") == page.evaluate("document.getElementById('share-text').textContent")
    status = page.locator("#share-status")
    assert status.is_visible() and "Copied" in status.inner_text()
    assert page.errors == []


def test_with_neither_the_text_is_copied_the_old_way(phone, live, roster):
    base, app = live
    night = night_of(app, roster, hands=1)
    script = (
        "Object.defineProperty(navigator, 'share', { configurable: true, value: undefined });"
        "Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });"
        "window.__copied = []; document.addEventListener('copy', (e) => window.__copied.push(getSelection().toString()"
        " || (document.activeElement && document.activeElement.value)));"
    )
    page = phone(locale="en-GB", script=script)
    page.goto(f"{base}/nights/{night}/summary?lang=en")
    page.click("#share")
    wait_until(page, "() => window.__copied.length === 1")
    assert page.evaluate("window.__copied[0]").startswith("Interim settlement: ")
    assert "Copied" in page.locator("#share-status").inner_text()


# --- a player's page: its figure tiles fill their row --------------------------------------------------------

#: Each figure tile's left and right edge, and the row's: (row, [tiles]).
FIGURE_TILES = """
() => {
  const row = document.querySelector(".figures");
  const edges = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.right]; };
  return [edges(row), [...row.children].map(edges)];
}
"""


@pytest.mark.parametrize("honour, tiles", [("konter_a_matt", 2), ("stake_0", 3), (None, 3)])
def test_a_player_pages_figure_tiles_fill_their_row(phone, live, roster, honour, tiles):
    """A player who only played for honour (Konter a Matt without a stake) has two tiles (nights, hands: no net
    money); they share the row's width, without the empty third of a grid of three columns; with money, three
    tiles do, and so do a stake of 0's (nights, hands, units)."""
    base, app = live
    if honour == "konter_a_matt":
        with database.session(app.extensions["sk_engine"], write=True) as db:
            night = create_night(db=db, game=honour, rules=None, player_ids=roster[:4], first_dealer=1, stake_cents=0)
            record_hand(db=db, night_id=night.id, hand={"trump_team": "A", "points_a": 30})
    else:
        night_of(app, roster, hands=1, stake_cents=0 if honour else 10)
    page = phone()
    page.goto(f"{base}/players/{roster[0]}")
    (left, right), edges = page.evaluate(FIGURE_TILES)
    assert len(edges) == tiles
    assert abs(edges[0][0] - left) < 1 and abs(edges[-1][1] - right) < 1, (left, right, edges)


#: The coloured figure of a player's tile (the net money, or the units at a stake of 0) beside the tiles' first
#: figure (the nights): their size and weight; its colour, and the colour its class gives elsewhere on the page.
COLOURED_FIGURE = """
() => {
  const span = document.querySelector(".figures strong > span.gain, .figures strong > span.loss");
  const first = document.querySelector(".figures strong");
  const probe = document.createElement("span");
  probe.className = span.className;
  document.querySelector("main, body").append(probe);
  const look = (el) => { const c = getComputedStyle(el); return [c.fontSize, c.fontWeight]; };
  const out = {figure: look(span), first: look(first), colour: getComputedStyle(span).color,
               wanted: getComputedStyle(probe).color, muted: getComputedStyle(first.nextElementSibling).color};
  probe.remove();
  return out;
}
"""


@pytest.mark.parametrize("stake_cents", [10, 0], ids=["net", "units"])
def test_a_player_pages_coloured_figure_is_as_large_and_strong_as_the_tiles_others(phone, live, roster, stake_cents):
    """Anna lost the night's one hand: her tile's figure (-0,10 EUR net; at a stake of 0, -1 unit) is red, as
    large and as bold as the nights and hands beside it. Before, the tiles' rule for their small grey label
    (``.figures span``) made it small and grey."""
    base, app = live
    night_of(app, roster, hands=1, stake_cents=stake_cents)
    page = phone()
    page.goto(f"{base}/players/{roster[0]}")
    seen = page.evaluate(COLOURED_FIGURE)
    assert seen["figure"] == seen["first"], seen
    assert seen["colour"] == seen["wanted"] != seen["muted"], seen


#: Whether two boxes of a player's tournaments list overlap: the tournament's name and the line beside it.
TOURNAMENT_LINE_OVERLAPS = """
() => [...document.querySelectorAll("#tournaments .list li")].map(li => {
  const a = li.querySelector("a.name"), meta = li.querySelector(".meta");
  const name = document.createRange(); name.selectNodeContents(a);
  const n = name.getBoundingClientRect(), m = meta.getBoundingClientRect();
  return n.right > m.left + 0.5 && n.bottom > m.top + 0.5 && m.bottom > n.top + 0.5;
})
"""


def test_a_player_pages_tournament_name_is_never_written_over_its_date(phone, live, roster):
    """A tournament's name of one long word ("Preisschafkopf") stood over its date and rank at 360 px: the name's
    box shrank below the word, which ran on under the line beside it. The line goes under the name instead."""
    from scorekeeper.core import tournaments as tm

    base, app = live
    with database.session(app.extensions["sk_engine"], write=True) as db:
        t = tm.create_tournament(
            db=db, name="Preisschafkopf", game="schafkopf", rules={"preset": "turnier"}, deals=1, seed="s"
        )
        for player in roster[:4]:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=player)
    page = phone()
    page.goto(f"{base}/players/{roster[0]}")
    assert page.evaluate(TOURNAMENT_LINE_OVERLAPS) == [False]
