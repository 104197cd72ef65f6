"""The position of a tweedekker game: aircraft, zeppelins, clouds, wind, airfields.

Everything here is a frozen value; the engine returns a new ``GameState``
each turn. Rule numbers refer to ``shared/rules/tweedekker.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache

from pbmref.rules.hexgrid import Heading, Hex, HexBoard

__all__ = [
    "Aircraft",
    "AircraftState",
    "Airfield",
    "Cloud",
    "CloudKind",
    "GameState",
    "Runway",
    "Settings",
    "Wind",
    "Zeppelin",
    "airfield_hexes",
    "runway_hexes",
]


class AircraftState(Enum):
    """Where an aircraft stands in the fight (scenario ``state``)."""

    FLYING = "flying"
    LANDED = "landed"  # on its airfield's corner hex (L2)
    TAXIING = "taxiing"  # on a runway during take-off (L3)
    LEFT = "left"  # flew off the board (M4)
    DOWN = "down"  # shot down or destroyed (V2)
    REMOVED = "removed"  # removed for NMR (N2)

    @property
    def in_fight(self) -> bool:
        return self in (AircraftState.FLYING, AircraftState.LANDED, AircraftState.TAXIING)

    @property
    def airborne(self) -> bool:
        """Flying or taxiing: can be hit by gunfire, explosions and storms (L2)."""
        return self in (AircraftState.FLYING, AircraftState.TAXIING)


class Runway(Enum):
    """The three runways of an airfield (rule B5)."""

    ALPHA = "ALPHA"
    BETA = "BETA"
    GAMMA = "GAMMA"

    @classmethod
    def parse(cls, text: str) -> Runway:
        word = text.strip().upper()
        word = {"LEFT": "ALPHA", "CENTRE": "BETA", "CENTER": "BETA", "RIGHT": "GAMMA"}.get(
            word, word
        )
        return cls(word)


class CloudKind(Enum):
    CLOUD = "cloud"  # cover only (C1)
    STORM = "storm"  # thundercloud: 1 damage point (C2)


@dataclass(frozen=True, slots=True)
class Settings:
    """Game settings and their defaults (the rulebook's settings table)."""

    board_side: int = 10  # B1
    damage_points: int = 12  # F1
    ammo: int = 16  # F1
    bursts_per_turn: int = 3  # F1
    range: int = 4  # F3
    ace_threshold: int = 15  # V4
    ace_bonus: int = 1  # F3
    repair_per_turn: int = 2  # L6
    nmr_limit: int = 3  # N2
    turns: int = 0  # V6, 0 = no limit
    zeppelin_damage_points_1: int = 12  # Z2, one-hex zeppelin
    zeppelin_damage_points_2: int = 20  # Z2, two-hex zeppelin
    bomb_damage_cap: int = 3  # Z15
    bomb_reload_turns: int = 3  # Z17
    airfield_disabled_turns: int = 2  # Z16


@dataclass(frozen=True, slots=True)
class Wind:
    """Where the wind blows to and how many hexes a turn (W1)."""

    to: Heading = Heading.N
    strength: int = 0
    changes: bool = False


@dataclass(frozen=True, slots=True)
class Cloud:
    kind: CloudKind
    hexes: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class Airfield:
    """An airfield named after its corner (B5); bombed ones are disabled (Z16)."""

    corner: Heading
    disabled_turns: int = 0


@dataclass(frozen=True, slots=True)
class Aircraft:
    """One player's aircraft. ``pilot`` is the player id (the YAML key)."""

    pilot: str
    hex: Hex
    heading: Heading
    airfield: Heading  # its own airfield (B5, L1)
    state: AircraftState = AircraftState.LANDED
    damage: int = 12  # damage points left
    ammo: int = 16
    vp: int = 0  # victory points
    dealt: int = 0  # damage dealt this game, ace progress (V4)
    ace: bool = False
    kills: int = 0
    nmr: int = 0  # NMR turns in a row (N1)
    rear_gun: bool = False  # F2
    landed_turns: int = 1  # whole turns spent landed (L1: a new game counts 1)

    @property
    def in_fight(self) -> bool:
        return self.state.in_fight

    def moved(self, **changes: object) -> Aircraft:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Zeppelin:
    """A zeppelin of one or two hexes, nose first (Z1); one damage pool (Z2).

    A hex may be off the board (Z4); ``hexes[1]`` is always the hex directly
    behind the nose.
    """

    name: str
    hexes: tuple[Hex, ...]
    heading: Heading
    damage: int
    controlled: bool = False  # Z6
    first_hit: bool = False  # Z5
    bomb_ready_turn: int = 1  # Z17
    destroyed: bool = False  # exploded (Z12)

    @property
    def nose(self) -> Hex:
        return self.hexes[0]

    @property
    def tail(self) -> Hex:
        return self.hexes[-1]

    def on_board(self, board: HexBoard) -> tuple[Hex, ...]:
        """The zeppelin's hexes that are on the board (Z4)."""
        return tuple(h for h in self.hexes if board.contains(h))


@dataclass(frozen=True)
class GameState:
    """The whole position at the start of ``turn`` (same keys as a scenario file)."""

    turn: int = 1
    settings: Settings = field(default_factory=Settings)
    wind: Wind = field(default_factory=Wind)
    clouds: tuple[Cloud, ...] = ()
    aircraft: tuple[Aircraft, ...] = ()  # sorted by pilot
    airfields: tuple[Airfield, ...] = tuple(Airfield(h) for h in Heading)
    zeppelins: tuple[Zeppelin, ...] = ()
    game_over: bool = False
    winners: tuple[str, ...] = ()

    @property
    def board(self) -> HexBoard:
        return HexBoard(self.settings.board_side)

    def plane(self, pilot: str) -> Aircraft:
        for a in self.aircraft:
            if a.pilot == pilot:
                return a
        raise KeyError(pilot)

    def pilots(self) -> tuple[str, ...]:
        return tuple(a.pilot for a in self.aircraft)

    def may_take_off(self, plane: Aircraft) -> bool:
        """L1, L3: landed a whole turn, or turn 1 whatever ``landed_turns`` says.

        >>> a = Aircraft("baron", Hex(0, -9), Heading.S, Heading.N, landed_turns=0)
        >>> GameState(turn=1).may_take_off(a), GameState(turn=2).may_take_off(a)
        (True, False)
        """
        if plane.state is not AircraftState.LANDED:
            return False
        return self.turn == 1 or plane.landed_turns >= 1

    def airfield(self, corner: Heading) -> Airfield:
        for f in self.airfields:
            if f.corner == corner:
                return f
        return Airfield(corner)

    def controlled_zeppelin(self) -> Zeppelin | None:
        for z in self.zeppelins:
            if z.controlled and not z.destroyed:
                return z
        return None

    def cloud_hexes(self, kind: CloudKind | None = None) -> frozenset[Hex]:
        return frozenset(
            h for c in self.clouds if kind is None or c.kind == kind for h in c.hexes
        )

    def voters(self) -> tuple[str, ...]:
        """Players who may vote for the zeppelin: all but those removed (Z9)."""
        return tuple(a.pilot for a in self.aircraft if a.state is not AircraftState.REMOVED)


def runway_hexes(board: HexBoard, corner: Heading, runway: Runway) -> tuple[Hex, Hex]:
    """The near and far hex of a runway (B5).

    Beta runs from the corner toward the centre; facing the centre, Alpha runs
    along the edge on the left and Gamma on the right.

    >>> b = HexBoard(10)
    >>> [b.name(h) for h in runway_hexes(b, Heading.N, Runway.ALPHA)]
    ['K18', 'L17']
    >>> [b.name(h) for h in runway_hexes(b, Heading.N, Runway.GAMMA)]
    ['I18', 'H17']
    """
    heading = runway_heading(corner, runway)
    start = board.corner(corner)
    return (start.step(heading, 1), start.step(heading, 2))


def runway_heading(corner: Heading, runway: Runway) -> Heading:
    """The heading along a runway, away from the corner (take-off direction, L3)."""
    inward = corner.opposite()
    if runway is Runway.ALPHA:
        return inward.left()
    if runway is Runway.GAMMA:
        return inward.right()
    return inward


@cache
def airfield_hexes(board: HexBoard, corner: Heading) -> frozenset[Hex]:
    """The 7 hexes of an airfield: corner plus its three runways (B5); worked
    out once per board and corner (each preview of a mail asked six times)."""
    hexes = {board.corner(corner)}
    for runway in Runway:
        hexes.update(runway_hexes(board, corner, runway))
    return frozenset(hexes)
