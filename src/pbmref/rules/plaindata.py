"""Checking positions given as plain data (YAML): the checks both air rulesets share.

Each check raises ``PositionError`` with the key path of the bad value, the
rule it breaks and plain words; the store turns the path into a file line.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["KeyPath", "PositionError", "boolean", "check_keys", "mapping", "player_ids", "whole"]

KeyPath = tuple[str | int, ...]


class PositionError(ValueError):
    """A position value that breaks a rule; ``path`` locates it in the file."""

    def __init__(self, path: KeyPath, message: str, rule: str = "") -> None:
        self.path = path
        self.message = message
        self.rule = rule
        where = ".".join(str(p) for p in path)
        super().__init__(f"{where}: {message}" + (f" (rule {rule})" if rule else ""))


def mapping(value: object, path: KeyPath) -> Mapping[str, object]:
    """A mapping (an absent value counts as empty).

    >>> mapping(None, ("wind",))
    {}
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise PositionError(path, f"expected a mapping of keys to values, found {value!r}")
    return value


def check_keys(data: Mapping[str, object], allowed: set[str], path: KeyPath) -> None:
    for key in data:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise PositionError((*path, key), f"unknown key {key!r}; known keys: {known}")


def whole(value: object, path: KeyPath, low: int | None = None, high: int | None = None,
          rule: str = "") -> int:
    """A whole number within ``low``..``high``.

    >>> whole(13, ("aircraft", "baron", "damage"), None, 12, "F1")
    Traceback (most recent call last):
    ...
    pbmref.rules.plaindata.PositionError: aircraft.baron.damage: 13 is above the most allowed value 12 (rule F1)
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(path, f"expected a whole number, found {value!r}", rule)
    if low is not None and value < low:
        raise PositionError(path, f"{value} is below the least allowed value {low}", rule)
    if high is not None and value > high:
        raise PositionError(path, f"{value} is above the most allowed value {high}", rule)
    return value


def boolean(value: object, path: KeyPath) -> bool:
    if not isinstance(value, bool):
        raise PositionError(path, f"expected true or false, found {value!r}")
    return value


def player_ids(value: object, path: KeyPath) -> tuple[str, ...]:
    """A list of player ids (``winners``; absent: none).

    >>> player_ids(["anna", "bert"], ("winners",))
    ('anna', 'bert')
    """
    if not value:
        return ()
    if not isinstance(value, list | tuple):
        raise PositionError(path, f"expected a list of player ids, found {value!r}")
    return tuple(str(v) for v in value)
