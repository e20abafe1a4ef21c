"""Issue 23.3: the game facts the pages ask the engine for: which contracts a rule set plays
(``Game.contracts``), which fields of a hand count under it (``Game.fields``), the raises it allows, and
the fixed teams' seats (``Game.teams``)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import GAMES, InvalidHand, matzlfangen, schafkopf, settle_session


def rules(game: str, **options):
    return GAMES[game].parse_rules(options)


# --- Schafkopf: an all-pass hand is a Ramsch or a Rundpass ---------------------------------------------


@pytest.mark.parametrize(("all_pass", "passed"), [("pot", "rundpass"), ("none", "rundpass"), ("redeal", "rundpass")])
def test_schafkopf_without_all_pass_ramsch_plays_a_rundpass_and_no_ramsch(all_pass, passed):
    played = GAMES["schafkopf"].contracts(rules("schafkopf", all_pass=all_pass))
    assert played == ("sauspiel", "wenz", "solo", passed)
    with pytest.raises(InvalidHand):  # the engine refuses the contract it does not offer
        settle_session("schafkopf", {"all_pass": all_pass}, [{"contract": "ramsch", "points": {}}])


def test_schafkopf_with_all_pass_ramsch_plays_a_ramsch_and_no_rundpass():
    assert GAMES["schafkopf"].contracts(rules("schafkopf", all_pass="ramsch")) == ("sauspiel", "wenz", "solo", "ramsch")
    with pytest.raises(InvalidHand):
        settle_session("schafkopf", {"all_pass": "ramsch"}, [{"contract": "rundpass"}])


@pytest.mark.parametrize("module", [schafkopf, matzlfangen])
def test_every_contract_offered_is_the_games_and_its_fields_are_the_contracts_own(module):
    game = GAMES[module.NAME]
    for preset in game.presets:
        r = game.parse_rules({"preset": preset})
        for contract in game.contracts(r):
            assert contract in game.all_contracts
            assert "contract" in game.fields(r, contract)
            assert game.fields(r, contract) <= module.ALLOWED[contract]
            assert game.fields(r, contract) <= game.fields(r)


def test_a_contract_the_rules_do_not_play_has_no_fields():
    assert GAMES["schafkopf"].fields(rules("schafkopf"), "ramsch") == frozenset()
    assert GAMES["schafkopf"].fields(rules("schafkopf", all_pass="ramsch"), "rundpass") == frozenset()


def test_the_ramsch_fields_count_only_where_a_ramsch_is_played():
    ramsch_only = {"jungfrau", "durchmarsch", "loser"}
    assert not ramsch_only & GAMES["schafkopf"].fields(rules("schafkopf", all_pass="pot"))
    assert {"jungfrau", "durchmarsch"} <= GAMES["schafkopf"].fields(rules("schafkopf", all_pass="ramsch"))


# --- Schafkopf: what the rules never pay or never play is not asked ----------------------------------


def test_runners_never_paid_laufende_max_0_are_not_asked():
    game = GAMES["schafkopf"]
    assert "laufende" in game.fields(rules("schafkopf"), "sauspiel")
    assert "laufende" not in game.fields(rules("schafkopf", laufende_max=0), "sauspiel")
    assert "laufende" not in game.fields(rules("schafkopf", preset="turnier"))


def test_a_knock_is_not_asked_where_klopfen_is_not_played():
    game = GAMES["schafkopf"]
    assert "klopfen" in game.fields(rules("schafkopf"), "solo")
    assert "klopfen" not in game.fields(rules("schafkopf", klopfen_played=False))
    with pytest.raises(InvalidHand):  # and the engine refuses one
        settle_session(
            "schafkopf", {"klopfen_played": False}, [{"contract": "wenz", "declarer": 1, "points": 70, "klopfen": 1}]
        )


def test_the_ramsch_loser_is_asked_only_where_ramsch_tie_named_lets_the_table_name_one():
    game = GAMES["schafkopf"]
    assert "loser" not in game.fields(rules("schafkopf", all_pass="ramsch"), "ramsch")
    assert "loser" in game.fields(rules("schafkopf", all_pass="ramsch", ramsch_tie="named"), "ramsch")


# --- Matzlfangen: the raises the rules allow --------------------------------------------------------


def test_raises_are_not_asked_where_max_raises_is_0():
    game = GAMES["matzlfangen"]
    assert "raises" in game.fields(rules("matzlfangen"), "rufen")
    assert "raises" not in game.fields(rules("matzlfangen", max_raises=0), "rufen")
    assert "raises" not in game.fields(rules("matzlfangen", max_raises=0))


@pytest.mark.parametrize("most", [0, 1, 4, 10])
def test_the_raises_offered_are_those_max_raises_allows(most):
    names = matzlfangen.raise_names(rules("matzlfangen", max_raises=most))
    assert names == matzlfangen.RAISE_NAMES[:most]
    if most:  # the last one offered is settled, one more is refused
        hand = {"contract": "rufen", "declarer": 1, "partner": 3, "points": 70}
        settle_session("matzlfangen", {"max_raises": most}, [{**hand, "raises": len(names)}])
        with pytest.raises(InvalidHand):
            settle_session("matzlfangen", {"max_raises": most}, [{**hand, "raises": len(names) + 1}])


def test_matzlfangen_plays_every_contract_under_any_rules():
    assert GAMES["matzlfangen"].contracts(rules("matzlfangen", max_raises=0)) == matzlfangen.CONTRACTS


# --- Konter a Matt and Matt: no contracts, every field counts ---------------------------------------


@pytest.mark.parametrize(
    ("game", "options"), [("konter_a_matt", {"stake_per_game": 0}), ("matt", {"stake_per_point": 5})]
)
def test_a_game_without_contracts_offers_none_and_asks_every_field(game, options):
    g = GAMES[game]
    assert g.contracts(rules(game, **options)) == ()
    assert g.fields(rules(game, **options)) == g.fields(rules(game))
    assert g.fields(rules(game)) >= {"points_a"} if game == "konter_a_matt" else {"mated_by", "move", "card"}


# --- Konter a Matt's teams: seats 1 and 3 are team A, 2 and 4 team B ------------------------------------


def test_konter_a_matt_teams_are_a_on_seats_1_and_3_and_b_on_seats_2_and_4():
    assert dict(GAMES["konter_a_matt"].teams) == {"A": (1, 3), "B": (2, 4)}


def test_the_teams_seats_are_those_the_engine_pays():
    game = GAMES["konter_a_matt"]
    s = settle_session("konter_a_matt", {"strokes": 1, "stake_per_game": 1}, [{"trump_team": "B", "points_a": 10}])
    winners = game.teams[s.results[0].extra["game_winner"]]
    assert [seat for seat, units in enumerate(s.totals, 1) if units > 0] == list(winners)
    assert game.facts(s.hands[0], s.results[0]).declarers == game.teams["B"]


def test_the_other_games_have_no_fixed_teams():
    assert [name for name, game in GAMES.items() if game.teams] == ["konter_a_matt"]


@pytest.mark.parametrize("all_pass", ["pot", "ramsch", "none", "redeal"])
@pytest.mark.parametrize("laufende_max", [None, 0, 5])
def test_a_tariff_lists_the_ramsch_and_runner_options_exactly_where_the_hand_form_asks_for_ramsch_and_runners(
    all_pass, laufende_max
):
    """The tariff box (applying_options) and the hand form (contracts, fields) read one fact each:
    a Ramsch played, runners paid."""
    game = GAMES["schafkopf"]
    rules = game.parse_rules({"all_pass": all_pass, "laufende_max": laufende_max})
    applying = game.applying_options(rules)
    assert ("tariff_ramsch" in applying) == ("ramsch" in game.contracts(rules)) == (all_pass == "ramsch")
    assert ("laufende_min" in applying) == ("laufende" in game.fields(rules)) == (laufende_max != 0)
    assert ("pot_stake" in applying) == (all_pass == "pot")


@pytest.mark.parametrize("name", ["matzlfangen", "konter_a_matt", "matt"])
def test_a_game_without_idle_options_lists_every_option_in_its_tariff(name):
    game = GAMES[name]
    assert game.applying_options(game.parse_rules(None)) == tuple(f.name for f in game.options())
