"""A small tournament in Chromium at 390 x 844 (issue 16, Tests, last point): the organiser creates
it, enters 9 participants (8 from the roster, 1 guest), draws two rounds (a table of four and one of
five); two table phones join with their table's code and record the deals through the hand form (a
Rundpass is dealt again and not counted); the standings and the PDFs agree with the tables' pages,
with the core, and with the turnier preset's values worked out by hand."""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.players import create_player
from scorekeeper.engine.tournament import count_repeats
from tests.browser.tournament_steps import create_tournament, enter_from_roster, entered, join_table, make_roster
from tests.support import pdf_text

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ["SCOREKEEPER_SHOTS"]) if os.environ.get("SCOREKEEPER_SHOTS") else None  # screenshots, PDFs
ROSTER = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Franz", "Gerda", "Hans"]
GUEST = "Gustl Gast"


def shot(page, name: str) -> None:
    """A full-page screenshot into $SCOREKEEPER_SHOTS (to look at; nothing when it is unset)."""
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def tap(page, group: str, text: str) -> None:
    page.locator(f"#{group}-group label", has_text=re.compile(f"^{re.escape(text)}$")).click()


def visible_labels(page, group: str) -> list[str]:
    return [t.strip() for t in page.locator(f"#{group}-group .segmented label:visible").all_inner_texts()]


def deal_count(page) -> str:
    return " ".join(page.locator("#deal-count").inner_text().split())


def balance(page) -> dict[str, int]:
    """The Score column of a table page's balance, by name."""
    rows = page.locator("#balance table.balance tbody tr")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        name = cells.nth(0).inner_text().split("\n")[0].strip()
        name = re.sub(r"\s*gibt$", "", name).strip()
        out[name] = int(cells.nth(1).inner_text())
    return out


def record(page, night: int, deal: tuple) -> dict[str, int]:
    """One deal through the hand form, as a player taps it; what it scores per name by the turnier
    preset worked out by hand (Sauspiel won: +1 for the declarer and partner, -1 for the other two;
    a solo or Wenz won: +15 for the declarer, -5 from each other player; the one sitting out 0)."""
    kind = deal[0]
    page.locator("#record").click()
    page.wait_for_url(f"**/nights/{night}/hands/new")
    playing = visible_labels(page, "declarer")
    assert len(playing) == 4, playing  # at a table of five the dealer sits out
    scores: dict[str, int] = {}
    if kind == "rundpass":
        tap(page, "contract", "Rundpass")
    elif kind == "sauspiel":
        declarer, partner = playing[deal[1]], playing[deal[2]]
        tap(page, "contract", "Sauspiel")
        tap(page, "declarer", declarer)
        tap(page, "partner", partner)
        tap(page, "suit", "Eichel")
        page.fill("#points", "70")
        scores = {n: (1 if n in (declarer, partner) else -1) for n in playing}
    else:  # "wenz" or "solo", won with 61
        declarer = playing[deal[1]]
        tap(page, "contract", "Wenz" if kind == "wenz" else "Solo")
        if kind == "solo":
            tap(page, "solo_suit", "Herz")
        tap(page, "declarer", declarer)
        page.fill("#points", "61")
        scores = {n: (15 if n == declarer else -5) for n in playing}
    page.locator("#save").click()
    page.wait_for_url(lambda url: "/hands/new" not in url)
    page.wait_for_load_state("load")
    return scores


def tables_on_page(page, round_number: int) -> list[dict]:
    """The organiser's page: each table of a round with its night, code and players."""
    out = []
    cards = page.locator(f"#round-{round_number} li.table-card")
    for i in range(cards.count()):
        card = cards.nth(i)
        href = card.locator("a[href*='/nights/']").first.get_attribute("href")
        code = card.locator(".table-code")
        names = [seat(t)[0] for t in card.locator("ol.seats li").all_inner_texts()]
        out.append(
            {
                "night": int(href.rstrip("/").split("/")[-1]),
                "code": code.inner_text().strip() if code.count() else None,
                "names": names,
            }
        )
    return out


def seat(text: str) -> tuple[str, int | None]:
    """A seat on the organiser's page, "7 Gerda +15": the name and the points so far (None before any)."""
    m = re.fullmatch(r"\d+ (\D+?)(?: ([+-]?\d+))?", " ".join(text.split()))
    assert m, text
    return m.group(1), None if m.group(2) is None else int(m.group(2))


def least_repeats(players: list[str], sizes: list[int], history: list[list[list[str]]]) -> int:
    """By brute force: the fewest repeated table-mates any split of ``players`` into tables of ``sizes``
    (here one of four and one of five) can have."""
    assert sorted(sizes) == [4, 5]
    return min(
        count_repeats([list(four), [p for p in players if p not in four]], history)
        for four in itertools.combinations(players, 4)
    )


