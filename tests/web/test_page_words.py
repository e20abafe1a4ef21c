"""Every word a person reads is the page's word, in the page's language (issue 14, points 5, 6, 8 and 10).

The engine speaks JSON: option keys (``win_threshold``), preset keys (``bavarian``), field keys
(``declarer``), values (``'herz'``) and seat numbers. The API keeps them; the pages say what the form
shows: an option's label and hint, a preset's name, a field's label, a choice's label, a player's name.
WTForms' own messages come in German on a German page; the CSV speaks the user's language too.
"""

from __future__ import annotations

import csv
import html
import io
import re
from datetime import date

import pytest
from babel.messages.pofile import read_po
from sqlmodel import select
from wtforms.i18n import messages_path

from scorekeeper.core.hands import record_hand
from scorekeeper.core.models import Night
from scorekeeper.core.nights import create_night
from scorekeeper.engine import GAMES, Step, settle_json
from scorekeeper.web import options
from scorekeeper.web.i18n import FORM_TRANSLATIONS
from scorekeeper.web.steps import step_text
from tests.support import form_values, page_text, start_night, submit

GERMAN_SAUSPIEL = {"contract": "sauspiel", "declarer": 1, "partner": 2, "suit": "gras", "points": 70}


def visible(page: str) -> str:
    """The text a person sees: the page's words without its scripts and styles."""
    return page_text(re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S))


def errors_at(page: str, field: str) -> list[str]:
    match = re.search(rf'<ul class="errors" id="{re.escape(field)}-errors">(.*?)</ul>', page, re.S)
    return [html.unescape(e) for e in re.findall(r"<li>(.*?)</li>", match.group(1))] if match else []


def summary_messages(page: str) -> list[str]:
    """The hand form's error summary, one text per line (the field's label first, where it links to one)."""
    box = re.search(r'<div class="errors form-errors" id="error-summary"[^>]*>(.*?)</div>', page, re.S)
    return [visible(line).strip() for line in re.findall(r"<(?:li|p)>(.*?)</(?:li|p)>", box.group(1), re.S)]


def post_night(client, players, game, seats, lang="de", **fields):
    data = form_values(client.get(f"/nights/new?lang={lang}").get_data(as_text=True))
    data.update({"game": game, "start": "1", **{f"seat_{i}": str(p.id) for i, p in enumerate(players[:seats], 1)}})
    for key, value in fields.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return client.post(f"/nights/new?lang={lang}", data=data)


def only_night(db) -> Night:
    db.rollback()
    db.expire_all()
    (night,) = db.exec(select(Night)).all()
    return night


def only_night_of(db, night_id: int) -> Night:
    db.rollback()
    db.expire_all()
    return db.get(Night, night_id)


# --- 6. every option and preset has words ----------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_every_option_of_every_game_has_a_label_and_every_choice_a_label(game):
    words = options.OPTIONS[game]
    engine_options = GAMES[game].options()
    assert list(words) == [f.name for f in engine_options], "web/options.py lists the engine's options, in order"
    for f in engine_options:
        option = words[f.name]
        assert str(option.label) and str(option.label) != f.name
        assert set(option.choices) == set(f.metadata["choices"] or ()), f.name


@pytest.mark.parametrize("game", list(GAMES))
def test_every_preset_of_every_game_has_a_name_for_people(game):
    assert set(options.PRESETS[game]) == set(GAMES[game].presets)
    for key, name in options.PRESETS[game].items():
        assert str(name) and str(name) != key


