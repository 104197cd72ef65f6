"""Scenario files: one turn written down, run through the referee's own rules.

See ``shared/spec/scenario.md``. A scenario holds a position, the orders of
one turn, the dice seed and optionally an ``expect`` block. ``run_file`` reads
one file (keeping the line of every key so a bad value is reported as
``FILE:LINE: message (rule X)``), adjudicates the turn with the same ruleset
the referee uses, and compares the result with ``expect``.

Exit codes: 0 everything expected matched (or nothing was expected), 1 some
expected value differs, 2 the file itself is broken.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pbmref.expect import compare

__all__ = [
    "ScenarioResult",
    "compare",
    "dump_yaml",
    "load_yaml",
    "run_data",
    "run_file",
]

Path_ = tuple[str, ...]
EXIT_OK, EXIT_DIFFERS, EXIT_BROKEN = 0, 1, 2

# Keys of a scenario file that are not part of the position.
SCENARIO_ONLY = ("orders", "expect", "seed", "description", "title")


@dataclass
class ScenarioResult:
    """The outcome of one scenario file."""

    path: str
    code: int
    result: dict[str, Any] | None = None  # the printed position + events
    differences: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)  # errors, "refused as expected"


class BrokenFile(Exception):
    """The scenario file cannot be run; ``line`` is where the problem is."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class Refused(Exception):
    """The orders or the position were refused under ``rule``."""

    def __init__(self, message: str, rule: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.line = line


# --------------------------------------------------------------------------- YAML


def _loader_class() -> Any:
    return getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader


def load_yaml(text: str) -> tuple[Any, dict[Path_, int]]:
    """The document and a map from key paths (as strings) to 1-based lines."""
    loader = _loader_class()(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    lines: dict[Path_, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return data, lines


def _walk(node: yaml.Node, path: Path_, lines: dict[Path_, int]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = str(key_node.value)
            lines[(*path, key)] = key_node.start_mark.line + 1
            _walk(value_node, (*path, key), lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[(*path, str(i))] = item.start_mark.line + 1
            _walk(item, (*path, str(i)), lines)


def line_of(lines: Mapping[Path_, int], path: Sequence[object]) -> int | None:
    """The line of the longest prefix of ``path`` that the file has."""
    key = tuple(str(p) for p in path)
    while key:
        if key in lines:
            return lines[key]
        key = key[:-1]
    return lines.get(())


class _Dumper(yaml.SafeDumper):
    pass


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    # Short lists of plain values (hexes, votes) read best on one line.
    flow = len(data) <= 8 and all(
        isinstance(v, str | int | float | bool) or v is None for v in data
    )
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _represent_list)


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


# --------------------------------------------------------------------------- running


def _order_error_path(exc: Exception, player: str, entry: Any) -> tuple[object, ...]:
    """Where in ``orders.PLAYER`` an order error points (its list position)."""
    path: tuple[object, ...] = ("orders", player)
    section = getattr(exc, "section", None)
    line_no = getattr(exc, "line_no", None)
    text = getattr(exc, "line", None)
    if not isinstance(entry, Mapping):
        return path
    if section is None and isinstance(line_no, int):
        for name in ("plane", "zeppelin"):
            items = entry.get(name)
            if isinstance(items, list) and 0 < line_no <= len(items) and (
                text is None or str(items[line_no - 1]).strip() == str(text).strip()
            ):
                section = name
                break
    if section is None:
        return path
    path = (*path, str(section).lower())
    if isinstance(line_no, int) and line_no > 0:
        path = (*path, line_no - 1)
    return path


def _air_scenario(name: str, data: Mapping[str, Any], lines: Mapping[Path_, int]) -> dict[str, Any]:
    from pbmref.rulesets import get_ruleset

    ruleset = get_ruleset(name)
    position = {k: v for k, v in data.items() if k not in SCENARIO_ONLY}
    try:
        ruleset.check_position(position)
    except Exception as exc:
        if not hasattr(exc, "path"):
            raise
        rule = str(getattr(exc, "rule", "") or "")
        message = str(getattr(exc, "message", exc))
        raise Refused(message, rule, line_of(lines, exc.path)) from None
    orders = data.get("orders") or {}
    if not isinstance(orders, Mapping):
        raise BrokenFile("orders: expected one entry per player", line_of(lines, ("orders",)))
    for player, entry in orders.items():
        if entry is not None and not isinstance(entry, Mapping):
            raise BrokenFile(
                f"orders of {player}: expected a mapping such as {{plane: [...], zeppelin: [...]}}",
                line_of(lines, ("orders", player)))
        try:
            ruleset.check_orders(position, str(player), dict(entry or {}))
        except Exception as exc:
            order_rule = getattr(exc, "rule", None)
            if order_rule is None or not hasattr(exc, "message"):
                raise
            where = line_of(lines, _order_error_path(exc, str(player), entry))
            raise Refused(f"orders of {player}: {exc.message}", str(order_rule), where) from None
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BrokenFile(f"seed: expected a whole number, found {seed!r}", line_of(lines, ("seed",)))
    outcome = ruleset.adjudicate(
        position, {str(p): dict(e or {}) for p, e in orders.items()}, seed)
    result = dict(outcome.position)
    if outcome.game_over:
        result["game_over"] = True
        result["winners"] = list(outcome.winners)
    result["events"] = list(outcome.events)
    return result


def _diplomacy_scenario(data: Mapping[str, Any]) -> dict[str, Any]:
    try:
        module = importlib.import_module("pbmref.scenario_diplomacy")
    except ModuleNotFoundError as exc:
        if exc.name != "pbmref.scenario_diplomacy":
            raise
        raise BrokenFile("this referee has no Diplomacy rules yet") from None
    result = module.run_scenario(dict(data))
    if not isinstance(result, dict):
        raise BrokenFile("the Diplomacy rules returned no result")
    # Conformance (scenario.md: exit 0 only on a full match of expect): keep
    # the result object itself, whose ``differences`` come from the Diplomacy
    # comparison (unit and centre lists in any order, order keys normalised);
    # a plain dict copy lost them and the order of a list decided the verdict.
    return result


def run_data(
    data: Any, lines: Mapping[Path_, int] | None = None
) -> dict[str, Any]:
    """Adjudicate a scenario given as plain data; return the printed result.

    Raises ``BrokenFile`` or ``Refused`` (with the file line when known).
    """
    lines = lines or {}
    if not isinstance(data, Mapping):
        raise BrokenFile("a scenario is a mapping of keys (ruleset, turn, aircraft ...)", 1)
    name = str(data.get("ruleset", "tweedekker")).strip().lower()
    if name in ("diplomacy", "dirigible"):
        return _diplomacy_scenario(data)
    if name in ("tweedekker", "fastplay"):
        try:
            return _air_scenario(name, data, lines)
        except ModuleNotFoundError as exc:
            if not (exc.name or "").startswith("pbmref."):
                raise
            raise BrokenFile(f"the {name} rules are not available here ({exc.name})") from None
    raise BrokenFile(
        f"unknown ruleset {name!r}; known: tweedekker, fastplay, diplomacy, dirigible",
        line_of(lines, ("ruleset",)))


def run_file(path: str | Path) -> ScenarioResult:
    """Run one scenario file. Never raises; problems become messages and exit 2."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return ScenarioResult(name, EXIT_BROKEN, messages=[f"{name}: cannot read the file: {exc}"])
    try:
        data, lines = load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        return ScenarioResult(name, EXIT_BROKEN,
                              messages=[f"{name}{line}: not valid YAML: {problem}"])
    expect = data.get("expect") if isinstance(data, Mapping) else None
    if expect is not None and not isinstance(expect, Mapping):
        return ScenarioResult(name, EXIT_BROKEN, messages=[
            f"{name}:{line_of(lines, ('expect',))}: expect: expected a mapping of results"])
    expect = dict(expect or {})
    expected_error = expect.pop("error", None)
    try:
        result = run_data(data, lines)
    except Refused as exc:
        where = f"{name}:{exc.line}" if exc.line else name
        # Rule numbers only ("M3"); words such as SYNTAX say nothing more.
        rule = f" (rule {exc.rule})" if any(c.isdigit() for c in exc.rule) else ""
        text_ = f"{where}: {exc.message}{rule}"
        if expected_error is not None:
            if str(expected_error).strip().upper() == exc.rule.upper():
                return ScenarioResult(name, EXIT_OK, messages=[f"{text_}: refused as expected"])
            return ScenarioResult(name, EXIT_DIFFERS, differences=[
                f"error: expected a refusal under rule {expected_error}, got: {exc.message}{rule}"])
        return ScenarioResult(name, EXIT_BROKEN, messages=[text_])
    except BrokenFile as exc:
        where = f"{name}:{exc.line}" if exc.line else name
        return ScenarioResult(name, EXIT_BROKEN, messages=[f"{where}: {exc.message}"])
    except Exception as exc:  # never a traceback (team rule); say what broke
        return ScenarioResult(name, EXIT_BROKEN, messages=[
            f"{name}: the referee failed on this file: {type(exc).__name__}: {exc}"])
    differences: list[str] = []
    if expected_error is not None:
        differences.append(f"error: expected the orders to be refused under rule "
                           f"{expected_error}, but they were accepted")
    own = getattr(result, "differences", None)
    if isinstance(own, list):
        # Diplomacy compares its own results (it normalises order keys, DD2a).
        differences.extend(str(d) for d in own)
    else:
        differences.extend(compare(expect, result))
    return ScenarioResult(name, EXIT_DIFFERS if differences else EXIT_OK, result, differences)
