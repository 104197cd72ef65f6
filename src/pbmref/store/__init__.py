"""The game store (layer 3): game folders as YAML, atomic writes, a lock per game.

>>> from pbmref.store import GameStore
>>> store = GameStore("games")          # doctest: +SKIP
>>> game = store.open("example")        # doctest: +SKIP
>>> game.turn, sorted(game.orders())    # doctest: +SKIP
"""

from pbmref.store.errors import (
    DataError,
    GameExists,
    GameFileError,
    GameNotFound,
    InvalidId,
    LockTimeout,
    StoreError,
    TurnError,
)
from pbmref.store.game import (
    GAME_FILE,
    STATE_FILE,
    Game,
    GameStore,
    OrdersFile,
    TurnRecord,
    derive_turn_seed,
    next_deadline_after,
    open_game,
    turn_dir_name,
)
from pbmref.store.settings import (
    GameSettings,
    Player,
    check_id,
    hash_password,
    new_password,
    verify_password,
)

__all__ = [
    "GAME_FILE",
    "STATE_FILE",
    "DataError",
    "Game",
    "GameExists",
    "GameFileError",
    "GameNotFound",
    "GameSettings",
    "GameStore",
    "InvalidId",
    "LockTimeout",
    "OrdersFile",
    "Player",
    "StoreError",
    "TurnError",
    "TurnRecord",
    "check_id",
    "derive_turn_seed",
    "hash_password",
    "new_password",
    "next_deadline_after",
    "open_game",
    "turn_dir_name",
    "verify_password",
]
