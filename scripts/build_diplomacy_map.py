#!/usr/bin/env python3
"""Build the project's own Diplomacy map file from the shared CSV data.

Source: the standard-map CSVs of TedDriggs/diplomacy (MIT licence, Copyright (c)
2025 Ted Driggs), kept read-only in /work/shared/data/diplomacy. This script turns
provinces.csv, regions.csv and borders.csv into one JSON file,
src/pbmref/data/diplomacy/standard.json, which the engine loads
(pbmref.rules.diplomacy.map). Run it again whenever the CSVs change:

    .venv/bin/python scripts/build_diplomacy_map.py [SHARED_DATA_DIR]

Coast suffixes n/s/e in the CSVs become nc/sc/ec; region names in borders are
written "prov" or "prov/nc".
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SRC = Path("/work/shared/data/diplomacy")
OUT = ROOT / "src" / "pbmref" / "data" / "diplomacy" / "standard.json"

COASTS = {"n": "nc", "s": "sc", "e": "ec", "w": "wc"}

# Borders of the standard board that the source CSVs lack (checked against the
# published map). Without them Norway would not touch St Petersburg, the Gulf
# of Bothnia would touch only the Baltic, and so on. Each is added unless the
# CSVs already have it; run with --as-published to leave them out.
CORRECTIONS: list[list[str]] = [
    ["bot", "swe", "sea"],
    ["bot", "fin", "sea"],
    ["bot", "lvn", "sea"],
    ["bot", "stp/sc", "sea"],
    ["nwy", "stp", "land"],
    ["nwy", "stp/nc", "sea"],
    ["lvn", "war", "land"],
    ["gal", "ukr", "land"],
    ["mao", "spa/sc", "sea"],
]


def region_name(text: str) -> str:
    text = text.strip()
    if "(" in text:
        prov, coast = text.rstrip(")").split("(")
        return f"{prov}/{coast}"
    return text


def build(src: Path, corrections: bool = True) -> dict[str, object]:
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
    added: list[list[str]] = []
    if corrections:
        have = {frozenset((a, b)) for a, b, _ in borders}
        for a, b, terrain in CORRECTIONS:
            if frozenset((a, b)) not in have:
                borders.append([a, b, terrain])
                added.append([a, b, terrain])
    return {
        "_corrections": added,
        "_source": (
            "Built by scripts/build_diplomacy_map.py from the standard-map CSVs of "
            "TedDriggs/diplomacy (https://github.com/TedDriggs/diplomacy), MIT licence, "
            "Copyright (c) 2025 Ted Driggs. See NOTICE in this folder."
        ),
        "provinces": provinces,
        "borders": borders,
    }


def main(argv: list[str]) -> int:
    args = [a for a in argv[1:] if not a.startswith("--")]
    src = Path(args[0]) if args else DEFAULT_SRC
    data = build(src, corrections="--as-published" not in argv)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(data['provinces'])} provinces, {len(data['borders'])} borders)")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
