"""The night's chart on the settlement page and in its PDF: where it ends, how it is drawn."""

from __future__ import annotations

import re

from scorekeeper.core.table import load_table
from scorekeeper.web.charts import chart_svg
from scorekeeper.web.pdf import summary_html
from tests.support import closed_split_night, page_text, start_night


def cents(tick: str) -> int:
    """An axis's amount back in cents: ``-0.60`` / ``-0,60`` -> -60."""
    return round(float(tick.replace(",", ".")) * 100)


def drawn(svg: str) -> list[list[int]]:
    """Each line of a chart of money as the values it draws (cents), read back from its y coordinates by the
    axis: the zero line's y and the y of the highest value written beside the axis."""
    zero = float(re.search(r'<line x1="[\d.]+" y1="([\d.]+)"', svg)[1])
    labels = re.findall(r'<text x="[\d.]+" y="([\d.]+)" text-anchor="end"[^>]*>([^<]+)</text>', svg)
    written = {cents(text): float(y) for y, text in labels if re.fullmatch(r"-?\d+[.,]\d\d", text)}
    top = max(written)
    # a label's baseline is as far under its value's y as the 0's is under the zero line
    offset = float(re.search(r'y="([\d.]+)" text-anchor="end"[^>]*>0</text>', svg)[1]) - zero
    per_cent = (zero - (written[top] - offset)) / top
    lines = re.findall(r'<polyline [^>]*points="([^"]+)"', svg)
    return [[round((zero - float(p.split(",")[1])) / per_cent) for p in points.split()] for points in lines]


def balance_money(page: str) -> list[int]:
    """The money column of the settlement's balance table, in cents."""
    body = re.search(r'<table class="balance"[^>]*>.*?<tbody>(.*?)</tbody>', page, re.S)[1]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [cents(page_text(re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[-1]).split()[0]) for row in rows]


def test_a_split_pots_chart_ends_at_what_the_settlement_pays(app, client, db, players):
    """The pot shared out at the close is part of each one's money: the chart's lines ended at the last hand's
    running balance (Anna -0.60 EUR) while the settlement pays -0.40 EUR, her share of the pot (0.20 EUR) left out.
    The share is the chart's last step, after the last hand, labelled as the pot's."""
    night = closed_split_night(db, players)
    captions = {
        "en": "Running balance over the night, then each one's share of the pot",
        "de": "Stand im Lauf des Abends, danach der Anteil jedes Spielers am Stock",
    }
    for lang, pot in (("en", "Pot"), ("de", "Stock")):
        page = client.get(f"/nights/{night.id}/summary?lang={lang}").get_data(as_text=True)
        paid = balance_money(page)
        assert paid == [-40, -40, 40, 40]
        svg = re.search(r"<svg.*?</svg>", page, re.S)[0]
        lines = drawn(svg)
        assert [line[-1] for line in lines] == paid
        assert lines == [[0, -20, -40, -60, -40], [0, -20, -40, -60, -40], [0, -20, 40, 20, 40], [0, -20, 40, 20, 40]]
        assert f">{pot}</text>" in svg and ">3</text>" in svg  # the hands end at the 3rd, then the pot
        assert f"<figcaption>{captions[lang]}</figcaption>" in page.replace("&#39;", "'")
        with app.test_request_context(f"/?lang={lang}"):
            html = summary_html(load_table(db=db, night_id=night.id))
        pdf_svg = re.search(r"<svg.*?</svg>", html, re.S)[0]
        assert [line[-1] for line in drawn(pdf_svg)] == paid


def axis_labels(svg: str) -> list[str]:
    """The values written beside a chart's y axis: its right-aligned texts leftmost (the x axis's right end is
    right-aligned too, at the chart's right edge)."""
    labels = re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="end"[^>]*>([^<]+)</text>', svg)
    left = min(float(x) for x, _text in labels)
    return [text for x, text in labels if float(x) == left]


def test_a_night_without_hands_shows_no_chart_but_says_why(app, client, db, players):
    """No hand yet: the chart drew its axis up to an invented 1,00 (money) over nothing. Now no chart, and a short
    sentence where it stands, on the page and in the PDF, in both languages."""
    night = start_night(db, players, game="schafkopf", stake_cents=10)
    said_in = {"en": "No chart yet: nothing recorded.", "de": "Noch kein Diagramm: noch nichts eingetragen."}
    for lang, said in said_in.items():
        page = client.get(f"/nights/{night.id}/summary?lang={lang}").get_data(as_text=True)
        with app.test_request_context(f"/?lang={lang}"):
            pdf = summary_html(load_table(db=db, night_id=night.id))
        for html in (page, pdf):
            assert "<svg" not in html and "1,00" not in html and "1.00" not in html, lang
            assert said in page_text(html), lang


def test_a_chart_whose_every_value_is_0_writes_no_scale_but_the_0():
    """A night whose hands all paid nothing (a Matzl that annulled a loss) drew its flat lines under a scale up to
    1,00 that nothing reached: only the 0 is written."""
    assert axis_labels(str(chart_svg([[0, 0, 0], [0, 0, 0]], ["Anna", "Bernd"]))) == ["0"]
    assert axis_labels(str(chart_svg([[0, 0], [0, 0]], ["Anna", "Bernd"], tick=str))) == ["0"]
    assert axis_labels(str(chart_svg([[0, 150, -250]], ["Anna"]))) == ["0", "1,50", "-2,50"]  # a scale that was
