"""Comparing a result with what a scenario expects (the ``expect`` block).

Pure data in, the differences out in plain words; the scenario runner and the
rulesets' own scenario functions share it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

__all__ = ["compare"]


def _scalar_equal(expected: Any, actual: Any) -> bool:
    if expected == actual and type(expected) is type(actual):
        return True
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return bool(expected == actual)
    if isinstance(expected, str | int) and isinstance(actual, str | int):
        return str(expected) == str(actual)  # "0" the manoeuvre vs 0 the number
    return bool(expected == actual)


def _show(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=1000).strip()
    return text.removesuffix("...").strip()


def compare(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Every way ``actual`` fails to contain ``expected`` (any subset matches).

    Mappings match key by key, and an expected ``false``, ``{}`` or ``[]``
    matches a key the result leaves out (``game_over: false``); a list of
    mappings (events) matches when its entries are found in order among the
    actual ones; other lists match item by item (``winners`` in any order).
    """
    where = path or "result"
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{where}: expected {_show(expected)}, got {_show(actual)}"]
        return _compare_mapping(expected, actual, path)
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{where}: expected {_show(expected)}, got {_show(actual)}"]
        return _compare_list(expected, actual, path)
    if not _scalar_equal(expected, actual):
        return [f"{where}: expected {_show(expected)}, got {_show(actual)}"]
    return []


def _compare_mapping(expected: Mapping[Any, Any], actual: Mapping[Any, Any],
                     path: str) -> list[str]:
    """Key by key; a key left out of the result matches an expected false or empty value."""
    out: list[str] = []
    for key, value in expected.items():
        sub = f"{path}.{key}" if path else str(key)
        if key not in actual and str(key) not in actual:
            if value is False or (isinstance(value, Mapping | list) and not value):
                continue  # left out of the result when false or empty: a match
            out.append(f"{sub}: expected {_show(value)}, but there is no {key!s} in the result")
            continue
        out.extend(compare(value, actual[key] if key in actual else actual[str(key)], sub))
    return out


def _compare_list(expected: list[Any], actual: list[Any], path: str) -> list[str]:
    """Entries (events) in order among the actual ones, ``winners`` in any
    order, any other list item by item."""
    where = path or "result"
    if expected and all(isinstance(e, Mapping) for e in expected):
        return _compare_entries(expected, actual, where)
    if path.split(".")[-1] == "winners":
        if sorted(map(str, expected)) != sorted(map(str, actual)):
            return [f"{where}: expected {_show(expected)}, got {_show(actual)}"]
        return []
    if len(expected) != len(actual) or any(
        compare(e, a) for e, a in zip(expected, actual, strict=False)
    ):
        return [f"{where}: expected {_show(expected)}, got {_show(actual)}"]
    return []


def _compare_entries(expected: list[Any], actual: list[Any], where: str) -> list[str]:
    """Each expected entry matched by an actual one, after the one matching the entry before."""
    i = 0
    for n, item in enumerate(expected):
        while i < len(actual) and compare(item, actual[i]):
            i += 1
        if i >= len(actual):
            return [f"{where}[{n}]: expected an entry {_show(item)} (in this order), "
                    f"found none"]
        i += 1
    return []
