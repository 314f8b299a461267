"""Clones are independent; batch calls give the same results as one call per game."""

import copy
import pickle
import random
import threading

import pytest
import spielleiter
from conftest import play
from spielleiter.selfplay import random_orders


def test_a_clone_is_independent_of_its_original(standard):
    standard.set_orders("FRANCE", ["A PAR - BUR"])
    twin = standard.clone()
    twin.set_orders("GERMANY", ["A MUN - BUR"])
    twin.process()
    assert standard.phase == "S1901M"
    assert standard.get_orders() == {"FRANCE": ["A PAR - BUR"]}
    assert standard.phases_played == 0
    assert twin.get_last_results()["A PAR"] == ["bounce"]
    standard.process()
    assert "A BUR" in standard.get_units("FRANCE")
    assert "A BUR" not in twin.get_units("FRANCE")
    assert twin.phases_played == standard.phases_played == 1


def test_clones_share_history_but_grow_apart():
    game = play(spielleiter.Game("standard"), seed=4, phases=6)
    before = game.to_saved_game_format()
    a, b = game.clone(), copy.deepcopy(game)
    play(a, seed=100, phases=3)
    play(b, seed=200, phases=1)
    assert game.to_saved_game_format() == before
    assert a.phases_played == game.phases_played + 3
    assert b.phases_played == game.phases_played + 1
    assert a.to_saved_game_format()["phases"][:6] == before["phases"][:6]
    assert copy.copy(game).get_state() == game.get_state()


def test_games_pickle(standard):
    play(standard, seed=9, phases=4)
    standard.set_orders("ITALY", ["A VEN H"], strict=False)
    again = pickle.loads(pickle.dumps(standard))
    assert again.to_saved_game_format() == standard.to_saved_game_format()


def games_with_orders(n):
    games, sets = [], []
    for i in range(n):
        game = play(spielleiter.Game("standard"), seed=i, phases=i % 5)
        games.append(game)
        sets.append(random_orders(game, random.Random(1000 + i)))
    return games, sets


@pytest.mark.parametrize("n", [3, 40])
def test_process_games_equals_one_process_per_game(n):
    games, sets = games_with_orders(n)
    expected = []
    for game, orders in zip(games, sets, strict=True):
        single = game.clone()
        for power, lines in orders.items():
            single.set_orders(power, lines)
        single.process()
        expected.append(single.to_saved_game_format())
    returned = spielleiter.process_games(games, sets)
    assert all(r is g for r, g in zip(returned, games, strict=True))
    assert [g.to_saved_game_format() for g in games] == expected


def test_process_games_with_orders_already_given():
    games, sets = games_with_orders(10)
    for game, orders in zip(games, sets, strict=True):
        for power, lines in orders.items():
            game.set_orders(power, lines)
    phases = [g.phases_played for g in games]
    spielleiter.process_games(games)
    assert [g.phases_played for g in games] == [p + 1 for p in phases]


def test_batch_errors_raise_and_change_nothing_or_stand_in_the_list():
    games, sets = games_with_orders(12)
    sets[5] = {"FRANCE": ["A Nowhere - Bur"]}
    before = [g.to_saved_game_format() for g in games]
    with pytest.raises(spielleiter.OrderError, match="Nowhere"):
        spielleiter.process_games(games, sets)
    assert [g.to_saved_game_format() for g in games] == before
    out = spielleiter.process_games(games, sets, return_exceptions=True)
    assert isinstance(out[5], spielleiter.OrderError)
    assert games[5].to_saved_game_format() == before[5]
    assert all(out[i] is games[i] for i in range(12) if i != 5)
    assert games[0].phases_played == 1
    with pytest.raises(ValueError, match="2 order sets for 12 games"):
        spielleiter.process_games(games, sets[:2])


def test_process_many_tries_order_sets_on_one_position(standard):
    sets = [{"FRANCE": [f"A PAR - {to}"]} for to in ["BUR", "PIC", "GAS", "BRE"]] * 5
    sets.append({"FRANCE": ["A PAR - XYZ"]})
    standard.set_orders("GERMANY", ["A MUN - BUR"])
    children = standard.process_many(sets, return_exceptions=True)
    assert standard.phase == "S1901M" and standard.phases_played == 0
    assert isinstance(children[-1], spielleiter.OrderError)
    where = [sorted(c.get_units("FRANCE")) for c in children[:4]]
    assert ["A PAR" in w for w in where] == [True, False, False, True]
    assert children[0].get_last_results()["A MUN"] == ["bounce"]
    assert all(c.get_units() == children[i % 4].get_units() for i, c in enumerate(children[:-1]))
    children[1].process()
    assert children[5].phase == "F1901M"
    with pytest.raises(spielleiter.OrderError):
        standard.process_many(sets)


def test_batch_calls_release_the_gil(standard):
    """Another thread runs while a long batch call adjudicates (it would not if the call held
    the GIL: the interpreter cannot switch threads inside a native call)."""
    sets = [{"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}] * 20000
    started = threading.Event()

    def batch():
        started.set()
        standard.process_many(sets)

    thread = threading.Thread(target=batch)
    thread.start()
    started.wait()
    spins = 0
    while thread.is_alive():
        spins += 1
    thread.join()
    assert spins > 1000
