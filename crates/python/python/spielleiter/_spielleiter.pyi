"""Type stubs of the extension module ``spielleiter._spielleiter``."""

from typing import Any, Literal, TypedDict

class Refusal(TypedDict):
    """An order line the engine refused (``set_orders(..., strict=False)``)."""

    order: str
    error: str
    position: int
    suggestion: str | None

class GameResult(TypedDict):
    """How a game ended."""

    kind: Literal["victory", "draw", "concession", "shared victory"]
    powers: list[str]

Order = str | dict[str, Any]
"""An order: text in any notation the engine reads, or a structured order such as
``{"type": "move", "unit": "A PAR", "to": "BUR"}`` (types ``hold``, ``move``, ``support``,
``convoy``, ``retreat``, ``disband``, ``build``, ``waive``; fields ``unit``, ``to``,
``target``, ``via_convoy``)."""

Orders = str | list[Order] | tuple[Order, ...]
OrderSet = dict[str, Orders]

class SpielleiterError(ValueError):
    """Base of the package's errors; the message is the engine's."""

class VariantError(SpielleiterError):
    """A variant that is not built in, or variant data that does not load."""

class StateError(SpielleiterError):
    """A game state or saved game that does not fit the variant."""

class OrderError(SpielleiterError):
    """An order line the engine refused."""

    order: str
    power: str
    reason: str
    position: int
    suggestion: str | None

class GameOverError(SpielleiterError):
    """An order or adjudication for a game that is over."""

class Game:
    """A game of Diplomacy on one variant, in the shape of ``diplomacy.Game``."""

    def __init__(
        self,
        variant: str = "standard",
        *,
        variant_toml: str | None = None,
        calendar: str | None = None,
        game_id: str | None = None,
    ) -> None:
        """A new game at the start of a built-in variant or of a variant file's text."""

    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def game_id(self) -> str:
        """The game's id."""
    @property
    def powers(self) -> list[str]:
        """The powers that play (``"FRANCE"``)."""
    @property
    def phase(self) -> str:
        """The phase to play (``"S1901M"``), or ``"COMPLETED"``."""
    @property
    def phase_type(self) -> Literal["M", "R", "A", "-"]:
        """Movement, retreats, adjustments, or ``"-"`` when the game is over."""
    @property
    def is_game_done(self) -> bool:
        """Whether the game is over."""
    @property
    def result(self) -> GameResult | None:
        """How the game ended, or None."""
    @property
    def winner(self) -> str | None:
        """The winner, if one power won alone."""
    @property
    def phases_played(self) -> int:
        """The number of phases played."""
    def get_current_phase(self) -> str:
        """The phase to play, or ``"COMPLETED"``."""
    def set_orders(self, power: str, orders: Orders, *, strict: bool = True) -> list[Refusal]:
        """Gives ``power``'s orders for the phase at hand (replacing earlier ones). Strict: a
        refused line raises ``OrderError``; otherwise the refused lines are returned."""
    def clear_orders(self, power: str | None = None) -> None:
        """Takes back the orders of ``power`` (or of every power)."""
    def get_orders(self, power: str | None = None) -> Any:
        """The orders given, as the engine reads them: a dict per power, or one power's list."""
    def process(self) -> None:
        """Adjudicates the phase at hand and moves to the next one (releases the GIL)."""
    def draw(self) -> None:
        """Ends the game in a draw of every power still in it (DIAS); raises ``GameOverError``
        when the game is over."""
    def concede(self, power: str) -> None:
        """Ends the game conceded to ``power`` (still in the game); raises ``GameOverError``
        when the game is over."""
    def clone(self) -> Game:
        """An independent copy (cheap)."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def process_many(
        self, order_sets: list[OrderSet], *, strict: bool = True, return_exceptions: bool = False
    ) -> list[Game | SpielleiterError]:
        """One new processed game per order set; this game is unchanged (releases the GIL)."""
    def get_all_possible_orders(self) -> dict[str, list[str]]:
        """Every legal order per location (``"STP/SC"``), each a line ``set_orders`` accepts."""
    def get_orderable_locations(self, power: str | None = None) -> Any:
        """Where ``power`` has something to order (a list), or every power's (a dict)."""
    def get_state(self) -> dict[str, Any]:
        """The state in the conventions of the ``diplomacy`` package."""
    def get_units(self, power: str | None = None) -> Any:
        """The units of ``power`` (a list) or of every power (a dict)."""
    def get_centers(self, power: str | None = None) -> Any:
        """The supply centres of ``power`` (a list) or of every power (a dict)."""
    def get_last_results(self) -> dict[str, list[str]]:
        """Result codes per unit of the phase processed last."""
    def get_last_orders(self) -> dict[str, list[str]]:
        """The orders carried out in the phase processed last, per power."""
    def last_phase(self) -> dict[str, Any] | None:
        """The engine's whole output of the phase processed last."""
    def to_saved_game_format(self) -> dict[str, Any]:
        """The game as a saved game of the ``diplomacy`` package."""
    def to_json(self) -> str:
        """The saved game as JSON text."""
    @staticmethod
    def from_saved_game_format(
        saved: dict[str, Any] | str, *, variant_toml: str | None = None
    ) -> Game:
        """A game from a saved game of this or the ``diplomacy`` package."""
    @staticmethod
    def from_state(
        state: dict[str, Any] | str, variant: str = "standard", *, variant_toml: str | None = None
    ) -> Game:
        """A game starting from any state, with no phase played."""
    def neighbours(self, location: str, unit_type: str) -> list[str]:
        """Where a unit of that type at ``location`` could move by the map's adjacencies."""
    def get_build_sites(self, power: str) -> list[str]:
        """The free home centres where ``power`` could build now (adjustment phases)."""
    def get_adjustment_counts(self) -> dict[str, int]:
        """Builds (positive) or disbands (negative) per power in the adjustment phase at hand."""

def process_games(
    games: list[Game],
    orders: list[OrderSet] | None = None,
    *,
    strict: bool = True,
    return_exceptions: bool = False,
) -> list[Game | SpielleiterError]:
    """Processes many games at once (in place), the GIL released, spread over the cores."""

def variants() -> list[str]:
    """The built-in variants a game can start on."""

def incomplete_variants() -> list[str]:
    """The built-in variants whose data lacks the starting position."""

def _load_saved(saved: dict[str, Any] | str, variant_toml: str | None = None) -> Game: ...
