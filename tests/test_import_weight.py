"""The lower layers stay light (issue 41, item 4): importing the rules, the
orders, the rulesets or the store loads no game kind's code and no renderer,
and ``import pbmref.store`` loads at most 40 of our modules.

Each import runs in a fresh interpreter, so what another test imported does not
count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

# What a layer may load of pbmref.reports: the report's values (model), the
# report document and its text helpers; everything else there draws or writes.
REPORT_VALUES = {"pbmref.reports", "pbmref.reports.model", "pbmref.reports.document",
                 "pbmref.reports.common"}
GAME_KINDS = ("tweedekker", "fastplay", "diplomacy")
HEAVY_LIBRARIES = {"PIL", "resvg_py", "lark"}

BOUNDS = {"pbmref.rules": 5, "pbmref.orders": 5, "pbmref.rulesets": 20, "pbmref.store": 40}


def loaded_by(module: str) -> list[str]:
    """The modules a fresh interpreter has loaded after ``import module``."""
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    return list(json.loads(run.stdout))


@pytest.mark.parametrize("layer", sorted(BOUNDS))
def test_a_lower_layer_loads_no_renderer_and_no_game_kind(layer: str) -> None:
    loaded = loaded_by(layer)
    ours = [m for m in loaded if m.split(".")[0] == "pbmref"]
    renderers = [m for m in ours if m.startswith("pbmref.reports") and m not in REPORT_VALUES]
    kinds = [m for m in ours
             if m.split(".")[1:2] in (["rules"], ["rulesets"], ["orders"])
             and any(kind in m for kind in GAME_KINDS)]
    libraries = sorted({m.split(".")[0] for m in loaded} & HEAVY_LIBRARIES)
    assert (renderers, kinds, libraries) == ([], [], [])
    assert len(ours) <= BOUNDS[layer], sorted(ours)


def test_a_game_kind_is_loaded_when_asked_for_and_kept() -> None:
    code = ("import sys; from pbmref.rulesets import RULESETS, get_ruleset; "
            "names = sorted(RULESETS); before = 'pbmref.rulesets.diplomacy.ruleset' in sys.modules; "
            "one = get_ruleset('dirigible'); "
            "print(names, before, one is get_ruleset('dirigible'), one.name, "
            "'pbmref.rulesets.tweedekker.ruleset' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert run.stdout.split() == ["['diplomacy',", "'dirigible',", "'fastplay',",
                                  "'tweedekker']", "False", "True", "dirigible", "False"]
