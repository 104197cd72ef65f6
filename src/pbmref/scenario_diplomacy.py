"""Run one Diplomacy / Dirigible Diplomacy scenario (spec/scenario.md, "Diplomacy").

``run_scenario(data) -> ScenarioResult``: ``data`` is the scenario mapping as
read from YAML. The result holds the resulting position as a dict with the
scenario's own keys (``phase`` is the next phase), the events, and the
differences from ``expect`` (empty when everything matches or there is no
``expect``). A broken file raises :class:`ScenarioError` (exit status 2 class).

``ScenarioResult`` is also a ``dict`` (the position plus ``events``), so the
generic scenario runner (``pbmref.scenario``) can print and compare it as is.

Orders are the lines a player mails (grammar/diplomacy.lark). A line that
cannot be read is an error of the file; a readable order that the rules do
not allow is adjudicated as not given (DD2): the unit holds, the order fails,
and the reason is in the events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbmref.orders.diplomacy import parse_line, to_order
from pbmref.orders.errors import OrderMailError
from pbmref.rules.diplomacy import (
    POWERS,
    DislodgedUnit,
    Loc,
    Order,
    Phase,
    Position,
    Unit,
    UnitType,
    Variant,
    adjudicate_full,
    order_key,
    standard_map,
)
from pbmref.rules.diplomacy.adjust import balance
from pbmref.rules.diplomacy.dirigible import supply_points
from pbmref.rules.diplomacy.map import display
from pbmref.rules.diplomacy.retreat import options_for
from pbmref.rules.diplomacy.state import initial_position

try:  # the generic runner's "broken file" error, when it is there
    from pbmref.scenario import BrokenFile as _Base
except Exception:  # pragma: no cover - the generic runner is optional
    _Base = Exception  # type: ignore[misc,assignment]

__all__ = ["ScenarioError", "ScenarioResult", "run_scenario", "position_to_dict", "position_from_dict"]


class ScenarioError(_Base):
    """The scenario file is broken (exit status 2)."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.line = None
        Exception.__init__(self, message)

    def __str__(self) -> str:
        return self.message


class ScenarioResult(dict[str, Any]):
    """The resulting position (as a dict, with ``events`` and ``results``)."""

    def __init__(self, position: dict[str, Any], events: list[dict[str, Any]],
                 differences: list[str]) -> None:
        super().__init__(position)
        self["events"] = events
        self.position = position
        self.events = events
        self.differences = differences


# --------------------------------------------------------------------------- reading

def _power(name: object, where: str) -> str:
    p = str(name).strip().upper()
    if p not in POWERS:
        raise ScenarioError(f"{where}: unknown power {name!r}; powers are {', '.join(POWERS)}")
    return p


def _loc(text: str, where: str) -> Loc:
    m = standard_map()
    raw = text.strip()
    coast = ""
    for sep in ("/", "("):
        if sep in raw:
            raw, c = raw.split(sep, 1)
            coast = c.strip(" )").lower()
    prov = m.lookup(raw.strip())
    if prov is None:
        raise ScenarioError(f"{where}: {text!r} is not a province of the map")
    return Loc(prov, coast)


def _unit(power: str, text: object, where: str) -> Unit:
    parts = str(text).split(None, 1)
    if len(parts) != 2 or parts[0].upper() not in ("A", "F", "D"):
        raise ScenarioError(f"{where}: {text!r} is not a unit like 'A Par', 'F StP/sc' or 'D Mun'")
    kind = UnitType(parts[0].upper())
    loc = _loc(parts[1], where)
    m = standard_map()
    if kind is UnitType.ARMY and not m.army_can_stand(loc):
        raise ScenarioError(f"{where}: an army cannot stand in {loc}")
    if kind is UnitType.FLEET and not m.fleet_can_stand(loc):
        if m.coasts(loc.prov) and not loc.coast:
            raise ScenarioError(f"{where}: say which coast of {display(loc.prov)} the fleet is on")
        raise ScenarioError(f"{where}: a fleet cannot stand in {loc}")
    if kind is UnitType.DIRIGIBLE and loc.coast:
        loc = Loc(loc.prov)
    return Unit(power, kind, loc)


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key) or {}
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{key}: expected a mapping of powers")
    return value


def _list(value: object, where: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (str, int)):
        return [value]
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list")
    return value


