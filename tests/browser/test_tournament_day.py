"""A tournament day in Chromium at 390 x 844 (issue 25, "Done when"): 16 players over 4 rounds, run as
an organiser would. The organiser creates it, enters the 16, keeps one pair apart, draws each round;
one table of each round is recorded from a table phone that joins with the table's code (the hand
form), the other tables through the core (the browser adds nothing there), one table of round 2 is
typed from its paper list with solos won and lost (one player's left empty: unknown); after round 2
one participant is withdrawn (through the page that asks) and the withdrawal is taken back before
round 3 is drawn. Then: no pair of players shares a table twice, the pair kept apart never meets,
the standings (overall and each round's own) and their tie-break notes agree with what this test
works out from the hands it recorded, and every PDF (table cards, score sheets, result list) names
the right players, tables and rounds; every PDF page is rendered to PNG (pdftoppm) to look at."""

from __future__ import annotations

import hashlib
import itertools
import re
import shutil
import subprocess

import pytest

from scorekeeper.core import db as database
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import record_hand
from tests.browser.test_tournament import PHONE, SHOTS, deal_count, record
from tests.browser.tournament_steps import create_tournament, enter_from_roster, entered, make_roster
from tests.support import pdf_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = [
    "Anna", "Bernd", "Clara", "Dieter", "Eva", "Franz", "Gerda", "Hans",
    "Ida", "Josef", "Karin", "Ludwig", "Maria", "Norbert", "Olga", "Peter",
]  # fmt: skip
ROUNDS, DEALS = 4, 2
APART = (3, 12)  # start numbers kept apart (Clara and Ludwig)
WITHDRAWN = 5  # start number withdrawn after round 2 and taken back (Eva)
PAPER = (2, 2)  # round, table typed from its paper list
#: the paper list of that table: each seat's points and solos won/lost (None: left empty, unknown)
PAPER_POINTS = [0, 0, 4, -4]  # the last ties with two players of the phone's table: unknown solos in a tie
PAPER_SOLOS = [(1, 0), (0, 1), (0, 0), None]  # a table of 2 deals: at most 2 solos (one declarer per deal)
#: the deals of the tables recorded through the core, by seat (0-based): a Sauspiel (declarer,
#: partner) or a Wenz (declarer), won or lost; chosen so that equal points with different solos occur
PATTERNS = [
    [("wenz", 0, None, True), ("wenz", 1, None, True)],
    [("wenz", 0, None, False), ("wenz", 0, None, True)],
    [("sauspiel", 0, 1, True), ("sauspiel", 0, 2, False)],
]
PHONE_DEALS = [("sauspiel", 0, 2), ("wenz", 1)]  # table 1 of each round, tapped into the hand form (both won)
STEP_WORDS = {1: "durch mehr gewonnene Soli", 2: "durch weniger verlorene Soli", 3: "durch das Los"}
MARKS = {1: "a", 2: "b", 3: "c"}


def as_hand(deal: tuple) -> dict:
    kind, declarer, partner, won = deal
    if kind == "sauspiel":
        return {"contract": "sauspiel", "suit": "eichel", "declarer": declarer + 1, "partner": partner + 1,
                "points": 70 if won else 50}  # fmt: skip
    return {"contract": "wenz", "declarer": declarer + 1, "points": 61 if won else 40}