def test_the_german_start_form_shows_labels_hints_and_preset_names_never_keys(client, players):
    page = client.get("/nights/new?lang=de").get_data(as_text=True)
    text = visible(page)
    for game in GAMES.values():
        for f in game.options():
            assert re.search(rf"\b{f.name}\b", text) is None, f.name
            assert f.metadata["help"] not in text, f.metadata["help"]
            for choice in f.metadata["choices"] or ():
                assert re.search(rf"(?<![\w-]){choice}(?![\w-])", text) is None or choice == "ramsch", choice
        for preset in game.presets:
            assert f">{preset}<" not in page, preset
    assert "Gewinnschwelle" in text and "Augen, die die Spieler zum Gewinnen brauchen." in text
    assert re.search(r"<option[^>]*>nach der Regelschrift</option>", page)
    assert re.search(r"<option[^>]*>Variante</option>", page) and re.search(r"<option[^>]*>bayerisch</option>", page)
    assert re.search(r"<option[^>]*>alle zahlen in den Stock</option>", page)


def test_the_english_start_form_has_its_own_words_too(client, players):
    text = visible(client.get("/nights/new?lang=en").get_data(as_text=True))
    assert "Points to win" in text and "Card points the declaring side needs to win." in text
    assert "by the rule text" in text and "Bavarian" in text and "everybody pays into the pot" in text


@pytest.mark.parametrize(
    ("lang", "preset", "words"),
    [
        ("de", "bavarian", "Regeln: bayerisch"),
        ("en", "bavarian", "rules: Bavarian"),
        ("de", "seed", "Regeln: nach"),
        ("de", "turnier", "Regeln: Turnier"),
        ("en", "turnier", "rules: tournament"),
    ],
)
def test_the_night_page_names_the_preset_for_people(client, db, players, lang, preset, words):
    night = start_night(db, players, "schafkopf", 4, {"preset": preset})
    text = visible(client.get(f"/nights/{night.id}?lang={lang}").get_data(as_text=True))
    assert words in text
    assert preset not in text.split()


def test_the_rule_changes_are_said_against_the_preset_in_the_pages_words(app):
    rules = {"preset": "bavarian", "tariff_solo": 5, "tariff_sauspiel": 3, "all_pass": "none", "laufende_max": 4}
    with app.test_request_context("/?lang=de"):
        assert options.rule_changes("schafkopf", rules) == [
            ("Tarif Sauspiel", "3"),
            ("Laufende höchstens", "4"),
            ("wenn alle passen", "niemand zahlt"),  # in running text: "Regeln: bayerisch, …, wenn alle passen: …"
        ]
        assert options.value_text("matzlfangen", "matzl_annuls_loss", False) == "nein"


def test_every_option_reads_small_in_running_text_unless_it_starts_with_a_game_term(app):
    """The rules line joins the changed options after "rules: …": each label as it reads mid-sentence, never a
    heading's capital ("rules: by the rule text, The pot at the end of the night: …"); the headings stay."""
    game_terms = {"Matzl", "Sauspiel", "Solo", "Ramsch", "Stänner"}
    with app.test_request_context("/?lang=en"):
        for game, words in options.OPTIONS.items():
            for name, option in words.items():
                said = option.label_in_text
                assert said[0].islower() or said[0].isdigit() or said.split()[0] in game_terms, (game, name, said)
                assert str(option.label)[0].isupper() or str(option.label)[0].isdigit(), (game, name)
                if option.in_text is not None:  # the same words but where the heading's capital is rephrased
                    assert said.lower() == str(option.label).lower() or name == "kontra_shifts_threshold", said
    with app.test_request_context("/?lang=de"):
        assert options.option("schafkopf", "pot_at_close").label_in_text == "der Stock am Ende des Abends"
        assert options.option("schafkopf", "kontra_shifts_threshold").label_in_text == "nach Kontra gewinnen 60"
        assert options.option("schafkopf", "laufende_max").label_in_text == "Laufende höchstens"  # a noun
        assert str(options.option("schafkopf", "pot_at_close").label) == "Der Stock am Ende des Abends"


