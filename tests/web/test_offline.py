"""Offline (issue 15): the service worker is served from the site's root with the static files it
keeps, and the offline page speaks the page's language."""

from __future__ import annotations

import json
import re
from datetime import date

from sqlmodel import select

from scorekeeper.core.models import HandRecord
from scorekeeper.web.assets import static_urls
from scorekeeper.web.offline.routes import worker_version
from tests.support import ROOT, open_form, start_night, submit


def worker(anon) -> str:
    answer = anon.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"  # a new deploy's worker is found at once
    return answer.get_data(as_text=True)


def test_the_service_worker_keeps_every_static_file_by_its_fingerprinted_name(app, anon):
    body = worker(anon)
    assets = json.loads(re.search(r"var ASSETS = (\[.*?\]);", body).group(1))
    with app.app_context():
        assert assets == static_urls(app)
    assert "/static/style.css" not in assets and any(
        re.fullmatch(r"/static/style\.[0-9a-f]{12}\.css", a) for a in assets
    )
    for url in assets:  # every one of them is there to fetch at install
        answer = anon.get(url)
        answer.close()  # WhiteNoise answers with the open file
        assert answer.status_code == 200, url


def test_the_worker_waits_for_a_hands_answer_as_long_as_the_app_says_15_s_by_default(app, anon):
    assert "var SEND_WAIT = 15000;" in worker(anon)
    app.config["SEND_WAIT_SECONDS"] = 2
    assert "var SEND_WAIT = 2000;" in worker(anon)


def test_the_workers_version_moves_with_any_static_file_and_so_drops_the_old_caches(anon):
    body = worker(anon)
    version = json.loads(re.search(r"var VERSION = (\".*?\");", body).group(1))
    urls = json.loads(re.search(r"var ASSETS = (\[.*?\]);", body).group(1))
    assert version == worker_version(urls)
    changed = [urls[0].replace(urls[0].rsplit(".", 2)[1], "0" * 12), *urls[1:]]
    assert worker_version(changed) != version
    assert 'name.indexOf("sk-static-") === 0 && name !== STATIC' in body  # activate deletes the others


def test_the_worker_keeps_a_nights_table_page_and_hand_form_only(anon):
    kept = re.compile(re.search(r"var KEPT = /(.*)/;", worker(anon)).group(1).replace("\\/", "/"))
    assert kept.match("/nights/12") and kept.match("/nights/12/hands/new")
    for other in ("/nights/", "/nights/12/summary", "/players/", "/nights/12/hands/3/edit", "/account", "/leaderboard"):
        assert not kept.match(other), other


def test_the_offline_page_speaks_the_pages_language(anon):
    de = anon.get("/offline", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Keine Verbindung" in de and "ohne Verbindung" in de
    en = anon.get("/offline", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "No connection" in en and "Nothing was saved" not in en


def test_the_offline_page_after_a_form_sent_without_a_connection_says_nothing_was_saved(anon):
    de = anon.get("/offline?unsaved=1", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Nichts wurde gespeichert" in de
    for bad in ("2", "", "ja", "\x00"):  # anything but 1: the plain offline page
        page = anon.get("/offline", query_string={"unsaved": bad}, headers={"Accept-Language": "en"})
        assert page.status_code == 200 and "Nothing was saved" not in page.get_data(as_text=True)


def test_every_page_registers_the_worker_only_where_the_browser_allows_one():
    script = (ROOT / "static" / "app.js").read_text()
    assert 'navigator.serviceWorker.register("/sw.js")' in script and "window.isSecureContext" in script


# --- a hand kept offline and added as the next hand keeps its players (core/hands.py _same_players) ------

SAUSPIEL = {"contract": "sauspiel", "declarer": 1, "partner": 2, "suit": "gras", "points": 70}


def _stored(db, night_id: int) -> list[dict]:
    db.rollback()
    db.expire_all()
    return [
        h.data for h in db.exec(select(HandRecord).where(HandRecord.night_id == night_id).order_by(HandRecord.number))
    ]


def _night(db, players, game: str, seats: int):
    return start_night(db, players, game, seats, played_on=date(2026, 11, 21))


def _add_next(client, night_id: int, kept: dict, fields: dict, lang: str = "de"):
    """Post ``kept`` (a form of hand 1, the phone's copy) as the next hand: the count the server has now."""
    return submit(client, night_id, {**fields, "expected_hands": 1}, lang=lang, form=kept)


def test_at_a_table_of_five_a_hand_for_another_deal_is_refused_not_stored_with_other_players(client, db, players):
    night = _night(db, players, "schafkopf", 5)
    kept = open_form(client, f"/nights/{night.id}/hands/new?lang=de")  # hand 1: Anna deals and sits out
    assert kept["dealt_by"] == "1"
    assert submit(client, night.id, {**SAUSPIEL, "declarer": 3, "partner": 4}).status_code == 302  # another phone
    answer = _add_next(client, night.id, kept, SAUSPIEL)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "Dieses Spiel wurde eingetragen, als Anna gab. Als Spiel 2 gibt Bernd" in page
    assert len(_stored(db, night.id)) == 1  # nothing stored with other players
    assert "entered while Anna dealt. As hand 2, Bernd deals" in _add_next(
        client, night.id, kept, SAUSPIEL, "en"
    ).get_data(as_text=True)


def test_at_a_table_of_four_the_same_players_play_the_next_hand_and_it_lands(client, db, players):
    night = _night(db, players, "schafkopf", 4)
    kept = open_form(client, f"/nights/{night.id}/hands/new")
    assert submit(client, night.id, {**SAUSPIEL, "declarer": 3, "partner": 4}).status_code == 302
    assert _add_next(client, night.id, kept, SAUSPIEL).status_code == 302
    assert _stored(db, night.id)[1] == SAUSPIEL


def test_a_rufen_for_another_deal_is_refused_as_another_forehand_would_declare_it(client, db, players):
    """In a Rufen forehand declares (no tap): as the next hand another player would be the declarer."""
    night = _night(db, players, "matzlfangen", 4)
    kept = open_form(client, f"/nights/{night.id}/hands/new")
    rufen = {"contract": "rufen", "partner": 3, "points": 70}
    assert submit(client, night.id, rufen).status_code == 302
    assert _add_next(client, night.id, kept, rufen).status_code == 400
    durch = {"contract": "durch", "declarer": 1, "won": 1}  # the declarer named: the same players, it lands
    assert _add_next(client, night.id, kept, durch).status_code == 302
    assert [h["contract"] for h in _stored(db, night.id)] == ["rufen", "durch"]


def test_a_replay_of_a_stored_hand_is_answered_as_that_hand_whatever_its_deal(client, db, players):
    night = _night(db, players, "schafkopf", 5)
    kept = open_form(client, f"/nights/{night.id}/hands/new")
    assert submit(client, night.id, SAUSPIEL, form=kept).status_code == 302
    assert submit(client, night.id, SAUSPIEL, form=kept).status_code == 302  # the answer was lost: sent again
    assert _stored(db, night.id) == [SAUSPIEL]


def test_the_form_names_the_contracts_that_keep_the_deal(client, db, players):
    """A Rundpass where the rules deal it again keeps the deal: the form says so for its count offline."""
    redeal = start_night(db, players, "schafkopf", 4, {"all_pass": "redeal"}, played_on=date(2026, 11, 21))
    pot = _night(db, players, "schafkopf", 4)
    assert 'data-deal-stays="rundpass"' in client.get(f"/nights/{redeal.id}/hands/new").get_data(as_text=True)
    assert "data-deal-stays" not in client.get(f"/nights/{pot.id}/hands/new").get_data(as_text=True)
