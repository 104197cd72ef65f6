"""Diplomacy positions as plain data and back (the scenario schema's Diplomacy keys).

``position_from_dict`` reads ``ruleset``, ``variant``, ``phase``, ``units``,
``centers``, ``dislodged``, ``standoffs``, ``devastated``, ``winner`` and ``settings``
(``docs/scenario-format.md``) and raises ``PositionError`` with the key path of
a wrong value; ``position_to_dict`` writes the same keys (with each dislodged
unit's retreat options under ``retreats``), so a written position reads back.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbmref.rules.diplomacy.map import GameMap, Loc, display
from pbmref.rules.diplomacy.retreat import options_for
from pbmref.rules.diplomacy.state import (
    DislodgedUnit,
    Phase,
    Position,
    Unit,
    UnitType,
    Variant,
)
from pbmref.rules.diplomacy.variant import (
    DEFAULT,
    VariantError,
    VariantSpec,
    load_variant,
    map_of,
    opening,
)
from pbmref.rules.plaindata import KeyPath, PositionError

__all__ = ["dislodged_entry", "position_from_dict", "position_to_dict", "unit_text"]


def _where(text: str) -> KeyPath:
    return tuple(text.split(".")) if text else ()


def _power(spec: VariantSpec, name: object, where: str) -> str:
    p = str(name).strip().upper()
    if p not in spec.powers:
        raise PositionError(_where(where),
                            f"unknown power {name!r}; powers are {', '.join(spec.powers)}")
    return p


def _loc(m: GameMap, text: str, where: str) -> Loc:
    raw = text.strip()
    coast = ""
    for sep in ("/", "("):
        if sep in raw:
            raw, c = raw.split(sep, 1)
            coast = c.strip(" )").lower()
    prov = m.lookup(raw.strip())
    if prov is None:
        raise PositionError(_where(where), f"{text!r} is not a province of the map")
    return Loc(prov, coast)


def _unit(m: GameMap, power: str, text: object, where: str) -> Unit:
    parts = str(text).split(None, 1)
    if len(parts) != 2 or parts[0].upper() not in ("A", "F", "D"):
        raise PositionError(_where(where), f"{text!r} is not a unit like 'A Par', 'F StP/sc' or 'D Mun'")
    kind = UnitType(parts[0].upper())
    loc = _loc(m, parts[1], where)
    if kind is UnitType.ARMY and not m.army_can_stand(loc):
        raise PositionError(_where(where), f"an army cannot stand in {loc}")
    if kind is UnitType.FLEET and not m.fleet_can_stand(loc):
        if m.coasts(loc.prov) and not loc.coast:
            raise PositionError(_where(where), f"say which coast of {display(loc.prov)} the fleet is on")
        raise PositionError(_where(where), f"a fleet cannot stand in {loc}")
    if kind is UnitType.DIRIGIBLE and loc.coast:
        loc = Loc(loc.prov)
    return Unit(power, kind, loc)


def _mapping(data: Mapping[str, object], key: str) -> Mapping[object, object]:
    value = data.get(key) or {}
    if not isinstance(value, Mapping):
        raise PositionError((key,), "expected a mapping of powers")
    return value


def _list(value: object, where: str) -> list[object]:
    if value is None:
        return []
    if isinstance(value, (str, int)):
        return [value]
    if not isinstance(value, list):
        raise PositionError(_where(where), "expected a list")
    return value


def position_from_dict(data: Mapping[str, object]) -> Position:
    """A position from the scenario keys (ruleset, variant, phase, units, centers ...)."""
    variant, edition, spec = _variant_and_edition(data)
    start = opening(spec, edition)
    m = spec.map
    try:
        phase = Phase.parse(str(data["phase"])) if "phase" in data else start.phase
    except ValueError as exc:
        raise PositionError(("phase",), str(exc)) from None
    if "units" in data:
        units = _units(spec, data)
    else:
        units = list(start.units) if phase == start.phase else []
    _check_units(units, variant)
    centers = _centers(spec, data) if "centers" in data else start.centers
    dislodged = _dislodged(spec, data)
    if dislodged and phase.kind != "R":
        raise PositionError(("dislodged",), "dislodged units are given only in a retreat phase")
    standoffs = frozenset(_loc(m, str(s), "standoffs").prov
                          for s in _list(data.get("standoffs"), "standoffs"))
    devastated = frozenset(_loc(m, str(s), "devastated").prov
                           for s in _list(data.get("devastated"), "devastated"))
    if devastated and variant is not Variant.DIRIGIBLE:
        raise PositionError(("devastated",), "only the dirigible variant devastates centres")
    winner = data.get("winner")
    if winner is not None:
        winner = _power(spec, winner, "winner")
    return Position(
        winner=winner,
        phase=phase,
        units=tuple(sorted(units)),
        centers=centers,
        dislodged=tuple(dislodged),
        standoffs=standoffs,
        devastated=devastated,
        variant=variant,
        edition=edition,
        powers=spec.powers,
        variant_name=start.variant_name,
    )


def _variant_and_edition(data: Mapping[str, object]) -> tuple[Variant, str, VariantSpec]:
    """The game (``ruleset``: plain or Dirigible Diplomacy), the rules edition
    and the variant (``variant``: its folder; none for the rules' own)."""
    ruleset = str(data.get("ruleset", "diplomacy")).strip().lower()
    if ruleset not in ("diplomacy", "dirigible"):
        raise PositionError(("ruleset",), f"expected diplomacy or dirigible, found {ruleset!r}")
    variant = Variant(ruleset)
    try:
        spec = load_variant(str(data.get("variant") or DEFAULT[variant]))
    except VariantError as exc:
        raise PositionError(("variant",), str(exc)) from None
    if spec.ruleset != ruleset:
        raise PositionError(("variant",), f"the variant {spec.name} is played with the "
                                          f"{spec.ruleset} rules, not {ruleset}")
    settings = data.get("settings") or {}
    if not isinstance(settings, Mapping):
        raise PositionError(("settings",), "expected a mapping such as {edition: 2023}")
    edition = str(settings.get("edition", "2023"))
    if edition not in ("1971", "1982", "2000", "2023", "dptg"):
        raise PositionError(("settings", "edition"), f"unknown rules edition {edition!r}")
    return variant, edition, spec


def _units(spec: VariantSpec, data: Mapping[str, object]) -> list[Unit]:
    """The ``units`` key: each power's armies, fleets and dirigibles."""
    units: list[Unit] = []
    for power, items in _mapping(data, "units").items():
        pw = _power(spec, power, "units")
        for item in _list(items, f"units.{pw}"):
            units.append(_unit(spec.map, pw, item, f"units.{pw}"))
    return units


def _check_units(units: list[Unit], variant: Variant) -> None:
    """Dirigibles only in Dirigible Diplomacy; one army or fleet and one
    dirigible at most in a province."""
    seen: dict[tuple[str, bool], Unit] = {}
    for u in units:
        if u.kind is UnitType.DIRIGIBLE and variant is not Variant.DIRIGIBLE:
            raise PositionError(("units",), f"{u} — there are no dirigibles in standard Diplomacy (DD5)")
        key = (u.prov, u.airborne)
        if key in seen:
            what = "dirigibles" if u.airborne else "armies or fleets"
            raise PositionError(("units",), f"two {what} in {display(u.prov)} ({seen[key]} and {u})")
        seen[key] = u


def _centers(spec: VariantSpec, data: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    """The ``centers`` key: the supply centres each power owns, each owned once."""
    owners: dict[str, str] = {}
    m = spec.map
    for power, items in _mapping(data, "centers").items():
        pw = _power(spec, power, "centers")
        for item in _list(items, f"centers.{pw}"):
            loc = _loc(m, str(item), f"centers.{pw}")
            if not m.is_supply_center(loc.prov):
                raise PositionError(("centers", f"{pw}"), f"{display(loc.prov)} is not a supply centre")
            if loc.prov in owners:
                raise PositionError(("centers",), f"{display(loc.prov)} is owned twice")
            owners[loc.prov] = pw
    return tuple(sorted(owners.items()))


def _dislodged(spec: VariantSpec, data: Mapping[str, object]) -> list[DislodgedUnit]:
    """The ``dislodged`` key: each power's units waiting to retreat, with where
    the attack came from and whether it came by convoy."""
    dislodged: list[DislodgedUnit] = []
    for power, items in _mapping(data, "dislodged").items():
        pw = _power(spec, power, "dislodged")
        for item in _list(items, f"dislodged.{pw}"):
            if isinstance(item, Mapping):
                if "unit" not in item:
                    raise PositionError(("dislodged", f"{pw}"), "each entry needs a unit")
                u = _unit(spec.map, pw, item["unit"], f"dislodged.{pw}")
                frm = item.get("attacker_from")
                dislodged.append(DislodgedUnit(
                    u, _loc(spec.map, str(frm), f"dislodged.{pw}").prov if frm else None,
                    bool(item.get("attacker_via_convoy", False))))
            else:
                dislodged.append(DislodgedUnit(_unit(spec.map, pw, item, f"dislodged.{pw}")))
    return dislodged


def unit_text(u: Unit) -> str:
    return f"{u.kind.value} {u.loc}"


def dislodged_entry(d: DislodgedUnit) -> dict[str, object]:
    """A dislodged unit as a position writes it: ``{unit, attacker_from}``, with
    ``attacker_via_convoy`` when the attack came by convoy."""
    entry: dict[str, object] = {"unit": unit_text(d.unit)}
    if d.attacker_from:
        entry["attacker_from"] = display(d.attacker_from)
    if d.via_convoy:
        entry["attacker_via_convoy"] = True
    return entry


def position_to_dict(pos: Position) -> dict[str, object]:
    """The scenario keys of a position (units sorted, powers with nothing left out)."""
    units: dict[str, list[str]] = {}
    for u in pos.units:
        units.setdefault(u.power, []).append(unit_text(u))
    centers: dict[str, list[str]] = {}
    for prov, power in pos.centers:
        centers.setdefault(power, []).append(display(prov))
    out: dict[str, object] = {"ruleset": pos.variant.value}
    if pos.variant_name:
        out["variant"] = pos.variant_name
    out |= {
        "phase": str(pos.phase),
        "units": {p: sorted(v) for p, v in sorted(units.items())},
        "centers": {p: sorted(v) for p, v in sorted(centers.items())},
        "devastated": sorted(display(p) for p in pos.devastated),
    }
    if pos.edition != "2023":
        out["settings"] = {"edition": pos.edition}
    if pos.dislodged:
        out |= _retreat_keys(pos)
    out["winner"] = pos.winner
    return out


def _retreat_keys(pos: Position) -> dict[str, object]:
    """A retreat phase's keys: the dislodged units with their options (and
    without), the standoffs."""
    options = options_for(pos, map_of(pos))
    retreats: dict[str, list[dict[str, object]]] = {}
    for d in pos.dislodged:
        entry = dislodged_entry(d)
        entry["options"] = [str(x) for x in options[d.unit]]
        retreats.setdefault(d.unit.power, []).append(entry)
    return {
        "retreats": retreats,
        "dislodged": {p: [{k: v for k, v in e.items() if k != "options"} for e in entries]
                      for p, entries in retreats.items()},
        "standoffs": sorted(display(p) for p in pos.standoffs),
    }
