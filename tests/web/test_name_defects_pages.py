"""Roster changes stored with a broken detail (a club file imported before its roster changes were
checked) show on the player's page without the broken part, never a 500, and go through the club's
file; a merge refused for two who played one tournament names it, in English and German."""

from __future__ import annotations

from datetime import date

import pytest

from scorekeeper.core import tournaments as tm
from scorekeeper.core.exchange.club_file import club_json, import_club
from scorekeeper.core.models import RosterChange
from scorekeeper.core.players import create_player, roster_changes
from tests.support import page_text

#: a stored detail with a broken part, and what the page says of the change (English, German)
BROKEN = [
    (
        "merge",
        {"kept": "Anna", "merged": "Eva", "merged_id": 7, "nights": "many"},
        "Eva merged into this record",
        "Eva mit diesem Eintrag zusammengeführt",
    ),
    ("merge", {"kept": "Anna", "merged": {"x": 1}, "nights": 3}, "another record merged into this one", None),
    ("merge", ["Eva", 2], "another record merged into this one", None),
    ("merge", {"merged": "Eva", "nights": True}, "Eva merged into this record", None),
    ("rename", {"before": {"x": 1}, "after": "Anna"}, "renamed to Anna", "umbenannt in Anna"),
    ("rename", {"before": "Anni", "after": ""}, "renamed from Anni", "umbenannt von Anni"),
    ("rename", "Anni", "renamed", "umbenannt"),
    ("retire", None, "retired", None),
    ("deleted", {}, "changed on the roster", "in der Spielerliste geändert"),
]


@pytest.mark.parametrize(("action", "detail", "english", "german"), BROKEN)
def test_a_roster_change_stored_with_a_broken_detail_shows_without_the_broken_part(
    client, db, action, detail, english, german
):
    anna = create_player(db=db, name="Anna")
    db.add(RosterChange(action=action, player_id=anna.id, detail=detail))  # as a file imported before the checks
    db.commit()

    answer = client.get(f"/players/{anna.id}?lang=en")
    assert answer.status_code == 200  # it was a 500 (a TypeError, an AttributeError)
    assert english in page_text(answer.get_data(as_text=True))
    if german is not None:
        answer = client.get(f"/players/{anna.id}?lang=de")
        assert answer.status_code == 200
        assert german in page_text(answer.get_data(as_text=True))


def test_the_club_file_of_a_database_with_broken_roster_changes_imports(db, other_db):
    anna = create_player(db=db, name="Anna")
    for action, detail, _, _ in BROKEN:
        db.add(RosterChange(action=action, player_id=anna.id, detail=detail))
    db.commit()

    import_club(db=other_db, data=club_json(db))  # it was refused: roster_changes[0].detail.nights
    other_db.commit()
    assert [(c.action, c.detail) for c in roster_changes(db=other_db)] == [
        ("merge", {"kept": "Anna", "merged": "Eva", "merged_id": 7}),
        ("merge", {"kept": "Anna", "nights": 3}),
        ("merge", {}),
        ("merge", {"merged": "Eva"}),
        ("rename", {"after": "Anna"}),
        ("rename", {"before": "Anni"}),
        ("rename", {}),
        ("retire", {}),
    ]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Sepp and Seppi both played tournament Frühjahrsturnier on 2026-03-14: they are two people"),
        ("de", "Sepp und Seppi haben beide am 14.03.2026 im Turnier Frühjahrsturnier gespielt: es sind zwei Personen"),
    ],
)
def test_a_merge_refused_for_one_tournament_names_it_and_its_day(client, db, lang, said):
    t = tm.create_tournament(
        db=db, name="Frühjahrsturnier", game="schafkopf", rules={"preset": "turnier"}, played_on=date(2026, 3, 14)
    )
    a, b = (create_player(db=db, name=n) for n in ("Sepp", "Seppi"))
    for p in (a, b):
        tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)

    answer = client.post(f"/players/{a.id}/merge?lang={lang}", data={"other": str(b.id), "confirm": "y"})

    assert answer.status_code in (200, 400)
    assert said in page_text(answer.get_data(as_text=True))


def test_the_club_file_of_names_stored_before_the_character_rules_imports_them_as_stored(db, other_db):
    """A name an older version stored with a character a person may no longer type (private use, a
    placeholder, an invisible one, a replacement or an noncharacter one) is written to the club's file
    as stored, and that file imports again: the file is a backup, and a backup its own import refuses
    cannot be restored."""
    from sqlmodel import select

    from scorekeeper.core.models import Player

    stored = ["Bob \uf8ff", "Anna\ufffc", "Eva\u200b", "Zoë", "J\ufffdrg", "Sepp\ufdd0"]
    for name in stored:
        db.add(Player(name=name))  # as an older version stored them
    db.commit()

    import_club(db=other_db, data=club_json(db))  # it was refused: players[0].name, private-use character
    other_db.commit()
    assert sorted(p.name for p in other_db.exec(select(Player))) == sorted(stored)