def scores(deal: tuple) -> tuple[list[int], list[tuple[int, int]]]:
    """What a deal gives each of the four seats under the turnier preset, worked out by hand: a Sauspiel
    1 (declarer and partner +1 each, the others -1; lost the other way round), a Wenz 5 from or to
    each other player (won +15 / -5 each; lost -15 / +5 each); no schneider (70, 50, 61, 40 points),
    no runners (laufende_max 0). And the solos won and lost per seat."""
    kind, declarer, partner, won = deal
    sign = 1 if won else -1
    if kind == "sauspiel":
        side = {declarer, partner}
        return [sign if s in side else -sign for s in range(4)], [(0, 0)] * 4
    return ([15 * sign if s == declarer else -5 * sign for s in range(4)],
            [((1, 0) if won else (0, 1)) if s == declarer else (0, 0) for s in range(4)])  # fmt: skip


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def expected_standings(seed: str, names: dict[int, str], points: dict, solos: dict, rounds) -> list[dict]:
    """The standings worked out here: total, then more solos won, then fewer solos lost, then the lot
    (SHA-256 of "lot:{seed}:{start number}", docs/tournaments.md); unknown solos count 0. Each line
    with the tie-break step that placed it (0 points, 1 won, 2 lost, 3 lot: the deeper of its two
    neighbours)."""
    lines = []
    for number in names:
        known = [solos[r][number] for r in rounds]
        won = sum(s[0] for s in known if s)
        lost = sum(s[1] for s in known if s)
        lines.append({"number": number, "name": names[number], "total": sum(points[r][number] for r in rounds),
                      "won": won, "lost": lost, "known": None not in known,
                      "key": (-sum(points[r][number] for r in rounds), -won, lost,
                              hashlib.sha256(f"lot:{seed}:{number}".encode()).digest())})  # fmt: skip
    lines.sort(key=lambda x: x["key"])

    def depth(i: int, j: int) -> int:
        return next(k for k in range(4) if lines[i]["key"][k] != lines[j]["key"][k])

    for i, line in enumerate(lines):
        line["rank"] = i + 1
        line["step"] = max(depth(i, j) for j in (i - 1, i + 1) if 0 <= j < len(lines))
    return lines


def expected_notes(lines: list[dict]) -> list[str]:
    """The notes under the standings: each group of equal points, which step placed it (one step for all,
    else the step between each two in a row), whose solos are unknown."""
    notes = []
    for _total, group in itertools.groupby(lines, key=lambda x: x["total"]):
        group = list(group)
        if len(group) < 2:
            continue
        steps = [next(k for k in range(4) if a["key"][k] != b["key"][k]) for a, b in itertools.pairwise(group)]
        note = f"{', '.join(x['name'] for x in group)}, je {signed(group[0]['total'])}:"
        if len(set(steps)) == 1:
            note += f" gereiht {STEP_WORDS[steps[0]]}"
        else:
            pairs = zip(itertools.pairwise(group), steps, strict=True)
            note += " " + ", ".join(f"{a['name']} vor {b['name']} {STEP_WORDS[k]}" for (a, b), k in pairs)
        unknown = [x["name"] for x in group if not x["known"]]
        if unknown:
            note += f"; die Soli von {', '.join(unknown)} sind unbekannt (Papierliste) und zählen als 0"
        notes.append(note + ".")
    return notes


def shown_standings(page) -> tuple[list[tuple], list[str]]:
    """The standings page: (rank with its tie mark, start number, name, total, solos) per line, and the tie notes."""
    out = []
    rows = page.locator("table.standings tbody tr.standings-line")
    for i in range(rows.count()):
        cells = [" ".join(c.split()) for c in rows.nth(i).locator("td").all_text_contents()]
        number, name = cells[1].split(" ", 1)
        out.append((cells[0], int(number), name, cells[-2], cells[-1]))
    notes = [" ".join(t.split()) for t in page.locator("ul.tie-notes li").all_text_contents()]
    return out, notes


def as_shown(lines: list[dict]) -> list[tuple]:
    return [
        (f"{x['rank']}{MARKS.get(x['step'], '')}", x["number"], x["name"], signed(x["total"]),
         f"{x['won']}/{x['lost']}" if x["known"] else "?")
        for x in lines
    ]  # fmt: skip


def fetch_pdf(page, url: str, name: str, tmp_path) -> str:
    """A PDF fetched with the organiser's session: its text (pdftotext), each of its pages rendered to PNG."""
    answer = page.request.get(url)
    assert answer.status == 200 and answer.headers["content-type"] == "application/pdf", url
    text = pdf_text(answer.body(), tmp_path)
    assert render(answer.body(), name, tmp_path) == text.count("\f")  # a PNG for every page
    return text