def test_an_organiser_runs_a_tournament_of_nine_through_two_rounds_from_two_table_phones(page, browser, live, tmp_path):
    base, app = live
    engine = app.extensions["sk_engine"]
    make_roster(app, ROSTER)

    # 1. the organiser creates the tournament: Schafkopf, turnier (the default), 2 rounds of 2 deals, prizes
    t = create_tournament(page, base, app, "Preisschafkopf im Löwen", rounds=2, deals=2, prizes="30; 20")
    tid = t.id
    assert t.prizes == [3000, 2000]

    # 2. nine participants: eight from the roster, one guest typed in
    enter_from_roster(page, ROSTER)
    page.fill("#guest", GUEST)
    page.locator("#entrants form:has(#player) button[type=submit]").click()
    page.wait_for_load_state("load")
    lines = entered(page)
    for number, (line, name) in enumerate(zip(lines, [*ROSTER, GUEST], strict=True), start=1):
        assert line.startswith(f"{number} {name}"), lines
    assert page.locator("ol.entrants .badge").count() == 1  # the guest
    shot(page, "02-entrants")

    # 3. round 1: one table of four, one of five
    page.locator(".next-step form[action$='/draw'] button.primary").click()
    page.wait_for_load_state("load")
    r1 = tables_on_page(page, 1)
    assert sorted(len(t["names"]) for t in r1) == [4, 5]
    assert sorted(n for t in r1 for n in t["names"]) == sorted([*ROSTER, GUEST])
    assert all(t["code"] for t in r1)
    shot(page, "03-round1-drawn")

    # 4. two table phones, no account: each joins its table with the code and records the deals
    phones = []
    for _ in range(2):
        context = browser.new_context(viewport=PHONE, locale="de-DE")
        p = context.new_page()
        p.set_default_timeout(10_000)
        phones.append(p)

    def join(p, table: dict, name: str) -> None:
        join_table(p, base, table["night"], table["code"])
        assert deal_count(p).startswith("Spiel 1 von 2")
        shot(p, name)

    def play(p, table: dict, deals: list[tuple], prefix: str) -> dict[str, int]:
        totals = {n: 0 for n in table["names"]}
        counted = 0
        for deal in deals:
            for n, s in record(p, table["night"], deal).items():
                totals[n] += s
                solos[n] += s == 15  # a solo or Wenz won
            if deal[0] != "rundpass":
                counted += 1
            if counted < 2:  # still open: the next deal is shown; a deal dealt again does not count
                assert deal_count(p).startswith(f"Spiel {counted + 1} von 2"), deal_count(p)
                if deal[0] == "rundpass":
                    assert "neu gegeben" in deal_count(p) or "nicht gezählt" in deal_count(p), deal_count(p)
                    shot(p, f"{prefix}-after-rundpass")
        # after the last deal the table closes itself: the organiser sees its page done
        # (the phone that saved the last deal can't: see the xfail test below)
        page.goto(f"{base}/nights/{table['night']}")
        assert deal_count(page).startswith("2 von 2 gespielt"), deal_count(page)
        assert page.locator(".night-head .badge").inner_text().strip() == "abgeschlossen"
        assert page.locator("#record").count() == 0
        assert balance(page) == totals  # the table's page shows what the turnier values give
        shot(page, f"{prefix}-closed")
        return totals

    four1, five1 = sorted(r1, key=lambda t: len(t["names"]))
    join(phones[0], four1, "04-phone-a-joined")
    join(phones[1], five1, "04-phone-b-joined")
    points = {1: {}, 2: {}}  # round -> name -> points the table pages showed
    solos = {n: 0 for n in [*ROSTER, GUEST]}
    deals_four = [("rundpass",), ("sauspiel", 0, 2), ("wenz", 1)]
    deals_five = [("sauspiel", 1, 3), ("solo", 0)]
    points[1].update(play(phones[0], four1, deals_four, "05-r1-table4"))
    points[1].update(play(phones[1], five1, deals_five, "05-r1-table5"))
    # worked out by hand for the table of four (seats 1-4, nobody sits out): the Rundpass pays
    # nothing; seat 1 with seat 3 wins a Sauspiel (+1 +1 / -1 -1); seat 2 wins a Wenz (+15, -5 each)
    assert [points[1][n] for n in four1["names"]] == [1 - 5, -1 + 15, 1 - 5, -1 - 5]

    # 5. round 2: drawn with the fewest repeated table-mates 9 players allow
    page.goto(f"{base}/tournaments/{tid}")
    page.locator(".next-step form[action$='/draw'] button.primary").click()
    page.wait_for_load_state("load")
    r2 = tables_on_page(page, 2)
    assert sorted(len(t["names"]) for t in r2) == [4, 5]
    assert sorted(n for t in r2 for n in t["names"]) == sorted([*ROSTER, GUEST])
    history = [[t["names"] for t in r1]]
    repeats = count_repeats([t["names"] for t in r2], history)
    assert repeats == least_repeats([*ROSTER, GUEST], [4, 5], history)
    shot(page, "06-round2-drawn")
    four2, five2 = sorted(r2, key=lambda t: len(t["names"]))
    join(phones[0], four2, "07-phone-a-joined-r2")
    join(phones[1], five2, "07-phone-b-joined-r2")
    deals_four = [("sauspiel", 1, 3), ("solo", 2)]
    deals_five = [("wenz", 3), ("rundpass",), ("sauspiel", 0, 1)]
    points[2].update(play(phones[0], four2, deals_four, "08-r2-table4"))
    points[2].update(play(phones[1], five2, deals_five, "08-r2-table5"))
    # the organiser closes the tournament
    page.goto(f"{base}/tournaments/{tid}")
    organiser_figures = {}
    for r in (1, 2):
        for li in page.locator(f"#round-{r} ol.seats li").all_inner_texts():
            name, figure = seat(li)
            organiser_figures[(r, name)] = figure
    assert organiser_figures == {(r, n): v for r in (1, 2) for n, v in points[r].items()}
    page.locator(".next-step form[action$='/close'] button.primary").click()
    page.wait_for_load_state("load")
    assert page.locator(".tournament-head .badge").inner_text().strip() == "abgeschlossen"
    shot(page, "09-closed")

    # 6. the standings: each total is the sum of what the table pages showed; ranks 1..9
    expected = {n: points[1][n] + points[2][n] for n in [*ROSTER, GUEST]}
    assert sum(expected.values()) == 0
    page.goto(f"{base}/tournaments/{tid}/standings")
    rows = page.locator("table.standings tbody tr.standings-line")  # a phone: each player's rounds in a line below
    assert rows.count() == 9
    shown = []
    for i in range(9):
        cells = [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        rank = int(re.match(r"\d+", cells[0]).group(0))
        name = re.sub(r"^\d+\s+", "", cells[1]).removesuffix(" (Gast)")  # a guest is marked
        r1p, r2p, total = (0 if c == "0" else int(c) for c in cells[2:5])
        shown.append((rank, name, r1p, r2p, total, cells[5], cells[6] if len(cells) > 6 else ""))
    assert (
        sum(s[1] == GUEST for s in shown) == 1 and "(Gast)" in rows.nth([s[1] for s in shown].index(GUEST)).inner_text()
    )
    assert [s[0] for s in shown] == list(range(1, 10))
    assert [s[4] for s in shown] == sorted((s[4] for s in shown), reverse=True)
    assert {s[1]: s[4] for s in shown} == expected
    assert {s[1]: (s[2], s[3]) for s in shown} == {n: (points[1][n], points[2][n]) for n in expected}
    with database.session(engine) as db:
        view = tm.read_tournament(db=db, tournament_id=tid)
    core = {line.name: line.standing for line in view.standings}
    assert {n: s.total for n, s in core.items()} == expected  # the core agrees with the page and the tables
    assert [(s.rank, line.name) for line, s in ((x, x.standing) for x in view.standings)] == [s[:2] for s in shown]
    assert {s[1]: s[5] for s in shown} == {n: f"{s.solos_won}/{s.solos_lost}" for n, s in core.items()}
    # two solos and two Wenz were played, all won: each counted for its declarer
    assert {n: (s.solos_won, s.solos_lost) for n, s in core.items()} == {n: (solos[n], 0) for n in expected}
    assert sum(solos.values()) == 4
    winner = shown[0][1]
    assert shown[0][6].replace("\u00a0", " ") in ("30,00 €", "€30.00", "30,00 EUR", "30,00"), shown[0][6]
    shot(page, "10-standings")
    page.goto(f"{base}/tournaments/{tid}/standings?board=1")
    assert page.locator("table.standings.board tbody tr").count() == 9
    shot(page, "11-board")

    # the PDFs, fetched with the organiser's own session
    results = page.request.get(f"{base}/tournaments/{tid}/results.pdf")
    assert results.status == 200 and results.headers["content-type"] == "application/pdf"
    if SHOTS:
        (SHOTS / "results.pdf").write_bytes(results.body())
    text = pdf_text(results.body(), tmp_path)
    line = next(line for line in text.splitlines() if winner in line)
    assert "30,00" in line or "30.00" in line, line
    assert all(n in text for n in expected)
    cards = page.request.get(f"{base}/tournaments/{tid}/cards.pdf")
    assert cards.status == 200 and cards.headers["content-type"] == "application/pdf"
    if SHOTS:
        (SHOTS / "cards.pdf").write_bytes(cards.body())
    cards_text = pdf_text(cards.body(), tmp_path)
    assert all(n in cards_text for n in expected)  # the seating list of round 2
    for p in phones:
        p.context.close()


def test_the_table_phone_that_saves_the_last_deal_sees_its_table_done(page, browser, live):
    base, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        t = tm.create_tournament(db=db, name="Kurz", game="schafkopf", rules={"preset": "turnier"}, deals=1)
        for name in ROSTER:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=name).id)
        tm.draw_round(db=db, tournament_id=t.id)
        table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0]
        night, code = table.night.id, table.night.join_code
    phone = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    phone.set_default_timeout(10_000)
    join_table(phone, base, night, code)
    scores = record(phone, night, ("sauspiel", 0, 1))
    shot(phone, "12-phone-after-last-deal")
    try:
        assert "/login" not in phone.url, phone.url
        assert deal_count(phone).startswith("1 von 1 gespielt")
        assert balance(phone) == scores
    finally:
        phone.context.close()
