"""The settlement's PDF as a reader sees it: every name's letters drawn (a font of the server's for those
DejaVu lacks), a name kept in its cells, a short night on one page."""

from __future__ import annotations

import io
import math
import os
import re
import shutil
import subprocess
import unicodedata

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageDraw
from pypdf import PdfReader

from scorekeeper.core.players import create_player, rename_player
from scorekeeper.core.table import load_table
from scorekeeper.web.pdf import PLAYER_CHARS, name_chars, summary_document
from tests.support import closed_split_night
from tests.web.test_pdf import FIVE_LONG_NAMES

#: Names in Chinese, Korean, Japanese and full-width letters: none of their letters is in DejaVu.
CJK_NAMES = ("王小明", "김민준", "Ｆｕｌｌ Ｗｉｄｔｈ", "さくら")
#: A name of 39 accents on one letter (NFC makes the first a letter of its own, Á): each accent drawn above the
#: one before, they stood a page high over the rows above the name's.
STACKED = "A" + "\u0301" * 39


def drawn(pdf: bytes) -> dict[str, set[str]]:
    """Each font the PDF draws with (its name) and the characters it draws: a character its font has no
    glyph for (drawn as .notdef, an empty box) is left out, under the name ``".notdef"``."""
    found: dict[str, set[str]] = {".notdef": set()}
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            to_unicode = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            claimed = {
                bytes.fromhex(text).decode("utf-16-be")
                for text in re.findall(r"^<[0-9a-fA-F]+> <([0-9a-fA-F]+)>$", to_unicode, re.M)
            }
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            cmap = TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data())).getBestCmap()
            has = {text for text in claimed if all(ord(c) in cmap for c in text)}
            found.setdefault(str(font["/BaseFont"]).split("+")[-1], set()).update(has)
            found[".notdef"] |= claimed - has
    return found


def font_for(text: str) -> bool:
    """Whether one of the server's fonts has every letter of ``text`` (fontconfig)."""
    codes = " ".join(f"{ord(c):x}" for c in sorted(set(text) - {" "}))
    return bool(subprocess.run(["fc-list", f":charset={codes}"], capture_output=True, text=True).stdout.strip())


def test_names_in_chinese_korean_japanese_and_full_width_letters_are_drawn(app, db, tmp_path):
    """DejaVu has none of their letters, and a server with no other font drew each as an empty box: the PDF
    falls back (``"DejaVu Sans", sans-serif``: fontconfig picks a font that has the letter) to a font of CJK
    glyphs, which a club's server installs (fonts-wqy-microhei: docs/production.md; .ci/run installs it)."""
    if not shutil.which("fc-list"):
        pytest.skip("fontconfig's fc-list is missing")
    if not font_for("".join(CJK_NAMES)):
        message = "no font for Chinese, Korean and full-width letters: apt-get install fonts-wqy-microhei"
        if os.environ.get("CI"):  # .ci/run installs it: a CI without it would hide the empty boxes
            pytest.fail(message)
        pytest.skip(message)
    people = [create_player(db=db, name=name) for name in CJK_NAMES]
    night = closed_split_night(db, people)
    with app.test_request_context("/?lang=de"):
        fonts = drawn(summary_document(load_table(db=db, night_id=night.id)).write_pdf())
    letters = set("".join(CJK_NAMES)) - {" "}
    assert not fonts.pop(".notdef") & letters
    assert letters <= set().union(*fonts.values())  # each drawn with a font that has it


def test_a_names_field_in_the_log_is_as_wide_as_its_letters_look():
    """A full-width or CJK letter is as wide as two of the log's figures: "Ｆｕｌｌ Ｗｉｄｔｈ"'s field was sized
    for five letters, and its head broke "Ｗｉｄｔ" from "ｈ". An accent on a letter takes no room: a name of
    stacked accents took a field of 40 figures, and the hands' text was squeezed into half its width."""
    assert name_chars("Ｆｕｌｌ Ｗｉｄｔｈ") == name_chars("Full WidthWidth")
    assert name_chars("王小明王小明 王") == name_chars("Wangxiaoming")
    assert name_chars(unicodedata.normalize("NFC", STACKED)) == name_chars("Á") == PLAYER_CHARS


def pictures(pdf: bytes, tmp_path, dpi: int) -> list[Image.Image]:
    """The PDF's pages as pictures, in grey (pdftoppm; skips where poppler-utils is missing)."""
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm is missing (apt-get install poppler-utils); CI installs it")
    (tmp_path / "p.pdf").write_bytes(pdf)
    for old in tmp_path.glob("p-*.png"):
        old.unlink()
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", "-png", str(tmp_path / "p.pdf"), str(tmp_path / "p")], check=True
    )
    return [Image.open(path).convert("L") for path in sorted(tmp_path.glob("p-*.png"))]


def boxes(document, scale: float, text: str | None = None, tag: str = "td th li") -> list[tuple[int, int, int, int]]:
    """The first page's boxes of the elements named in ``tag`` (whose text has ``text``): their border boxes, in the
    pictures' pixels (``scale`` of a CSS px), rounded outward."""
    found = []
    for box in document.pages[0]._page_box.descendants():
        element = getattr(box, "element", None)
        if element is None or element.tag not in tag.split() or box.element_tag != element.tag:
            continue
        if text is None or text in "".join(element.itertext()):
            x, y = box.border_box_x() * scale, box.border_box_y() * scale
            w, h = box.border_width() * scale, box.border_height() * scale
            found.append((math.floor(x) - 1, math.floor(y) - 1, math.ceil(x + w) + 1, math.ceil(y + h) + 1))
    return found


