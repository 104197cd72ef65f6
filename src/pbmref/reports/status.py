"""The reply to the STATUS command of an order mail (spec/orders.md).

``STATUS`` answers with the open turn, its deadline, who has sent orders and who asks
the referee to wait (WAIT), never what they ordered or how anyone voted. It fits a 70-column
phone screen. (The MAP reply is the game kind's: ``Ruleset.map_reply``.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from pbmref.reports.common import format_deadline, wrap

__all__ = ["render_status"]


def render_status(*, game_id: str, title: str, turn: str, deadline: datetime | None,
                  timezone: str = "UTC", players: Mapping[str, str],
                  sent: Iterable[str], inactive: Iterable[str] = (),
                  status: str = "open", waits: Iterable[str] = (),
                  computers: Iterable[str] = (), owing: Iterable[str] | None = None) -> str:
    """The answer to STATUS: open turn, deadline, who has orders in (not what),
    and whom the turn waits for.

    ``turn`` names the open turn as a sentence starts with it (``Turn 3``,
    ``Phase S1901M``); ``players`` maps player id to display name; ``sent``
    holds the ids with orders in force; ``inactive`` those removed or kicked;
    ``waits`` those who asked that the turn not be played before its deadline;
    ``computers`` the players the referee orders for; ``owing`` those the
    turn waits for (None: every human player without orders in): a player
    who is neither has nothing to order in this turn.
    """
    have = set(sent)
    gone = set(inactive)
    machine = set(computers)
    owed = None if owing is None else set(owing)
    wait = [p for p in players if p in set(waits) and p not in gone]
    lines = wrap(f"{title or game_id} [game {game_id}]", "")
    lines += wrap(f"{turn} is open. Deadline: {format_deadline(deadline, timezone)}"
                  if status == "open" else f"{turn}: the game is {status}.", "", "  ")
    lines += ["", "  Player                 Orders"]
    waiting: list[str] = []
    for pid in sorted(players, key=lambda p: (_shown_name(players, p, machine)).lower()):
        name = _shown_name(players, pid, machine)
        if pid in gone:
            state = "out of the game"
        elif pid in machine:
            state = "computer"
        elif pid in have:
            state = "received"
        elif owed is not None and pid not in owed:
            state = "nothing to order"
        else:
            state = "waiting"
            waiting.append(name)
        lines.append(f"  {name[:22]:<22} {state}{', asks to wait' if pid in wait else ''}")
    lines += [""]
    if status == "open":
        lines += wrap("Everyone's orders are in." if not waiting else
                      f"Waiting for {_names(waiting)}. "
                      "Orders stay secret until the turn is played.", "")
        if wait:
            who = ", ".join(players[p] or p for p in wait)
            lines += wrap(f"{who} asked the referee to wait (WAIT): the turn is played at "
                          "its deadline, not before.", "")
    return "\n".join(lines) + "\n"


def _shown_name(players: Mapping[str, str], pid: str, computers: set[str]) -> str:
    """A player's name on the STATUS table; a computer player named just
    'computer' by its id (the power it plays: ``aus``), so the rows differ."""
    name = players[pid] or pid
    return pid if pid in computers and name.lower() == "computer" else name


def _names(names: list[str], most: int = 8) -> str:
    """``Edith and Fleur``; past ``most`` names, how many.

    >>> _names(["Edith", "Fleur", "Karl"])
    'Edith, Fleur and Karl'
    >>> _names(["a"] * 9)
    '9 players'
    """
    if len(names) > most:
        return f"{len(names)} players"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