def test_the_tournament_options_have_german_words_knocking_redeal_and_runners_never_paid(app):
    # issue 16: the bavarian rules changed towards a tournament's, said in the page's words
    rules = {"preset": "bavarian", "laufende_max": 0, "klopfen_played": False, "all_pass": "redeal"}
    with app.test_request_context("/?lang=de"):
        assert options.rule_changes("schafkopf", rules) == [
            ("Laufende höchstens", "0"),
            ("Klopfen erlaubt", "nein"),
            ("wenn alle passen", "es wird neu gegeben"),
        ]
        assert options.preset_name("schafkopf", "turnier") == "Turnier"
        assert str(options.option("schafkopf", "laufende_max").hint).endswith("0: Laufende zählen nie.")


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("de", "Rundpass: derselbe Geber gibt neu, das Spiel zählt nicht"),
        ("en", "Rundpass (everybody passed): the same dealer deals again, the deal does not count"),
    ],
)
def test_a_redeal_step_says_the_same_dealer_deals_again_in_the_pages_language(app, lang, sentence):
    out = settle_json({"game": "schafkopf", "rules": {"preset": "turnier"}, "hands": [{"contract": "rundpass"}]})
    with app.test_request_context(f"/?lang={lang}"):
        assert step_text(Step.from_json(out["hands"][0]["steps"][0])) == sentence


# --- 5. the start form's refusals ------------------------------------------------------------------


def test_a_refused_option_is_named_by_its_label_in_german(client, db, players):
    page = post_night(client, players, "matzlfangen", 4, matzlfangen__win_threshold="500").get_data(as_text=True)
    assert errors_at(page, "matzlfangen__win_threshold") == ["Gewinnschwelle: muss zwischen 1 und 130 liegen."]


def test_a_game_in_a_refusal_is_named_by_its_name(client, db, players):
    page = post_night(client, players, "konter_a_matt", 3).get_data(as_text=True)
    assert errors_at(page, "seat_1") == ["Konter a Matt wird zu 4 gespielt, nicht zu 3"]


@pytest.mark.parametrize(
    ("lang", "message"),
    [("de", "Das Feld muss genau 3 Zeichen lang sein."), ("en", "Field must be exactly 3 characters long.")],
)
def test_wtforms_own_messages_are_in_the_pages_language(client, db, players, lang, message):
    page = post_night(client, players, "matzlfangen", 4, lang=lang, currency="EU").get_data(as_text=True)
    assert errors_at(page, "currency") == [message]


def test_every_message_of_wtforms_has_german(app):
    """WTForms' German catalog lacks some of its messages: the app's catalog has them (web/i18n.py)."""
    with open(f"{messages_path()}/wtforms.pot", "rb") as f:
        messages = [m for m in read_po(f) if m.id]
    with app.test_request_context("/?lang=de"):
        for m in messages:
            if isinstance(m.id, tuple):
                said = FORM_TRANSLATIONS.ngettext(m.id[0], m.id[1], 3)
                assert said not in m.id, m.id
            else:
                assert FORM_TRANSLATIONS.gettext(m.id) != m.id, m.id


