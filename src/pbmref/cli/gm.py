"""The game master's commands: new-game, check, status, rerun, extend, pause,
resume, replace-player, new-password, kick, add-observer.

Every command takes ``--games DIR`` (default: ``games_dir`` of the config
file, found by the one rule of ``pbmref.cli.common``). The single-game
``adjudicate GAME`` lives with ``adjudicate --due`` in ``cli/mailcmd.py`` and
calls ``pbmref.gm.adjudicate``. ``new-game`` and ``replace-player`` mail each
new player a welcome (``--welcome``, on when a config file was found:
``pbmref.referee.welcome``).
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import Any

from pbmref import gm
from pbmref.base.times import parse_datetime, parse_duration
from pbmref.base.yamlfile import read_yaml
from pbmref.cli import jsonout
from pbmref.cli.common import (
    add_config,
    config_of,
    early_delay_flag,
    early_delay_option,
    games_dir,
)
from pbmref.cli.lobby import (
    add_forming_options,
    add_judge_options,
    check_forming,
    forming_lines,
    handle_new_forming,
    judge_settings,
)
from pbmref.cli.progress import Progress
from pbmref.config import Config
from pbmref.referee import Referee, mail_notice, mail_reports
from pbmref.referee.newpassword import mail_new_password
from pbmref.referee.state import RefereeState
from pbmref.referee.welcome import mail_welcome
from pbmref.rulesets import PRESS_LEVELS, RULESETS
from pbmref.store import GameStore, StoreError

__all__ = ["register", "wants_welcome", "welcome_flag"]


def _store(args: argparse.Namespace) -> GameStore:
    return GameStore(games_dir(args))


def welcome_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--welcome", action=argparse.BooleanOptionalAction, default=None,
                   help="mail each player a welcome: game, password, what they play, the "
                        "deadline and HELP (default: on when a config file was found, see --config)")


def wants_welcome(args: argparse.Namespace) -> Config | None:
    """The config to mail welcomes with, or None when they are not wanted (by
    default they are when a config file was found, not with the built-in one)."""
    cfg = config_of(args)
    if args.welcome is False or (args.welcome is None and cfg.source is None):
        return None
    return cfg


def _fail(message: str, code: int = 1) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def _guard(handler: Any) -> Any:
    """Turn our errors into one plain line on stderr, never a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return int(handler(args) or 0)
        except StoreError as exc:
            return _fail(str(exc))
        except (ValueError, KeyError) as exc:
            return _fail(str(exc.args[0]) if exc.args else str(exc))
        except Exception as exc:  # the config module's ConfigError and the like
            if type(exc).__name__.endswith("Error") and type(exc).__module__.startswith(
                    "pbmref."):
                return _fail(str(exc))
            raise

    return run


# ------------------------------------------------------------------ new-game


def _player(text: str, computer: bool = False) -> gm.PlayerSpec:
    """``ID:ADDRESS[:NAME[:AIRFIELD]]``, or for a computer player ``ID[:NAME[:AIRFIELD]]``."""
    parts = text.split(":")
    if computer:
        name = parts[1] if len(parts) > 1 else ""
        field = parts[2] if len(parts) > 2 else ""
        return gm.PlayerSpec(parts[0], (), name or parts[0], True, field or None)
    if len(parts) < 2 or not parts[1].strip():
        raise ValueError(f"{text!r} has no mail address: write a player as "
                         "ID:ADDRESS[:NAME[:AIRFIELD]], e.g. anna:anna@example.org:Anna "
                         "(a computer pilot: --computer-player ID)")
    pid, address = parts[0], parts[1]
    name = parts[2] if len(parts) > 2 else ""
    airfield = parts[3] if len(parts) > 3 else None
    return gm.PlayerSpec(pid, (address,), name or pid, False, airfield or None)


def _cloud(text: str) -> dict[str, object]:
    kind, _, hexes = text.partition(":")
    if not hexes:
        raise ValueError(f"{text!r}: write a cloud as KIND:HEX,HEX (KIND cloud or storm)")
    return {"kind": kind, "hexes": [h.strip() for h in hexes.split(",") if h.strip()]}


def _wind(text: str) -> dict[str, object]:
    to, _, strength = text.partition(":")
    try:
        return {"to": to.upper(), "strength": int(strength or 1)}
    except ValueError:
        raise ValueError(f"{text!r}: write the wind as TO:STRENGTH, e.g. SW:1") from None


