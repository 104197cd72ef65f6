"""The game store: game folders as YAML, atomic writes, a lock per game.

>>> from pbmref.store import GameStore
>>> store = GameStore("games")                 # doctest: +SKIP
>>> game = store.open("example")               # doctest: +SKIP
>>> game.turn, sorted(game.book.entries())     # doctest: +SKIP

This layer sits on the rulesets (each game is read and checked by its own)
and below the mail layer and the referee. Modules: ``layout`` (the folder),
``settings`` (``game.yaml`` read and checked), ``settings_file`` (edits that
keep the game master's comments), ``game`` (a game opened, the games
directory), ``orderbook`` (order mails), ``history`` (played turns and the
turn commit), ``owed`` (the turns whose reports the referee still owes),
``schedule`` (the one rule for "due", the state index).
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
from pbmref.store.game import Game, GameStore, TurnView, open_game
from pbmref.store.history import TurnRecord
from pbmref.store.layout import GAME_FILE, STATE_FILE, derive_turn_seed, turn_dir_name
from pbmref.store.orderbook import OrdersFile
from pbmref.store.passwords import PASSWORD_BITS, new_password
from pbmref.store.schedule import Schedule
from pbmref.store.settings import (
    GameSettings,
    Player,
    check_id,
    hash_password,
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
    "PASSWORD_BITS",
    "Player",
    "Schedule",
    "StoreError",
    "TurnError",
    "TurnRecord",
    "TurnView",
    "check_id",
    "derive_turn_seed",
    "hash_password",
    "new_password",
    "open_game",
    "turn_dir_name",
    "verify_password",
]
