"""How a game shows its players to players and observers (issue 40).

A game names its players to each other by the names the game master gave them
(``Red Baron``). In an anonymous game (``game.yaml``: ``anonymous: true``) no
player or observer learns another player's name, address or player id from
anything the referee sends or publishes: everyone is shown by the ruleset's
alias instead (``Ruleset.aliases``: ``Pilot N``, ``German pilot 2``,
``France``), taken from the game's first position, so it stays the same all
game. ``shown_players(game)`` says which; everything that names players to
players goes through it, one way for both kinds of game:

- ``Shown.report(report)``: a turn report with its players shown (in an
  anonymous game every player id in it replaced by the alias's id, so map
  letters and picture ids give nothing away either);
- ``Shown.position(position)``: the same for a position (MAP, the archive);
- ``Shown.name(pid)``, ``Shown.id(pid)``: one player, as shown;
- ``Shown.correspondents(found)``: who press may reach, as shown, with the
  words a ``PRESS TO`` line may use for them.

The game master's own commands (``pbmref status``, ``pbmref press``) and the
game folder keep the real names and ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbmref.reports.model import TurnReport, renamed
from pbmref.rulesets import Alias, Correspondent
from pbmref.store import Game, GameSettings

__all__ = ["Shown", "shown_players"]


@dataclass(frozen=True)
class Shown:
    """The players of one game as players and observers see them: by player id,
    ``names`` (the name shown) and, in an anonymous game, ``aliases``."""

    names: Mapping[str, str]  # player id -> the name shown
    aliases: Mapping[str, Alias] | None = None  # an anonymous game's

    @property
    def ids(self) -> dict[str, str]:
        """Player id -> the id players are shown (itself unless anonymous)."""
        if self.aliases is None:
            return {pid: pid for pid in self.names}
        return {pid: a.id for pid, a in self.aliases.items()}

    def id(self, player: str) -> str:
        if self.aliases is None:
            return player
        alias = self.aliases.get(player)
        return alias.id if alias is not None else player

    def name(self, player: str) -> str:
        """The name ``player`` (an id) is shown by."""
        return self.names.get(player) or player

    def shown_names(self) -> dict[str, str]:
        """The ids players are shown -> their names, as renderers take them."""
        return {self.id(pid): name for pid, name in self.names.items()}

    def report(self, report: TurnReport[Any]) -> TurnReport[Any]:
        """``report`` (by player ids) with its players as they are shown."""
        if self.aliases is None:
            return replace(report, names=dict(self.names))
        return report.with_players(self.ids, self.shown_names())

    def position(self, position: Mapping[str, object]) -> dict[str, object]:
        """A position with its players as they are shown."""
        return dict(position) if self.aliases is None else renamed(position, self.ids)

    def readers(self, players: Iterable[str]) -> tuple[str, ...]:
        """The ids of ``players`` as a report shown them names them."""
        return tuple(self.id(p) for p in players)

    def correspondents(self, found: Sequence[Correspondent]) -> list[Correspondent]:
        """Who press may reach (``Ruleset.correspondents``), each named as shown
        and with the words a PRESS TO line may call them."""
        if self.aliases is None:
            return list(found)
        out = []
        for c in found:
            alias = self.aliases.get(c.player)
            out.append(c if alias is None else Correspondent(c.player, alias.label, alias.words,
                                                             c.side))
        return out


def shown_players(game: Game, settings: GameSettings | None = None) -> Shown:
    """How ``game`` shows its players (with ``settings`` as they were, for a
    turn played again; default: as they are now). An anonymous game's aliases
    come from its first position, so they stay the same all game."""
    s = settings or game.settings
    if not s.anonymous:
        return Shown({pid: p.name or pid for pid, p in s.players.items()})
    first = game.read_position(min(game.turn_numbers(), default=game.turn))
    aliases = game.ruleset.aliases(first, list(s.players), str(s.seed))
    return Shown({pid: a.label for pid, a in aliases.items()}, aliases)
