"""Shared helpers of the package's tests."""

from __future__ import annotations

import pathlib
import random

import pytest
import spielleiter
from spielleiter.selfplay import random_orders

REPO = pathlib.Path(__file__).resolve().parents[3]


def play(game: spielleiter.Game, seed: int, phases: int, strict: bool = True) -> spielleiter.Game:
    """Plays `phases` phases of random orders. Strict: every order must be accepted; otherwise
    orders the map allows but the variant's rules refuse are left out (Hegemony's closed
    passages), at most one in five."""
    rng = random.Random(seed)
    given = refused = 0
    for _ in range(phases):
        if game.is_game_done:
            break
        for power, orders in random_orders(game, rng).items():
            refused += len(game.set_orders(power, orders, strict=strict))
            given += len(orders)
        game.process()
    assert refused * 5 <= given
    return game


@pytest.fixture
def standard() -> spielleiter.Game:
    return spielleiter.Game("standard")
