#!/usr/bin/env python3
"""Draw each variant's board for docs/ with headless Chromium.

For every variant (or those named), the computer powers play its first year
from the opening (``rules.diplomacy.bot``, seed 1); the board is drawn by
``pbmref.rulesets.diplomacy.board.render_board`` with the orders of the
year's first movement phase and their results, and shot at 390 px (a phone)
and 1200 px wide as ``docs/variant-NAME-WIDTH.png``:

    .venv/bin/python scripts/build_diplomacy_variant_pictures.py [NAME ...] [--out docs]

Needs /usr/bin/chromium (scripts/system-packages).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pictures_module() -> object:
    spec = importlib.util.spec_from_file_location(
        "board_pictures", ROOT / "scripts" / "build_diplomacy_board_pictures.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_moves(name: str) -> tuple[dict[str, object], list[dict[str, object]]]:
    """The position of the variant's first movement phase and its events, the
    computer playing every power."""
    from pbmref.rules.diplomacy.bot import choose_orders
    from pbmref.rules.diplomacy.bot_play import play, seeded_rngs
    from pbmref.rules.diplomacy.codec import position_to_dict
    from pbmref.rules.diplomacy.variant import load_variant, opening

    spec = load_variant(name)
    start = opening(spec)
    players = {p: choose_orders for p in spec.powers}
    for played in play(start, players, seeded_rngs(1, spec.powers), start.phase.year + 1):
        if played.before.phase.kind == "M":
            from pbmref.rules.diplomacy.engine import adjudicate_full

            orders = [o for given in played.orders.values() for o in given]
            adj = adjudicate_full(played.before, orders)
            return position_to_dict(played.before), [e.to_dict() for e in adj.events]
    raise SystemExit(f"{name}: no movement phase in its first year")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME")
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    from pbmref.rules.diplomacy.variant import variant_names
    from pbmref.rulesets.diplomacy.board import render_board

    pictures = _pictures_module()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="variant-pages-") as tmp:
        for name in args.names or variant_names():
            position, events = first_moves(name)
            svg = render_board(position, events, mode="orders")
            w, h = map(float, re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())  # type: ignore[union-attr]
            page = Path(tmp) / f"{name}.html"
            page.write_text(pictures.PAGE.format(title=name, svg=svg), encoding="utf-8")  # type: ignore[attr-defined]
            for width in pictures.WIDTHS:  # type: ignore[attr-defined]
                png = args.out / f"variant-{name}-{width}.png"
                pictures.shoot(page, png, width, round(width * h / w))  # type: ignore[attr-defined]
                print(png.relative_to(ROOT) if png.is_relative_to(ROOT) else png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
