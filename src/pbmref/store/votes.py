"""The standing votes of a game: draws, concessions, and who asks the referee to wait.

``votes.yaml`` in the game folder, written by the referee::

    draw: [fleur, edith]         # DRAW standing (until NODRAW)
    draw_sets: {edith: [ENG, FRA]}   # a named draw (DRAW ENG FRA, J13); else all survivors
    concede: {tarik: ENG}        # CONCEDE TO ENG standing (until NOCONCEDE)
    wait: {gustav: 7}            # WAIT for turn 7 (it holds until that deadline)

Only the referee reads this file; a report says whether a draw passed, and
who votes for which draw only in a game whose votes are open (J13). A WAIT
belongs to the turn it was sent in: once that turn is played it is gone by
itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pbmref.base.errors import GameFileError
from pbmref.base.files import replace_file
from pbmref.base.yamlfile import YamlDoc, dump_yaml, stored_value
from pbmref.rulesets import Votes

if TYPE_CHECKING:
    from pbmref.store.game import Game

__all__ = ["VOTES_FILE", "StandingVotes", "VoteBook"]

VOTES_FILE = "votes.yaml"
_KEYS = ("draw", "draw_sets", "concede", "wait")


@dataclass(frozen=True)
class StandingVotes:
    """What ``votes.yaml`` holds."""

    draw: frozenset[str] = frozenset()
    concede: dict[str, str] = field(default_factory=dict)  # player -> side conceded to
    wait: dict[str, int] = field(default_factory=dict)  # player -> the turn it waits in
    draw_sets: dict[str, frozenset[str]] = field(default_factory=dict)  # J13: named draws


class VoteBook:
    """The standing votes of one game (``game.votes``)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._path: Path | None = None

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = self.game.dir / VOTES_FILE
        return self._path

    def read(self) -> StandingVotes:
        """The votes as they stand; a bad file raises GameFileError. Read and
        checked once a version of the file in the process (``stored_value``: the
        referee writes it whole; an edit by hand is another version); the value
        is shared, and a change makes new sets and mappings (``change``)."""
        path = self.path
        if not os.path.isfile(path):
            return StandingVotes()
        return stored_value(path, "votes", _checked_votes)

    def waiting(self, turn: int, players: Iterable[str] | None = None) -> list[str]:
        """Who has WAIT standing in ``turn`` (among ``players``, when given)."""
        wait = self.read().wait
        keep = None if players is None else set(players)
        return sorted(p for p, t in wait.items() if t == turn and (keep is None or p in keep))

    def votes(self, voters: Iterable[str], *, secret: bool = True) -> Votes:
        """The votes for a ruleset to settle (``Ruleset.settle_votes``); ``secret``:
        the game's votes are secret (J13)."""
        standing = self.read()
        who = frozenset(voters)
        return Votes(draw=standing.draw & who,
                     concede={p: s for p, s in standing.concede.items() if p in who},
                     voters=who,
                     draw_sets={p: s for p, s in standing.draw_sets.items()
                                if p in who and p in standing.draw},
                     secret=secret)

    def change(self, player: str, *, draw: bool | None = None,
               draw_set: Iterable[str] = (), concede: str | None = None,
               noconcede: bool = False, wait: bool | None = None) -> StandingVotes:
        """Change one player's votes (under the game's lock); the state index follows,
        since a WAIT stops early adjudication."""
        game = self.game
        with game.lock():
            old = self.read()
            draws = set(old.draw)
            sets = dict(old.draw_sets)
            concedes = dict(old.concede)
            waits = {p: t for p, t in old.wait.items() if t >= game.turn}
            if draw is True:  # a new DRAW replaces the player's last one (J13)
                draws.add(player)
                sets.pop(player, None)
                if draw_set:
                    sets[player] = frozenset(draw_set)
            elif draw is False:
                draws.discard(player)
                sets.pop(player, None)
            if concede is not None:
                concedes[player] = concede
            elif noconcede:
                concedes.pop(player, None)
            if wait is True:
                waits[player] = game.turn
            elif wait is False:
                waits.pop(player, None)
            new = StandingVotes(frozenset(draws), concedes, waits, sets)
            data: dict[str, object] = {"draw": sorted(new.draw), "concede": dict(sorted(
                new.concede.items())), "wait": dict(sorted(new.wait.items()))}
            if sets:
                data["draw_sets"] = {p: sorted(s) for p, s in sorted(sets.items())}
            replace_file(self.path, dump_yaml(data, header=(
                "Written by the referee: the standing votes (secret). DRAW and CONCEDE "
                "stand until withdrawn; a WAIT holds for its turn only.")))
            game.write_schedule()
            return new


def _checked_votes(doc: YamlDoc) -> StandingVotes:
    data = doc.mapping("the standing votes")
    for key in data:
        if key not in _KEYS:
            raise doc.error((key,), f"unknown key {key!r}; known keys: {', '.join(_KEYS)}")
    draw, concede, wait = data.get("draw") or [], data.get("concede") or {}, \
        data.get("wait") or {}
    sets = data.get("draw_sets") or {}
    if not isinstance(draw, list) or not isinstance(concede, dict) or \
            not isinstance(wait, dict) or not isinstance(sets, dict) or \
            not all(isinstance(v, list) for v in sets.values()):
        raise GameFileError(doc.path, "expected draw: [players], draw_sets: {player: "
                                      "[powers]}, concede: {player: power}, wait: {player: "
                                      "turn}")
    return StandingVotes(frozenset(str(p) for p in draw),
                         {str(k): str(v) for k, v in concede.items()},
                         {str(k): int(v) for k, v in wait.items()},
                         {str(k): frozenset(map(str, v)) for k, v in sets.items()})