def render(data: bytes, name: str, tmp_path) -> int:
    """Every page of a PDF as PNG (pdftoppm) into $SCOREKEEPER_SHOTS or a tmp folder; the number of pages."""
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm is missing (apt-get install poppler-utils); CI installs it")
    folder = SHOTS or tmp_path / "png"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(folder / f"{name}.pdf"), str(folder / name)], check=True)
    pngs = sorted(folder.glob(f"{name}-*.png"))
    assert pngs and all(p.stat().st_size > 1000 for p in pngs), pngs
    return len(pngs)


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def in_order(text: str, names: list[str]) -> bool:
    """Whether the names occur in ``text`` as words, in this order."""
    found = words(text)
    try:
        at = [found.index(n) for n in names]
    except ValueError:
        return False
    return at == sorted(at)


def test_an_organiser_runs_a_tournament_of_sixteen_over_four_rounds(page, browser, live, tmp_path):
    base, app = live
    engine = app.extensions["sk_engine"]
    make_roster(app, NAMES)

    # the organiser creates it: Schafkopf, the turnier preset, 4 rounds of 2 deals
    t = create_tournament(page, base, app, "Turniertag im Löwen", rounds=ROUNDS, deals=DEALS)
    tid, seed = t.id, t.seed

    # 16 participants from the roster: start numbers 1..16 in the order entered
    enter_from_roster(page, NAMES)
    assert [re.match(r"(\d+) (\w+)", line).groups() for line in entered(page)] == [
        (str(n), name) for n, name in enumerate(NAMES, start=1)
    ]
    names = dict(enumerate(NAMES, start=1))

    # one pair kept apart, on the organiser's page
    page.fill("#first", str(APART[0]))
    page.fill("#second", str(APART[1]))
    with page.expect_navigation():
        page.locator("#apart form button[type=submit]").click()
    apart_line = " ".join(page.locator("ul.apart li").first.inner_text().split())
    assert apart_line.startswith(f"{APART[0]} {names[APART[0]]} · {APART[1]} {names[APART[1]]}"), apart_line

    phone = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    phone.set_default_timeout(10_000)
    points: dict[int, dict[int, int]] = {}  # round -> start number -> points
    solos: dict[int, dict[int, tuple[int, int] | None]] = {}  # round -> start number -> (won, lost), None unknown
    seating: dict[int, list[list[int]]] = {}  # round -> tables -> start numbers by seat

    for r in range(1, ROUNDS + 1):
        if r == 3:  # between rounds 2 and 3: a withdrawal, confirmed on its page, then taken back
            page.goto(f"{base}/tournaments/{tid}")
            with page.expect_navigation():
                page.locator(f"a[href$='/entrants/{WITHDRAWN}/withdraw']").click()
            heading = page.locator("h1").inner_text().strip()
            assert heading == f"{names[WITHDRAWN]} (Startnummer {WITHDRAWN}) ausscheiden lassen?", heading
            with page.expect_navigation():
                page.locator("form button.danger").click()
            line = page.locator("ol.entrants > li").nth(WITHDRAWN - 1)
            assert "ausgeschieden" in line.inner_text()
            assert "15 Teilnehmer" in page.locator(".next-step").inner_text()
            with database.session(engine) as db:
                assert [e.number for e in tm.read_tournament(db=db, tournament_id=tid).playing(3)] == [
                    n for n in names if n != WITHDRAWN
                ]
            with page.expect_navigation():
                line.locator(f"form[action$='/entrants/{WITHDRAWN}/take-back'] button").click()
            assert "ausgeschieden" not in page.locator("ol.entrants > li").nth(WITHDRAWN - 1).inner_text()
            assert "16 Teilnehmer" in page.locator(".next-step").inner_text()

        # the draw, from the organiser's page
        page.goto(f"{base}/tournaments/{tid}")
        with page.expect_navigation():
            page.locator(".next-step form[action$='/draw'] button.primary").click()
        assert page.locator(f"#round-{r} li.table-card").count() == 4
        with database.session(engine) as db:
            view = tm.read_tournament(db=db, tournament_id=tid)
        drawn = view.rounds[r - 1]
        assert drawn.number == r and not drawn.byes and not drawn.together
        tables = [(tv.number, tv.night.id, tv.night.join_code, [e.number for e in tv.entrants]) for tv in drawn.tables]
        seating[r] = [seats for *_, seats in tables]
        assert sorted(itertools.chain(*seating[r])) == list(names)  # everybody, the one withdrawn again too

        # the PDFs of the round: table cards with the seating list, and the score sheets
        check_cards(fetch_pdf(page, f"{base}/tournaments/{tid}/cards.pdf", f"cards-r{r}", tmp_path), r, tables, names)
        check_sheets(
            fetch_pdf(page, f"{base}/tournaments/{tid}/sheets.pdf", f"sheets-r{r}", tmp_path), r, tables, names
        )

        points[r], solos[r] = {}, {}
        for number, night, code, seats in tables:
            if (r, number) == PAPER:  # typed from its paper list by the organiser
                page.goto(f"{base}/tournaments/{tid}")
                with page.expect_navigation():
                    page.locator(f"a[href*='/rounds/{r}/tables/{number}/paper?']").click()
                for i, (p, s) in enumerate(zip(PAPER_POINTS, PAPER_SOLOS, strict=True), start=1):
                    page.fill(f"#p{i}", str(p))
                    if s is not None:
                        page.fill(f"#w{i}", str(s[0]))
                        page.fill(f"#l{i}", str(s[1]))
                with page.expect_navigation():
                    page.locator("form.paper-form button.primary").click()
                assert page.url.endswith(f"/tournaments/{tid}?said=round-{r}#round-{r}"), page.url  # said there
                for seat, p, s in zip(seats, PAPER_POINTS, PAPER_SOLOS, strict=True):
                    points[r][seat], solos[r][seat] = p, s
            elif number == 1:  # a table phone, no account: joins with the code, taps the deals in
                phone.goto(f"{base}/join")
                phone.fill("#code", code)
                with phone.expect_navigation():
                    phone.click("form:has(#code) button[type=submit]")
                assert phone.url == f"{base}/nights/{night}"
                assert deal_count(phone).startswith(f"Spiel 1 von {DEALS}")
                by_name = {names[n]: n for n in seats}
                for n in seats:
                    points[r][n], solos[r][n] = 0, (0, 0)
                for deal in PHONE_DEALS:
                    for name, s in record(phone, night, deal).items():
                        points[r][by_name[name]] += s
                        if s == 15:  # a Wenz won: the declarer's solo
                            solos[r][by_name[name]] = (solos[r][by_name[name]][0] + 1, 0)
            else:  # through the core: the browser adds nothing here
                pattern = PATTERNS[(number + r) % len(PATTERNS)]
                with database.session(engine, write=True) as db:
                    for deal in pattern:
                        record_hand(db=db, night_id=night, hand=as_hand(deal))
                for n in seats:
                    points[r][n], solos[r][n] = 0, (0, 0)
                for deal in pattern:
                    gains, counts = scores(deal)
                    for n, g, c in zip(seats, gains, counts, strict=True):
                        points[r][n] += g
                        solos[r][n] = (solos[r][n][0] + c[0], solos[r][n][1] + c[1])
        assert sum(points[r].values()) == 0
        with database.session(engine) as db:
            done = tm.read_tournament(db=db, tournament_id=tid).rounds[r - 1]
        assert done.done  # every table closed itself (or was typed from paper)
        assert {e.number: p for tv in done.tables for e, p in zip(tv.entrants, tv.points, strict=True)} == points[r]
    phone.context.close()

    # zero repeated table-mates over the 4 rounds, and the pair kept apart never at one table
    pairs = [pair for r in seating for table in seating[r] for pair in itertools.combinations(sorted(table), 2)]
    assert len(pairs) == 4 * 6 * ROUNDS and len(set(pairs)) == len(pairs)
    assert all(not set(APART) <= set(table) for r in seating for table in seating[r])

    # closed; the standings overall and each round's own, with the tie-break notes, as worked out here
    page.goto(f"{base}/tournaments/{tid}")
    with page.expect_navigation():
        page.locator(".next-step form[action$='/close'] button.primary").click()
    steps, tie_notes = set(), []
    for r in [None, *range(1, ROUNDS + 1)]:
        rounds = list(range(1, ROUNDS + 1)) if r is None else [r]
        want = expected_standings(seed, names, points, solos, rounds)
        page.goto(f"{base}/tournaments/{tid}/standings" + ("" if r is None else f"?round={r}"))
        lines, notes = shown_standings(page)
        assert lines == as_shown(want), r
        assert notes == expected_notes(want), r
        steps |= {x["step"] for x in want}
        tie_notes += notes
        if r is None:
            overall = want
    assert steps == {0, 1, 2, 3}  # every step of the tie-break was needed somewhere
    assert any("unbekannt" in note for note in tie_notes)  # a tie among players whose solos are unknown
    unknown = names[seating[PAPER[0]][PAPER[1] - 1][3]]  # the paper list left their solos empty
    assert any(x["name"] == unknown and not x["known"] for x in overall)

    # the result list: the standings, every round on its own, all names, the totals
    text = fetch_pdf(page, f"{base}/tournaments/{tid}/results.pdf", "results", tmp_path)
    assert "Turniertag im Löwen" in text and "vorläufig" not in text
    overall_part = text.split("Runde 1 für sich")[0]
    assert in_order(overall_part, [x["name"] for x in overall])  # in the order of the standings
    for x in overall:  # each participant's line: number, name, the rounds, total, solos
        line = next(ln for ln in overall_part.splitlines() if re.search(rf"\b{x['number']}\s+{x['name']}\b", ln))
        figures = line.split(x["name"], 1)[1].split()
        want = [*(signed(points[r][x["number"]]) for r in range(1, ROUNDS + 1)), signed(x["total"])]
        assert figures == [*want, f"{x['won']}/{x['lost']}" if x["known"] else "?"], line
    for r in range(1, ROUNDS + 1):
        assert f"Runde {r} für sich" in text


