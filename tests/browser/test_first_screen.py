"""The phone at the pub table (issue 14, points 9 and 13): at 360x640 (and 390x844) nothing is cut off sideways,
the header is one short line with the menu folded away, the hand form's first screen holds the contract and the
first fields above the sticky Preview/Save bar, the table page's balance is wholly above the sticky button, a
hand's steps stand in columns (units and running totals share their right edges), and names break between
words only."""

from __future__ import annotations

import random
from datetime import date

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.hands import record_hand
from tools.demo import make_night, roster

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
PHONE = {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("size", [SMALL, PHONE], ids=["360x640", "390x844"])

#: long names that a cramped table breaks mid-word ("Schors ch") or pushes out of its card
NAMES = (
    "Schorsch Obermüller",
    "Maximilian Wolfsberger",
    "Kreszentia Hinterberger",
    "Bartholomäus Zwickl",
    "Anna Huber",
)
#: (game, players at the table, hands, rules, stake in cents): big stakes make wide money ("-1850,00 EUR")
NIGHTS = (
    ("schafkopf", 5, 25, {"preset": "bavarian"}, 1000),
    ("matzlfangen", 4, 20, {}, 50),
    ("konter_a_matt", 4, 12, {}, 100),
    ("matt", 2, 6, {"stake_per_point": 1}, 100),
    ("schafkopf", 4, 12, {}, 10),  # three passed hands at its end: a pot to share (the settlement's fourth column)
)
#: per game, what the hand form's first screen holds above the sticky bar: the contract and the first fields
FIRST_FIELDS = {
    "schafkopf": ["#contract-group", "#declarer-group"],
    "matzlfangen": ["#contract-group", "#partner-group"],
    "konter_a_matt": ["#trump_team-group", "#points_a"],
    "matt": ["#mated_by-group", "#move-group"],
}


@pytest.fixture
def club(live) -> list[tuple[str, int]]:
    """One night of each game with long names and big money (a Schafkopf table of five and one of four)."""
    _, app = live
    rng = random.Random(7)
    out = []
    with database.session(app.extensions["sk_engine"], write=True) as db:
        people = roster(db, NAMES)
        for game, seats, hands, rules, stake in NIGHTS:
            at_table = people[:seats]
            out.append((game, make_night(db, rng, game, at_table, hands, rules, date(2026, 11, 20), "Zur Post", stake)))
    with database.session(app.extensions["sk_engine"], write=True) as db:
        for _ in range(3):
            record_hand(db=db, night_id=out[-1][1], hand={"contract": "rundpass"})
    return out


@pytest.fixture
def phone(browser, sign_in):
    """``phone(size, lang="de", scheme="light", js=True)``: a signed-in phone of that size."""
    contexts = []

    def make(size=SMALL, lang="de", scheme="light", js=True):
        context = browser.new_context(
            viewport=size, locale="de-DE" if lang == "de" else "en-GB", color_scheme=scheme, java_script_enabled=js
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        sign_in(page)
        return page

    yield make
    for context in contexts:
        context.close()


def pages_of(club) -> list[str]:
    """The pages used at the table and after it: the nights, each table, each hand form, each settlement."""
    paths = ["/nights/"]
    for _game, night in club:
        paths += [f"/nights/{night}", f"/nights/{night}/hands/new", f"/nights/{night}/summary"]
    return paths


CLIPPED = """() => {
  const out = [];
  const name = el => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '');
  const shown = el => el.offsetParent !== null;
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push(`the page is ${root.scrollWidth} px wide`);
  // money and other numbers are never cut: their text fits their cell
  for (const el of document.querySelectorAll('.num')) {
    if (shown(el) && el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} "${el.textContent}" is cut`);
  }
  // a table fits its card, or scrolls in its own box that does (the night in numbers; the settlement's balance
  // with a pot share column); the table page's balance always fits (test_the_whole_balance_is_above_...)
  for (const t of document.querySelectorAll('table')) {
    const card = t.closest('.card');
    const box = t.closest('.table-scroll');
    if (box) {
      const boxOut = box.getBoundingClientRect().right > card.getBoundingClientRect().right;
      if (boxOut) out.push(`${name(t)}'s box sticks out`);
      continue;
    }
    if (!card || !shown(t)) continue;
    const pad = parseFloat(getComputedStyle(card).paddingRight);
    const inner = card.getBoundingClientRect().right - pad - card.clientLeft;
    const over = Math.round(t.getBoundingClientRect().right - inner);
    if (over > 1) out.push(`${name(t)} sticks out of its card by ${over} px`);
  }
  for (const c of document.querySelectorAll('.card')) {
    const over = c.scrollWidth - c.clientWidth;
    if (shown(c) && over > 1) out.push(`${name(c)} is ${over} px too wide`);
    if (c.getBoundingClientRect().right > innerWidth + 1) out.push(`${name(c)} ends right of the screen`);
  }
  return out;
}"""


def _open_hands(page) -> None:
    page.evaluate("document.querySelectorAll('details.hand').forEach(d => d.open = true)")


@SIZES
def test_nothing_is_cut_off_sideways_money_tables_and_cards_fit(phone, club, live, size):
    base, _ = live
    page = phone(size)
    problems = []
    for path in pages_of(club):
        page.goto(base + path)
        _open_hands(page)
        problems += [f"{path}: {p}" for p in page.evaluate(CLIPPED)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(("lang", "scheme"), [("de", "light"), ("en", "dark")])
def test_the_header_is_one_line_and_its_menu_opens_without_javascript(phone, club, live, lang, scheme):
    base, _ = live
    page = phone(SMALL, lang=lang, scheme=scheme, js=False)
    _game, night = club[0]
    for path in ["/nights/", f"/nights/{night}", f"/nights/{night}/hands/new", f"/nights/{night}/summary", "/players/"]:
        page.goto(base + path)
        height = page.locator("header.topbar").bounding_box()["height"]
        assert height <= 60, f"{path}: the header is {height:.0f} px high"
    # the menu is folded away; a tap opens it (a <details>: no JavaScript needed) with the language switch inside
    page.goto(f"{base}/nights/{night}/hands/new")
    other = "English" if lang == "de" else "Deutsch"
    switch = page.locator("header.topbar a[hreflang]")
    assert not switch.is_visible()
    page.locator("header.topbar details.menu > summary").click()
    assert switch.is_visible() and switch.inner_text() == other
    assert page.locator("header.topbar nav a", has_text="Spieler" if lang == "de" else "Players").is_visible()
    # the night is named in the header and leads back to its table
    back = page.locator("header.topbar a.night-link")
    assert back.get_attribute("href") == f"/nights/{night}"
    switch.click()
    assert page.locator("html").get_attribute("lang") == ("en" if lang == "de" else "de")


def _above_bar(page, selector: str) -> str | None:
    """None if the element is wholly on the first screen above the sticky bar, else what is wrong."""
    return page.evaluate(
        """(sel) => {
            const el = document.querySelector(sel);
            if (!el) return `${sel} is missing`;
            const r = el.getBoundingClientRect();
            const bar = document.querySelector('.sticky-bottom');
            const top = bar ? bar.getBoundingClientRect().top : innerHeight;
            if (r.height === 0) return `${sel} is not shown`;
            if (r.top >= 0 && r.bottom <= top + 0.5) return null;
            return `${sel} ends at ${Math.round(r.bottom)} px, the bar starts at ${Math.round(top)} px`;
        }""",
        selector,
    )


@SIZES
def test_the_hand_forms_first_screen_holds_the_contract_and_the_first_fields(phone, club, live, size):
    base, _ = live
    page = phone(size)
    problems = []
    for game, night in club:
        page.goto(f"{base}/nights/{night}/hands/new")
        problems += [_above_bar(page, selector) for selector in FIRST_FIELDS[game]]
        for button in ["#save", "button[value=preview]"]:  # in the sticky bar, on the screen
            box = page.locator(button).bounding_box()
            if not (box and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]):
                problems.append(f"/nights/{night}/hands/new: {button} is off the screen")
    problems = [p for p in problems if p]
    assert problems == [], "\n".join(problems)


WIDER_THAN_ITS_BOX = "sel => (t => t.scrollWidth - t.parentElement.clientWidth)(document.querySelector(sel))"


@SIZES
def test_the_whole_balance_is_above_the_sticky_button(phone, club, live, size):
    base, _ = live
    page = phone(size)
    problems = []
    for _game, night in club:
        page.goto(f"{base}/nights/{night}")
        problems.append(_above_bar(page, "#balance tbody tr:last-child"))
        wide = page.evaluate(WIDER_THAN_ITS_BOX, "#balance table")
        if wide > 0:
            problems.append(f"/nights/{night}: the balance is {wide} px wider than its card")
        # and at the page's end nothing is under the bar: the page is padded by the bar's height
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        gap = page.evaluate(
            """() => {
                const bar = document.querySelector('.sticky-bottom');
                const main = document.querySelector('main');
                const end = main.getBoundingClientRect().bottom - parseFloat(getComputedStyle(main).paddingBottom);
                return bar ? bar.getBoundingClientRect().top - end : null;
            }"""
        )
        if gap is None:
            problems.append(f"/nights/{night}: no sticky bar")
        elif gap < 0:
            problems.append(f"/nights/{night}: the page's end is {-gap:.0f} px under the bar")
    problems = [p for p in problems if p]
    assert problems == [], "\n".join(problems)


EDGES = """(root) => [...document.querySelectorAll(root + ' ol.steps')].filter(ol => ol.offsetParent).map(ol => {
  const right = sel => [...ol.querySelectorAll(sel)].map(el => Math.round(el.getBoundingClientRect().right));
  const left = sel => [...ol.querySelectorAll(sel)].map(el => Math.round(el.getBoundingClientRect().left));
  return {units: right('li > .num:not(.total)'), totals: right('li > .total'), texts: left('li > span:first-child')};
})"""


@SIZES
def test_a_hands_steps_stand_in_columns_units_and_totals_share_their_right_edges(phone, club, live, size):
    base, _ = live
    page = phone(size)
    columns = []
    for _game, night in club:
        page.goto(f"{base}/nights/{night}")
        _open_hands(page)
        columns += page.evaluate(EDGES, "#live")
    # the hand form's preview renders the same steps
    _game, night = club[1]
    page.goto(f"{base}/nights/{night}/hands/1/edit")
    page.locator("button[value=preview]").click()
    page.locator("#preview ol.steps").wait_for()
    preview = page.evaluate(EDGES, "#preview")
    assert preview, "the preview shows the hand's steps"
    columns += preview
    assert len(columns) > 10
    for col in columns:
        assert len(set(col["units"])) == 1, col  # every row's units end at the same right edge
        assert len(set(col["totals"])) == 1, col  # and so does every running total
        assert len(set(col["texts"])) == 1, col  # the texts start at one left edge
        assert col["units"][0] < col["totals"][0]  # units first, then the running total


WORDS_BROKEN = """(sel) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (el.offsetParent === null) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""


@SIZES
def test_names_break_between_words_only(phone, club, live, size):
    base, _ = live
    page = phone(size)
    broken = []
    for _game, night in club:
        for path, selector in [
            (f"/nights/{night}", "#balance td:first-child, .hand .who, table.payments td:first-child"),
            (f"/nights/{night}/hands/new", ".segmented label, .sits-out, .hand-head"),
            (f"/nights/{night}/summary", "table.balance td:first-child, .payments-list li, table.stats td:first-child"),
        ]:
            page.goto(base + path)
            _open_hands(page)
            broken += [f"{path}: {word}" for word in page.evaluate(WORDS_BROKEN, selector)]
    assert broken == []


STATS_COLUMNS_CUT = """() => [...document.querySelectorAll('.table-scroll > table.stats')].flatMap(t => {
  const box = t.parentElement.getBoundingClientRect();
  return [...t.querySelectorAll('thead th')].slice(0, 3)
    .filter(th => th.getBoundingClientRect().right > box.right + 0.5).map(th => th.textContent.trim());
})"""


def test_the_statistics_show_the_names_and_the_first_contract_whole_at_360_px(phone, club, live):
    """The night in numbers scrolls sideways at 360 px, but its names break between words, so that the hands and
    the first contract beside them are seen without scrolling (not a column cut in the middle of a word)."""
    base, _ = live
    page = phone(SMALL)
    cut = []
    for _game, night in club:
        page.goto(f"{base}/nights/{night}/summary")
        cut += [f"/nights/{night}/summary: {th}" for th in page.evaluate(STATS_COLUMNS_CUT)]
    assert cut == [], "\n".join(cut)


CHART_TEXT_OUTSIDE = """() => [...document.querySelectorAll('.chart-box svg')].flatMap(svg => {
  const width = svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBBox()])
    .filter(([, b]) => b.x < 0 || b.x + b.width > width).map(([text]) => text);
})"""


@pytest.mark.parametrize(
    ("size", "lang"), [(SMALL, "de"), (SMALL, "en"), (PHONE, "en")], ids=["360-de", "360-en", "390-en"]
)
def test_the_player_pages_chart_and_dates_are_whole(phone, club, live, size, lang):
    """Issue 26.4: the y axis's values are whole (its first digit was cut); a date is never broken at its
    hyphens ("(2026-" / "11-20"), nor is any other word of the records."""
    base, app = live
    from sqlmodel import select

    from scorekeeper.core.models import Player

    with database.session(app.extensions["sk_engine"]) as db:
        players = [p.id for p in db.exec(select(Player).where(Player.name.in_(NAMES)))]
    page = phone(size, lang=lang)
    problems = []
    for player in players:
        page.goto(f"{base}/players/{player}?lang={lang}")
        problems += [f"/players/{player}: chart text {t!r} is cut" for t in page.evaluate(CHART_TEXT_OUTSIDE)]
        problems += [f"/players/{player}: {w!r} is broken" for w in page.evaluate(WORDS_BROKEN, "main .plain li")]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_leaderboards_columns_fit_360_px(phone, club, live, lang):
    """The leaderboard's four columns (name, money, per hand, wins) are all seen at 360 px, big money too."""
    base, _ = live
    page = phone(SMALL, lang=lang)
    wide = {}
    for game in ("schafkopf", "matzlfangen", "konter_a_matt", "matt"):
        page.goto(f"{base}/leaderboard?game={game}&lang={lang}")
        over = page.evaluate(
            "() => [...document.querySelectorAll('.table-scroll')].map(b => b.scrollWidth - b.clientWidth)"
        )
        if any(over):
            wide[game] = over
    assert wide == {}
