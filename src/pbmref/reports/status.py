"""Replies to the MAP and STATUS commands of an order mail (spec/orders.md).

``MAP`` answers with the sky as it stands at the start of the open turn:
the character map, its key, the aircraft table, the zeppelin, wind and
clouds (everything in it is public since the last report). ``STATUS``
answers with the open turn, its deadline and who has sent orders, never
what they ordered. Both fit a 70-column phone screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from pbmref.reports.asciimap import map_legend, render_map
from pbmref.reports.common import WIDTH, aircraft_of, pilot_letters, wrap, zeppelins_of
from pbmref.reports.text import format_deadline, render_state_tables

__all__ = ["render_map_reply", "render_status", "render_status_for_game"]


def render_map_reply(position: Mapping[str, Any], names: Mapping[str, str] | None = None,
                     title: str = "") -> str:
    """The answer to MAP: the board now, its key and the state of play."""
    from pbmref.reports.svg import is_fastplay

    if is_fastplay(position):  # issue 9: the rectangular board
        from pbmref.reports.fastplay_text import render_fastplay_map_reply

        return render_fastplay_map_reply(position, names, title)
    names = dict(names or {})
    letters = pilot_letters(aircraft_of(position), zeppelins_of(position))
    turn = position.get("turn", "?")
    head = f"{title + ': ' if title else ''}the sky at the start of turn {turn}"
    lines = wrap(head, "", "  ") + [""]
    lines += render_map(position, letters)
    lines += map_legend(position, letters, names)
    lines += render_state_tables(position, names, letters)
    return "\n".join(line[:WIDTH].rstrip() for line in lines) + "\n"


def render_status(*, game_id: str, title: str, turn: int | str, deadline: datetime | None,
                  timezone: str = "UTC", players: Mapping[str, str],
                  sent: Iterable[str], inactive: Iterable[str] = (),
                  status: str = "open") -> str:
    """The answer to STATUS: open turn, deadline, who has orders in (not what).

    ``players`` maps player id to display name; ``sent`` holds the ids with
    orders in force; ``inactive`` those removed or kicked.
    """
    have = set(sent)
    gone = set(inactive)
    lines = wrap(f"{title or game_id} [game {game_id}]", "")
    if isinstance(turn, str):  # Diplomacy: the phase names the turn (issue 10)
        lines += wrap(f"Phase {turn} is open. Deadline: {format_deadline(deadline, timezone)}"
                      if status == "open" else f"Phase {turn}: the game is {status}.", "", "  ")
    elif status == "open":
        lines += wrap(f"Turn {turn} is open. Deadline: {format_deadline(deadline, timezone)}",
                      "", "  ")
    else:
        lines += wrap(f"Turn {turn}: the game is {status}.", "")
    lines += ["", "  Player                 Orders"]
    waiting = 0
    for pid in sorted(players, key=lambda p: (players[p] or p).lower()):
        name = (players[pid] or pid)[:22]
        if pid in gone:
            state = "out of the game"
        elif pid in have:
            state = "received"
        else:
            state = "waiting"
            waiting += 1
        lines.append(f"  {name:<22} {state}")
    lines += [""]
    if status == "open":
        lines += wrap("Everyone's orders are in." if not waiting else
                      f"Waiting for {waiting} player{'s' if waiting != 1 else ''}. "
                      "Orders stay secret until the turn is played.", "")
    return "\n".join(lines) + "\n"


def render_status_for_game(game: Any) -> str:
    """STATUS for a store ``Game`` (``pbmref.store``)."""
    s = game.settings
    players = {pid: p.name or pid for pid, p in s.players.items()}
    inactive = [pid for pid, p in s.players.items() if not p.active]
    turn: int | str = game.turn
    if s.ruleset in ("diplomacy", "dirigible"):  # issue 10: named by the phase
        turn = str(game.position.get("phase") or game.turn)
    return render_status(game_id=game.id, title=s.title, turn=turn, deadline=s.deadline,
                         timezone=s.timezone, players=players,
                         sent=list(game.orders_in_force()), inactive=inactive,
                         status=s.status)
