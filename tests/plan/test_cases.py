"""The preview table (cases.yaml): order mails, read by the real order readers,
and the preview lines and warnings the acceptance shows (issue 22)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.orders.errors import OrderMailError
from pbmref.reports.common import WIDTH
from pbmref.rules.diplomacy import plan as dip_plan
from pbmref.rules.diplomacy.codec import position_from_dict as dip_position
from pbmref.rules.fastplay import plan as fp_plan
from pbmref.rules.fastplay.position import position_from_dict as fp_position
from pbmref.rules.tweedekker import plan as tw_plan
from pbmref.rules.tweedekker.position import position_from_dict as tw_position
from pbmref.rulesets.diplomacy import orders as dip_orders
from pbmref.rulesets.diplomacy import preview as dip_preview
from pbmref.rulesets.fastplay import orders as fp_orders
from pbmref.rulesets.fastplay import preview as fp_preview
from pbmref.rulesets.tweedekker import orders as tw_orders
from pbmref.rulesets.tweedekker import preview as tw_preview

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "cases.yaml").read_text(encoding="utf-8"))


def _body(case: dict[str, Any]) -> list[tuple[int | None, str]]:
    return [(n, text) for n, text in enumerate(str(case["mail"]).splitlines(), 1)]


def run_case(case: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Read the mail as the referee does, preview it: (text lines, warning rules)."""
    ruleset, player, body = case["ruleset"], str(case["player"]), _body(case)
    position = dict(case["position"])
    if ruleset == "tweedekker":
        state = tw_position(position)
        entry = tw_orders.parse_body(state, player, body)
        orders, votes = tw_orders.entry_to_orders(state, player, entry)
        plan = tw_plan.preview(state, player, orders, votes)
        return tw_preview.preview_lines(plan), [w.rule for w in plan.warnings]
    if ruleset == "fastplay":
        fstate = fp_position(position)
        fentry = fp_orders.parse_body(fstate, player, body)
        fplan = fp_plan.preview(fstate, player, fp_orders.entry_to_orders(fstate, player, fentry))
        return fp_preview.preview_lines(fplan), [n.rule for n in fplan.notes]
    pos = dip_position({**position, "ruleset": ruleset})
    typed = [o for _, o in dip_orders.parse_orders(body, player, pos)]
    dplan = dip_plan.preview(pos, player, typed)
    return dip_preview.preview_lines(dplan), [w.rule for w in dplan.warnings]


def test_the_table_covers_every_warning_kind() -> None:
    rules = {r for c in CASES for r in c.get("warnings", [])}
    assert {"M4", "C2", "L4", "F4", "F3", "F1, L5", "Z14", "Z17", "FP13",
            "DD2a", "DD2", "DD1", "DD3", "DD11"} <= rules
    assert sum(1 for c in CASES if c.get("warnings") == []) >= 8
    assert len({c["name"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", [c for c in CASES if "lines" in c],
                         ids=[c["name"] for c in CASES if "lines" in c])
def test_preview(case: dict[str, Any]) -> None:
    lines, warnings = run_case(case)
    assert lines == case["lines"]
    assert warnings == case["warnings"]
    assert all(len(line) <= WIDTH for line in lines)
    # One warning (or note) starts each line that names a rule with a fix.
    starts = [line for line in lines if line.startswith(("Warning (", "Note ("))]
    assert len(starts) == len(warnings)


@pytest.mark.parametrize("case", [c for c in CASES if "error" in c],
                         ids=[c["name"] for c in CASES if "error" in c])
def test_refused(case: dict[str, Any]) -> None:
    with pytest.raises(OrderMailError) as info:
        run_case(case)
    assert info.value.rule == case["error"]
    assert case["says"] in info.value.message
