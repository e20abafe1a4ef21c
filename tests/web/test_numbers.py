"""Issue 22.5: every number a form takes is read by the one reader (core/numbers.py): digits that only
look like 0-9 (Arabic-Indic, full-width), underscores, a plus or an exponent are refused at their
field with the page's message, in the page's language, and nothing is stored."""

from __future__ import annotations

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.players import create_player
from tests.support import RUFEN_HIRSCH, field_errors, fill, form_values, open_form, snapshot, start_night

NOT_WHOLE = ["١٠", "۱۰", "１０", "1_0", "+10", "10.0", "1e1", "²"]
NOT_MONEY = ["١٠", "١,٥٠", "1_0", "1_0,00", "１０", "+10", "1,2,3", "1e1"]
INTEGER_DE = "Keine gültige, ganze Zahl."


def _tournament(db, n=8):
    t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, deals=32, seed="s")
    for i in range(n):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=create_player(db=db, name=f"Spieler {i + 1}").id)
    return t


def _night_form(client, players, **changes):
    data = form_values(client.get("/nights/new").get_data(as_text=True))
    data.update({"game": "schafkopf", "start": "1", **{f"seat_{i}": str(p.id) for i, p in enumerate(players, 1)}})
    return "/nights/new", {**data, **changes}


def _tournament_form(client, **changes):
    data = form_values(client.get("/tournaments/new").get_data(as_text=True))
    data.update({"name": "Preisschafkopf", "game": "schafkopf", "rounds": "2", "deals": "4", "entry_fee": "10"})
    return "/tournaments/new", {**data, "prizes": "100; 50", **changes}


def _rules_form(client, tournament_id, **changes):
    path = f"/tournaments/{tournament_id}/rules"
    return path, {**form_values(client.get(path).get_data(as_text=True)), **changes}


def _paper_form(client, tournament_id, **changes):
    client.post(f"/tournaments/{tournament_id}/draw")
    path = f"/tournaments/{tournament_id}/rounds/1/tables/1/paper"
    return path, {"p1": "10", "p2": "-5", "p3": "-5", "p4": "0", **changes}


def _hand_form(client, night_id, **changes):
    path = f"/nights/{night_id}/hands/new"
    return path, {**fill(open_form(client, path), RUFEN_HIRSCH), "action": "save", **changes}


#: every number a page's form takes: (what, field, the bad values, the page's German message at the field)
FIELDS = [
    ("night", "stake", NOT_MONEY, "Den Einsatz als Betrag angeben, z. B. 0,10"),
    ("night", "schafkopf__tariff_solo", NOT_WHOLE, INTEGER_DE),
    ("tournament", "rounds", NOT_WHOLE, INTEGER_DE),
    ("tournament", "deals", NOT_WHOLE, INTEGER_DE),
    ("tournament", "entry_fee", NOT_MONEY, "Gib das Startgeld als Betrag ein, etwa 10,00"),
    ("tournament", "prizes", NOT_MONEY, "Gib die Preise als Beträge"),
    ("tournament", "schafkopf__tariff_solo", NOT_WHOLE, INTEGER_DE),
    ("rules", "schafkopf__tariff_solo", NOT_WHOLE, INTEGER_DE),
    ("paper", "p2", NOT_WHOLE, INTEGER_DE),
    ("hand", "points", NOT_WHOLE, INTEGER_DE),
]


@pytest.mark.parametrize(
    ("form", "field", "bad", "said"),
    [(form, field, bad, said) for form, field, values, said in FIELDS for bad in values],
)
def test_a_number_that_only_looks_like_one_is_refused_at_its_field_and_nothing_is_stored(
    client, db, players, form, field, bad, said
):
    if form == "night":
        path, data = _night_form(client, players[:4], **{field: bad})
    elif form == "tournament":
        path, data = _tournament_form(client, **{field: bad})
    elif form == "hand":
        path, data = _hand_form(client, start_night(db, players).id, **{field: bad})
    else:
        t = _tournament(db)
        path, data = (_rules_form if form == "rules" else _paper_form)(client, t.id, **{field: bad})
    before = snapshot(db)
    answer = client.post(f"{path}?lang=de", data=data)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400, f"{field}={bad!r} was taken"
    assert said in field_errors(page, field)
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("form", "field", "good"),
    [
        ("night", "stake", " 0,20 "),
        ("tournament", "rounds", " 3"),
        ("tournament", "entry_fee", "12.5"),
        ("paper", "p2", "-5"),
    ],
)
def test_numbers_as_people_type_them_are_still_read(client, db, players, form, field, good):
    if form == "night":
        path, data = _night_form(client, players[:4], **{field: good})
    elif form == "tournament":
        path, data = _tournament_form(client, **{field: good})
    else:
        path, data = _paper_form(client, _tournament(db).id, **{field: good})
    assert client.post(path, data=data).status_code == 302
