"""The Diplomacy computer player against civil disorder and random orders (issue 19).

    .venv/bin/python bench/diplomacy_bot.py [GAMES]      (default 56 games per table)

Pure engine, no mail. For plain and Dirigible Diplomacy alike:

- *civil disorder*: games of six computer powers and one power giving no
  orders (DD3), the silent power rotating through the seven, 1901-1905
  (Dirigible from the Winter 1900 builds). Figure: the computer powers'
  average centres at the end of 1905 against the silent power's centres
  (ratio; the issue asks for at least 2).
- *random orders*: games of one computer power and six powers giving random
  legal orders (``bot_random.random_orders``), the computer rotating,
  1901-1910. Figures: the share of games the computer ends with more centres
  than every other power (the issue asks for at least 80%), and the
  computer's centres against the best random power's (ratio).
- *speed*: milliseconds the computer takes for one power's orders in one
  phase (on the seven-computer game of the Diplomacy demo, 1901-1910), as a
  ratio to the engine's adjudication of the same phase (the baseline).

Games are seeded (game n: seed n); the figures are the same every run. The
computer reads a plain-game power whose units have not moved since 1901 as
absent (``bot_values.idle_powers``); without that reading the plain civil
disorder ratio was 2.69 on the same 56 games.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pbmref.rules.diplomacy import POWERS, Position, adjudicate_full  # noqa: E402
from pbmref.rules.diplomacy.bot import choose_orders  # noqa: E402
from pbmref.rules.diplomacy.bot_play import Player, play, seeded_rngs  # noqa: E402
from pbmref.rules.diplomacy.bot_random import random_orders  # noqa: E402
from pbmref.rules.diplomacy.state import Variant, initial_position  # noqa: E402

VARIANTS = {"plain": Variant.STANDARD, "dirigible": Variant.DIRIGIBLE}


def final(pos: Position, players: dict[str, Player], seed: int, last_year: int) -> Position:
    for played in play(pos, players, seeded_rngs(seed, POWERS), last_year):
        pos = played.after
    return pos


def civil_disorder(variant: Variant, games: int) -> tuple[float, float, list[str]]:
    computer_avg: list[float] = []
    silent: list[int] = []
    rows = []
    for n in range(games):
        idle = POWERS[n % len(POWERS)]
        players: dict[str, Player] = {p: choose_orders for p in POWERS if p != idle}
        end = final(initial_position(variant), players, n, 1905)
        mine = [len(end.centers_of(p)) for p in POWERS if p != idle]
        computer_avg.append(statistics.mean(mine))
        silent.append(len(end.centers_of(idle)))
        rows.append(f"{idle}:{silent[-1]}/{computer_avg[-1]:.1f}")
    by_power = {p: statistics.mean(silent[n] for n in range(games) if n % len(POWERS) == i)
                for i, p in enumerate(POWERS) if i < games}
    rows = [" ".join(f"{p} {c:.2f}" for p, c in by_power.items())]
    return statistics.mean(computer_avg), statistics.mean(silent), rows


def random_games(variant: Variant, games: int) -> tuple[int, list[float], list[str]]:
    leads = 0
    ratios: list[float] = []
    mine_all: list[int] = []
    best_all: list[int] = []
    for n in range(games):
        me = POWERS[n % len(POWERS)]
        players: dict[str, Player] = {p: random_orders for p in POWERS}
        players[me] = choose_orders
        end = final(initial_position(variant), players, 1000 + n, 1910)
        mine = len(end.centers_of(me))
        best_other = max(len(end.centers_of(p)) for p in POWERS if p != me)
        leads += mine > best_other
        ratios.append(mine / max(best_other, 1))
        mine_all.append(mine)
        best_all.append(best_other)
    rows = [f"computer's centres at the end: fewest {min(mine_all)}, median "
            f"{statistics.median(mine_all):g}; best random power's: median "
            f"{statistics.median(best_all):g}, most {max(best_all)}"]
    return leads, ratios, rows


def speed(variant: Variant) -> tuple[float, float, int]:
    pos = initial_position(variant)
    rngs = seeded_rngs(7, POWERS)
    bot_time = engine_time = 0.0
    calls = phases = 0
    while pos.winner is None and pos.phase.year <= 1910:
        orders = []
        for p in POWERS:
            start = time.perf_counter()
            orders += choose_orders(pos, p, rngs[p])
            bot_time += time.perf_counter() - start
            calls += 1
        start = time.perf_counter()
        adj = adjudicate_full(pos, orders)
        engine_time += time.perf_counter() - start
        phases += 1
        pos = adj.state
    return 1000 * bot_time / calls, 1000 * engine_time / phases, phases


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 56
    ok = True
    for name, variant in VARIANTS.items():
        computer, silent, rows = civil_disorder(variant, games)
        ratio = computer / max(silent, 1e-9)
        ok &= ratio >= 2
        print(f"{name}, six computers and one civil disorder, {games} games, 1901-1905:")
        print(f"  {name}: computers {computer:.2f} centres on average in 1905, civil disorder "
              f"{silent:.2f}: ratio {ratio:.2f} (aim >= 2)")
        print("  the silent power's centres, by power: " + " ".join(rows))
        leads, ratios, rows = random_games(variant, games)
        share = leads / games
        ok &= share >= 0.8
        print(f"{name}, one computer and six random players, {games} games, 1901-1910:")
        print(f"  {name}: the computer has the most centres at the end (1910 or its win) in "
              f"{leads}/{games} games: "
              f"ratio {share:.2f} of the games (aim >= 0.8)")
        print(f"  {name}: the computer's centres against the best random power's: "
              f"ratio {statistics.median(ratios):.2f} (median)")
        print("  " + rows[0])
    for name, variant in VARIANTS.items():
        bot_ms, engine_ms, phases = speed(variant)
        print(f"{name}, seven computers 1901-1910 ({phases} phases): {bot_ms:.2f} ms per power "
              f"per phase; ratio {bot_ms / engine_ms:.2f} of one adjudication "
              f"({engine_ms:.2f} ms, the baseline)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