def _setting(text: str) -> tuple[str, int]:
    key, _, value = text.partition("=")
    try:
        return key.strip(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write a setting as NAME=NUMBER") from None


def handle_new_game(args: argparse.Namespace) -> int:
    if args.forming:
        return handle_new_forming(args)
    players = [_player(p) for p in args.player or []]
    players += [_player(p, computer=True) for p in args.computer_player or []]
    try:
        deadline = datetime.fromisoformat(args.deadline) if args.deadline else None
    except ValueError:
        return _fail(f"--deadline {args.deadline!r} is not a date and time like "
                     "2026-12-08T20:00")
    cfg = config_of(args)  # its ``deadlines`` section gives the defaults below
    result = gm.new_game(
        _store(args), args.game, players, title=args.title or "", ruleset=args.ruleset,
        board_side=args.board_side, wind=_wind_option(args), clouds=[_cloud(c) for c in args.cloud or []],
        zeppelin=None if args.zeppelin == "none" else args.zeppelin,
        zeppelin_length=args.zeppelin_length,
        zeppelin_hexes=args.zeppelin_hexes.split(",") if args.zeppelin_hexes else None,
        zeppelin_heading=args.zeppelin_heading,
        rule_settings=dict(args.setting or []), variant=args.variant, position=_position_option(args),
        timezone=args.timezone,
        deadline=deadline, turn_length=args.turn_length,
        reminder_hours=(args.reminder_hours if args.reminder_hours is not None
                        else cfg.deadlines.reminder_hours),
        early_adjudication=not args.no_early and cfg.deadlines.early_adjudication,
        early_delay=early_delay_option(args), anonymous=args.anonymous, press=args.press,
        passwords=not args.no_passwords, observers=args.observer or [],
        computer_sides=args.computer_sides, seed=args.seed,
        refused_addresses=cfg.referee_addresses, **judge_settings(args),
    )
    _say_created(result)
    _welcome_all(args, result.passwords)
    return 0


def _position_option(args: argparse.Namespace) -> dict[str, object] | None:
    """The position of ``--position FILE`` (a scenario file's orders, expect and
    seed left out)."""
    if not args.position:
        return None
    position = read_yaml(args.position).mapping("a position (scenario schema)")
    for key in ("orders", "expect", "seed"):
        position.pop(key, None)
    return position


def _wind_option(args: argparse.Namespace) -> dict[str, object] | None:
    wind = _wind(args.wind) if args.wind else None
    if wind is not None:
        wind["changes"] = bool(args.wind_changes)
    return wind


def _say_created(result: gm.NewGame) -> None:
    """What ``new-game`` made: the game, its first deadline, press, passwords."""
    game = result.game
    print(f"created {game.dir} ({gm.game_kind(game)}, {len(game.settings.players)} players)")
    print(f"  {result.placement}")
    deadline = game.settings.deadline
    print(f"  deadline of {game.ruleset.words.turn(game.turn_label)}: "
          f"{deadline.isoformat() if deadline else '-'}")
    if result.computer_sides:
        print(f"  the computer plays {', '.join(result.computer_sides)} "
              "(replace-player gives a place to a person)")
    if result.unplayed:
        print(f"  warning: {result.unplayed_note}")
    print(f"  press: {game.press_level}")
    if result.passwords:
        print("passwords (shown once; only their hashes are stored):")
        for pid, pw in result.passwords.items():
            addresses = ", ".join(game.settings.players[pid].addresses)
            print(f"  {pid:<12} {pw:<28} {addresses}")


def _welcome_all(args: argparse.Namespace, passwords: dict[str, str]) -> None:
    """Mail every player of the new game their welcome, when wanted."""
    welcome = wants_welcome(args)
    if welcome is not None:
        count = mail_welcome(_store(args), args.game, passwords, config=welcome)
        print(f"  welcome mailed to {count} player{'s' if count != 1 else ''}")


# ------------------------------------------------------------------ check, status


def handle_check(args: argparse.Namespace) -> int:
    store = _store(args)
    named = args.game or []
    forming = [check_forming(store, g) for g in named] if named else [check_forming(store)]
    ids = [g for g, (lines, _) in zip(named, forming, strict=True) if not lines] if named \
        else store.list_games()
    if args.json:
        return _check_json(store, ids, forming)
    if not ids and not any(lines for lines, _ in forming):
        print(f"no games in {store.dir}")
        return 0
    bad = sum(b for _, b in forming)
    for lines, _ in forming:
        for line in lines:
            print(line)
    for game_id in ids:
        bad += not _say_check(gm.check(store, game_id))
    return 1 if bad else 0


def _check_json(store: GameStore, ids: list[str], forming: list[tuple[list[str], int]]) -> int:
    """``check --json``: one object with each game's result and the forming games' lines."""
    results = [gm.check(store, game_id) for game_id in ids]
    jsonout.emit("check", games=[
        {"id": r.game_id, "ok": r.ok, "files": r.files, "turn": r.turn,
         "warnings": r.warnings, "problems": [jsonout.problem(e) for e in r.problems]}
        for r in results], forming=[line for lines, _ in forming for line in lines])
    bad = sum(b for _, b in forming) + sum(1 for r in results if not r.ok)
    return 1 if bad else 0


def _say_check(result: gm.CheckResult) -> bool:
    """One game's check as lines (its notes, or its problems); whether it is ok."""
    if result.ok:
        print(f"{result.game_id}: ok ({result.files} files, open turn {result.turn})")
        for warning in result.warnings:
            print(f"  note: {warning}")
        return True
    print(f"{result.game_id}: {len(result.problems)} problem(s); it is not adjudicated "
          "until they are fixed")
    for problem in result.problems:
        print(f"  {problem}")
    return False


def handle_status(args: argparse.Namespace) -> int:
    store = _store(args)
    forming = forming_lines(store, args.game)
    ids = [] if args.game and forming else [args.game] if args.game else store.list_games()
    state = RefereeState.load(config_of(args).spool_dir / "referee-state.json")
    if args.json:
        return _status_json(args, store, ids, state, forming)
    if not ids and not forming:
        print(f"no games in {store.dir}")
    code = 0
    for line in forming:
        print(line)
    for game_id in ids:
        try:
            print(gm.status(store, game_id).text())
        except StoreError as exc:
            print(f"{game_id}: cannot be read: {exc}")
            code = 1
        for line in _password_failures(state, game_id):
            print(line)
    for line in _referee_health(config_of(args), whole=not args.game):
        print(line)
    return code


def _status_json(args: argparse.Namespace, store: GameStore, ids: list[str],
                 state: RefereeState, forming: list[str]) -> int:
    """``status --json`` (docs/json.md): the games, forming ones as their lines,
    and the referee's health (its spool is read only where it exists)."""
    from pbmref.mail.health import last_round, trouble

    now = datetime.now(UTC)
    config = config_of(args)
    games, unreadable = [], []
    for game_id in ids:
        try:
            doc = jsonout.game_status(gm.status(store, game_id))
        except StoreError as exc:
            unreadable.append({"id": game_id, "problem": jsonout.problem(exc)})
            continue
        doc["password_failures"] = jsonout.password_failures(
            f for f in state.password_failures(game_id, now) if f.last_day)
        games.append(doc)
    health: dict[str, object] = {"last_round": None, "queued": 0, "queued_since": None,
                              "failed": 0, "set_aside": 0}
    if config.spool_dir.is_dir():
        from pbmref.mail.factory import open_spools

        incoming, outgoing = open_spools(config)
        queued = [e.created for e in outgoing.queued()]
        health = {"last_round": jsonout.when(last_round(config.spool_dir)),
                  "queued": len(queued), "queued_since": jsonout.when(min(queued, default=None)),
                  "failed": len(outgoing.failed()), "set_aside": len(incoming.shunted())}
    jsonout.emit("status", games=games, forming=forming, unreadable=unreadable,
                 referee=health, mail_trouble=[t.line(now) for t in trouble(config.spool_dir)])
    return 1 if unreadable else 0


def _referee_health(config: Config, *, whole: bool) -> list[str]:
    """What ``pbmref status`` shows of the referee (issue 44): the servers failing
    now; and for the whole house (no game named), its last good round and the
    mail waiting to go, set aside or refused. A spool never made is not made."""
    from pbmref.mail.health import referee_lines, trouble

    now = datetime.now(UTC)
    if not whole or not config.spool_dir.is_dir():
        return [f"referee: {t.line(now)}" for t in trouble(config.spool_dir)]
    from pbmref.mail.factory import open_spools

    incoming, outgoing = open_spools(config)
    return referee_lines(config.spool_dir, queued=[e.created for e in outgoing.queued()],
                         failed=len(outgoing.failed()), set_aside=len(incoming.shunted()),
                         now=now)


def _password_failures(state: RefereeState, game_id: str) -> list[str]:
    """What ``pbmref status`` shows of mails with a wrong or missing password
    (issue 15: the game master sees attacks); none in a day: nothing."""
    now = datetime.now(UTC)
    found = [f for f in state.password_failures(game_id, now) if f.last_day]
    if not found:
        return []
    lines = ["  mails with a wrong or missing password (nothing was changed by them):"]
    for f in found:
        last = f.last_at.strftime("%a %d %b %H:%M UTC") if f.last_at else "-"
        lines.append(f"    {f.player:<12} {f.last_hour} in the last hour, {f.last_day} in "
                     f"the last day, {f.total} in all; last {last} from {f.last_from}")
    lines.append(f"    (a new password: pbmref new-password {game_id} PLAYER)")
    return lines


# ------------------------------------------------------------------ rerun


def _mail_reports(args: argparse.Namespace, store: GameStore, result: gm.RerunResult) -> int:
    turns = sorted(set(result.changed_reports))
    mail_reports(store, result.game_id, turns, config=config_of(args), why=args.why or "",
                 before=result.before, new_dice=result.new_dice)
    print(f"mailed the new reports of turn(s) {', '.join(map(str, turns))}")
    return 0


def handle_rerun(args: argparse.Namespace) -> int:
    store = _store(args)
    progress = Progress(f"rerun {args.game}")
    try:
        result = gm.rerun(store, args.game, args.from_turn, dry_run=args.dry_run,
                          progress=progress.turn)
    finally:
        progress.done()
    sys.stdout.write(result.text())
    if args.mail:
        if args.dry_run:
            print("--mail ignored with --dry-run")
        elif result.changed_reports:
            return _mail_reports(args, store, result)
        else:
            print("no report changed: nothing to mail")
    return 0


# ------------------------------------------------------------------ deadlines and players


def _tell_players(args: argparse.Namespace, change: str) -> None:
    """Mail every player the notice of ``change`` through the referee's config
    (``--config``, ``$PBMREF_CONFIG`` or ``./config.yaml``), unless ``--no-mail``;
    with the built-in defaults only, the game master is told instead (nothing is
    written into the current folder)."""
    if args.no_mail:
        return
    config = config_of(args)
    if config.source is None:
        print("  players not told: give the referee's --config (or set PBMREF_CONFIG) "
              "to mail them the notice")
        return
    store = _store(args)
    count = mail_notice(store, gm.notice(store, args.game, change), config=config)
    print(f"  notice mailed to {count} address{'es' if count != 1 else ''}")


def handle_extend(args: argparse.Namespace) -> int:
    new = gm.extend(_store(args), args.game, parse_duration(args.by))
    print(f"{args.game}: deadline now {new.isoformat()}")
    _tell_players(args, "extend")
    return 0


def handle_pause(args: argparse.Namespace) -> int:
    store = _store(args)
    until = None
    if args.until:
        until = parse_datetime(args.until, store.open(args.game).settings.zone)
    gm.pause(store, args.game, until=until)
    # Conformance: say what players get -- the referee answers order mail to a
    # paused game with "paused ... orders are not taken" (replies.game_closed).
    print(f"{args.game}: paused (nothing is adjudicated; order mail is answered "
          "'paused' and not used until resume"
          + (f"; the reply says it resumes {until.isoformat()}, "
             "then run pbmref resume)" if until else ")"))
    _tell_players(args, "pause")
    return 0


def handle_resume(args: argparse.Namespace) -> int:
    deadline = gm.resume(_store(args), args.game, datetime.now(UTC))
    print(f"{args.game}: open again, deadline {deadline.isoformat() if deadline else '-'}")
    _tell_players(args, "resume")
    return 0


def handle_replace_player(args: argparse.Namespace) -> int:
    change = gm.replace_player(_store(args), args.game, args.player, address=args.address,
                               name=args.name, computer=True if args.computer else None,
                               refused_addresses=config_of(args).referee_addresses)
    print(f"{args.game}: player {args.player} updated (old settings kept as "
          f"{change.settings_kept_as.name if change.settings_kept_as else '-'})")
    if change.password:
        print(f"  new password for {args.player}: {change.password} (mail it to "
              f"{args.address})")
    welcome = wants_welcome(args)
    if welcome is not None and change.password is not None:
        mail_welcome(_store(args), args.game, {args.player: change.password},
                     players=[args.player], config=welcome)
        print(f"  welcome mailed to {args.address}")
    return 0


def handle_new_password(args: argparse.Namespace) -> int:
    store = _store(args)
    change = gm.reset_password(store, args.game, args.player)
    assert change.password is not None
    game = store.open(args.game)
    address = game.settings.players[args.player].addresses[0]
    became = mail_new_password(Referee(config_of(args), store=store), game, args.player,
                               change.password)
    print(f"{args.game}: {args.player} has a new password; the old one no longer works")
    print({"sent": f"  mailed to {address}",
           "queued": f"  queued for {address}: the referee tries again (pbmref mail deliver)",
           "failed": f"  the mail to {address} failed for good: run this command again"}[became])
    return 1 if became == "failed" else 0


def handle_kick(args: argparse.Namespace) -> int:
    change = gm.kick(_store(args), args.game, args.player)
    print(f"{args.game}: {args.player} kicked; mails from them are ignored"
          + ("; aircraft removed from the open turn" if change.position_kept_as else ""))
    return 0


def handle_add_observer(args: argparse.Namespace) -> int:
    change = gm.add_observer(_store(args), args.game, args.address,
                             refused_addresses=config_of(args).referee_addresses)
    print(f"{args.game}: {args.address} " + ("is an observer already" if change is None
                                             else "added as observer"))
    return 0


# ------------------------------------------------------------------ registration


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("new-game", help="create a game folder (prints the passwords)",
                       description="Create games/GAME with its settings and turn 1.")
    add_config(p)
    p.add_argument("game", metavar="GAME", help="game id: a-z, 0-9, '-', '_' (max 32)")
    p.add_argument("--player", action="append", metavar="ID:ADDRESS[:NAME[:AIRFIELD]]",
                   help="a player; for --ruleset diplomacy/dirigible the fourth field is "
                   "the power (AUS ENG FRA GER ITA RUS TUR), else powers go in that order")
    p.add_argument("--computer-player", action="append", metavar="ID[:NAME[:AIRFIELD]]")
    p.add_argument("--computer-sides", "--computer-powers", action="store_true",
                   help="computer players for every side nobody plays (Diplomacy: the "
                        "powers without a player; else they are in civil disorder)")
    p.add_argument("--title")
    p.add_argument("--ruleset", default="tweedekker",
                   choices=sorted(RULESETS))
    p.add_argument("--variant", metavar="NAME",
                   help="--ruleset diplomacy/dirigible: the variant played (default: the "
                        "standard game, or Dirigible Diplomacy); see docs/variants.md")
    p.add_argument("--position", metavar="FILE",
                   help="turn 1's position (scenario file) instead of building one")
    p.add_argument("--board-side", type=int, default=10, help="hexes per side (rule B1)")
    p.add_argument("--wind", metavar="TO:STRENGTH", help="e.g. SW:1 (rule W1)")
    p.add_argument("--wind-changes", action="store_true", help="the wind may change (W3)")
    p.add_argument("--cloud", action="append", metavar="KIND:HEX,HEX",
                   help="cloud or storm group, e.g. storm:J12,K12 (rule C1)")
    p.add_argument("--zeppelin", choices=("controlled", "drifting", "none"),
                   default="controlled", help="Z6 controlled (default), Z3 drifting")
    p.add_argument("--zeppelin-length", type=int, choices=(1, 2), default=2)
    p.add_argument("--zeppelin-hexes", metavar="HEX[,HEX]", help="drifting: where (nose first)")
    p.add_argument("--zeppelin-heading", metavar="HEADING")
    p.add_argument("--setting", action="append", type=_setting, metavar="NAME=NUMBER",
                   help="a rule setting, e.g. bomb_damage_cap=2")
    p.add_argument("--timezone", default="UTC", help="IANA zone, e.g. Europe/Berlin")
    p.add_argument("--deadline", help="turn 1 deadline, ISO (default: turn length from now)")
    p.add_argument("--turn-length", default="48h")
    p.add_argument("--reminder-hours", type=float, default=None,
                   help="remind players without orders this many hours before the deadline "
                        "(default: deadlines.reminder_hours of the config, 24 in the "
                        "built-in one; 0: never)")
    p.add_argument("--no-early", action="store_true",
                   help="never adjudicate before the deadline")
    early_delay_flag(p)
    p.add_argument("--anonymous", action="store_true",
                   help="players and observers never learn another player's name, address "
                        "or id: everything they get names each player by side (Pilot N, "
                        "German pilot 2, France); pbmref status and press still show names")
    p.add_argument("--press", choices=PRESS_LEVELS,
                   help="press the referee relays between players: none, white (the sender "
                        "named), grey (PRESS GREY may hide the sender) or broadcast (to all "
                        "only); default: white in Diplomacy, none in the air games")
    p.add_argument("--no-passwords", action="store_true")
    p.add_argument("--observer", action="append", metavar="ADDRESS")
    p.add_argument("--seed", type=int)
    add_judge_options(p)
    add_forming_options(p)
    welcome_flag(p)
    p.set_defaults(func=_guard(handle_new_game))

    p = sub.add_parser("check", help="validate games' files (all games when none is named)")
    add_config(p)
    p.add_argument("game", metavar="GAME", nargs="*")
    jsonout.add_json(p)
    p.set_defaults(func=_guard(handle_check))

    p = sub.add_parser("status", help="open turn, deadline and who has sent orders")
    add_config(p)
    p.add_argument("game", metavar="GAME", nargs="?")
    jsonout.add_json(p)
    p.set_defaults(func=_guard(handle_status))

    p = sub.add_parser("rerun", help="re-adjudicate from a turn after a GM edit; shows the diff",
                       description="Re-adjudicate turns N.. with the stored (or edited) "
                       "orders and the recorded dice. Changed files are set aside "
                       "(NAME.replaced-N) and written anew.")
    add_config(p)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--from", dest="from_turn", type=int, required=True, metavar="N")
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    p.add_argument("--mail", action="store_true", help="mail the changed reports afterwards")
    p.add_argument("--why", metavar="TEXT", help="with --mail: the reason, which the "
                   "corrected report opens with")
    p.set_defaults(func=_guard(handle_rerun))

    p = sub.add_parser("extend", help="move the open turn's deadline later")
    add_config(p)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--by", required=True, metavar="DURATION", help="e.g. 24h, 2d, 90m")
    p.add_argument("--no-mail", action="store_true", help="do not mail the players the "
                   "new deadline")
    p.set_defaults(func=_guard(handle_extend))

    for name, handler, text in (("pause", handle_pause, "stop adjudicating a game; order "
                                 "mail is refused until resume"),
                                ("resume", handle_resume, "adjudicate a paused game again")):
        p = sub.add_parser(name, help=text)
        add_config(p)
        p.add_argument("game", metavar="GAME")
        if name == "pause":
            p.add_argument("--until", metavar="WHEN", help="when you mean to resume it "
                           "(ISO date and time, the game's zone if none given): replies to "
                           "order mail say so")
        p.add_argument("--no-mail", action="store_true", help="do not mail the players a notice")
        p.set_defaults(func=_guard(handler))

    p = sub.add_parser("replace-player", help="give a player's place a new address/name, "
                       "or to the computer")
    add_config(p)
    p.add_argument("game", metavar="GAME")
    p.add_argument("player", metavar="PLAYER")
    p.add_argument("--address")
    p.add_argument("--name")
    p.add_argument("--computer", action="store_true", help="the computer plays it from now on")
    welcome_flag(p)
    p.set_defaults(func=_guard(handle_replace_player))

    p = sub.add_parser("new-password", help="give a player a new password and mail it",
                       description="Give PLAYER of GAME a new default password (five words) "
                       "and mail it to the player's registered address; the old one stops "
                       "working. Moves games made with older, weaker passwords on.")
    add_config(p)
    p.add_argument("game", metavar="GAME")
    p.add_argument("player", metavar="PLAYER")
    p.set_defaults(func=_guard(handle_new_password))

    p = sub.add_parser("kick", help="remove a player from a game")
    add_config(p)
    p.add_argument("game", metavar="GAME")
    p.add_argument("player", metavar="PLAYER")
    p.set_defaults(func=_guard(handle_kick))

    p = sub.add_parser("add-observer", help="an address that gets every report")
    add_config(p)
    p.add_argument("game", metavar="GAME")
    p.add_argument("address", metavar="ADDRESS")
    p.set_defaults(func=_guard(handle_add_observer))
