"""Order lines read per second: our whole reading against Lark's bare parse.

Ours: ``parse_body`` on mail bodies (clean each line, parse it with the
LALR parser and its Transformer into typed items, sort sections, check every
rule against the position, build the canonical entry). Baseline: the same
grammar's bare ``Lark.parse`` of the same lines, nothing else, in the same
run. Also the envelope (``read_order_mail``) on whole mails, against the bare
parse of the same body lines. Printed as ratios (the aim: within 2x).

Run: ``.venv/bin/python bench/orders.py [--mails 2000] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from pbmref.orders.envelope import read_order_mail
from pbmref.rules.tweedekker.position import position_from_dict
from pbmref.rulesets.tweedekker.orders import bare_parser, parse_body

POSITION = {
    "turn": 7,
    "aircraft": {
        "baron": {"hex": "J12", "heading": "N", "state": "flying", "airfield": "N"},
        "falcon": {"hex": "J8", "heading": "S", "state": "flying", "airfield": "S"},
    },
    "zeppelins": {"Z": {"hexes": ["J10", "J9"], "heading": "N", "controlled": True}},
}

MANOEUVRES = ["A", "L", "R", "LS", "RS", "LT", "RT"]
FIRE = ["", "f-A", "f-L", "f-R", "FIRE A"]
VOTES = ["L f-B", "A d-B", "f-0", "LS", "R f-A", "0"]


def make_bodies(count: int, seed: int = 7) -> list[list[tuple[int, str]]]:
    """Valid mail bodies of 4 to 9 lines (PLANE and often ZEPPELIN)."""
    rng = random.Random(seed)
    bodies = []
    for _ in range(count):
        lines = ["PLANE"]
        bursts = 0
        for n in range(1, 4):
            fire = rng.choice(FIRE) if bursts < 3 else ""
            bursts += 1 if fire else 0
            lines.append(f"{n}: {rng.choice(MANOEUVRES)} {fire}".rstrip())
        if rng.random() < 0.6:
            lines.append("ZEPPELIN")
            lines.extend(f"{n}: {rng.choice(VOTES)}" for n in range(1, 4))
        bodies.append(list(enumerate(lines, 4)))
    return bodies


def best_of(repeat: int, fn: Callable[[], None]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    state = position_from_dict(POSITION)
    bodies = make_bodies(args.mails)
    lines = [text for body in bodies for _, text in body]
    mails = ["GAME zep1\nPASSWORD swordfish\nTURN 7\n" + "\n".join(t for _, t in body)
             + "\n-- \nManfred\n" for body in bodies]
    bare = bare_parser()
    bare.parse("1: A")  # build tables before timing
    parse_body(state, "baron", bodies[0])

    def baseline() -> None:
        for text in lines:
            bare.parse(text)

    def ours() -> None:
        for body in bodies:
            parse_body(state, "baron", body)

    def envelope() -> None:
        for mail in mails:
            read_order_mail("zep1 orders", mail)

    # Interleaved, best of each: other load on the machine hits all three alike.
    runs: dict[str, list[float]] = {"base": [], "ours": [], "env": []}
    for _ in range(args.repeat):
        runs["base"].append(best_of(1, baseline))
        runs["ours"].append(best_of(1, ours))
        runs["env"].append(best_of(1, envelope))
    t_base, t_ours, t_env = min(runs["base"]), min(runs["ours"]), min(runs["env"])
    n = len(lines)
    print(f"order lines: {n} in {len(bodies)} mails, best of {args.repeat}")
    print(f"  Lark bare parse (baseline): {n / t_base:10.0f} lines/s")
    print(f"  parse_body (parse + transform + validate): {n / t_ours:10.0f} lines/s")
    print(f"  ratio ours/baseline (time): {t_ours / t_base:.2f}x  (aim: <= 2x)")
    print(f"  read_order_mail (envelope only, whole mails): {n / t_env:10.0f} body lines/s, "
          f"{t_env / t_base:.2f}x the baseline")
    print(f"  whole reading (envelope + body): {(t_env + t_ours) / t_base:.2f}x the baseline")
    spread = statistics.median(runs["base"]) / t_base
    print(f"  (noise: the median baseline run took {spread:.2f}x the best one)")


if __name__ == "__main__":
    main()
