#!/usr/bin/env python3
"""Build the project's own Diplomacy map file from the standard-map CSVs.

Source: the standard-map CSVs of TedDriggs/diplomacy (MIT licence, Copyright (c)
2025 Ted Driggs), in the corrected form whose ``borders.csv`` has every border
of the published board. The project keeps its copy of provinces.csv,
regions.csv and borders.csv in src/pbmref/data/diplomacy/ (credited in the
NOTICE there); this script turns them into one JSON file,
src/pbmref/data/diplomacy/standard.json, which the engine loads
(pbmref.rules.diplomacy.map). Run it again whenever the CSVs change:

    .venv/bin/python scripts/build_diplomacy_map.py [CSV_DIR]

CSV_DIR defaults to the project's copy; name another folder to build from a
newer copy of the same data (then copy its CSVs into the project as well).
Coast suffixes n/s/e in the CSVs become nc/sc/ec; region names in borders are
written "prov" or "prov/nc".
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "pbmref" / "data" / "diplomacy" / "variants" / "standard"
OUT = DATA / "map.json"

COASTS = {"n": "nc", "s": "sc", "e": "ec", "w": "wc"}


def region_name(text: str) -> str:
    text = text.strip()
    if "(" in text:
        prov, coast = text.rstrip(")").split("(")
        return f"{prov}/{coast}"
    return text


def build(src: Path) -> dict[str, object]:
    provinces: dict[str, dict[str, object]] = {}
    with open(src / "provinces.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            sc = (row["supply_center_for"] or "").strip()
            provinces[row["short_name"].strip()] = {
                "name": row["full_name"].strip(),
                "supply_center": bool(sc),
                "home": sc if sc and sc != "neutral" else None,
                "terrain": None,
                "coasts": [],
            }
    with open(src / "regions.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            prov = row["province"].strip()
            coast = (row["coast"] or "").strip()
            if coast:
                coasts = provinces[prov]["coasts"]
                assert isinstance(coasts, list)
                coasts.append(COASTS[coast])
            else:
                provinces[prov]["terrain"] = row["terrain"].strip()
    borders: list[list[str]] = []
    with open(src / "borders.csv", newline="") as fh:
        reader = csv.reader(fh)
        next(reader)
        for a, b, terrain in reader:
            borders.append([region_name(a), region_name(b), terrain.strip()])
    return {
        "_source": (
            "Built by scripts/build_diplomacy_map.py from the standard-map CSVs of "
            "TedDriggs/diplomacy (https://github.com/TedDriggs/diplomacy), MIT licence, "
            "Copyright (c) 2025 Ted Driggs. See NOTICE in this folder."
        ),
        "provinces": provinces,
        "borders": borders,
    }


def main(argv: list[str]) -> int:
    src = Path(argv[1]) if len(argv) > 1 else DATA
    data = build(src)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(data['provinces'])} provinces, {len(data['borders'])} borders)")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
