"""The game master's operations, on top of the game store.

Creating games (``newgame``) and classes of many boards (``classroom``, for
the game kind whose ruleset has them, with the pilots' careers in
``roster``), checking them and showing their status (``inspect``),
adjudicating a turn exactly once and re-running turns after a dispute
through one turn pipeline (``turn``, ``rerun``), and changing deadlines,
players and observers (``players``). The command line (``pbmref.cli.gm``) is
a thin shell around these functions; the referee calls ``adjudicate`` for
every due game. Nothing here sends mail: what is to be mailed (passwords,
reports, the ``notice`` of a pause, resume or new deadline) is returned to
the caller.
"""

from pbmref.gm.inspect import CheckResult, GameStatus, PlayerStatus, check, game_kind, status
from pbmref.gm.newgame import NewGame, new_game
from pbmref.gm.players import (
    Notice,
    PlayerChange,
    add_observer,
    extend,
    kick,
    notice,
    pause,
    replace_player,
    reset_password,
    resume,
)
from pbmref.gm.rerun import FileChange, RerunResult, rerun
from pbmref.gm.turn import PlayedTurn, adjudicate, play
from pbmref.rulesets import PlayerSpec

__all__ = [
    "CheckResult",
    "FileChange",
    "GameStatus",
    "NewGame",
    "Notice",
    "PlayedTurn",
    "PlayerChange",
    "PlayerSpec",
    "PlayerStatus",
    "RerunResult",
    "add_observer",
    "adjudicate",
    "check",
    "extend",
    "kick",
    "new_game",
    "notice",
    "pause",
    "play",
    "replace_player",
    "rerun",
    "reset_password",
    "resume",
    "status",
    "game_kind",
]
