"""Reports read back from a game folder, and the game's HTML archive written.

- ``report_of(game, turn, position_before, outcome, orders, next_deadline)``:
  the ``TurnReport`` of a turn just adjudicated (what the report text and the
  pictures are rendered from);
- ``stored_report(game, turn)``: the same for a turn played earlier, read
  from its files;
- ``write_archive(game, out_dir)``: ``index.html`` and one page per played
  turn, and the final report as the last page of a finished game (J14,
  ``final.html``, ``archive.final``), each with the pictures the game's ruleset draws of it (and the
  panels of its moves), each report laid out from the ruleset's document (as
  observers read it), and the press sent to everyone during that turn
  (private press stays in the game folder, for the game master). A turn page
  is drawn only when something it is drawn from changed since it was drawn
  (``pbmref.archive.drawn`` keeps the record beside the pages): after one more
  turn, its page, the page before it and the index; and a page whose text is
  what the file holds already is left alone.

Every report, picture and page names the players as the game shows them to
players and observers (``pbmref.archive.shown``: in an anonymous game, by the
ruleset's aliases). This layer reads the store and writes files; the
renderers it calls (``pbmref.reports``) take plain data only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from pbmref.archive.drawn import DrawnPages, TurnDrawn
from pbmref.archive.final import final_report
from pbmref.archive.shown import Shown, shown_players
from pbmref.base.files import replace_file
from pbmref.base.times import moment
from pbmref.reports.final import FINAL_PAGE, render_final_page
from pbmref.reports.html import (
    PressItem,
    TurnLink,
    render_index,
    render_turn_page,
    turn_page_name,
)
from pbmref.reports.model import TurnReport
from pbmref.rulesets import Outcome
from pbmref.store import Game, GameFileError, GameSettings

__all__ = ["Shown", "broadcast_press", "final_report", "report_of", "shown_players",
           "stored_report", "summary", "write_archive", "year_start"]


def report_of(game: Game, turn: int, position_before: dict[str, object], outcome: Outcome[Any],
              orders: Mapping[str, Mapping[str, object]], next_deadline: datetime | None,
              *, settings: GameSettings | None = None) -> TurnReport[Any]:
    """The report data of a turn just played (before it is written), with the
    game's ``settings`` as they were in that turn (default: as they are now),
    its players as the game shows them; its events the adjudication's own."""
    s = settings or game.settings
    return shown_players(game, s).report(TurnReport(
        game_id=game.id, title=s.title, ruleset=s.ruleset, turn=turn,
        position_before=position_before, position_after=outcome.position,
        events=tuple(outcome.events), orders={p: dict(e) for p, e in orders.items()},
        next_deadline=next_deadline, timezone=s.timezone, game_over=outcome.game_over,
        winners=list(outcome.winners), dice=list(outcome.dice),
        year_start=year_start(game, turn, position_before),
    ))


def stored_report(game: Game, turn: int) -> TurnReport[Any]:
    """The report data of a played turn, read from its files, its players as
    the game shows them; its events decoded once, here."""
    settings = game.settings
    before = game.read_position(turn)
    after = game.read_position(turn + 1) if turn + 1 in game.turn_numbers() else before
    result = game.history.result(turn) or {}
    winners = result.get("winners") or []
    try:
        orders = game.book.entries(turn)
    except GameFileError:  # an unreadable orders file must not stop the archive
        orders = {}
    return shown_players(game).report(TurnReport(
        game_id=game.id, title=settings.title, ruleset=settings.ruleset, turn=turn,
        position_before=before, position_after=after,
        events=game.ruleset.decode_events(game.history.events(turn), before),
        orders=dict(orders), next_deadline=moment(result.get("next_deadline")),
        timezone=settings.timezone, game_over=bool(result.get("game_over")),
        winners=[str(w) for w in winners] if isinstance(winners, list) else [],
        dice=game.history.dice(turn) or [], year_start=year_start(game, turn, before),
    ))


def year_start(game: Game, turn: int, before: dict[str, object]) -> dict[str, object] | None:
    """The position that opened the game year of ``turn`` (``before``: the
    turn's own), read back from the game's turns while they are of the same
    year (at most a Diplomacy year's four earlier phases); None for a game
    kind without years."""
    year = game.ruleset.year_of(before)
    if year is None:
        return None
    start, kept = before, set(game.turn_numbers())
    for earlier in range(turn - 1, 0, -1):
        if earlier not in kept:
            break
        position = game.read_position(earlier)
        if game.ruleset.year_of(position) != year:
            break
        start = position
    return start


def summary(events: list[dict[str, object]], names: Mapping[str, str]) -> str:
    """A one-line summary of a turn for the index, from its events."""
    def name(who: Any) -> str:
        return names.get(str(who)) or str(who)

    parts: list[str] = []
    bursts = sum(1 for e in events if e.get("kind") in ("burst", "fire"))
    hits = sum(1 if e.get("kind") == "hit" else h if isinstance(h := e.get("hits"), int) else 0
               for e in events if e.get("kind") in ("hit", "fire"))  # fire: Fast Play
    if bursts:
        parts.append(f"{bursts} burst{'s' if bursts != 1 else ''}, "
                     f"{hits} hit{'s' if hits != 1 else ''}")
    for e in events:
        kind = e.get("kind")
        if kind in ("destroyed", "shot_down"):
            parts.append(f"{name(e.get('target'))} down")
        elif kind == "ace":
            parts.append(f"{name(e.get('pilot'))} an ace")
        elif kind == "game_over":
            won = e.get("winners")
            winners = ", ".join(name(w) for w in (won if isinstance(won, list) else [])) or "nobody"
            parts.append(f"game over: {winners}")
    parts += _board_news(events)
    return "; ".join(parts) or "manoeuvring"


