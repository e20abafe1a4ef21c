"""The settlement's words in both languages: who pays the pot and whom it pays, the date of its PDF, its rules
line (the page, its Share text and the PDF say the same)."""

from __future__ import annotations

import html
import re
import subprocess
from datetime import date

from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import close_night, create_night
from scorekeeper.core.players import create_player
from tests.support import SAUSPIEL_CLARA, page_text, pdf_text, start_night

PLAYED_ON = date(2026, 11, 27)


def _share_text(page: str) -> str:
    match = re.search(r'<pre class="card share-text" id="share-text" hidden>(.*?)</pre>', page, re.S)
    assert match, "no share text on the page"
    return html.unescape(match[1])


def _words(markup: str) -> str:
    """A piece of a page as a browser's text has it: the tags out, the entities read, each run of spaces and line
    ends one space; a no-break space kept (it holds an amount to its currency: "0,20\u00a0EUR")."""
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", "", markup))).strip()


def _payments(page: str) -> list[str]:
    """The lines of the page's "Who pays whom" list, as a browser shows them."""
    match = re.search(r'<ol class="payments-list">(.*?)</ol>', page, re.S)
    assert match, "no payments on the page"
    return [_words(item) for item in re.findall(r"<li>(.*?)</li>", match[1], re.S)]


def _carried_and_taken(db, players):
    """Night 1 (a Rundpass, its pot carried): everyone pays 0.20 into the pot. Night 2 takes the pot of 0.80
    in and shares it at its close, no hand played: the pot pays everyone 0.20."""
    first = start_night(db, players, game="schafkopf", rules={"pot_at_close": "carry"}, played_on=PLAYED_ON)
    record_hand(db=db, night_id=first.id, hand={"contract": "rundpass"})  # -2 each, the pot 8 units
    close_night(db=db, night_id=first.id)
    second = start_night(db, players, game="schafkopf", played_on=PLAYED_ON)  # pot_at_close: split
    assert second.pot_start == 8
    close_night(db=db, night_id=second.id)
    return first, second


SAID = {
    # (language, night): Anna's line on the page, in the Share text and in the PDF
    ("de", "first"): "Anna zahlt 0,20\u00a0EUR in den Stock",
    ("de", "second"): "Anna bekommt 0,20\u00a0EUR aus dem Stock",
    ("en", "first"): "Anna pays 0.20\u00a0EUR into the pot",
    ("en", "second"): "Anna gets 0.20\u00a0EUR from the pot",
}


def test_who_pays_the_pot_and_whom_it_pays_is_one_sentence_everywhere(client, db, players, tmp_path):
    """Before: "Anna zahlt der Stock 0,20 EUR" / "der Stock zahlt Anna 0,20 EUR", from the words "pays" and
    "the pot" put side by side (wrong German, and a line starting lower case)."""
    first, second = _carried_and_taken(db, players)
    for lang in ("de", "en"):
        for which, night in (("first", first), ("second", second)):
            said = SAID[lang, which]
            page = client.get(f"/nights/{night.id}/summary?lang={lang}").get_data(as_text=True)
            lines = _payments(page)
            assert sorted(lines) == [said.replace("Anna", name) for name in ("Anna", "Bernd", "Clara", "Dieter")], lines
            assert said in _share_text(page).splitlines(), (lang, which)
            pdf = client.get(f"/nights/{night.id}/summary.pdf?lang={lang}")
            assert pdf.status_code == 200
            assert " ".join(said.split()) in " ".join(pdf_text(pdf.data, tmp_path).split()), (lang, which)
            text = page_text(page)
            assert "zahlt der Stock" not in text and "der Stock zahlt" not in text
            assert "pays the pot" not in text and "the pot pays" not in text


def test_a_payment_between_players_keeps_its_names_marked_and_escaped(client, db, players):
    """A payment between two players reads "<b>x</b> zahlt Clara 0,60 EUR", both names in bold, as before; a
    name is text, on the page and in the Share text, escaped once."""
    hostile = create_player(db=db, name="<b>x</b>")
    night = create_night(
        db=db,
        game="schafkopf",
        rules=None,
        stake_cents=10,
        player_ids=[hostile.id, *(p.id for p in players[1:4])],
        first_dealer=1,
        played_on=PLAYED_ON,
    )
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL_CLARA)  # Clara and Dieter win
    page = client.get(f"/nights/{night.id}/summary?lang=de").get_data(as_text=True)
    assert re.search(r"<li><strong>&lt;b&gt;x&lt;/b&gt;</strong> zahlt <strong>(Clara|Dieter)</strong> <span", page)
    lines = _payments(page)
    assert len(lines) == 2 and all(
        re.fullmatch(r"(<b>x</b>|Bernd) zahlt (Clara|Dieter) 0,\d\d\xa0EUR", x) for x in lines
    )
    assert "<b>x</b>" not in page
    share = _share_text(page).splitlines()
    assert all(line in share for line in lines), share


def test_the_german_pdf_dates_the_night_as_german_does(client, db, players, tmp_path):
    """Before: "Kartenrunde · Schafkopf · 2026-11-27" in the footer and the title of a German PDF."""
    night = start_night(db, players, game="schafkopf", played_on=PLAYED_ON)
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    for lang, said, other in (("de", "27.11.2026", "2026-11-27"), ("en", "2026-11-27", "27.11.2026")):
        pdf = client.get(f"/nights/{night.id}/summary.pdf?lang={lang}")
        text = pdf_text(pdf.data, tmp_path)
        assert other not in text, lang
        footer = [line for line in text.splitlines() if "Schafkopf ·" in line]
        assert footer and all(said in line for line in footer), (lang, footer)
        path = tmp_path / "title.pdf"
        path.write_bytes(pdf.data)
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
        title = next(line for line in info.splitlines() if line.startswith("Title:"))
        assert title.endswith(f"· {said}") and other not in title, (lang, title)


