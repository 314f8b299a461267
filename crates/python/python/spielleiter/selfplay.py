"""Random orders and random games, for self-play and tests.

Orders are drawn from what the map offers: each unit holds, moves to a neighbouring place or
supports a neighbouring unit's hold; dislodged units retreat to one of their options or
disband; builds go to free home centres and disbands take random units.

TODO(legal orders): when ``Game.get_all_possible_orders()`` lands, draw each unit's order from
its list instead (:func:`random_orders` is the one place to change).
"""

from __future__ import annotations

import random

from spielleiter._spielleiter import Game

__all__ = ["play_random_game", "random_orders"]


def _province(location: str) -> str:
    return location.split("/")[0]


def _movement(
    game: Game, rng: random.Random, units: list[str], occupied: dict[str, str]
) -> list[str]:
    orders = []
    for unit in units:
        kind, location = unit.split()
        places = game.neighbours(location, kind)
        roll = rng.random()
        if places and roll < 0.7:
            orders.append(f"{unit} - {rng.choice(places)}")
            continue
        supportable = [p for p in places if _province(p) in occupied]
        if supportable and roll < 0.85:
            target = _province(rng.choice(supportable))
            orders.append(f"{unit} S {occupied[target]}")
            continue
        orders.append(f"{unit} H")
    return orders


def _retreats(rng: random.Random, options: dict[str, list[str]]) -> list[str]:
    orders = []
    for unit, places in options.items():
        if places and rng.random() < 0.8:
            orders.append(f"{unit} R {rng.choice(places)}")
        else:
            orders.append(f"{unit} D")
    return orders


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
    state = game.get_state()
    kind = game.phase_type
    units = {p: [u for u in us if not u.startswith("*")] for p, us in state["units"].items()}
    orders: dict[str, list[str]] = {}
    if kind == "M":
        occupied = {_province(u.split()[1]): u for us in units.values() for u in us}
        for power in game.powers:
            orders[power] = _movement(game, rng, units.get(power, []), occupied)
    elif kind == "R":
        for power, options in state["retreats"].items():
            if power in game.powers:
                orders[power] = _retreats(rng, options)
    elif kind == "A":
        for power, count in game.get_adjustment_counts().items():
            if power in game.powers:
                orders[power] = _adjustments(game, rng, power, count, units.get(power, []))
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
