"""The final report of a finished game (J14), gathered from its folder.

``final_report(game)`` reads what the final report shows: the ending (the
ruleset's words for the last turn's report), each place and who played it
(as the game shows its players: an anonymous game, the places alone), and
the chart of supply centres year by year (``Ruleset.centre_chart``, from the
position at the start of every turn). It reads every position once: a game
ends once. The referee mails it (``referee.ending``); ``write_archive`` makes
it the archive's last page.
"""

from __future__ import annotations

from pbmref.archive.shown import shown_players
from pbmref.reports.final import FinalReport
from pbmref.store import Game

__all__ = ["final_report"]


def final_report(game: Game) -> FinalReport | None:
    """The final report of ``game`` (None while it is not finished)."""
    from pbmref.archive import stored_report  # the package's own reader

    s = game.settings
    played = [t for t in game.turn_numbers() if game.history.is_adjudicated(t)]
    if s.status != "finished" or not played:
        return None
    ruleset = game.ruleset
    turns = game.turn_numbers()
    positions = [game.read_position(t) for t in turns if t <= played[-1] + 1]
    chart = ruleset.centre_chart(positions)
    first = positions[0]
    variant = first.get("variant")
    try:
        labels = dict(ruleset.places(variant if isinstance(variant, str) else None))
    except ValueError:
        labels = {}
    shown = shown_players(game)
    places = []
    for pid, p in s.players.items():
        if s.anonymous:
            places.append((shown.name(pid), ""))
            continue
        code = ruleset.place_of(first, pid)
        place = labels.get(code, code) or shown.name(pid)
        note = {"resigned": " (resigned)", "removed": " (removed)", "kicked": " (removed)"}.get(
            p.status, "")
        who = ("the computer" if p.computer else shown.name(pid)) + note
        places.append((place, "" if place == who else who))
    return FinalReport(
        game_id=game.id, title=s.title, kind=ruleset.variant_title(first),
        ending=ruleset.ending(stored_report(game, played[-1])), turns=len(played),
        places=tuple(places), chart=tuple(chart),
        sides=tuple(chart[0][1]) if chart else ())
