"""The game master's side of the lobby and the judge's rules (issue 45, J1-J14).

- ``pbmref new-game GAME --forming --places N`` (``handle_new_forming``): a
  forming game that players join by mail; ``pbmref new-class FILE --forming
  --places N`` the same for a Fast Play class (the file without pilots);
- ``pbmref start GAME [--seat ADDRESS=PLACE ...]``: start a forming game now,
  with whoever joined, and mail everyone their place and password (J4);
- the deadline and draw options of ``new-game`` (``add_judge_options``,
  ``judge_settings``: game.yaml's ``deadlines``, ``draws``, ``takeover``);
- the forming games in ``pbmref status`` (``forming_lines``) and ``pbmref check``
  (``check_forming``).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TypedDict

from pbmref.base.times import parse_duration
from pbmref.base.yamlfile import read_yaml
from pbmref.cli.common import add_config, config_of, early_delay_option, games_dir
from pbmref.gm.forming import new_forming
from pbmref.store import GameStore, StoreError
from pbmref.store.deadlines import WEEKDAYS
from pbmref.store.lobby import CHOICES, Lobby
from pbmref.store.settings import DRAW_KINDS, TAKEOVERS

__all__ = ["add_forming_options", "add_judge_options", "check_forming", "forming_lines",
           "handle_new_forming", "judge_settings", "register"]


def _length_or_zero(text: str) -> str:
    """A length of time for the deadline options (``0``: none)."""
    if text.strip() not in ("0", "0h", "0d"):
        try:
            parse_duration(text)  # a bad one is said against the option
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip()


def add_judge_options(p: argparse.ArgumentParser) -> None:
    """The options of the judge's rules (J7-J13), for new-game and new-game --forming."""
    g = p.add_argument_group("deadlines, draws and places (docs/rules/judge.md)")
    g.add_argument("--grace", type=_length_or_zero, metavar="DURATION",
                   help="J10: wait this long after a deadline for late orders (e.g. 24h)")
    g.add_argument("--days", metavar="DAYS",
                   help="J8: the days a deadline may fall on, e.g. mon,tue,wed,thu,fri")
    g.add_argument("--min-gap", type=_length_or_zero, metavar="DURATION",
                   help="J9: the shortest time between two adjudications")
    g.add_argument("--retreats", type=_length_or_zero, metavar="DURATION",
                   help="J8: the clock of retreat phases (default: the turn length)")
    g.add_argument("--adjustments", type=_length_or_zero, metavar="DURATION",
                   help="J8: the clock of adjustment phases (default: the turn length)")
    g.add_argument("--absence-longest", type=_length_or_zero, metavar="DURATION",
                   help="J11: the longest one absence may be (default 7d; 0: no absences)")
    g.add_argument("--absence-total", type=_length_or_zero, metavar="DURATION",
                   help="J11: the days of absence a player may take in the game (default 21d)")
    g.add_argument("--draws", metavar="KINDS",
                   help=f"J13: the draws allowed, of {', '.join(DRAW_KINDS)} (e.g. all,named; "
                        "none: no draws); default: all")
    g.add_argument("--open-votes", action="store_true",
                   help="J13: reports say who votes for which draw (default: secret votes)")
    g.add_argument("--takeover", choices=TAKEOVERS,
                   help="J7: who may take over a place given up (default: anyone)")


class JudgeSettings(TypedDict, total=False):
    """game.yaml's keys the judging options set (new_game's keywords of them)."""

    deadlines: Mapping[str, object]
    draws: Mapping[str, object]
    takeover: str


def judge_settings(args: argparse.Namespace) -> JudgeSettings:
    """game.yaml's ``deadlines``, ``draws`` and ``takeover`` from the options
    (only those given)."""
    out: JudgeSettings = {}
    deadlines = _deadline_options(args)
    if deadlines:
        out["deadlines"] = deadlines
    if getattr(args, "draws", None) is not None or getattr(args, "open_votes", False):
        out["draws"] = _draw_options(args)
    if getattr(args, "takeover", None):
        out["takeover"] = args.takeover
    return out


def _deadline_options(args: argparse.Namespace) -> dict[str, object]:
    """game.yaml's ``deadlines`` from the options given (--days checked)."""
    deadlines: dict[str, object] = {}
    for key in ("grace", "min_gap", "retreats", "adjustments", "absence_longest",
                "absence_total"):
        value = getattr(args, key, None)
        if value is not None:
            deadlines[key] = value
    if getattr(args, "days", None):
        days = [d.strip().lower()[:3] for d in args.days.split(",") if d.strip()]
        bad = [d for d in days if d not in WEEKDAYS]
        if bad:
            raise ValueError(f"--days: {bad[0]!r} is not a day ({', '.join(WEEKDAYS)})")
        deadlines["days"] = days
    return deadlines


def _draw_options(args: argparse.Namespace) -> dict[str, object]:
    """game.yaml's ``draws``: the kinds --draws allows (all by default), and
    whether the votes are secret (unless --open-votes)."""
    allow = [] if (args.draws or "all") == "none" else [
        k.strip() for k in (args.draws or "all").split(",") if k.strip()]
    bad = [k for k in allow if k not in DRAW_KINDS]
    if bad:
        raise ValueError(f"--draws: {bad[0]!r} is not one of {', '.join(DRAW_KINDS)}")
    return {"allow": allow, "secret": not args.open_votes}


