"""``pbmref demo``: the demonstration game, played through the real pipeline."""

from __future__ import annotations

import argparse
import sys


def handle_demo(args: argparse.Namespace) -> int:
    from pbmref.demo import DemoError, run_demo

    try:
        run_demo(args.dir, ruleset=args.ruleset, turns=args.turns, seed=args.seed)
    except DemoError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 2
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="play a demonstration game through the real pipeline, "
                                    "no mail server needed: six computer pilots and a "
                                    "zeppelin, or seven computer powers (--ruleset diplomacy "
                                    "or dirigible, to a winner or 1920)")
    p.add_argument("--ruleset", default="tweedekker",
                   help="tweedekker (default), diplomacy or dirigible")
    p.add_argument("--dir", default="demo-games",
                   help="a fresh games directory for the demo (default ./demo-games)")
    p.add_argument("--turns", type=int, default=None,
                   help="turns to play at most (default: 10 for tweedekker; Diplomacy "
                        "plays to a winner or 1920)")
    p.add_argument("--seed", type=int, default=1916,
                   help="the seed: the same seed gives the same game (default 1916)")
    p.set_defaults(func=handle_demo)
