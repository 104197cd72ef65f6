"""``pbmref render GAME``: the game's HTML archive (and the map as SVG).

Writes ``OUT/<game>/index.html`` and one ``turn-NNN.html`` per adjudicated
turn (default OUT: ``archive``); ``--svg FILE`` also writes the open turn's
map as a picture. The pages need nothing from outside: open them from disk.
Run again, it draws only the pages whose inputs changed (after one more
turn: that turn's page, the one before it and the index), from the record
it keeps beside them (``pbmref.archive.drawn``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pbmref.archive import shown_players, write_archive
from pbmref.cli.common import add_config, games_dir
from pbmref.cli.progress import Progress
from pbmref.store import GameStore, StoreError

__all__ = ["register"]


def handle_render(args: argparse.Namespace) -> int:
    started = time.monotonic()
    progress = Progress(f"render {args.game}")
    try:
        game = GameStore(games_dir(args)).open(args.game)
        out = Path(args.out) / game.id
        try:
            written = write_archive(game, out, progress=progress.turn)
        finally:
            progress.done()
        if args.svg:
            shown = shown_players(game)  # as players see them (an anonymous game's aliases)
            svg = game.ruleset.render_position_svg(shown.position(game.position),
                                                   shown.shown_names())
            if svg is None:
                print(f"error: {game.ruleset.title} has no map picture", file=sys.stderr)
                return 1
            Path(args.svg).write_text(svg, encoding="utf-8")
            written.append(Path(args.svg))
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot write the archive: {exc}", file=sys.stderr)
        return 1
    played = sum(1 for t in game.turn_numbers() if game.history.is_adjudicated(t))
    print(f"{game.id}: {said_written(written, out, played)} "
          f"({time.monotonic() - started:.1f} s)")
    if args.svg:
        print(f"{game.id}: map of turn {game.turn} in {args.svg}")
    return 0


def said_written(written: list[Path], out: Path, played: int) -> str:
    """What ``render`` wrote, in words: which pages were drawn and which were
    up to date already.

    >>> said_written([Path("a/turn-003.html"), Path("a/index.html")], Path("a"), 3)
    'drew 1 turn page (2 up to date) and index.html in a/'
    >>> said_written([Path("a/index.html")], Path("a"), 0)
    'wrote index.html in a/ (no turn played yet)'
    >>> said_written([], Path("a"), 2)
    'nothing changed, 2 turn pages and index.html up to date in a/'
    """
    turns = sum(1 for p in written if p.name.startswith("turn-"))
    index = any(p.name == "index.html" for p in written)
    if not played:
        return f"wrote index.html in {out}/ (no turn played yet)" if index else \
            f"nothing changed, index.html up to date in {out}/ (no turn played yet)"
    kept = played - turns
    up_to_date = f" ({kept} up to date)" if kept and turns else ""
    if not turns and not index:
        return (f"nothing changed, {played} turn page{'s' if played != 1 else ''} and "
                f"index.html up to date in {out}/")
    pages = f"drew {turns} turn page{'s' if turns != 1 else ''}{up_to_date}"
    return f"{pages} and {'index.html' if index else 'kept index.html'} in {out}/"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("render", help="write a game's HTML archive and map pictures",
                       description="Write OUT/GAME/index.html and one page per played turn "
                                   "(map and report), for reading offline.")
    p.add_argument("game", metavar="GAME", help="the game id")
    add_config(p)
    p.add_argument("--out", metavar="DIR", default="archive",
                   help="where the archive goes (default: ./archive)")
    p.add_argument("--svg", metavar="FILE", help="also write the open turn's map as SVG")
    p.set_defaults(func=handle_render)
