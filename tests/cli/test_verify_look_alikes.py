"""``verify`` names the players whose names look alike, stored by an older version before today's
rule ("Ölfa" and "ölfa", "Bernd" and Cyrillic "Вernd"): each pair with its ids, so that the club renames
or merges them (docs/using.md, "How names compare"). Its exit status stays the nights' (0: all equal)."""

from __future__ import annotations

from scorekeeper.cli import main
from scorekeeper.core.models import Player
from scorekeeper.core.players import create_player


def test_verify_names_each_pair_of_look_alike_names_with_their_ids(app, db, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", app.config["DATABASE_URL"])
    for name in ("Anna", "Bernd", "Clara"):
        create_player(db=db, name=name)
    db.add_all([Player(name="Ölfa"), Player(name="ölfa"), Player(name="Вernd")])
    db.commit()
    ids = {p.name: p.id for p in db.exec(Player.__table__.select())}

    assert main(["verify"]) == 0

    out = capsys.readouterr()
    assert "equal a fresh settle" in out.out
    assert out.err.splitlines() == [
        f"players {ids['Bernd']} 'Bernd' and {ids['Вernd']} 'Вernd': their names look alike; rename one of them "
        "or merge the two on the player's page (docs/using.md, 'How names compare')",
        f"players {ids['Ölfa']} 'Ölfa' and {ids['ölfa']} 'ölfa': their names look alike; rename one of them "
        "or merge the two on the player's page (docs/using.md, 'How names compare')",
    ]


def test_verify_says_nothing_of_names_when_none_look_alike(app, db, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", app.config["DATABASE_URL"])
    for name in ("Anna", "Anne", "Jörg", "Jorg"):
        create_player(db=db, name=name)

    assert main(["verify"]) == 0

    assert capsys.readouterr().err == ""
