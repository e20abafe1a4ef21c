"""Issue 26.2: one save shows every problem of the hand, each at its field, with the summary at the top (the
engine reports all the problems it finds); a Ramsch's points are refused under one label; a refused stale
form says which hand it will now record; messages begin with a capital letter."""

from __future__ import annotations

from datetime import date

from scorekeeper.core.hands import record_hand
from scorekeeper.core.table import load_table
from scorekeeper.engine import InvalidHand, get_game
from tests.support import fill, open_form, page_text, start_night, submit
from tests.web.test_hand_form_refusals import links, summary


def test_the_engine_reports_every_problem_of_a_hand_not_the_first():
    game = get_game("schafkopf")
    try:
        game.parse_hand({"contract": "sauspiel", "declarer": 1, "points": 130}, 0, game.parse_rules(None))
    except InvalidHand as exc:
        assert [(p.field, p.message) for p in exc.problems] == [
            ("suit", "suit is required"),
            ("partner", "partner is required"),
            ("points", "points must be between 0 and 120"),
        ]
        assert exc.field == "suit"  # the API and the command line still name the first
    else:
        raise AssertionError("refused")


def test_a_sauspiel_without_partner_or_suit_and_130_points_shows_all_three_problems_at_one_save(client, db, players):
    night = start_night(db, players, "schafkopf", played_on=date(2026, 11, 21))
    answer = submit(client, night.id, {"contract": "sauspiel", "declarer": 1, "points": 130}, lang="de")
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert [target for target, _ in links(summary(page))] == ["partner-group", "suit-group", "points"]
    for field in ("partner", "suit", "points"):
        assert f'id="{field}-errors"' in page  # each at its field too


def test_a_konter_a_matt_and_a_matt_hand_show_every_problem_too(client, db, players):
    konter = start_night(db, players, "konter_a_matt")
    page = submit(client, konter.id, {"points_a": 50}).get_data(as_text=True)
    assert [target for target, _ in links(summary(page))] == ["trump_team-group", "points_a"]
    matt = start_night(db, players, "matt", 2)
    page = submit(client, matt.id, {"mated_by": 1, "uebermatt": "y"}).get_data(as_text=True)
    assert [target for target, _ in links(summary(page))] == ["move-group", "card-group"]


def test_a_refused_stale_form_says_which_hand_it_will_now_record_and_records_it_so(client, db, night):
    durch = {"contract": "durch", "declarer": 3, "won": "1"}  # the same players whoever deals (a table of four)
    mine = fill(open_form(client, f"/nights/{night.id}/hands/new?lang=de"), durch)
    record_hand(db=db, night_id=night.id, hand={"contract": "durch", "declarer": 1, "won": True})
    answer = client.post(f"/nights/{night.id}/hands/new?lang=de", data={**mine, "action": "save"})
    assert answer.status_code == 409
    said = page_text(summary(answer.get_data(as_text=True)))
    assert "Ein anderes Handy hat inzwischen ein Spiel eingetragen" in said
    assert "Erneut gespeichert, wird es als Spiel 2 eingetragen." in said
    again = open_form_from(answer.get_data(as_text=True))
    assert again["expected_hands"] == "1"
    assert client.post(f"/nights/{night.id}/hands/new?lang=de", data={**again, "action": "save"}).status_code == 302
    assert [h.data["contract"] for h in load_table(db=db, night_id=night.id).hands] == ["durch", "durch"]


def open_form_from(page: str) -> dict[str, str]:
    from tests.support import form_values

    return form_values(page)