def add_forming_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("a forming game (J2-J4): players join by mail")
    g.add_argument("--forming", action="store_true",
                   help="make a game that players join by mail (JOIN GAME); it starts when "
                        "--places are taken, or with pbmref start GAME")
    g.add_argument("--places", type=int, metavar="N", help="with --forming: how many players")
    g.add_argument("--choice", choices=CHOICES, default="preference",
                   help="with --forming: the players' preference (JOIN GAME FRA ENG) gives "
                        "the places, or the game master (pbmref start --seat)")


def handle_new_forming(args: argparse.Namespace) -> int:
    """``new-game --forming`` (and ``new-class --forming``)."""
    if not args.places:
        raise ValueError("--forming needs --places N: how many players start the game")
    if getattr(args, "player", None):
        raise ValueError("a forming game has no players yet: they JOIN by mail "
                         "(leave out --player)")
    store = GameStore(games_dir(args))
    cfg = config_of(args)
    klass = None
    game: dict[str, object] = {}
    if getattr(args, "template", None):  # new-class --forming
        data = read_yaml(args.template).mapping("a class file")
        klass = {k: v for k, v in data.items() if k not in ("pilots", "class", "title")}
        game_id, title, ruleset = str(data.get("class") or ""), str(data.get("title") or ""), \
            "fastplay"
    else:
        game_id, title, ruleset = args.game, args.title or "", args.ruleset
        for key in ("variant", "timezone", "turn_length", "press"):
            if getattr(args, key, None) is not None:
                game[key] = getattr(args, key)
        if early_delay_option(args) is not None:
            game["early_delay"] = early_delay_option(args)
        if "board_side" in store.ruleset_loader(args.ruleset).board_options:
            game["board_side"] = args.board_side
        game.update(anonymous=args.anonymous, early_adjudication=not args.no_early,
                    reminder_hours=(args.reminder_hours if args.reminder_hours is not None
                                    else cfg.deadlines.reminder_hours),
                    computer_sides=args.computer_sides)
        game.update(judge_settings(args))
    forming = new_forming(store, game_id, ruleset=ruleset, places=args.places,
                          title=title, choice=args.choice, game=game, klass=klass,
                          observers=getattr(args, "observer", None) or (),
                          seed=getattr(args, "seed", None),
                          refused_addresses=cfg.referee_addresses)
    print(f"forming {forming.id}: {forming.places} places, given by "
          f"{'the players preference' if forming.choice == 'preference' else 'you'} (J4)")
    print(f"  {Lobby(store.dir).path(forming.id)}")
    print(f"  players join by mail: JOIN {forming.id} (LIST {forming.id} shows it); it starts "
          f"when every place is taken, or with: pbmref start {forming.id}")
    return 0


def handle_start(args: argparse.Namespace) -> int:
    from pbmref.referee.lobby import mail_start

    seats: dict[str, str] = {}
    for text in args.seat or []:
        address, _, place = text.partition("=")
        if not place:
            raise ValueError(f"--seat {text!r}: write ADDRESS=PLACE, e.g. "
                             "anna@example.org=FRA")
        seats[address.strip()] = place.strip()
    store = GameStore(games_dir(args))
    started = mail_start(store, args.game, config=config_of(args), seats=seats)
    for gid, passwords in started.games.items():
        game = store.open(gid)
        print(f"started {gid} with {len(game.settings.humans())} players; their places and "
              f"passwords are mailed (J4)")
        for pid in passwords:
            place = game.ruleset.place_of(game.position, pid)
            print(f"  {pid:<12} {place:<8} {', '.join(game.settings.players[pid].addresses)}")
    return 0


def forming_lines(store: GameStore, game_id: str | None = None) -> list[str]:
    """The forming games for ``pbmref status``: a line each; with ``game_id``,
    that one game's line and who joined it (none when it is not forming)."""
    lobby = Lobby(store.dir)
    out = []
    for gid in lobby.ids() if game_id is None else [game_id] if lobby.exists(game_id) else []:
        try:
            forming = lobby.read(gid)
        except StoreError as exc:
            out.append(f"{gid}: forming, cannot be read: {exc}")
            continue
        who = ", ".join(f"{p.name or p.address} <{p.address}>" for p in forming.players)
        out.append(f"{gid}: forming, {len(forming.players)} of {forming.places} places taken"
                   + (f" ({who})" if who and game_id is None else "")
                   + f"; pbmref start {gid} starts it now")
        if game_id is not None:
            out += [f"  {p.name or p.address} <{p.address}>"
                    + (f" wants {', '.join(p.wants)}" if p.wants else "") for p in forming.players]
            out += [f"  observer {a}" for a in forming.observers]
    return out


def check_forming(store: GameStore, game_id: str | None = None) -> tuple[list[str], int]:
    """``pbmref check`` of the forming games (or of ``game_id``, when it is one):
    a line each, and how many cannot be read."""
    lobby = Lobby(store.dir)
    out, bad = [], 0
    for gid in lobby.ids() if game_id is None else [game_id] if lobby.exists(game_id) else []:
        try:
            forming = lobby.read(gid)
        except StoreError as exc:
            bad += 1
            out.append(f"{gid}: forming, 1 problem; it cannot be joined or started until it is "
                       f"fixed\n  {exc}")
            continue
        out.append(f"{gid}: forming, ok ({len(forming.players)} of {forming.places} places "
                   "taken)")
    return out, bad


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from pbmref.cli.gm import _guard

    p = sub.add_parser("start", help="start a forming game now, with whoever joined (J4)",
                       description="Start a forming game (new-game --forming) with the "
                       "players who joined so far, and mail each their place and password.")
    add_config(p)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--seat", action="append", metavar="ADDRESS=PLACE",
                   help="your choice of a player's place (a game of --choice gm; places "
                        "not given are drawn)")
    p.set_defaults(func=_guard(handle_start))
