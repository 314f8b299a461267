"""Legal orders compared with the Python `diplomacy` package's on the standard map.

Each movement phase of a few random games is set up in a `diplomacy.Game` with the same units,
centres and phase; both must find the same orderable locations and, per location, the same
orders. The one difference in notation: a move by convoy to a province not adjacent is listed
by us both as `A VEN - ALB` and `A VEN - ALB VIA` (our reader takes both), by the package only
with `VIA`.
"""

from __future__ import annotations

import random

import pytest
import spielleiter
from spielleiter.selfplay import random_orders

diplomacy = pytest.importorskip("diplomacy")


def twin(game: spielleiter.Game):
    """The `diplomacy` package's game at the same movement phase, units and centres."""
    other = diplomacy.Game()
    state = game.get_state()
    other.set_current_phase(game.phase)
    for power in game.powers:
        units = [u for u in state["units"].get(power, []) if not u.startswith("*")]
        other.set_units(power, units, reset=True)
        other.set_centers(power, state["centers"].get(power, []), reset=True)
    return other


def without_plain_convoy_moves(game: spielleiter.Game, orders: list[str]) -> set[str]:
    """Our orders less the plain spelling of moves to a province not adjacent, also listed with
    `VIA` (a move to an adjacent one is listed both ways by both)."""

    def plain_convoy_move(order: str) -> bool:
        words = order.split()
        if f"{order} VIA" not in orders or len(words) != 4:
            return False
        return words[3] not in game.neighbours(words[1], words[0])

    return {o for o in orders if not plain_convoy_move(o)}


def movement_phases(seed: int, phases: int):
    """The movement phases of a random game."""
    rng = random.Random(seed)
    game = spielleiter.Game("standard")
    for _ in range(phases):
        if game.is_game_done:
            return
        if game.phase_type == "M":
            yield game
        for power, orders in random_orders(game, rng).items():
            game.set_orders(power, orders)
        game.process()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_same_orders_as_the_diplomacy_package_in_every_movement_phase(seed):
    compared = 0
    for game in movement_phases(seed, 24):
        other = twin(game)
        ours, theirs = game.get_all_possible_orders(), other.get_all_possible_orders()
        for power, locations in other.get_orderable_locations().items():
            assert sorted(game.get_orderable_locations(power)) == sorted(locations), power
            for location in locations:
                mine = without_plain_convoy_moves(game, ours.get(location, []))
                assert mine == set(theirs[location]), (game.phase, location)
                compared += len(mine)
    assert compared > 1000