# --- 5. the hand form's refusals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "seats", "rules", "fields", "german", "english"),
    [
        (
            "schafkopf",
            4,
            None,
            {"contract": "solo", "declarer": 1, "solo_suit": "pik", "points": 70},
            "Farbe des Solos: eines von Eichel, Gras, Herz, Schellen wählen, nicht 'pik'.",
            "Solo suit: choose one of Eichel, Gras, Herz, Schellen, not 'pik'.",
        ),
        (
            "schafkopf",
            4,
            None,
            {**GERMAN_SAUSPIEL, "re": "y"},
            "Re gibt es nur nach Kontra.",
            "Re only after Kontra.",
        ),
        (
            "schafkopf",
            4,
            {"all_pass": "ramsch", "ramsch_tie": "named"},
            {"contract": "ramsch", "ramsch_1": 60, "ramsch_2": 60, "ramsch_3": 0, "ramsch_4": 0},
            "Verlierer bei Gleichstand: Anna, Bernd haben gleich viele Augen, die meisten: "
            "bitte den Verlierer angeben.",
            "Loser of the tie: Anna, Bernd tie for most points: name the loser.",
        ),
        (
            "schafkopf",
            4,
            {"all_pass": "ramsch"},
            {"contract": "ramsch", "ramsch_1": 30, "ramsch_2": 30, "ramsch_3": 30, "ramsch_4": 30, "jungfrau_3": "y"},
            "Clara hat keinen Stich, kann also keine 30 Augen haben.",
            "Clara took no trick, so cannot have 30 points.",
        ),
        (
            "matzlfangen",
            4,
            None,
            {"contract": "rufen", "partner": 3, "points": 70, "matzl": "xx"},
            "Matzl gefangen von: eines von niemand, Spieler, Gegenspieler wählen, nicht 'xx'.",
            "Matzl caught by: choose one of nobody, declarers, defenders, not 'xx'.",
        ),
        (
            "matt",
            2,
            None,
            {"mated_by": None, "move": 3, "card": "A"},
            "Matt gesetzt von: Wähle, wer Matt gesetzt hat, oder unentschieden.",
            "Mate given by: Choose who gave mate, or a draw.",
        ),
    ],
)
def test_a_refused_hand_is_said_in_the_words_of_the_form(
    client, db, players, game, seats, rules, fields, german, english
):
    night = start_night(db, players, game, seats, rules)
    for lang, expected in (("de", german), ("en", english)):
        answer = submit(client, night.id, fields, lang=lang)
        assert answer.status_code == 400
        assert summary_messages(answer.get_data(as_text=True)) == [expected]


@pytest.mark.parametrize(
    ("game", "fields", "field", "labels"),
    [
        (
            "matzlfangen",
            {"contract": "rufen", "partner": 3, "points": 70, "matzl": "xx"},
            "matzl",
            ("Matzl caught by", "Matzl gefangen von"),
        ),
        (
            "konter_a_matt",
            {"trump_team": "C", "points_a": 25},
            "trump_team",
            ("Trumps chosen by", "Trumpf bestimmt von"),
        ),
    ],
)
def test_a_refused_choice_says_its_label_apart_so_a_label_ending_in_by_reads_right(
    client, db, players, game, fields, field, labels
):
    """Issue 26.4: "Matzl caught by must be one of ..." is no sentence: the label comes first, apart."""
    night = start_night(db, players, game, 4)
    for lang, label, choose in (("en", labels[0], "choose one of"), ("de", labels[1], "eines von")):
        (said,) = errors_at(submit(client, night.id, fields, lang=lang).get_data(as_text=True), field)
        assert said.startswith(f"{label}: {choose} ") and said.endswith("."), said
        assert f"{label} must" not in said and f"{label} muss" not in said


#: What the engine's messages name that no page shows: keys, JSON's null, contracts and suits by their keys
#: (the pages write them capitalized), seats by number; on a German page the English keys declarer and partner.
ENGINE_WORDS = re.compile(
    r"\b(mated_by|trump_team|points_a|solo_suit|all_pass|ramsch_tie|null|rufen|treiben|durch|sauspiel|wenz|solo|"
    r"ramsch|rundpass|eichel|gras|herz|schellen)\b|\b(seat|seats|Platz|Plätze) \d"
)
GERMAN_ENGINE_WORDS = re.compile(r"\b(declarer|partner)\b")


