"""The API's night started by names: a name given twice, as written and in another case (or another
look-alike), is one person named twice, not a player missing from the roster."""

from __future__ import annotations

import pytest
from sqlalchemy import func
from sqlmodel import select

from scorekeeper.core.models import Night, Player
from scorekeeper.core.players import create_player


@pytest.fixture
def roster(db) -> dict[str, int]:
    for name in ("Anna", "Bernd", "Clara"):
        create_player(db=db, name=name)
    return {p.name: p.id for p in db.exec(select(Player))}


def start(client, names):
    return client.post(
        "/api/v1/sessions", json={"game": "matzlfangen", "stake_cents": 10, "players": names, "first_dealer": 1}
    )


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (["Anna", "Bernd", "Clara", "ANNA"], "'Anna' and 'ANNA'"),
        (["anna", "Bernd", "Clara", "ANNA"], "'anna' and 'ANNA'"),  # neither exactly: see below
        (["Zoe", "Bernd", "ZOE", "Clara"], "'ZOE' and 'Zoe'"),  # on no roster: still one name twice
        (["Аnna", "Bernd", "Clara", "Anna"], "'Anna' and 'Аnna'"),  # a Cyrillic А
    ],
)
def test_one_name_given_twice_in_another_case_is_said_so(client, db, roster, names, said):
    answer = start(client, names)

    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["field"] == "players"
    assert error["message"].startswith(
        f"{said} are one name (names that look alike name one player): a player sits at one seat"
    )
    if names[0] == "anna":  # the roster's record they both look like is named too
        assert error["message"].endswith(f" (both look like 'Anna' (id {roster['Anna']}))")
    db.rollback()
    assert db.exec(select(func.count()).select_from(Night)).one() == 0


def test_a_name_not_on_the_roster_is_still_no_player(client, roster):
    answer = start(client, ["Anna", "Bernd", "Clara", "Zoe"])

    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"] == "there is no player 'Zoe' on the roster"


def test_two_records_of_look_alike_names_stored_before_are_seated_by_their_exact_names(client, db, roster):
    db.add_all([Player(name="ölfa"), Player(name="Ölfa")])
    db.commit()

    answer = start(client, ["ölfa", "Bernd", "Ölfa", "Anna"])

    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert [p["name"] for p in answer.get_json()["players"]] == ["ölfa", "Bernd", "Ölfa", "Anna"]
