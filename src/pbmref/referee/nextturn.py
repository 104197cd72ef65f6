"""What every report and reminder ends with: the reader's next turn (issue 43, item 4).

``next_turn_section(game, player, now, archive_url)`` is the last part of a
player's copy of a report: the deadline as a phone reader takes it in ("in 1
day 23 h (Fri 19:00 CET)", in the player's own time zone when game.yaml
gives one, J12), then an order mail ready to edit for the turn
now open: GAME, PASSWORD left for the player to fill in, TURN or PHASE, and
the orders the ruleset would give them now (``guide.example_mail``: the
reader's units, or their move numbers), END. Once the password is put in,
the block is a valid order mail as it stands (the tests mail it back). With
``referee.archive_url`` in the config, a link to the turn's archive page
(the full-size pictures) comes after it; without it, nothing. An observer's
copy gets the deadline and the link only; a finished or paused game's, the
link only. ``reminder_block`` is the same mail for a reminder.
"""

from __future__ import annotations

from datetime import datetime

from pbmref.referee.guide import example_mail
from pbmref.reports.common import deadline_words
from pbmref.reports.document import Block, Fixed, Gap, Para, Section
from pbmref.reports.html import turn_page_name
from pbmref.store import Game

__all__ = ["archive_link", "next_turn_section", "reminder_block"]


def archive_link(archive_url: str, game_id: str, turn: int) -> str | None:
    """The address of a turn's archive page, or None without ``archive_url``.

    >>> archive_link("https://example.org/games/", "dip1", 7)
    'https://example.org/games/dip1/turn-007.html'
    >>> archive_link("", "dip1", 7) is None
    True
    """
    if not archive_url.strip():
        return None
    return f"{archive_url.strip().rstrip('/')}/{game_id}/{turn_page_name(turn)}"


def _deadline_line(game: Game, now: datetime, player: str | None = None) -> str:
    """The deadline in words, in the player's own time zone (J12; else the game's)."""
    s = game.settings
    noun = game.ruleset.words.turn(game.turn_label)
    return f"Orders for {noun} by: {deadline_words(s.deadline, now, s.zone_of(player))}."


def _nothing_line(game: Game, now: datetime, player: str) -> str:
    """For a reader with nothing to order in the open turn: that, and when it
    is played at the latest (their next orders come with its report)."""
    s = game.settings
    noun = game.ruleset.words.turn(game.turn_label)
    return (f"You have nothing to order in {noun}; it is played "
            f"{deadline_words(s.deadline, now, s.zone_of(player))} at the latest, and its "
            "report brings your next orders.")


def next_turn_section(game: Game, players: tuple[str, ...], now: datetime,
                      archive_url: str, turn: int) -> Section | None:
    """The closing part of a copy of the report of ``turn`` for the reader who
    plays ``players`` (none: an observer); None when there is nothing to say."""
    blocks: list[Block] = []
    if game.settings.status == "open" and game.turn == turn + 1:
        active = [pid for pid in players if (p := game.settings.players.get(pid)) is not None
                  and p.active]
        owing = [pid for pid in active if game.ruleset.needs_orders(game.open.state, pid)]
        blocks.append(Para(_deadline_line(game, now, players[0] if players else None)
                           if owing or not active else
                           _nothing_line(game, now, players[0]), 2, 4, strong=True))
        for pid in active:
            if pid not in owing:
                if owing:  # one reader, several places: say which has nothing to order
                    blocks.append(Para(f"{game.settings.players[pid].name}: nothing to order "
                                       f"in this {game.ruleset.words.noun}.", 2, 2))
                continue
            blocks.append(Para("Your next orders, ready to edit: copy this into a mail to "
                               "the referee, put your password in and change what you "
                               "want.", 2, 2))
            blocks += [Gap(), Fixed(["  " + line for line in example_mail(game, pid, ready=True)]),
                       Gap()]
    link = archive_link(archive_url, game.id, turn)
    if link is not None:
        blocks.append(Para(f"This turn in the archive, with the full-size pictures: {link}",
                           2, 2))
    if not blocks:
        return None
    title = "YOUR NEXT ORDERS" if any(isinstance(b, Fixed) for b in blocks) else "NEXT"
    return Section(title, blocks, "next")


def reminder_block(game: Game, player: str, now: datetime) -> list[str]:
    """A reminder's last lines: the deadline in words and the ready-to-edit mail."""
    lines = [_deadline_line(game, now, player), "",
             "Your orders, ready to edit: copy this into a mail to the referee,",
             "put your password in and change what you want.", ""]
    return lines + ["  " + line for line in example_mail(game, player, ready=True)]
