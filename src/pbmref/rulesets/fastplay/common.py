"""Reading a Fast Play position leniently: the board, the planes, their letters.

Shared by the Fast Play text report, its personal blocks and its SVG board.
Nothing here recomputes a rule: it only reads, with the position's defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbmref.rules.fastplay.board import FastBoard
from pbmref.rulesets.air.names import pilot_letters

__all__ = ["DECK_SIZE", "cards_left", "fastplay_board", "fastplay_letters", "fastplay_planes",
           "hits_to_down", "on_board", "setting"]

DECK_SIZE = 20  # FP4: a full deck


def fastplay_board(position: Mapping[str, Any]) -> FastBoard:
    """The board of a Fast Play position (``board: {files, ranks}``, FP1)."""
    board = position.get("board") or {}
    settings = position.get("settings") or {}
    try:
        files = int(board.get("files", settings.get("files", 10)))
        ranks = int(board.get("ranks", settings.get("ranks", 10)))
        return FastBoard(files, ranks)
    except (TypeError, ValueError, AttributeError):
        return FastBoard()


def fastplay_planes(position: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every plane's entry by pilot id, sorted, with the position's defaults."""
    out: dict[str, dict[str, Any]] = {}
    planes = position.get("aircraft") or {}
    for pilot in sorted(planes, key=str):
        entry = dict(planes[pilot] or {})
        entry.setdefault("team", "Germans")
        entry.setdefault("state", "flying")
        entry.setdefault("heading", "S" if entry["team"] == "Germans" else "N")
        for key in ("hits", "kills", "nmr"):
            entry.setdefault(key, 0)
        entry.setdefault("ace", False)
        out[str(pilot)] = entry
    return out


def fastplay_letters(*positions: Mapping[str, Any]) -> dict[str, str]:
    """One map letter per pilot, upper case for Germans, lower for Allies (FP1)."""
    planes: dict[str, dict[str, Any]] = {}
    for position in positions:
        planes.update(fastplay_planes(position))
    letters = pilot_letters(planes)
    return {p: (letters[p] if planes[p]["team"] == "Germans" else letters[p].lower())
            for p in planes}


def on_board(a: Mapping[str, Any]) -> bool:
    return a.get("state") == "flying" and a.get("hex") is not None


def cards_left(a: Mapping[str, Any]) -> int:
    deck = a.get("deck")
    return len(deck) if isinstance(deck, list) else DECK_SIZE


def setting(position: Mapping[str, Any], key: str, default: int) -> int:
    """A whole-number rule setting of the position, or its default."""
    try:
        return int((position.get("settings") or {}).get(key, default))
    except (TypeError, ValueError, AttributeError):
        return default


def hits_to_down(position: Mapping[str, Any]) -> int:
    return setting(position, "hits_to_down", 6)