@pytest.mark.parametrize(
    ("game", "seats", "rules", "hands"),
    [
        (
            "matzlfangen",
            4,
            None,
            [
                {"contract": "rufen", "partner": None, "points": 70},
                {"contract": "rufen", "partner": 2, "points": 70},  # forehand (seat 2) as its own partner
                {"contract": "treiben", "declarer": None, "points": 70},
                {"contract": "treiben", "declarer": 2, "points": 130, "schwarz": "y", "matzl": "defenders"},
                {"contract": "durch", "declarer": 2, "won": None},
            ],
        ),
        (
            "schafkopf",
            4,
            {"all_pass": "ramsch", "ramsch_tie": "named"},
            [
                {"contract": "sauspiel", "declarer": 1, "partner": None, "suit": "gras", "points": 70},
                {"contract": "sauspiel", "declarer": 1, "partner": 1, "suit": "gras", "points": 70},
                {"contract": "sauspiel", "declarer": 1, "partner": 2, "suit": None, "points": 70},
                {"contract": "sauspiel", "declarer": 1, "partner": 2, "suit": "herz", "points": 70},
                {"contract": "wenz", "declarer": 1, "points": 70, "laufende": 7},
                {"contract": "solo", "declarer": 1, "points": 70},
                {"contract": "ramsch", "ramsch_1": 60, "ramsch_2": 60, "ramsch_3": 0, "ramsch_4": 0, "loser": 3},
                {"contract": "ramsch", "durchmarsch": 1, "ramsch_1": 100, "ramsch_2": 20},
            ],
        ),
        ("konter_a_matt", 4, None, [{"trump_team": None, "points_a": 20}, {"trump_team": "A", "points_a": None}]),
        (
            "matt",
            2,
            None,
            [{"mated_by": 1, "move": None, "card": "A"}, {"mated_by": 1, "move": 10, "card": "A", "vorablegen": 2}],
        ),
    ],
)
def test_no_refusal_of_a_hand_form_names_a_key_a_json_value_or_a_seat_number(
    client, db, players, game, seats, rules, hands
):
    night = start_night(db, players, game, seats, rules)
    for lang in ("de", "en"):
        for fields in hands:
            answer = submit(client, night.id, fields, lang=lang)
            assert answer.status_code == 400, fields
            for said in summary_messages(answer.get_data(as_text=True)):
                assert ENGINE_WORDS.search(said) is None, said
                assert lang == "en" or GERMAN_ENGINE_WORDS.search(said) is None, said


# --- 8. Matt's card Q is a Dame -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "cards"), [("de", ["Ass", "10", "König", "Dame", "7"]), ("en", ["Ace", "10", "King", "Queen", "7"])]
)
def test_the_matt_forms_cards_are_named_in_the_pages_language(client, db, players, lang, cards):
    night = start_night(db, players, "matt", 2)
    page = client.get(f"/nights/{night.id}/hands/new?lang={lang}").get_data(as_text=True)
    group = re.search(r'id="card-group">(.*?)</fieldset>', page, re.S).group(1)
    assert re.findall(r'<label for="card-\d+">(.*?)</label>', group) == cards
    assert re.findall(r'name="card"[^>]*value="([^"]+)"', group) == ["A", "10", "K", "Q", "7"]


# --- 8. the CSV ----------------------------------------------------------------------------------------


def csv_rows(answer) -> list[list[str]]:
    body = answer.get_data()
    assert body.startswith("\ufeff".encode()), "a spreadsheet reads UTF-8 when the file starts with a BOM"
    text = body.decode("utf-8-sig")
    delimiter = ";" if answer.request.args.get("lang") == "de" else ","  # a German spreadsheet's (issue 26.4)
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def test_the_csv_speaks_german_with_a_bom_and_says_each_hand_as_its_row_does(client, db, players):
    night = create_night(
        db=db,
        game="schafkopf",
        rules=None,
        stake_cents=10,
        player_ids=[p.id for p in players[:4]],
        first_dealer=1,
        played_on=date(2026, 11, 21),
    )
    record_hand(db=db, night_id=night.id, hand=GERMAN_SAUSPIEL)
    record_hand(db=db, night_id=night.id, hand={"contract": "rundpass"})
    answer = client.get(f"/nights/{night.id}/export.csv?lang=de")
    assert answer.mimetype == "text/csv" and answer.mimetype_params.get("charset") == "utf-8"
    rows = csv_rows(answer)
    assert rows[0] == [
        "Spiel",
        "Geber",
        "Ergebnis",
        "Gespielt von",
        "Besonderheiten",
        "Wert",
        "Anna",
        "Bernd",
        "Clara",
        "Dieter",
        "Stock",
    ]
    assert rows[1][2].startswith("Sauspiel") and rows[1][3] == "Anna + Bernd"
    # each hand's text is its row's first step on the table page (web/steps.py)
    table = visible(client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True))
    assert rows[1][2] in table and rows[2][2] in table


