"""``manage.py bench tournament`` on a small tournament: every table records its deals at once
through the API under gunicorn while phones watch the standings, and the checks find nothing
lost, doubled, unclosed or unbalanced (the benchmark's figures are printed, not asserted)."""

from __future__ import annotations

import pytest

from tools import bench_tournament

pytestmark = pytest.mark.slow


def test_a_small_tournament_under_load_loses_nothing_and_every_table_closes_at_its_deals():
    result = bench_tournament.run(players=12, deals=3, watchers=3, watch_every=0.5, workers=2, threads=2)
    assert result["tables"] == 3 and result["hands"] >= 9
    assert result["errors"] == 0, result["error_samples"]
    assert result["lost"] == result["duplicates"] == 0
    assert result["tables_not_closed"] == result["tables_with_other_deals"] == 0
    assert result["tables_not_summing_to_zero"] == 0 and result["standings_sum"] == 0
    assert result["stored_results_differ"] == 0
    assert result["watch"]["count"] > 0
    assert bench_tournament.passed(result)
    assert "PASSED" in bench_tournament.report(result)