def _board_news(events: list[dict[str, object]]) -> list[str]:
    """A Diplomacy phase's news for the index: dislodgements, captures, the
    winner, and how many units were built, removed or disbanded."""
    parts: list[str] = []
    for e in events:
        kind = e.get("kind")
        if kind == "dislodged":
            parts.append(f"{e.get('power')} {e.get('unit')} dislodged")
        elif kind == "captured":
            parts.append(f"{e.get('power')} takes {e.get('province')}")
        elif kind == "winner":
            parts.append(f"{e.get('power')} wins")
    for word in ("built", "removed", "disbanded"):
        n = sum(1 for e in events if e.get("kind") == word)
        if n:
            parts.append(f"{n} unit{'s' if n != 1 else ''} {word}")
    return parts


def broadcast_press(game: Game, turn: int, shown: Shown | None = None) -> list[PressItem]:
    """The press sent to everyone while ``turn`` was open, as the receivers read
    it (``Press from France to all``, or ``Anonymous press to all``)."""
    shown = shown or shown_players(game)
    names = {pid: p.name for pid, p in game.settings.players.items()}
    labels = {c.player: c.label for c in shown.correspondents(
        game.ruleset.correspondents(game.open.state, names))}
    out: list[PressItem] = []
    for record in game.press.of_turn(turn):
        sender = labels.get(record.sender) or shown.name(record.sender)
        head = "Anonymous press to all" if record.grey else f"Press from {sender} to all"
        out.append((f"{head} ({record.label})", record.text))
    return out


def _write_page(path: Path, text: str) -> bool:
    """Put ``text`` in ``path`` unless it holds that already; True when written."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    replace_file(path, text)
    return True


def _turn_page(game: Game, report: TurnReport[Any], label: str, press: list[PressItem],
               before: tuple[int, str] | None, after: tuple[int, str] | None) -> str:
    """The archive page of one played turn; ``before`` and ``after``: the turns
    next to it (number and label), if any."""
    ruleset = game.ruleset
    text = game.history.report(report.turn)
    return render_turn_page(
        report, text if text is not None else ruleset.render_report(report),
        label=label, pictures=ruleset.render_pictures(report),
        prev_href=turn_page_name(before[0]) if before else None,
        next_href=turn_page_name(after[0]) if after else None,
        prev_label=before[1] if before else None, next_label=after[1] if after else None,
        press=press, document=ruleset.report_document(report),
        move_svgs=ruleset.render_move_svgs(report))


def write_archive(game: Game, out_dir: Path, *,
                  progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """Write ``index.html`` and one ``turn-NNN.html`` per adjudicated turn, each
    turn page drawn only when something it is drawn from changed since it was
    last drawn (``pbmref.archive.drawn``); returns the pages written (those
    that changed). ``progress`` hears each turn done and how many there are."""
    out_dir.mkdir(parents=True, exist_ok=True)
    ruleset = game.ruleset
    played = [t for t in game.turn_numbers() if game.history.is_adjudicated(t)]
    shown = shown_players(game)
    names = shown.shown_names()
    record = DrawnPages(out_dir)
    inputs = record.inputs(game, shown, played)
    reports: dict[int, TurnReport[Any]] = {}

    def report_of_turn(turn: int) -> TurnReport[Any]:
        if turn not in reports:
            reports[turn] = stored_report(game, turn)
        return reports[turn]

    drawn: dict[int, TurnDrawn] = {}
    for turn in played:  # each turn's label and line of the index, known or worked out
        known = record.known(turn, inputs[turn])
        if known is None:
            report = report_of_turn(turn)
            known = TurnDrawn(inputs[turn], ruleset.report_label(report),
                              summary(ruleset.encode_events(report.events,
                                                            report.position_before), names))
        drawn[turn] = known
    written: list[Path] = []
    links: list[TurnLink] = []
    for i, turn in enumerate(played):
        before = (played[i - 1], drawn[played[i - 1]].label) if i > 0 else None
        after = (played[i + 1], drawn[played[i + 1]].label) if i + 1 < len(played) else None
        press = broadcast_press(game, turn, shown)
        page_key = record.page_key(inputs[turn], press, before, after)
        path = out_dir / turn_page_name(turn)
        if not record.is_current(turn, page_key, path):
            page = _turn_page(game, report_of_turn(turn), drawn[turn].label, press,
                              before, after)
            if _write_page(path, page):
                written.append(path)
            record.drew(turn, replace(drawn[turn], page=page_key), path)
        if progress is not None:
            progress(i + 1, len(played))
        label = drawn[turn].label
        links.append(TurnLink(turn, path.name, drawn[turn].summary,
                              label=label[:1].upper() + label[1:]))
    final = final_report(game)
    if final is not None:  # J14: the archive's last page
        path = out_dir / FINAL_PAGE
        if _write_page(path, render_final_page(final, last_turn_href=links[-1].href)):
            written.append(path)
        links.append(TurnLink(played[-1] + 1, FINAL_PAGE, final.ending, label="Final report"))
    status = f"turn {game.turn} open" if game.settings.status == "open" else \
        game.settings.status
    index = render_index(game.id, game.settings.title, links, ruleset=game.settings.ruleset,
                         map_svg=ruleset.render_position_svg(shown.position(game.position),
                                                             names),
                         status_line=status,
                         press=broadcast_press(game, game.turn, shown))
    path = out_dir / "index.html"
    if _write_page(path, index):
        written.append(path)
    record.save(played)
    return written