def test_a_name_of_stacked_accents_stays_in_its_cells(app, db, players, tmp_path, monkeypatch):
    """The same night's PDF with the name of stacked accents and with its first letter alone (Á, as wide) differs
    only inside the boxes that hold the name: its table cells (the balance, the statistics, the log's head and
    hands), its payments' names. Without the chart: its legend gives a name of 39 characters a row of its own,
    which moves the log, and WeasyPrint draws an SVG's text letter by letter, each accent beside a dotted circle."""
    import scorekeeper.web.pdf

    monkeypatch.setattr(scorekeeper.web.pdf, "night_chart", lambda *args, **kwargs: (None, "(no chart)"))
    stacked = create_player(db=db, name=STACKED)
    night = closed_split_night(db, [stacked, *players[1:4]])
    dpi = 60
    drawn_as = []
    for name in (STACKED, "Á"):
        rename_player(db=db, player_id=stacked.id, name=name)
        with app.test_request_context("/?lang=en"):
            document = summary_document(load_table(db=db, night_id=night.id))
        (picture,) = pictures(document.write_pdf(), tmp_path, dpi)  # one page
        drawn_as.append((picture, document))
    (accents, document), (plain, _plain) = drawn_as
    changed = ImageChops.difference(accents, plain).point(lambda v: 255 if v > 40 else 0)
    assert changed.getbbox()  # the accents are drawn
    names = Image.new("L", accents.size, 0)
    cells = boxes(document, dpi / 96, text=stacked.name, tag="td th strong")
    for where in cells:
        ImageDraw.Draw(names).rectangle(where, fill=255)
    assert len(cells) >= 4 + 2 + 2 + 1  # the balance's, the statistics', the log's head's and hands', a payment's
    outside = ImageChops.subtract(changed, names)
    assert outside.getbbox() is None, outside.getbbox()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("names", [("Anna", "Bernd", "Clara", "Dieter"), FIVE_LONG_NAMES[:4]], ids=["short", "long"])
def test_a_short_nights_settlement_is_one_page(app, db, lang, names):
    """A closed night of three hands whose pot was shared out ran onto a second page with its whole log, and with
    long names so did the log's head: the chart (125 mm wide, 52 mm high, a long name's legend a row of its own),
    the paragraphs' and the headings' margins, the tables' rows and the page's took the room."""
    night = closed_split_night(db, [create_player(db=db, name=name) for name in names])
    with app.test_request_context(f"/?lang={lang}"):
        document = summary_document(load_table(db=db, night_id=night.id))
    assert len(document.pages) == 1


#: A name with its accent apart from its letter (a name stored so: one typed today is composed, Zoë), one in
#: Arabic (its letters joined, right to left), one too long to share a row of the legend, and a short one.
LEGEND_NAMES = ("Zoe\u0308", "محمد علي", "Maximilian Obermeierhuber-Schwarzenberg", "Anna")


def test_the_charts_legend_is_the_pdfs_text_its_names_written_as_elsewhere(app, db, tmp_path):
    """WeasyPrint writes an SVG's text letter by letter, unshaped: the legend's Zoë was an e and a diaeresis
    beside a dotted circle, its Arabic name's letters stood apart and backwards. The legend is HTML text
    below the chart now, each name after a sample of its line (``charts.legend_html``), as the PDF's
    tables write them."""
    from html import unescape

    from scorekeeper.core.models import Player
    from scorekeeper.web.pdf import summary_html
    from tests.support import pdf_text

    stored = Player(name=LEGEND_NAMES[0])
    db.add(stored)  # as stored: clean_name composes a typed name
    db.commit()
    night = closed_split_night(db, [stored, *(create_player(db=db, name=n) for n in LEGEND_NAMES[1:])])
    with app.test_request_context("/?lang=en"):
        table = load_table(db=db, night_id=night.id)
        html, pdf = summary_html(table), summary_document(table).write_pdf()
    figure = re.search(r'<figure class="chart-box">(.*?)</figure>', html, re.S)[1]
    chart = re.match(r"<svg.*?</svg>", figure, re.S)[0]
    legend = re.search(r'<ul class="legend[^"]*">(.*?)</ul>', figure, re.S)[1]
    assert [unescape(name) for name in re.findall(r"<span[^>]*>(.*?)</span>", legend)] == list(LEGEND_NAMES)
    assert not any(name in unescape(chart) for name in LEGEND_NAMES)  # none in the chart's SVG

    text = pdf_text(pdf, tmp_path)
    below = text[: text.index("Running balance over the night")]  # the chart's caption, under the legend
    below = below[below.rindex("Pot") + len("Pot") :]  # the x axis's last label, over the legend
    written = [unicodedata.normalize("NFC", line.strip(" \u202a\u202b\u202c")) for line in below.splitlines()]
    assert [line for line in written if line] == [unicodedata.normalize("NFC", name) for name in LEGEND_NAMES]
