"""Spielleiter: a fast Diplomacy engine for Python.

A :class:`Game` of any built-in variant (``standard``, ``ancmed``, ``colonial``,
``hegemony-1689``, ``hegemony-1701``) or of a variant file, in the shape of the
``diplomacy`` package's ``Game``: ``set_orders``, ``process``, ``get_state``,
``to_saved_game_format`` / ``from_saved_game_format``; cheap ``clone()`` for search;
batch calls (:func:`process_games`, :meth:`Game.process_many`) that release the GIL.

Example::

    import spielleiter

    game = spielleiter.Game("standard")
    game.set_orders("FRANCE", ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"])
    game.set_orders("GERMANY", ["A Mun - Bur"])
    game.process()
    print(game.phase, game.get_units("FRANCE"), game.get_last_results()["A MUN"])
"""

from spielleiter._spielleiter import (
    Game,
    GameOverError,
    OrderError,
    SpielleiterError,
    StateError,
    VariantError,
    incomplete_variants,
    process_games,
    variants,
)

__all__ = [
    "Game",
    "GameOverError",
    "OrderError",
    "SpielleiterError",
    "StateError",
    "VariantError",
    "from_saved_game_format",
    "incomplete_variants",
    "process_games",
    "to_saved_game_format",
    "variants",
]


def to_saved_game_format(game: Game) -> dict:
    """The game as a saved game of the ``diplomacy`` package (a dict)."""
    return game.to_saved_game_format()


def from_saved_game_format(saved: dict | str, *, variant_toml: str | None = None) -> Game:
    """A game from a saved game (dict or JSON text) of this or the ``diplomacy`` package."""
    return Game.from_saved_game_format(saved, variant_toml=variant_toml)
