"""The club's settings that every night and page depends on stop the start when they cannot be read, saying
which and why: a currency that is not three letters made every new night refused for its currency; a season
start that is no day (MM-DD) left no season to show."""

from __future__ import annotations

import pytest

from scorekeeper.web.app import create_app


@pytest.mark.parametrize("currency", ["EURO", "€", "E1R", ""])
def test_a_club_currency_that_is_not_three_letters_stops_the_start(tmp_path, currency):
    with pytest.raises(ValueError, match=r"SCOREKEEPER_CURRENCY.*three-letter code"):
        create_app({"INSTANCE_PATH": str(tmp_path), "CURRENCY": currency, "MIGRATE_ON_START": False})


def test_a_club_currency_in_small_letters_is_the_code_in_capitals(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path), "CURRENCY": " chf"})
    try:
        assert app.config["CURRENCY"] == "CHF"
    finally:
        app.extensions["sk_engine_close"]()


@pytest.mark.parametrize("start", ["02-29", "8/1", "13-01"])
def test_a_season_start_that_is_no_day_stops_the_start(tmp_path, start):
    with pytest.raises(ValueError, match="MM-DD"):
        create_app({"INSTANCE_PATH": str(tmp_path), "SEASON_START": start, "MIGRATE_ON_START": False})
