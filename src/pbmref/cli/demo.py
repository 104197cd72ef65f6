"""``pbmref demo``: the demonstration game, played through the real pipeline."""

from __future__ import annotations

import argparse
import sys


def handle_demo(args: argparse.Namespace) -> int:
    from pbmref.demo import DemoError, run_demo

    try:
        run_demo(args.dir, turns=args.turns, seed=args.seed)
    except DemoError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 2
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="play the demonstration game: six computer pilots "
                                    "and a zeppelin, no mail server needed")
    p.add_argument("--dir", default="demo-games",
                   help="a fresh games directory for the demo (default ./demo-games)")
    p.add_argument("--turns", type=int, default=10, help="turns to play (default 10)")
    p.add_argument("--seed", type=int, default=1916,
                   help="the seed: the same seed gives the same game (default 1916)")
    p.set_defaults(func=handle_demo)
