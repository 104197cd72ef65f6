#!/usr/bin/env python3
"""Draw the Diplomacy board pictures of docs/ with headless Chromium.

The phases are those of tests/diplomacy/test_board_render.py (a movement
phase with supports, a convoy, bounces and a dislodgement; a Dirigible
Diplomacy phase with dirigibles and a devastation; retreats; adjustments).
Each is adjudicated by the engine and drawn by
``pbmref.rulesets.diplomacy.board.render_board`` in both modes, wrapped in a
small HTML page that fits the picture to the window, and shot at 390 px (a
phone) and 1200 px wide:

    .venv/bin/python scripts/build_diplomacy_board_pictures.py [--out docs] [--all]

Without ``--all`` only the movement and dirigible phases are drawn (the ones
kept in docs/). Needs /usr/bin/chromium (scripts/system-packages).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHASES_FROM = ROOT / "tests" / "diplomacy" / "test_board_render.py"
WIDTHS = (390, 1200)
KEPT = ("movement", "dirigible")

PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>html,body{{margin:0;background:#fff}} svg{{display:block;width:100%;height:auto}}</style>
</head><body>
{svg}
</body></html>
"""


def _phases() -> object:
    spec = importlib.util.spec_from_file_location("board_phases", PHASES_FROM)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chromium(*args: str) -> str:
    """Run headless Chromium (a fresh profile, nothing fetched) with ``args``;
    its standard output."""
    binary = shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory(prefix="board-chromium-") as profile:
        done = subprocess.run(
            [binary, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
             "--hide-scrollbars", *args],
            check=True, capture_output=True, text=True, timeout=180)
    return done.stdout


def shoot(html: Path, png: Path, width: int, height: int) -> None:
    chromium(f"--window-size={width},{height}", f"--screenshot={png}", html.as_uri())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    ap.add_argument("--all", action="store_true", help="also the retreat and adjustment phases")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    from pbmref.rulesets.diplomacy.board import render_board

    phases = _phases()
    args.out.mkdir(parents=True, exist_ok=True)
    names = list(phases.PHASES) if args.all else list(KEPT)  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory(prefix="board-pages-") as tmp:
        for name in names:
            before, events, after = phases.phase(name)  # type: ignore[attr-defined]
            for mode, position in (("orders", before), ("after", after)):
                svg = render_board(position, events, mode=mode)
                w, h = map(float, re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())  # type: ignore[union-attr]
                page = Path(tmp) / f"{name}-{mode}.html"
                page.write_text(PAGE.format(title=f"{name} {mode}", svg=svg), encoding="utf-8")
                for width in WIDTHS:
                    png = args.out / f"diplomacy-board-{name}-{mode}-{width}.png"
                    shoot(page, png, width, round(width * h / w))
                    print(png.relative_to(ROOT) if png.is_relative_to(ROOT) else png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