def check_cards(text: str, r: int, tables: list, names: dict[int, str]) -> None:
    """The table cards of round ``r``: one per table, its players in seat order; then the seating list."""
    cards, seating_list = text.split("Sitzliste")[0], text.split("Sitzliste")[1]
    parts = re.split(r"\bTisch (\d+)\n", cards)
    found = {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}
    assert sorted(found) == [number for number, *_ in tables], text
    for number, _night, code, seats in tables:
        card = found[number]
        assert f"Runde {r} von {ROUNDS}" in card
        assert in_order(card, [names[n] for n in seats]), (number, card)
        for seat, n in enumerate(seats, start=1):
            assert re.search(rf"Sitz {seat}\s+Nr\.\s+{n}\s+{names[n]}\b", card), (seat, n, card)
        assert code in "".join(card.split())  # beside its QR code
    assert f"Runde {r}" in seating_list
    rows = {
        int(m.group(1)): m.groups()[1:]
        for m in re.finditer(r"^\s*(\d+)\s+(\w+)\s+(\d+)\s+(\d+)\s*$", seating_list, re.M)
    }
    assert rows == {
        n: (names[n], str(number), str(seat)) for number, *_, seats in tables for seat, n in enumerate(seats, 1)
    }


def check_sheets(text: str, r: int, tables: list, names: dict[int, str]) -> None:
    """The score sheets of round ``r``: a page per table, headed with the tournament, round and table,
    the players in seat order with start numbers, a numbered line per deal with its dealer."""
    pages = [p for p in text.split("\f") if p.strip()]
    assert len(pages) == len(tables), text
    for (number, _night, _code, seats), sheet in zip(tables, pages, strict=True):
        assert re.search(rf"Turniertag im Löwen · Runde {r} · Tisch {number}\b", sheet), sheet
        for seat, n in enumerate(seats, start=1):
            assert re.search(rf"Sitz {seat}: Nr\. {n} {names[n]}\b", sheet), (seat, n, sheet)
        # seat 1 deals first, then clockwise
        for deal in range(1, DEALS + 1):
            dealer = names[seats[(deal - 1) % len(seats)]]
            assert re.search(rf"^\s*{deal}\s+{dealer}\b", sheet, re.M), (deal, dealer, sheet)
        assert "Summe: muss 0 ergeben" in " ".join(sheet.split()), sheet  # the line that must come to zero
