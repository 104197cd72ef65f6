"""The words of the lobby's replies and notices (rules J1-J12): text only.

Lines stay within 70 columns (``reports.common.wrap``); every reply cites
the rule it applies, and every deadline is given in the reader's time zone
(J12, ``replies.when``). Nothing here names a mail address of anyone but
the reader, and an anonymous game names nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pbmref.referee.replies import RULE, when
from pbmref.reports.common import wrap
from pbmref.store.listing import Listing

__all__ = [
    "GameView",
    "confirm_request",
    "game_lines",
    "list_lines",
    "paragraph",
]


def paragraph(text: str, indent: str = "", subsequent: str | None = None) -> list[str]:
    """A paragraph wrapped to the reply's width."""
    return wrap(text, indent, subsequent)


def press_words(level: str) -> str:
    """``white press``, ``no press``."""
    return "no press" if level == "none" else f"{level} press"


def _places(n: int) -> str:
    return f"{n} place" + ("" if n == 1 else "s")


def list_lines(forming: Sequence[tuple[str, str]], running: Sequence[tuple[str, Listing]],
               left_out: int = 0) -> str:
    """The answer to LIST (J1): the forming games (id, one line about it), then
    the games being played."""
    out = ["The games of this referee (rule J1).", ""]
    if forming:
        out.append("Forming (send JOIN and the game's name to join):")
        for gid, about in forming:
            out += wrap(f"{gid}: {about}", "  ", "    ")
    else:
        out.append("No game is forming now.")
    out.append("")
    if running:
        out.append("Being played:")
        for gid, listing in running:
            opened = (f"; {_places(len(listing.open))} open (TAKEOVER {gid} and the place)"
                      if listing.open else "")
            out += wrap(f"{gid}: {listing.title}, {listing.kind}, {press_words(listing.press)}, "
                        f"{listing.clock}; {listing.turn}{opened}.", "  ", "    ")
    else:
        out.append("No game is being played now.")
    if left_out:
        out += ["", f"And {left_out} more games being played, without open places."]
    out += ["", "LIST and a game's name shows one game, with its places and rules."]
    return "\n".join(out)


@dataclass(frozen=True)
class GameView:
    """One game as LIST GAME shows it (J1), made by the lobby from the game or
    the forming record: no address, and no name in an anonymous game."""

    game_id: str
    title: str
    kind: str
    forming: bool
    press: str
    clock: str
    draws: str
    takeover: str
    anonymous: bool
    places: tuple[tuple[str, str], ...]  # (place, who holds it or "open" ...)
    state: str  # "3 of 7 places taken" / "phase S1901M, deadline ..."
    choice: str = ""  # forming: how places are given (J4)


# A forming game's places are given by JOIN (J2, J4); what the line tells is
# who gets a place left open once the game runs (J7).
_OPEN_PLACES = {False: "Open places go to:",
                True: "Once the game runs, a place left open goes to:"}


def game_lines(view: GameView) -> str:
    """The answer to LIST GAME (J1)."""
    out = [f"Game {view.game_id}: {view.title} (rule J1)", "",
           f"Kind:     {view.kind}",
           f"Press:    {view.press}",
           *wrap(f"Clock:    {view.clock}", "", "          "),
           *wrap(f"Draws:    {view.draws}", "", "          "),
           *wrap(f"{_OPEN_PLACES[view.forming]} {view.takeover}", "", "  ")]
    if view.anonymous:
        out.append("Anonymous: the players are shown by their places only.")
    if view.choice:
        out += wrap(f"Places are given {view.choice} (J4).", "")
    out += ["", *wrap(view.state.rstrip(".") + ".", ""), ""]
    if view.places:
        out.append("Places:")
        width = max(len(p) for p, _ in view.places)
        out += [f"  {p:<{width}}  {who}" for p, who in view.places]
    if view.forming:
        out += ["", f"To join: JOIN {view.game_id}, then the places you want, the one you",
                "want most first (J2)."]
    return "\n".join(out)


def confirm_request(code: str, requests: Sequence[str]) -> str:
    """The confirmation mail (J3): what will be done once the code comes back."""
    out = ["Before anything is done, this address must show that it gets",
           "mail (rule J3). Reply to this mail with the line:", "",
           f"  CONFIRM {code}", "",
           "and this will be done:", *(f"  {r}" for r in requests), "",
           "The code is good for three days. If you did not ask for this,",
           "do nothing: nothing happens without the code."]
    return "\n".join(out)


def deadline_line(deadline: datetime | None, zone: str) -> str:
    return f"Deadline: {when(deadline, zone)}"


RULE_LINE = RULE
