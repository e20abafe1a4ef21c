"""One piece of code calls the core's ``enter_paper`` for the web (web/paper.py): the paper form's page and the
API's route built its call each in its own words (two keyword lists kept in step by hand)."""

from __future__ import annotations

import ast
from pathlib import Path

import scorekeeper.web
from scorekeeper.core import tournaments as tm
from tests.support import form_values
from tests.support_tournament import make_tournament

WEB = Path(scorekeeper.web.__file__).parent


def _calls(name: str) -> list[str]:
    """The places in web/ that call ``tm.<name>(...)`` (the core's tournaments module), as path:line."""
    found = []
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == name
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "tm"
            ):
                found.append(f"{path.relative_to(WEB)}:{node.lineno}")
    return found


def test_the_web_calls_the_cores_enter_paper_in_one_place():
    assert [place.split(":")[0] for place in _calls("enter_paper")] == ["paper.py"]


def test_the_form_and_the_api_give_the_core_the_same_values(client, db, monkeypatch):
    """Both routes call the core with the same keywords, the form's values as the API's."""
    t = make_tournament(db, n=8)
    tm.draw_round(db=db, tournament_id=t.id)
    seen: list[dict] = []
    real = tm.enter_paper

    def enter_paper(**given):
        seen.append(given)
        return real(**given)

    monkeypatch.setattr(tm, "enter_paper", enter_paper)
    url = f"/tournaments/{t.id}/rounds/1/tables/1/paper"
    data = form_values(client.get(url).get_data(as_text=True))
    points = {"p1": "3", "p2": "-3", "p3": "0", "p4": "0", "w1": "1", "l1": "0"}
    assert client.post(url, data=data | points).status_code == 302
    table = client.get(f"/api/v1/tournaments/{t.id}").get_json()["drawn"][0]["tables"][0]
    body = {
        "points": [3, -3, 0, 0],
        "solos": [[1, 0], None, None, None],
        "night_uid": table["night_uid"],
        "player_ids": [p["player_id"] for p in table["players"]],
        "night_version": table["night_version"],
    }
    assert client.post(f"/api/v1/tournaments/{t.id}/rounds/1/tables/1/paper", json=body).status_code == 200
    assert [sorted(given) for given in seen] == [sorted(seen[1])] * 2
    values = [{name: given[name] for name in body} for given in seen]
    assert values[1] == body
    assert values[0] == body | {"night_version": table["night_version"] - 1}  # the form's save moved it
