"""Saved games in the JSON of the `diplomacy` package: read its games, replay them with the same
results, and write games it reads."""

import json
import random

import pytest
import spielleiter
from conftest import play
from diplomacy import Game as DiplomacyGame
from diplomacy.utils.export import from_saved_game_format, to_saved_game_format


def _adjustment_orders(game, power, rng, possible):
    """Exactly as many builds or disbands as the power owes."""
    count = len(game.get_centers(power)) - len(game.get_units(power))
    locations = game.get_orderable_locations(power)
    if count == 0 or not locations:
        return []
    wanted = "B" if count > 0 else "D"
    picks = []
    for loc in rng.sample(locations, len(locations)):
        options = [o for o in possible[loc] if o.endswith(" " + wanted)]
        if options:
            picks.append(rng.choice(options))
        if len(picks) == abs(count):
            break
    return picks


def diplomacy_random_game(seed, phases):
    """A game of the `diplomacy` package with random legal orders (no convoys)."""
    rng = random.Random(seed)
    game = DiplomacyGame()
    for _ in range(phases):
        possible = game.get_all_possible_orders()
        for power in game.powers:
            if game.phase_type == "A":
                orders = _adjustment_orders(game, power, rng, possible)
            else:
                orders = []
                for loc in game.get_orderable_locations(power):
                    options = [o for o in possible[loc] if " C " not in o and "VIA" not in o]
                    if options:
                        orders.append(rng.choice(options))
            game.set_orders(power, orders)
        game.process()
    return game


def units_and_centres(state):
    units = {p: sorted(us) for p, us in state["units"].items() if us}
    centres = {p: sorted(cs) for p, cs in state["centers"].items() if cs}
    return units, centres


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_diplomacy_saved_game_is_read_and_replayed_with_the_same_states(seed):
    reference = diplomacy_random_game(seed, phases=24)
    saved = to_saved_game_format(reference)
    loaded = spielleiter.Game.from_saved_game_format(json.dumps(saved))
    assert loaded.phase == reference.get_current_phase()
    assert loaded.phases_played == len(saved["phases"]) - 1
    assert units_and_centres(loaded.get_state()) == units_and_centres(reference.get_state())

    replay = spielleiter.Game("standard")
    for played, following in zip(saved["phases"], saved["phases"][1:], strict=False):
        assert replay.phase == played["name"]
        for power, orders in played["orders"].items():
            replay.set_orders(power, orders or [])
        replay.process()
        assert replay.phase == following["name"]
        assert units_and_centres(replay.get_state()) == units_and_centres(following["state"])
        for unit, codes in played["results"].items():
            if "dislodged" in codes:
                assert "dislodged" in replay.get_last_results().get(unit, []), unit


def test_our_saved_games_are_read_by_the_diplomacy_package_and_played_on():
    game = play(spielleiter.Game("standard"), seed=11, phases=15)
    saved = game.to_saved_game_format()
    json.dumps(saved)
    theirs = from_saved_game_format(saved)
    assert theirs.get_current_phase() == game.phase
    assert units_and_centres(theirs.get_state()) == units_and_centres(game.get_state())
    history = theirs.get_phase_history()
    assert [p.name for p in history] == [p["name"] for p in saved["phases"][:-1]]
    # The diplomacy package plays on from our position, and we agree on the next phase.
    theirs.process()
    game.process()
    assert units_and_centres(theirs.get_state()) == units_and_centres(game.get_state())


def test_round_trip_keeps_history_orders_results_and_the_orders_given():
    game = play(spielleiter.Game("standard"), seed=5, phases=9)
    game.set_orders("FRANCE", ["A PAR H"], strict=False)
    again = spielleiter.Game.from_saved_game_format(game.to_saved_game_format())
    assert again.to_saved_game_format() == game.to_saved_game_format()
    assert again.get_last_results() == game.get_last_results()
    assert again.get_last_orders() == game.get_last_orders()
    assert spielleiter.to_saved_game_format(again) == game.to_saved_game_format()
    assert spielleiter.from_saved_game_format(game.to_json()).get_state() == game.get_state()


def test_a_finished_game_round_trips_as_finished():
    game = spielleiter.Game.from_state(
        {
            "phase": "F1901M",
            "units": {"ITALY": ["A ROM"]},
            "centers": {
                "ITALY": ["ROM", "NAP", "VEN", "TUN", "GRE", "SER", "BUL", "RUM", "CON"]
                + ["ANK", "SMY", "SEV", "BUD", "VIE", "TRI", "MUN", "MAR", "SPA"]
            },
        }
    )
    game.process()
    saved = game.to_saved_game_format()
    assert saved["phases"][-1]["name"] == "COMPLETED"
    again = spielleiter.Game.from_saved_game_format(saved)
    assert again.is_game_done and again.winner == "ITALY"