def test_the_table_pages_title_dates_the_night_as_the_page_does(client, db, players):
    """Before: the browser's tab said "Schafkopf · 2026-11-27" on a German page."""
    night = start_night(db, players, game="schafkopf", played_on=PLAYED_ON)
    for lang, said in (("de", "27.11.2026"), ("en", "2026-11-27")):
        page = client.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True)
        title = html.unescape(re.search(r"<title>(.*?)</title>", page, re.S)[1])
        assert said in title and ("2026-11-27" if lang == "de" else "27.11.2026") not in title, (lang, title)


def test_the_rules_line_says_a_changed_option_in_running_text(client, db, players, tmp_path):
    """Before: "Regeln: nach der Regelschrift, Der Stock am Ende des Abends: …", the option's heading with its
    capital in the middle of the line (English: "rules: by the rule text, The pot at the end of the night: …")."""
    rules = {"pot_at_close": "carry", "all_pass": "none", "tariff_solo": 6}
    night = start_night(db, players, game="schafkopf", rules=rules, played_on=PLAYED_ON)
    said = {
        "de": "Regeln: nach der Regelschrift, Tarif Solo: 6, wenn alle passen: niemand zahlt, "
        "der Stock am Ende des Abends: geht in den nächsten Abend des Vereins",
        "en": "rules: by the rule text, Solo tariff: 6, when everybody passes: nothing is paid, "
        "the pot at the end of the night: carried to the club's next night",
    }
    for lang, words in said.items():
        page = client.get(f"/nights/{night.id}/summary?lang={lang}").get_data(as_text=True)
        meta = page_text(re.search(r'<p class="meta">(.*?)</p>', page, re.S)[1])
        assert meta.endswith(words), (lang, meta)
        pdf = " ".join(pdf_text(client.get(f"/nights/{night.id}/summary.pdf?lang={lang}").data, tmp_path).split())
        assert words in pdf, lang
    # the start form still shows the options as headings
    form = client.get("/nights/new?lang=de").get_data(as_text=True)
    assert "Der Stock am Ende des Abends" in form and "Wenn alle passen" in form


def test_a_player_named_pot_is_a_player_in_who_pays_whom_not_the_pot(client, db, players):
    """The pot was the name "pot" among the payments' parties: a player of that name was said to be the pot
    ("Bernd pays 0.20 EUR into the pot" for Bernd paying the player "pot"), also in the bank's list."""
    pot = create_player(db=db, name="pot")
    night = create_night(
        db=db,
        game="schafkopf",
        rules=None,
        stake_cents=10,
        player_ids=[pot.id, *(p.id for p in players[1:4])],
        first_dealer=1,
        played_on=PLAYED_ON,
    )
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL_CLARA)  # Clara and Dieter win from "pot" and Bernd
    lines = _payments(client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True))
    assert len(lines) == 2 and all(re.fullmatch(r"(pot|Bernd) pays (Clara|Dieter) 0\.\d\d\xa0EUR", x) for x in lines), (
        lines
    )
    page = page_text(client.get(f"/nights/{night.id}/summary?lang=en&bank=1").get_data(as_text=True))
    assert "into the pot" not in page and "from the pot" not in page
    assert re.search(r"\bpot pays 0\.\d\d EUR to the bank", page), page


def _bank(page: str) -> list[str]:
    """The lines of the page's bank alternative ("Or: everyone settles with the bank"), as a browser shows them."""
    match = re.search(r'<ul class="payments-list">(.*?)</ul>', page, re.S)
    assert match, "no bank alternative on the page"
    return [_words(item) for item in re.findall(r"<li>(.*?)</li>", match[1], re.S)]


def test_the_bank_alternative_is_a_sentence_a_payment_in_both_languages(client, db, players):
    """Before: "Anna → die Kasse 0,20 EUR", "die Kasse → Clara 0,20 EUR": arrows, where every payment above is a
    sentence. Clara and Dieter win a Sauspiel from Anna and Bernd: 2 units, 0.20 EUR each."""
    night = start_night(db, players, game="schafkopf", played_on=PLAYED_ON)
    record_hand(db=db, night_id=night.id, hand=SAUSPIEL_CLARA)
    said = {
        "en": [
            "Anna pays 0.20\xa0EUR to the bank",
            "Bernd pays 0.20\xa0EUR to the bank",
            "Clara gets 0.20\xa0EUR from the bank",
            "Dieter gets 0.20\xa0EUR from the bank",
        ],
        "de": [
            "Anna zahlt 0,20\xa0EUR an die Kasse",
            "Bernd zahlt 0,20\xa0EUR an die Kasse",
            "Clara bekommt 0,20\xa0EUR von der Kasse",
            "Dieter bekommt 0,20\xa0EUR von der Kasse",
        ],
    }
    for lang, lines in said.items():
        page = client.get(f"/nights/{night.id}/summary?lang={lang}&bank=1").get_data(as_text=True)
        assert _bank(page) == lines, lang
        assert "→" not in page, lang
        assert re.search(r"<li><strong>Anna</strong> (pays|zahlt) <span", page), lang  # the name in bold, as above