def position_from_dict(data: Mapping[str, Any]) -> Position:
    """A position from the scenario keys (ruleset, phase, units, centers ...)."""
    ruleset = str(data.get("ruleset", "diplomacy")).strip().lower()
    if ruleset not in ("diplomacy", "dirigible"):
        raise ScenarioError(f"ruleset: expected diplomacy or dirigible, found {ruleset!r}")
    variant = Variant(ruleset)
    settings = data.get("settings") or {}
    if not isinstance(settings, Mapping):
        raise ScenarioError("settings: expected a mapping such as {edition: 2023}")
    edition = str(settings.get("edition", "2023"))
    if edition not in ("1971", "1982", "2000", "2023", "dptg"):
        raise ScenarioError(f"settings.edition: unknown rules edition {edition!r}")
    start = initial_position(variant, edition)
    try:
        phase = Phase.parse(str(data["phase"])) if "phase" in data else start.phase
    except ValueError as exc:
        raise ScenarioError(f"phase: {exc}") from None
    if "units" in data:
        units: list[Unit] = []
        for power, items in _mapping(data, "units").items():
            pw = _power(power, "units")
            for item in _list(items, f"units.{pw}"):
                units.append(_unit(pw, item, f"units.{pw}"))
    else:
        units = list(start.units) if phase == start.phase else []
    seen: dict[tuple[str, bool], Unit] = {}
    for u in units:
        if u.kind is UnitType.DIRIGIBLE and variant is not Variant.DIRIGIBLE:
            raise ScenarioError(f"units: {u} — there are no dirigibles in standard Diplomacy")
        key = (u.prov, u.airborne)
        if key in seen:
            what = "dirigibles" if u.airborne else "armies or fleets"
            raise ScenarioError(f"units: two {what} in {display(u.prov)} ({seen[key]} and {u})")
        seen[key] = u
    if "centers" in data:
        owners: dict[str, str] = {}
        m = standard_map()
        for power, items in _mapping(data, "centers").items():
            pw = _power(power, "centers")
            for item in _list(items, f"centers.{pw}"):
                loc = _loc(str(item), f"centers.{pw}")
                if not m.is_supply_center(loc.prov):
                    raise ScenarioError(f"centers.{pw}: {display(loc.prov)} is not a supply centre")
                if loc.prov in owners:
                    raise ScenarioError(f"centers: {display(loc.prov)} is owned twice")
                owners[loc.prov] = pw
        centers = tuple(sorted(owners.items()))
    else:
        centers = start.centers
    dislodged: list[DislodgedUnit] = []
    for power, items in _mapping(data, "dislodged").items():
        pw = _power(power, "dislodged")
        for item in _list(items, f"dislodged.{pw}"):
            if isinstance(item, Mapping):
                if "unit" not in item:
                    raise ScenarioError(f"dislodged.{pw}: each entry needs a unit")
                u = _unit(pw, item["unit"], f"dislodged.{pw}")
                frm = item.get("attacker_from")
                dislodged.append(DislodgedUnit(
                    u, _loc(str(frm), f"dislodged.{pw}").prov if frm else None,
                    bool(item.get("attacker_via_convoy", False))))
            else:
                dislodged.append(DislodgedUnit(_unit(pw, item, f"dislodged.{pw}")))
    if dislodged and phase.kind != "R":
        raise ScenarioError("dislodged: dislodged units are given only in a retreat phase")
    standoffs = frozenset(_loc(str(s), "standoffs").prov for s in _list(data.get("standoffs"), "standoffs"))
    devastated = frozenset(_loc(str(s), "devastated").prov for s in _list(data.get("devastated"), "devastated"))
    if devastated and variant is not Variant.DIRIGIBLE:
        raise ScenarioError("devastated: only the dirigible variant devastates centres")
    winner = data.get("winner")
    if winner is not None:
        winner = _power(winner, "winner")
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
    )


def _orders(data: Mapping[str, Any], pos: Position) -> list[Order]:
    out: list[Order] = []
    for power, items in _mapping(data, "orders").items():
        pw = _power(power, "orders")
        for n, line in enumerate(_list(items, f"orders.{pw}"), 1):
            try:
                parsed = parse_line(str(line), n)
                out.append(to_order(parsed, pw, pos, strict=False))
            except OrderMailError as exc:
                caret = exc.caret()
                detail = f"\n{caret}" if caret else ""
                raise ScenarioError(f"orders.{pw}[{n}]: {exc.message}{detail}") from None
    return out


# --------------------------------------------------------------------------- writing

def _unit_text(u: Unit) -> str:
    return f"{u.kind.value} {u.loc}"


