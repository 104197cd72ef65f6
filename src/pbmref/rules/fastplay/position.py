"""A Fast Play position as plain data and back: the scenario/YAML schema.

``position_from_dict`` checks every value and raises ``PositionError`` (the
shared type of ``pbmref.rules.tweedekker.position``) with the key path of the
bad value; ``position_to_dict`` writes the same keys back.

>>> state = position_from_dict({"aircraft": {"anna": {"team": "Germans", "hex": "E10",
...     "heading": "S"}}})
>>> position_to_dict(state)["aircraft"]["anna"]
{'team': 'Germans', 'state': 'flying', 'hex': 'E10', 'heading': 'S', 'hits': 0, 'kills': 0, 'score': 0, 'ace': False, 'nmr': 0}
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.cards import DECK_COUNTS, FULL_DECK, Card, sort_deck
from pbmref.rules.fastplay.state import GameState, Plane, PlaneState, Settings, Team
from pbmref.rules.hexgrid import Heading, Hex, HexNameError
from pbmref.rules.plaindata import KeyPath as Path
from pbmref.rules.plaindata import PositionError, player_ids
from pbmref.rules.plaindata import boolean as _bool
from pbmref.rules.plaindata import check_keys as _check_keys
from pbmref.rules.plaindata import mapping as _mapping
from pbmref.rules.plaindata import whole as _int

__all__ = ["PositionError", "board_from_dict", "position_from_dict", "position_to_dict"]


_TOP_KEYS = {
    "ruleset", "turn", "seed", "board", "settings", "aircraft", "orders", "expect",
    "game_over", "winners", "events", "description", "title", "score", "dice", "wind",
    "clouds",
}
_PLANE_KEYS = {
    "team", "hex", "heading", "state", "hits", "kills", "score", "ace", "double_ace", "nmr",
    "deck", "duel", "withdrawing", "gun_hits", "burning", "name",
}
_SETTING_NAMES = {f.name for f in dataclasses.fields(Settings)}










def _settings(data: Mapping[str, object]) -> Settings:
    raw = dict(_mapping(data.get("settings"), ("settings",)))
    _check_keys(raw, _SETTING_NAMES, ("settings",))
    board = _mapping(data.get("board"), ("board",))
    _check_keys(board, {"files", "ranks"}, ("board",))
    for key in ("files", "ranks"):
        if key in board:
            raw[key] = board[key]
    values: dict[str, Any] = {}
    for f in dataclasses.fields(Settings):
        if f.name not in raw:
            continue
        path: Path = ("settings", f.name)
        if f.name == "critical_hits":
            values[f.name] = _bool(raw[f.name], path)
        else:
            low = {"files": 2, "ranks": 2, "range": 1, "hits_to_down": 1, "ace_victories": 1,
                   "leave_hits": 0, "entry_distance": 0, "nmr_limit": 1, "turns": 0}[f.name]
            values[f.name] = _int(raw[f.name], path, low, 26 if f.name == "files" else None)
    return Settings(**values)


def _deck(value: Any, path: Path) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise PositionError(path, "expected a list of the cards left, e.g. [A, A, L, R]", "FP6")
    cards: list[Card] = []
    for i, c in enumerate(value):
        try:
            cards.append(Card.parse(str(c)))
        except ValueError as exc:
            raise PositionError((*path, i), str(exc), "FP4") from None
    for card, n in Counter(cards).items():
        if n > DECK_COUNTS[card]:
            raise PositionError(path, f"the deck holds {DECK_COUNTS[card]} {card}, not {n}",
                                "FP4")
    return sort_deck(cards)


def _team(a: Mapping[str, object], path: Path) -> Team:
    if "team" not in a:
        raise PositionError(path, "every plane needs a team: Germans or Allies", "FP1")
    try:
        return Team.parse(str(a["team"]))
    except ValueError as exc:
        raise PositionError((*path, "team"), str(exc), "FP1") from None


def _plane_state(a: Mapping[str, object], path: Path) -> PlaneState:
    try:
        return PlaneState(str(a.get("state", "flying")).lower())
    except ValueError:
        names = " | ".join(s.value for s in PlaneState)
        raise PositionError((*path, "state"),
                            f"{a.get('state')!r} is not a state: {names}", "FP18") from None


def _plane_hex(a: Mapping[str, object], path: Path, board: FastBoard,
               state: PlaneState) -> Hex | None:
    if state is not PlaneState.FLYING:
        return None
    if "hex" not in a:
        raise PositionError(path, "a flying plane needs a hex", "FP1")
    try:
        hex_ = board.parse(str(a["hex"]))
    except HexNameError as exc:
        raise PositionError((*path, "hex"), str(exc), "FP1") from None
    if not board.contains(hex_):
        raise PositionError((*path, "hex"), f"{a['hex']!r} is not on the board", "FP1")
    return hex_


def _plane(pilot: str, a: object, board: FastBoard, settings: Settings) -> Plane:
    """One plane of the ``aircraft`` mapping, checked."""
    path: Path = ("aircraft", pilot)
    a = _mapping(a, path)
    _check_keys(a, _PLANE_KEYS, path)
    team = _team(a, path)
    state = _plane_state(a, path)
    hex_ = _plane_hex(a, path, board, state)
    try:
        heading = Heading.parse(str(a.get("heading", team.facing.value)))
    except HexNameError as exc:
        raise PositionError((*path, "heading"), str(exc), "FP2") from None
    duel = a.get("duel")
    return Plane(
        pilot=str(pilot), team=team, state=state, hex=hex_, heading=heading,
        hits=_int(a.get("hits", 0), (*path, "hits"), 0,
                  settings.hits_to_down - 1 if state is PlaneState.FLYING else None, "FP9"),
        kills=_int(a.get("kills", 0), (*path, "kills"), 0),
        score=_int(a.get("score", 0), (*path, "score"), 0, None, "FP19"),
        ace=_bool(a.get("ace", False), (*path, "ace")),
        double_ace=_bool(a.get("double_ace", False), (*path, "double_ace")),
        nmr=_int(a.get("nmr", 0), (*path, "nmr"), 0),
        deck=_deck(a["deck"], (*path, "deck")) if "deck" in a else FULL_DECK,
        duel=None if duel is None else str(duel),
        withdrawing=_bool(a.get("withdrawing", False), (*path, "withdrawing")),
        gun_hits=_int(a.get("gun_hits", 0), (*path, "gun_hits"), 0),
        burning=_bool(a.get("burning", False), (*path, "burning")),
    )


def _check_together(planes: list[Plane]) -> None:
    """What a plane's values mean beside the others': fires and withdrawals on the
    board only (FP12, FP15), duels between two enemies naming each other (FP15)."""
    for p in planes:
        _check_on_board(p)
    _check_duels(planes)


def _check_on_board(p: Plane) -> None:
    """Fires and withdrawals on the board only (FP12, FP15), no withdrawal in a duel."""
    path: Path = ("aircraft", p.pilot)
    if p.burning and not p.on_board:
        raise PositionError((*path, "burning"), "only a plane on the board can be on fire; "
                            "the fire is out once it has left or come down", "FP12")
    if p.withdrawing and not p.on_board:
        raise PositionError((*path, "withdrawing"), "only a plane on the board withdraws; "
                            "once off the board it fights again", "FP15")
    if p.withdrawing and p.duel is not None:
        raise PositionError((*path, "withdrawing"), "a plane withdraws after its duel, "
                            "not during it", "FP15")


def _check_duels(planes: list[Plane]) -> None:
    """Duels between two enemies on the board naming each other (FP15)."""
    by_pilot = {p.pilot: p for p in planes}
    for p in planes:
        if p.duel is None:
            continue
        path = ("aircraft", p.pilot, "duel")
        other = by_pilot.get(p.duel)
        if other is None or other.duel != p.pilot:
            raise PositionError(path, f"a duel needs two pilots naming each other; "
                                      f"{p.duel!r} does not name {p.pilot}", "FP15")
        if other.team is p.team or not (p.on_board and other.on_board):
            raise PositionError(path, "a duel is between two enemy planes on the board",
                                "FP15")


def board_from_dict(data: Mapping[str, object]) -> FastBoard:
    """The board a position is played on (FP1), read alone: the names of its
    turn's hexes in the events.

    >>> board_from_dict({"board": {"files": 8, "ranks": 12}})
    FastBoard(files=8, ranks=12)
    """
    settings = _settings(_mapping(data, ()))
    return FastBoard(settings.files, settings.ranks)


def position_from_dict(data: Mapping[str, object]) -> GameState:
    """Build a position from plain data (scenario or turn file)."""
    data = _mapping(data, ())
    _check_keys(data, _TOP_KEYS, ())
    settings = _settings(data)
    board = FastBoard(settings.files, settings.ranks)
    turn = _int(data.get("turn", 1), ("turn",), 1)

    planes = [_plane(str(pilot), a, board, settings)
              for pilot, a in _mapping(data.get("aircraft"), ("aircraft",)).items()]
    _check_together(planes)
    # The game score by side (FP19): the referee's own top-level key when given
    # (a board keeps its score when a pilot moves to another board); else the
    # sum of the planes' own ``score``, as a file written to the spec has it.
    score_raw = _mapping(data.get("score"), ("score",))
    _check_keys(score_raw, {t.value for t in Team}, ("score",))
    score: list[tuple[Team, int]] = []
    for team in Team:
        own = sum(p.score for p in planes if p.team is team)
        score.append((team, _int(score_raw.get(team.value, own), ("score", team.value), 0,
                                 None, "FP19")))
    return GameState(
        turn=turn, settings=settings, planes=tuple(sorted(planes, key=lambda x: x.pilot)),
        score=tuple(score), game_over=bool(data.get("game_over", False)),
        winners=player_ids(data.get("winners"), ("winners",)),
    )


def _plane_to_dict(p: Plane, board: FastBoard) -> dict[str, object]:
    """One plane in the scenario file's keys (what has its default left out)."""
    entry: dict[str, object] = {"team": p.team.value, "state": p.state.value}
    if p.hex is not None:
        entry["hex"] = board.name(p.hex)
    entry["heading"] = p.heading.value
    entry.update(hits=p.hits, kills=p.kills, score=p.score, ace=p.ace, nmr=p.nmr)
    if p.double_ace:
        entry["double_ace"] = True
    if p.deck != FULL_DECK:
        entry["deck"] = [c.value for c in p.deck]
    if p.duel is not None:
        entry["duel"] = p.duel
    if p.withdrawing:
        entry["withdrawing"] = True
    if p.gun_hits:
        entry["gun_hits"] = p.gun_hits
    if p.burning:
        entry["burning"] = True
    return entry


def position_to_dict(state: GameState) -> dict[str, object]:
    """The position as plain data, in the scenario file's keys."""
    board = state.board
    defaults = Settings()
    settings = {
        f.name: getattr(state.settings, f.name)
        for f in dataclasses.fields(Settings)
        if f.name not in ("files", "ranks")
        and getattr(state.settings, f.name) != getattr(defaults, f.name)
    }
    out: dict[str, object] = {
        "ruleset": "fastplay",
        "turn": state.turn,
        "board": {"files": state.settings.files, "ranks": state.settings.ranks},
    }
    if settings:
        out["settings"] = settings
    out["aircraft"] = {p.pilot: _plane_to_dict(p, board) for p in state.planes}
    out["score"] = {t.value: n for t, n in state.score}
    if state.game_over:
        out["game_over"] = True
        out["winners"] = list(state.winners)
    return out
