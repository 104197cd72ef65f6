"""``pbmref new-game --ruleset diplomacy --variant NAME`` and a year of the
game by mail (issue 45 item 4).

For each variant besides the rules' own two, one person and the computer
powers play the first year: the person's mails are checked and accepted,
the computer's orders are written at each deadline, every report names the
variant, carries the board of its map and names its powers; ``pbmref status``
and ``new-game`` show the variant. A variant of other rules, or an unknown
one, is refused in plain words.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from dipkit import body_of, svg_of, table_on

from pbmref.cli import main
from pbmref.rules.diplomacy.variant import load_variant
from pbmref.rulesets import get_ruleset
from pbmref.store import GameStore

VARIANTS = ["fleet_rome", "build_anywhere", "chaos", "mare_nostrum", "viking_age"]
SVG = "{http://www.w3.org/2000/svg}"


def new_game(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    args = ["new-game", "var1", "--games", str(tmp_path / "games"), "--ruleset", "diplomacy",
            "--deadline", "2026-03-02T12:00:00+00:00", "--turn-length", "24h", "--no-early",
            "--seed", "11", "--player", "fleur:fleur@example.org:Fleur", *extra]
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize("name", VARIANTS)
def test_a_year_of_a_variant_by_mail(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     name: str) -> None:
    spec = load_variant(name)
    code, out = new_game(tmp_path, capsys, "--variant", name, "--computer-powers")
    assert code == 0, out
    assert f"(diplomacy, variant {name}, " in out and f"variant {name} ({spec.title})" in out
    password = re.search(r"^  fleur +(\S+)", out, re.M).group(1)  # type: ignore[union-attr]
    assert main(["status", "var1", "--games", str(tmp_path / "games")]) == 0
    assert f"(diplomacy, variant {name})" in capsys.readouterr().out
    store = GameStore(tmp_path / "games")
    game = store.open("var1")
    power = game.position["players"]["fleur"]
    assert power == spec.powers[0] and game.position["variant"] == name
    dip = table_on(tmp_path, store, "var1", {"fleur": password})
    ruleset = get_ruleset("diplomacy")
    year = spec.start.year + (1 if spec.start.season == "S" else 2)  # a whole year of moves
    played = []
    while dip.phase() != f"S{year}M":
        phase = dip.phase()
        board = dip.game().open.state
        if ruleset.needs_orders(board, "fleur"):
            example = ruleset.example_orders(board, "fleur")
            lines = list(example.entry["orders"]) if example else ["Waive"]
            assert "accepted" in dip.reply("fleur", *lines, phase=phase), (phase, lines)
        mails = dip.deadline()
        played.append(phase)
        report = next(m for m in mails if str(m["Subject"]).endswith(" report"))
        text = body_of(report)
        assert f"{spec.title} - report of {phase}" in " ".join(text.split())
        assert f"{spec.power_names[power]} ({power}, Fleur)" in text
        picture = svg_of(report, game=dip.game())
        assert picture is not None
        provinces = [p for p in ET.fromstring(picture).iter(f"{SVG}path")
                     if "province" in (p.get("class") or "").split()]
        assert len(provinces) == len(spec.map.provinces)
    assert played[0] == str(spec.start) and len(played) >= 3


def test_a_variant_of_other_rules_or_an_unknown_one_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = new_game(tmp_path, capsys, "--variant", "dirigible")
    assert code != 0 and "diplomacy has no variant 'dirigible'" in out
    assert "chaos" in out and "Traceback" not in out
    code, out = new_game(tmp_path, capsys, "--variant", "atlantis")
    assert code != 0 and "no variant 'atlantis'" in out
    code, out = new_game(tmp_path, capsys, "--ruleset", "tweedekker", "--variant", "chaos")
    assert code != 0 and "tweedekker has no variant 'chaos' (its variants: none)" in out
    assert not (tmp_path / "games" / "var1").exists()
