"""A tweedekker position as plain data and back: the scenario/YAML schema.

``position_from_dict`` checks every value and raises ``PositionError`` with
the key path of the bad value (the store turns the path into a file line),
the rule it breaks and plain words. ``position_to_dict`` writes the same
keys, so a position read and written again is unchanged.

>>> state = position_from_dict({"aircraft": {"baron": {"hex": "J12", "heading": "N",
...     "state": "flying", "airfield": "N"}}})
>>> position_to_dict(state)["aircraft"]["baron"]["hex"]
'J12'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from pbmref.rules.hexgrid import Heading, Hex, HexBoard, HexNameError
from pbmref.rules.plaindata import KeyPath as Path
from pbmref.rules.plaindata import PositionError, player_ids
from pbmref.rules.plaindata import boolean as _bool
from pbmref.rules.plaindata import check_keys as _check_keys
from pbmref.rules.plaindata import mapping as _mapping
from pbmref.rules.plaindata import whole as _int
from pbmref.rules.tweedekker.state import (
    Aircraft,
    AircraftState,
    Airfield,
    Cloud,
    CloudKind,
    GameState,
    Settings,
    Wind,
    Zeppelin,
)

__all__ = ["PositionError", "board_from_dict", "position_from_dict", "position_to_dict"]





_SETTING_NAMES = {f.name for f in dataclasses.fields(Settings)}








def _heading(value: Any, path: Path) -> Heading:
    try:
        return Heading.parse(str(value))
    except HexNameError as exc:
        raise PositionError(path, str(exc), "B2") from None


def _hex(value: Any, path: Path, board: HexBoard, off_board_ok: bool = False) -> Hex:
    try:
        hex_ = board.parse(str(value))
    except HexNameError as exc:
        raise PositionError(path, str(exc), "B3") from None
    if not off_board_ok and not board.contains(hex_):
        raise PositionError(path, f"{value!r} is not on the board", "B3")
    return hex_




def _state(a: Mapping[str, object], path: Path) -> AircraftState:
    try:
        return AircraftState(str(a.get("state", "landed")).lower())
    except ValueError:
        names = " | ".join(s.value for s in AircraftState)
        raise PositionError((*path, "state"),
                            f"{a.get('state')!r} is not a state: {names}") from None


def _airfields(raw: Mapping[str, Mapping[str, object]], board: HexBoard) -> dict[str, Heading]:
    """Every aircraft's own airfield (B5, L1), with the default for those left out.

    An aircraft without ``airfield`` that stands landed on a corner owns that
    corner; each other one, in the order of the file, takes the next airfield
    no aircraft owns (N, NE, SE, S, SW, NW). Ruling (B5): once all six are
    owned, the rest share them in turn in that order, each still owning one.

    >>> b = HexBoard(10)
    >>> owners = _airfields({"a": {"state": "flying", "hex": "J10"},
    ...                      "b": {"state": "landed", "hex": "J19"},
    ...                      "c": {"airfield": "NE"}}, b)
    >>> {p: h.value for p, h in owners.items()}
    {'b': 'N', 'c': 'NE', 'a': 'SE'}
    """
    corners = {board.corner(h): h for h in Heading}
    owners: dict[str, Heading] = {}
    for pilot, a in raw.items():
        path: Path = ("aircraft", pilot)
        _check_keys(a, _AIRCRAFT_KEYS, path)
        if "airfield" in a:
            owners[pilot] = _heading(a["airfield"], (*path, "airfield"))
        elif "hex" in a and _state(a, path) is AircraftState.LANDED:
            corner = corners.get(_hex(a["hex"], (*path, "hex"), board))
            if corner is not None:
                owners[pilot] = corner
    free = [h for h in Heading if h not in owners.values()]
    shared = 0
    for pilot in raw:
        if pilot in owners:
            continue
        if free:
            owners[pilot] = free.pop(0)
        else:
            owners[pilot] = list(Heading)[shared % len(Heading)]
            shared += 1
    return owners


_TOP_KEYS = {
    "ruleset", "turn", "seed", "board", "settings", "wind", "clouds", "aircraft",
    "airfields", "zeppelins", "orders", "expect", "game_over", "winners", "events",
    "description", "title",
}
_AIRCRAFT_KEYS = {
    "hex", "heading", "state", "damage", "ammo", "vp", "dealt", "ace", "kills", "nmr",
    "airfield", "rear_gun", "landed_turns",
}
_ZEPPELIN_KEYS = {
    "hexes", "heading", "damage", "controlled", "first_hit", "bomb_ready_turn", "destroyed",
}


def _settings(data: Mapping[str, object], board_data: Mapping[str, object]) -> Settings:
    raw = _mapping(data.get("settings"), ("settings",))
    settings_data: dict[str, int] = {}
    for key, value in raw.items():
        if key not in _SETTING_NAMES and key not in ("zeppelin_damage_points",):
            raise PositionError(("settings", key), f"unknown setting {key!r}")
        if key == "board_side":
            settings_data[key] = _int(value, ("settings", key), 2, 13, "B1")
        elif key != "zeppelin_damage_points":
            settings_data[key] = _int(value, ("settings", key), 0)
    if "side" in board_data:
        settings_data["board_side"] = _int(board_data["side"], ("board", "side"), 2, 13, "B1")
    zdp = raw.get("zeppelin_damage_points")
    zpath: Path = ("settings", "zeppelin_damage_points")
    if isinstance(zdp, Mapping):
        # {1: 12, 2: 20}: the pool per zeppelin length (Z2).
        for length, value in zdp.items():
            if str(length) not in ("1", "2"):
                raise PositionError((*zpath, str(length)),
                                    "a zeppelin is 1 or 2 hexes long", "Z2")
            settings_data[f"zeppelin_damage_points_{length}"] = _int(
                value, (*zpath, str(length)), 1, None, "Z2")
    elif zdp is not None:
        # One number: the pool of the game's zeppelins, whatever their length.
        pool = _int(zdp, zpath, 1, None, "Z2")
        settings_data["zeppelin_damage_points_1"] = pool
        settings_data["zeppelin_damage_points_2"] = pool
    settings = Settings(**settings_data)
    return settings


def _wind(data: Mapping[str, object]) -> Wind:
    wind_data = _mapping(data.get("wind"), ("wind",))
    _check_keys(wind_data, {"to", "strength", "changes"}, ("wind",))
    wind = Wind(
        to=_heading(wind_data.get("to", "N"), ("wind", "to")),
        strength=_int(wind_data.get("strength", 0), ("wind", "strength"), 0, 2, "W1"),
        changes=_bool(wind_data.get("changes", False), ("wind", "changes")),
    )
    return wind


def _clouds(data: Mapping[str, object], board: HexBoard) -> tuple[Cloud, ...]:
    clouds: list[Cloud] = []
    raw_clouds = data.get("clouds") or []
    if not isinstance(raw_clouds, list):
        raise PositionError(("clouds",), "expected a list of clouds")
    for i, c in enumerate(raw_clouds):
        c = _mapping(c, ("clouds", i))
        _check_keys(c, {"kind", "hexes"}, ("clouds", i))
        try:
            kind = CloudKind(str(c.get("kind", "cloud")).lower())
        except ValueError:
            raise PositionError(("clouds", i, "kind"),
                                f"{c.get('kind')!r} is not a cloud kind: cloud or storm",
                                "C1") from None
        hexes = c.get("hexes") or []
        if not isinstance(hexes, list):
            raise PositionError(("clouds", i, "hexes"), "expected a list of hex names")
        clouds.append(Cloud(kind, tuple(_hex(h, ("clouds", i, "hexes", j), board)
                                        for j, h in enumerate(hexes))))
    return tuple(clouds)


def _aircraft_of(data: Mapping[str, object], board: HexBoard,
                 settings: Settings) -> tuple[Aircraft, ...]:
    aircraft: list[Aircraft] = []
    raw_aircraft = {str(pilot): _mapping(a, ("aircraft", str(pilot)))
                    for pilot, a in _mapping(data.get("aircraft"), ("aircraft",)).items()}
    owners = _airfields(raw_aircraft, board)
    for pilot, a in raw_aircraft.items():
        path: Path = ("aircraft", pilot)
        state = _state(a, path)
        airfield = owners[pilot]
        if "hex" in a:
            hex_ = _hex(a["hex"], (*path, "hex"), board, off_board_ok=not state.in_fight)
        elif state is AircraftState.LANDED:
            hex_ = board.corner(airfield)
        else:
            raise PositionError(path, "an aircraft in the air needs a hex")
        if state is AircraftState.LANDED and hex_ != board.corner(airfield):
            raise PositionError((*path, "hex"),
                                f"a landed aircraft stands on its airfield's corner hex "
                                f"{board.name(board.corner(airfield))}", "L2")
        default_heading = airfield.opposite().value
        aircraft.append(Aircraft(
            pilot=str(pilot),
            hex=hex_,
            heading=_heading(a.get("heading", default_heading), (*path, "heading")),
            airfield=airfield,
            state=state,
            damage=_int(a.get("damage", settings.damage_points), (*path, "damage"),
                        None, settings.damage_points, "F1"),
            ammo=_int(a.get("ammo", settings.ammo), (*path, "ammo"), 0, settings.ammo, "F1"),
            vp=_int(a.get("vp", 0), (*path, "vp")),
            dealt=_int(a.get("dealt", 0), (*path, "dealt"), 0),
            ace=_bool(a.get("ace", False), (*path, "ace")),
            kills=_int(a.get("kills", 0), (*path, "kills"), 0),
            nmr=_int(a.get("nmr", 0), (*path, "nmr"), 0, settings.nmr_limit, "N2"),
            rear_gun=_bool(a.get("rear_gun", False), (*path, "rear_gun")),
            landed_turns=_int(a.get("landed_turns", 1 if state is AircraftState.LANDED else 0),
                              (*path, "landed_turns"), 0),
        ))
    return tuple(sorted(aircraft, key=lambda x: x.pilot))


def _airfields_of(data: Mapping[str, object]) -> tuple[Airfield, ...]:
    airfields = {h: Airfield(h) for h in Heading}
    for name, f in _mapping(data.get("airfields"), ("airfields",)).items():
        corner = _heading(name, ("airfields", str(name)))
        f = _mapping(f, ("airfields", str(name)))
        _check_keys(f, {"disabled_turns"}, ("airfields", str(name)))
        airfields[corner] = Airfield(
            corner, _int(f.get("disabled_turns", 0), ("airfields", str(name), "disabled_turns"),
                         0, None, "Z16"))
    return tuple(airfields[h] for h in Heading)


def _zeppelins_of(data: Mapping[str, object], board: HexBoard,
                  settings: Settings) -> tuple[Zeppelin, ...]:
    zeppelins: list[Zeppelin] = []
    for name, z in _mapping(data.get("zeppelins"), ("zeppelins",)).items():
        path = ("zeppelins", str(name))
        z = _mapping(z, path)
        _check_keys(z, _ZEPPELIN_KEYS, path)
        raw = z.get("hexes")
        if not isinstance(raw, list) or len(raw) not in (1, 2):
            raise PositionError((*path, "hexes"), "a zeppelin has one or two hexes, nose first", "Z1")
        heading = _heading(z.get("heading", "N"), (*path, "heading"))
        hexes = tuple(_hex(h, (*path, "hexes", j), board, off_board_ok=True)
                      for j, h in enumerate(raw))
        if len(hexes) == 2 and hexes[1] != hexes[0].step(heading.opposite()):
            raise PositionError((*path, "hexes"),
                                "the tail must be the hex directly behind the nose", "Z1")
        if not any(board.contains(h) for h in hexes):
            raise PositionError((*path, "hexes"), "at least one zeppelin hex must be on the board", "Z4")
        pool = settings.zeppelin_damage_points_2 if len(hexes) == 2 else settings.zeppelin_damage_points_1
        zeppelins.append(Zeppelin(
            name=str(name), hexes=hexes, heading=heading,
            damage=_int(z.get("damage", pool), (*path, "damage"), None, pool, "Z2"),
            controlled=_bool(z.get("controlled", False), (*path, "controlled")),
            first_hit=_bool(z.get("first_hit", False), (*path, "first_hit")),
            bomb_ready_turn=_int(z.get("bomb_ready_turn", 1), (*path, "bomb_ready_turn"), 0),
            destroyed=_bool(z.get("destroyed", False), (*path, "destroyed")),
        ))
    if sum(1 for z in zeppelins if z.controlled) > 1:
        raise PositionError(("zeppelins",), "there is at most one controlled zeppelin", "Z6")
    return tuple(zeppelins)


def board_from_dict(data: Mapping[str, object]) -> HexBoard:
    """The board a position is played on (B1), read alone: the names of its
    turn's hexes in the events.

    >>> board_from_dict({"board": {"side": 7}})
    HexBoard(side=7)
    """
    data = _mapping(data, ())
    return HexBoard(_settings(data, _mapping(data.get("board"), ("board",))).board_side)


def position_from_dict(data: Mapping[str, object], *, extra_keys: set[str] = frozenset()) -> GameState:  # type: ignore[assignment]
    """Build a position from plain data (scenario or turn file)."""
    data = _mapping(data, ())
    _check_keys(data, _TOP_KEYS | set(extra_keys), ())
    board_data = _mapping(data.get("board"), ("board",))
    _check_keys(board_data, {"side"}, ("board",))
    settings = _settings(data, board_data)
    board = HexBoard(settings.board_side)
    return GameState(
        turn=_int(data.get("turn", 1), ("turn",), 1),
        settings=settings,
        wind=_wind(data),
        clouds=_clouds(data, board),
        aircraft=_aircraft_of(data, board, settings),
        airfields=_airfields_of(data),
        zeppelins=_zeppelins_of(data, board, settings),
        game_over=bool(data.get("game_over", False)),
        winners=player_ids(data.get("winners"), ("winners",)),
    )


# The settings a position writes when they differ from the default (the board's
# side is written as the board), with their defaults: found once.
_WRITTEN_SETTINGS = tuple((f.name, f.default) for f in dataclasses.fields(Settings)
                          if f.name != "board_side")


def position_to_dict(state: GameState) -> dict[str, Any]:
    """The position as plain data, in the scenario file's keys."""
    board = state.board
    given = state.settings
    settings = {name: value for name, default in _WRITTEN_SETTINGS
                if (value := getattr(given, name)) != default}
    out: dict[str, Any] = {
        "ruleset": "tweedekker",
        "turn": state.turn,
        "board": {"side": state.settings.board_side},
    }
    if settings:
        out["settings"] = settings
    out["wind"] = {"to": state.wind.to.value, "strength": state.wind.strength,
                   "changes": state.wind.changes}
    out["clouds"] = [{"kind": c.kind.value, "hexes": [board.name(h) for h in c.hexes]}
                     for c in state.clouds]
    out["aircraft"] = {
        a.pilot: {
            "hex": board.name(a.hex), "heading": a.heading.value, "state": a.state.value,
            "damage": a.damage, "ammo": a.ammo, "vp": a.vp, "dealt": a.dealt, "ace": a.ace,
            "kills": a.kills, "nmr": a.nmr, "airfield": a.airfield.value,
            "rear_gun": a.rear_gun, "landed_turns": a.landed_turns,
        }
        for a in state.aircraft
    }
    # Every airfield is written, so a result can be checked for a counter
    # that ran down to 0 (Z16); reading accepts any subset.
    out["airfields"] = {f.corner.value: {"disabled_turns": f.disabled_turns}
                        for f in state.airfields}
    if state.zeppelins:
        out["zeppelins"] = {
            z.name: {
                "hexes": [board.name(h) for h in z.hexes], "heading": z.heading.value,
                "damage": z.damage, "controlled": z.controlled, "first_hit": z.first_hit,
                "bomb_ready_turn": z.bomb_ready_turn, "destroyed": z.destroyed,
            }
            for z in state.zeppelins
        }
    if state.game_over:
        out["game_over"] = True
        out["winners"] = list(state.winners)
    return out
