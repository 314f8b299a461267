"""Random orders and random games, for self-play and tests.

Each unit's (and dislodged unit's) order is drawn from its legal orders
(``Game.get_all_possible_orders``); in a winter, builds go to free home centres as the count
allows and disbands take random units.
"""

from __future__ import annotations

import random

from spielleiter._spielleiter import Game

__all__ = ["play_random_game", "random_orders"]


def _adjustments(
    game: Game, rng: random.Random, power: str, count: int, units: list[str]
) -> list[str]:
    if count < 0:
        return [f"{u} D" for u in rng.sample(units, min(-count, len(units)))]
    sites = game.get_build_sites(power)
    orders = []
    for site in rng.sample(sites, min(count, len(sites))):
        fleet = bool(game.neighbours(site, "F")) and rng.random() < 0.4
        orders.append(f"{'F' if fleet else 'A'} {site} B")
    return orders


def random_orders(game: Game, rng: random.Random) -> dict[str, list[str]]:
    """Random orders for every power for the phase at hand: ``{power: [order, ...]}``."""
    kind = game.phase_type
    orders: dict[str, list[str]] = {}
    if kind in ("M", "R"):
        possible = game.get_all_possible_orders()
        for power, locations in game.get_orderable_locations().items():
            chosen = [rng.choice(possible[loc]) for loc in locations if possible.get(loc)]
            orders[power] = chosen
    elif kind == "A":
        for power, count in game.get_adjustment_counts().items():
            if power in game.powers:
                units = game.get_units(power)
                orders[power] = _adjustments(game, rng, power, count, units)
    return {p: o for p, o in orders.items() if o}


def play_random_game(
    variant: str = "standard", *, seed: int = 0, max_phases: int = 60, game_id: str = ""
) -> Game:
    """A game played with random orders until it ends or ``max_phases`` phases are played."""
    rng = random.Random(seed)
    game = Game(variant, game_id=game_id)
    while not game.is_game_done and game.phases_played < max_phases:
        for power, orders in random_orders(game, rng).items():
            game.set_orders(power, orders)
        game.process()
    return game