def position_to_dict(pos: Position) -> dict[str, Any]:
    """The scenario keys of a position (units sorted, powers with nothing left out)."""
    units: dict[str, list[str]] = {}
    for u in pos.units:
        units.setdefault(u.power, []).append(_unit_text(u))
    centers: dict[str, list[str]] = {}
    for prov, power in pos.centers:
        centers.setdefault(power, []).append(display(prov))
    out: dict[str, Any] = {
        "ruleset": pos.variant.value,
        "phase": str(pos.phase),
        "units": {p: sorted(v) for p, v in sorted(units.items())},
        "centers": {p: sorted(v) for p, v in sorted(centers.items())},
        "devastated": sorted(display(p) for p in pos.devastated),
    }
    if pos.edition != "2023":
        out["settings"] = {"edition": pos.edition}
    if pos.dislodged:
        options = options_for(pos, standard_map())
        retreats: dict[str, list[dict[str, Any]]] = {}
        for d in pos.dislodged:
            entry: dict[str, Any] = {"unit": _unit_text(d.unit)}
            if d.attacker_from:
                entry["attacker_from"] = display(d.attacker_from)
            if d.via_convoy:
                entry["attacker_via_convoy"] = True
            entry["options"] = [str(x) for x in options[d.unit]]
            retreats.setdefault(d.unit.power, []).append(entry)
        out["retreats"] = retreats
        out["dislodged"] = {
            p: [{k: v for k, v in e.items() if k != "options"} for e in entries]
            for p, entries in retreats.items()
        }
        out["standoffs"] = sorted(display(p) for p in pos.standoffs)
    out["winner"] = pos.winner
    return out


def _compare(expected: Any, actual: Any, path: str) -> list[str]:
    """Subset comparison; lists of scalars compare as sets (unit order is free)."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        out: list[str] = []
        for k, v in expected.items():
            sub = f"{path}.{k}" if path else str(k)
            if str(k) not in actual:
                if v in ([], {}, None):
                    continue
                out.append(f"{sub}: expected {v!r}, but there is none")
                continue
            out.extend(_compare(v, actual[str(k)], sub))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        if all(not isinstance(e, (Mapping, list)) for e in expected):
            want = sorted(_norm(e) for e in expected)
            got = sorted(_norm(a) for a in actual)
            if want != got:
                return [f"{path}: expected {sorted(map(str, expected))}, got {sorted(map(str, actual))}"]
            return []
        # entries (events, retreats) are found in order among the actual ones
        i = 0
        for n, item in enumerate(expected):
            while i < len(actual) and _compare(item, actual[i], path):
                i += 1
            if i >= len(actual):
                return [f"{path}[{n}]: expected an entry {item!r} (in this order), found none"]
            i += 1
        return []
    if _norm(expected) != _norm(actual):
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def _norm(value: Any) -> str:
    if value is None:
        return "null"
    return " ".join(str(value).replace("(", "/").replace(")", "").lower().split())


def _normalise_expect(expect: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(expect)
    results = expect.get("results")
    if isinstance(results, Mapping):
        out["results"] = {" ".join(str(k).split()).lower(): v for k, v in results.items()}
    return out


# --------------------------------------------------------------------------- running

def run_scenario(data: dict[str, Any]) -> ScenarioResult:
    """Run one scenario mapping; see the module docstring."""
    if not isinstance(data, Mapping):
        raise ScenarioError("a scenario is a mapping of keys (ruleset, phase, units, orders ...)")
    pos = position_from_dict(data)
    orders = _orders(data, pos)
    adj = adjudicate_full(pos, orders)
    result = position_to_dict(adj.state)
    dislodged: dict[str, list[str]] = {}
    for d in adj.dislodged:
        dislodged.setdefault(d.unit.power, []).append(_unit_text(d.unit))
    for e in adj.events:
        if e.kind == "dislodged" and e.unit and e.unit.startswith("D "):
            dislodged.setdefault(str(e.power), []).append(e.unit)
    result["dislodged"] = {p: sorted(v) for p, v in sorted(dislodged.items())}
    result["results"] = {order_key(r.order): r.outcome.value for r in adj.results}
    if pos.variant is Variant.DIRIGIBLE:
        basis = pos if pos.phase.kind == "A" else adj.state
        result["supply_points"] = {p: supply_points(basis, p) for p in basis.powers}
        result["upkeep_balance"] = {p: balance(basis, p) for p in basis.powers}
    events = [e.to_dict() for e in adj.events]
    differences: list[str] = []
    expect = data.get("expect")
    if expect is not None:
        if not isinstance(expect, Mapping):
            raise ScenarioError("expect: expected a mapping of results")
        actual = dict(result)
        actual["results"] = {" ".join(k.split()).lower(): v for k, v in result["results"].items()}
        actual["events"] = events
        exp = {k: v for k, v in _normalise_expect(expect).items() if k != "error"}
        differences = _compare(exp, actual, "")
    return ScenarioResult(result, events, differences)
