"""Two repairs of data written by older releases, whose meaning the code changed without a migration:

1. Every stored rule set complete. The app stores a night's and a tournament's rule set with every option
   written out (``rules_to_json``), and an import takes only such (core/exchange/checks.py ``rule_set``): the
   values settle the night, whatever the defaults of a later release. A rule set stored before an option
   existed lacks it (Schafkopf's ``klopfen_played``, added on 2026-11-23: every other option of the four games
   is as old as the first release), and so the club's own export was refused on import. The option missing
   gets the value the settlement reads for it (the preset's, else the option's default, as
   ``engine.rules.parse_rules`` reads it as this is written): the night settles exactly as before. The values
   are written here, not read from the engine, which may change later. The rule sets of the nights, of the
   tournaments and of the deleted nights' exports (``deleted_night.export``, imported to bring a night back)
   are completed; one of a game or preset unknown here is left as it is (``manage.py verify`` names it).

2. The result rows of the open club nights that split their pot at the close (Schafkopf, ``pot_at_close``
   split). Since 2026-11-27 an open night's rows hold no share of that pot: it is paid at the close
   (docs/rules.md, "The club's history"). Rows written before hold the share. They are removed here, and the
   app writes them again at its start from the nights' hands (``history.refresh_missing``, as after 0017).

Revision ID: 0019
Revises: 0018
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

#: Each game's options as this migration is written, in the engine's order, with their defaults.
DEFAULTS: dict[str, dict[str, Any]] = {
    "schafkopf": {
        "tariff_sauspiel": 2,
        "tariff_solo": 5,
        "extra": 1,
        "laufende_min": 3,
        "laufende_min_wenz": 2,
        "laufende_max": None,
        "kontra_shifts_threshold": True,
        "declarers_schneider_at": 29,
        "klopfen_played": True,
        "all_pass": "pot",
        "pot_stake": 2,
        "pot_at_close": "split",
        "tariff_ramsch": 2,
        "jungfrau": "double_all",
        "durchmarsch_tariff": "solo",
        "ramsch_tie": "all_lose",
    },
    "matt": {"stake_per_point": 0},
    "konter_a_matt": {
        "strokes": 11,
        "win_points": 21,
        "trump_team_penalty": True,
        "tie_penalty": 1,
        "stake_per_game": 0,
    },
    "matzlfangen": {
        "win_threshold": 66,
        "no_water_below": 30,
        "no_trick_value": 3,
        "no_water_value": 2,
        "durch_value": 6,
        "max_raises": 10,
        "matzl_bonus": 1,
        "matzl_annuls_loss": True,
    },
}

#: Each game's presets as this migration is written: the options they set apart from the defaults.
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "schafkopf": {
        "seed": {},
        "seed-variant": {"tariff_sauspiel": 1, "tariff_solo": 2, "all_pass": "none"},
        "bavarian": {
            "tariff_sauspiel": 2,
            "tariff_solo": 5,
            "kontra_shifts_threshold": False,
            "declarers_schneider_at": 30,
            "all_pass": "ramsch",
        },
        "turnier": {
            "tariff_sauspiel": 1,
            "tariff_solo": 5,
            "extra": 1,
            "laufende_max": 0,
            "all_pass": "redeal",
            "kontra_shifts_threshold": False,
            "declarers_schneider_at": 30,
            "klopfen_played": False,
        },
    },
    "matt": {"seed": {}},
    "konter_a_matt": {"seed": {}},
    "matzlfangen": {"seed": {}},
}


def completed(game: str, rules: Any) -> Any:
    """``rules`` with every option written out, each missing one as the settlement reads it (the preset's
    value, else the default); ``rules`` itself when it is complete, not an object, or of a game or preset
    unknown here."""
    if game not in DEFAULTS or not isinstance(rules, dict):
        return rules
    preset = rules.get("preset", "seed")
    if not isinstance(preset, str) or preset not in PRESETS[game]:
        return rules
    read = {**DEFAULTS[game], **PRESETS[game][preset]}
    if "preset" in rules and all(key in rules for key in read):
        return rules
    complete = {"preset": preset, **{key: rules.get(key, value) for key, value in read.items()}}
    return {**complete, **{key: value for key, value in rules.items() if key not in complete}}


def complete_rules(conn: sa.Connection) -> int:
    """Complete the rule sets of the nights, the tournaments and the deleted nights' exports; how many."""
    done = 0
    for name in ("evening", "tournament"):
        table = sa.table(name, sa.column("id"), sa.column("game"), sa.column("rules", sa.JSON))
        for row_id, game, rules in conn.execute(sa.select(table.c.id, table.c.game, table.c.rules)).all():
            complete = completed(game, rules)
            if complete is not rules:
                conn.execute(table.update().where(table.c.id == row_id).values(rules=complete))
                done += 1
    deleted = sa.table("deleted_night", sa.column("id"), sa.column("export", sa.JSON))
    for row_id, export in conn.execute(sa.select(deleted.c.id, deleted.c.export)).all():
        night = export.get("evening") if isinstance(export, dict) else None
        if not isinstance(night, dict):
            continue
        complete = completed(night.get("game"), night.get("rules"))
        if complete is not night.get("rules"):
            conn.execute(
                deleted.update()
                .where(deleted.c.id == row_id)
                .values(export={**export, "evening": {**night, "rules": complete}})
            )
            done += 1
    return done


def forget_open_split_rows(conn: sa.Connection) -> int:
    """Remove the result rows of every open club night that splits its pot at the close; how many nights."""
    night = sa.table(
        "evening",
        sa.column("id"),
        sa.column("game"),
        sa.column("status"),
        sa.column("rules", sa.JSON),
        sa.column("tournament_id"),
    )
    split = [
        night_id
        for night_id, rules in conn.execute(
            sa.select(night.c.id, night.c.rules).where(
                night.c.game == "schafkopf", night.c.status == "open", night.c.tournament_id.is_(None)
            )
        )
        if isinstance(rules, dict) and rules.get("pot_at_close", "split") == "split"
    ]
    for name in ("night_result", "contract_result"):
        rows = sa.table(name, sa.column("evening_id"))
        for start in range(0, len(split), 500):
            conn.execute(sa.delete(rows).where(rows.c.evening_id.in_(split[start : start + 500])))
    return len(split)


def upgrade() -> None:
    conn = op.get_bind()
    complete_rules(conn)
    forget_open_split_rows(conn)


def downgrade() -> None:
    pass  # the options written out are those the older code read for them; the app writes the rows again
