"""What ``pbmref render GAME`` costs after one more turn, against a full render (issue 41).

Builds a Diplomacy game of TURNS played phases (seven players who send no
orders, so every unit holds and the game never ends; each phase's pages
still carry the board before and after it, the report and the links), and
its archive as ``pbmref render`` wrote it when TURNS - 1 phases were played.
Then, REPEAT times and in turn:

- the incremental render: that archive copied afresh, and ``pbmref render``
  run on it (the last phase's page, the page before it and the index drawn);
- the full render: ``pbmref render`` into an empty folder (every page drawn).

Each render runs in a process of its own, as the game master runs it, cold
(nothing the process read before); what is measured is our own CPU time
(``time.process_time``) of the command, its interpreter's start and imports
left out. The figure is the ratio of the medians, incremental / full, of the
same run; the goal of issue 41 is at most 0.10.

Run: ``.venv/bin/python bench/render.py [--turns 200] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbmref import gm
from pbmref.store import GameStore

REPO = Path(__file__).resolve().parents[1]
GAME = "long"
T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
POWERS = {"anna": "AUS", "ed": "ENG", "fleur": "FRA", "gerd": "GER", "ilaria": "ITA",
          "raisa": "RUS", "tarik": "TUR"}

# The command in a process of its own; it prints the CPU time of the render alone.
DRIVER = """
import contextlib, io, sys, time
from pbmref.cli import main
out = io.StringIO()
start = time.process_time()
with contextlib.redirect_stdout(out):
    code = main(["render", sys.argv[1], "--games", sys.argv[2], "--out", sys.argv[3]])
spent = time.process_time() - start
assert code == 0, code
print(spent, out.getvalue().strip().replace(chr(10), " / "))
"""


def build(games: Path, turns: int) -> GameStore:
    """A Diplomacy game of ``turns`` played phases, every unit holding."""
    store = GameStore(games)
    players = [gm.PlayerSpec(p, (f"{p}@bench.test",), p.title(), power=power)
               for p, power in POWERS.items()]
    gm.new_game(store, GAME, players, ruleset="diplomacy", title="A long game", seed=5,
                deadline=T0, turn_length="24h", early_adjudication=False, reminder_hours=0,
                now=T0 - timedelta(days=1), passwords=False)
    for turn in range(turns):
        played = gm.adjudicate(store, GAME, T0 + timedelta(days=turn), force=True)
        assert played is not None, f"phase {turn + 1} was not played"
    return store


def render(games: Path, out: Path) -> tuple[float, str]:
    """``pbmref render`` in a process of its own: the CPU time of the render, and
    what it said."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    proc = subprocess.run([sys.executable, "-c", DRIVER, GAME, str(games), str(out)],
                          env=env, capture_output=True, text=True, check=True,
                          stdin=subprocess.DEVNULL)
    spent, said = proc.stdout.split(" ", 1)
    return float(spent), said.strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pbmref-render-") as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        store = build(root / "games", args.turns - 1)
        kept = root / "kept"
        render(store.dir, kept)  # the archive as it was, one phase ago
        gm.adjudicate(store, GAME, T0 + timedelta(days=args.turns), force=True)
        print(f"built a Diplomacy game of {args.turns} phases and its archive of "
              f"{args.turns - 1} in {time.perf_counter() - start:.0f} s")
        full: list[float] = []
        incremental: list[float] = []
        for k in range(args.repeat):
            again = root / f"again{k}"
            shutil.copytree(kept, again)
            spent, said_again = render(store.dir, again)
            incremental.append(spent)
            spent, said_full = render(store.dir, root / f"full{k}")
            full.append(spent)
        pages = sorted(p.name for p in (root / "full0" / GAME).glob("*.html"))
        assert len(pages) == args.turns + 1, len(pages)
        for name in pages:  # the incremental archive is the full one
            assert (root / "again0" / GAME / name).read_bytes() == \
                (root / "full0" / GAME / name).read_bytes(), name
        t_full, t_again = statistics.median(full), statistics.median(incremental)
        print(f"full render: {said_full}")
        print(f"after one more phase: {said_again}")
        print(f"pbmref render after one more phase of a {args.turns}-phase game: "
              f"{t_again * 1000:.0f} ms of our CPU against a full render's "
              f"{t_full * 1000:.0f} ms (medians of {args.repeat}, in turn); "
              f"ratio {t_again / t_full:.3f} (aim <= 0.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
