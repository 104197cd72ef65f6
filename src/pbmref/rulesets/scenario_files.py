"""Scenario files: one turn written down, run through the referee's own rules.

See ``docs/scenario-format.md``. A scenario holds a position, the orders of
one turn, the dice seed and optionally an ``expect`` block. ``run_file``
reads one file (a bad value is reported as ``FILE:LINE: message (rule X)``,
the line found from the value's key path), plays the turn with the game's
ruleset (``Ruleset.run_scenario``, the same code the referee runs) and
reports what differs from ``expect``.

Exit codes: 0 everything expected matched (or nothing was expected), 1 some
expected value differs, 2 the file itself is broken.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pbmref.base.errors import GameFileError
from pbmref.base.yamlfile import YamlDoc, read_yaml
from pbmref.rulesets import UnknownRuleset, get_ruleset
from pbmref.rulesets.base import ScenarioError, rule_words

__all__ = ["EXIT_BROKEN", "EXIT_DIFFERS", "EXIT_OK", "FileResult", "run_file"]

EXIT_OK, EXIT_DIFFERS, EXIT_BROKEN = 0, 1, 2


@dataclass
class FileResult:
    """The outcome of one scenario file."""

    path: str
    code: int
    result: dict[str, object] | None = None  # the printed position + events
    differences: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)  # errors, "refused as expected"


def _at(name: str, doc: YamlDoc, path: tuple[str | int, ...]) -> str:
    line = doc.line(path)
    return f"{name}:{line}" if line else name


def run_file(path: str | Path) -> FileResult:
    """Run one scenario file. Never raises; problems become messages and exit 2."""
    name = str(path)
    try:
        doc = read_yaml(path)
    except GameFileError as exc:
        where = f"{name}:{exc.line}" if exc.line else name
        plain = exc.message.startswith(("the file", "not valid YAML", "not UTF-8", "cannot be"))
        words = "" if plain else "not valid YAML: "
        return FileResult(name, EXIT_BROKEN, messages=[f"{where}: {words}{exc.message}"])
    data = doc.data
    if not isinstance(data, Mapping):
        return FileResult(name, EXIT_BROKEN, messages=[
            f"{name}:1: a scenario is a mapping of keys (ruleset, turn, aircraft ...)"])
    if data.get("expect") is not None and not isinstance(data["expect"], Mapping):
        return FileResult(name, EXIT_BROKEN, messages=[
            f"{_at(name, doc, ('expect',))}: expect: expected a mapping of results"])
    try:
        ruleset = get_ruleset(str(data.get("ruleset", "tweedekker")).strip().lower())
    except UnknownRuleset as exc:
        return FileResult(name, EXIT_BROKEN, messages=[
            f"{_at(name, doc, ('ruleset',))}: {exc}"])
    try:
        outcome = ruleset.run_scenario(data)
    except ScenarioError as exc:
        return FileResult(name, EXIT_BROKEN, messages=[
            f"{_at(name, doc, exc.path)}: {exc.message}{rule_words(exc.rule)}"])
    except Exception as exc:  # noqa: BLE001 - never a traceback; say what broke
        return FileResult(name, EXIT_BROKEN, messages=[
            f"{name}: the referee failed on this file: {type(exc).__name__}: {exc}"])
    refused = outcome.refused
    if refused is not None:
        return FileResult(name, EXIT_OK, messages=[
            f"{_at(name, doc, refused.path)}: {refused.message}{rule_words(refused.rule)}: "
            "refused as expected"])
    code = EXIT_DIFFERS if outcome.differences else EXIT_OK
    return FileResult(name, code, outcome.result, list(outcome.differences))