def test_the_csv_speaks_english_on_an_english_page(client, db, night):
    record_hand(db=db, night_id=night.id, hand={"contract": "rufen", "partner": 3, "points": 70})
    rows = csv_rows(client.get(f"/nights/{night.id}/export.csv?lang=en"))
    assert rows[0][:6] == ["Hand", "Dealer", "Result", "Played by", "Marks", "Value"]
    assert rows[1][2].startswith("Rufen won with 70")


def test_a_konter_a_matt_csv_names_the_partie(client, db, players):
    night = start_night(db, players, "konter_a_matt", 4)
    record_hand(db=db, night_id=night.id, hand={"trump_team": "A", "points_a": 25})
    rows = csv_rows(client.get(f"/nights/{night.id}/export.csv?lang=de"))
    assert rows[0][0] == "Partie"
    assert "25" in rows[1][2]


# --- 10. the stake per unit is asked only where the rules pay money ----------------------------------


@pytest.mark.parametrize(
    ("game", "seats", "option"), [("konter_a_matt", 4, "stake_per_game"), ("matt", 2, "stake_per_point")]
)
def test_a_night_that_never_pays_money_is_started_without_a_stake(client, db, players, game, seats, option):
    answer = post_night(client, players, game, seats, stake="")
    assert answer.status_code == 302
    night = only_night(db)
    assert night.rules[option] == 0 and night.stake_cents == 0
    text = visible(client.get(f"/nights/{night.id}?lang=de").get_data(as_text=True))
    assert "Einsatz" not in text


@pytest.mark.parametrize(
    ("game", "seats", "option"), [("konter_a_matt", 4, "stake_per_game"), ("matt", 2, "stake_per_point")]
)
def test_a_stake_per_unit_typed_for_a_night_without_money_is_kept_if_it_is_one(
    client, db, players, game, seats, option
):
    assert post_night(client, players, game, seats, stake="abc").status_code == 302
    assert only_night(db).stake_cents == 0
    assert post_night(client, players, game, seats, stake="0,20").status_code == 302
    assert only_night_of(db, 2).stake_cents == 20


@pytest.mark.parametrize(
    ("game", "seats", "option"), [("konter_a_matt", 4, "stake_per_game"), ("matt", 2, "stake_per_point")]
)
def test_a_night_that_pays_money_asks_for_the_stake(client, db, players, game, seats, option):
    answer = post_night(client, players, game, seats, stake="", **{f"{game}__{option}": "2"})
    assert answer.status_code == 400
    assert errors_at(answer.get_data(as_text=True), "stake") == ["Den Einsatz als Betrag angeben, z. B. 0,10"]
    assert post_night(client, players, game, seats, stake="0,50", **{f"{game}__{option}": "2"}).status_code == 302
    assert only_night(db).stake_cents == 50


@pytest.mark.parametrize(("game", "seats"), [("matzlfangen", 4), ("schafkopf", 4)])
def test_the_games_that_always_pay_always_ask_for_the_stake(client, db, players, game, seats):
    answer = post_night(client, players, game, seats, stake="")
    assert answer.status_code == 400
    assert errors_at(answer.get_data(as_text=True), "stake") == ["Den Einsatz als Betrag angeben, z. B. 0,10"]


def test_the_start_form_says_without_javascript_when_the_stake_is_needed(client, players):
    page = client.get("/nights/new?lang=de").get_data(as_text=True)
    hints = re.findall(r'<small class="hint" data-game-hint="(\w+)">(.*?)</small>', page)
    assert hints == [
        (
            "konter_a_matt",
            "Konter a Matt: nur nötig, wenn „Einheiten pro Spiel“ über 0 liegt.",
        ),
        ("matt", "Matt: nur nötig, wenn „Einheiten pro Punkt“ über 0 liegt."),
    ]
    # the script hides the stake where the option says 0 (static/night.js)
    assert 'data-money-options="{' in page and 'id="stake-field"' in page
