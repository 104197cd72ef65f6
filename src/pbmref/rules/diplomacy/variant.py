"""Variants: everything a Diplomacy game takes from its data folder.

A variant is a folder of ``pbmref/data/diplomacy/variants/`` (``docs/variants.md``
says how to add one). Its ``variant.yaml`` names the rules (``ruleset``:
``diplomacy``, rules DD1-DD4, or ``dirigible``, DD5-DD14 on top), the first
phase, the supply centres that win, where builds may go, and the powers with
their names, colours, home centres and starting units; its ``map.json`` holds
the provinces and borders and its ``board.json`` the picture's shapes and
where names, units and centres go. A variant played on another's map says so
with ``map: FOLDER`` and has neither file.

A position names its variant (``Position.variant_name``; "" is the rules'
own: ``standard`` or ``dirigible``); ``variant_of(pos)`` and ``map_of(pos)``
give what the engine needs of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from .map import GameMap, Loc, load_map, map_text
from .state import Phase, Position, Unit, UnitType, Variant

__all__ = ["VariantError", "VariantSpec", "load_variant", "map_of", "variant_in",
           "variant_names", "variant_of"]

BUILD_RULES = ("home", "owned")  # DD1: free home centres; or any free centre owned


class VariantError(ValueError):
    """A variant folder that cannot be used: what is wrong, and in which file."""


@dataclass(frozen=True, eq=False)  # one object per variant, compared by identity
class VariantSpec:
    name: str  # the folder's name: what ``new-game --variant`` takes
    title: str
    description: str
    ruleset: str  # "diplomacy" or "dirigible"
    map_folder: str  # the folder whose map.json and board.json it uses
    map: GameMap
    powers: tuple[str, ...]
    power_names: Mapping[str, str]
    colours: Mapping[str, str]
    start: Phase
    units: tuple[Unit, ...]
    centres: tuple[tuple[str, str], ...]  # (province, power) owned at the start, sorted
    victory: int  # supply centres that win (DD4, DD14)
    builds: str  # "home" (DD1) or "owned": any free supply centre the power owns
    credit: str  # where its data comes from

    @property
    def default(self) -> bool:
        """The rules' own variant (standard, dirigible): positions leave its name out."""
        return self.name == DEFAULT[Variant(self.ruleset)]


DEFAULT = {Variant.STANDARD: "standard", Variant.DIRIGIBLE: "dirigible"}


def variant_names() -> tuple[str, ...]:
    """Every variant folder shipped, by name."""
    folder = resources.files("pbmref").joinpath("data", "diplomacy", "variants")
    return tuple(sorted(p.name for p in folder.iterdir()
                        if p.is_dir() and p.joinpath("variant.yaml").is_file()))


def variant_of(pos: Position) -> VariantSpec:
    return load_variant(pos.variant_name or DEFAULT[pos.variant])


def variant_in(data: Mapping[str, object]) -> VariantSpec:
    """The variant of a position written as plain data (its ``ruleset`` and
    ``variant`` keys); raises VariantError."""
    try:
        ruleset = Variant(str(data.get("ruleset") or Variant.STANDARD))
    except ValueError:
        raise VariantError(f"no Diplomacy ruleset {data.get('ruleset')!r}") from None
    return load_variant(str(data.get("variant") or DEFAULT[ruleset]))


def map_of(pos: Position) -> GameMap:
    """The map the position is played on."""
    return variant_of(pos).map


@cache
def load_variant(name: str) -> VariantSpec:
    """The variant of folder ``name``; raises VariantError (unknown name, or a
    file that says something wrong, with the file and the key)."""
    if name not in variant_names():
        raise VariantError(f"unknown variant {name!r}; variants: {', '.join(variant_names())}")
    where = f"variants/{name}/variant.yaml"
    raw = yaml.safe_load(map_text(name, "variant.yaml"))
    if not isinstance(raw, Mapping):
        raise VariantError(f"{where}: expected a mapping of keys (title, ruleset, powers ...)")

    def need(key: str) -> Any:
        if key not in raw:
            raise VariantError(f"{where}: the key {key!r} is missing")
        return raw[key]

    ruleset = str(need("ruleset"))
    if ruleset not in ("diplomacy", "dirigible"):
        raise VariantError(f"{where}: ruleset is diplomacy or dirigible, not {ruleset!r}")
    builds = str(raw.get("builds", "home"))
    if builds not in BUILD_RULES:
        raise VariantError(f"{where}: builds is one of {', '.join(BUILD_RULES)}, not {builds!r}")
    try:
        start = Phase.parse(str(need("start")))
    except ValueError as exc:
        raise VariantError(f"{where}: start: {exc}") from None
    folder = str(raw.get("map", name))
    powers_raw = need("powers")
    if not isinstance(powers_raw, Mapping) or not powers_raw:
        raise VariantError(f"{where}: powers is a mapping of power codes (FRA: {{name: ...}})")
    names, colours, homes, starting = _powers(powers_raw, load_map(folder), where)
    m = load_map(folder, tuple(sorted(homes.items())))
    units = tuple(sorted(_unit(m, power, text, where) for power, text in starting))
    victory = int(need("victory"))
    return VariantSpec(
        name=name, title=str(need("title")), description=str(raw.get("description", "")),
        ruleset=ruleset, map_folder=folder, map=m, powers=tuple(names), power_names=names,
        colours=colours, start=start, units=units, centres=tuple(sorted(homes.items())),
        victory=victory, builds=builds, credit=str(raw.get("credit", "")))


def _powers(powers_raw: Mapping[Any, Any], base: GameMap, where: str) -> tuple[
        dict[str, str], dict[str, str], dict[str, str], list[tuple[str, str]]]:
    """The variant file's powers: their names, colours, home centres (province
    -> power, each a supply centre of the map, of one power) and starting units
    (power, text)."""
    homes: dict[str, str] = {}
    names: dict[str, str] = {}
    colours: dict[str, str] = {}
    starting: list[tuple[str, str]] = []
    for code, p in powers_raw.items():
        power = str(code).upper()
        at = f"{where}: powers.{power}"
        if not isinstance(p, Mapping) or "name" not in p:
            raise VariantError(f"{at}: give at least its name")
        names[power] = str(p["name"])
        colours[power] = str(p.get("colour", "#999999"))
        for text in p.get("homes") or []:
            prov = base.lookup(str(text))
            if prov is None or not base.is_supply_center(prov):
                raise VariantError(f"{at}: home centre {text!r} is not a supply centre of the map")
            if prov in homes:
                raise VariantError(f"{at}: {text} is already a home centre of {homes[prov]}")
            homes[prov] = power
        starting += [(power, str(u)) for u in p.get("units") or []]
    return names, colours, homes, starting


def _unit(m: GameMap, power: str, text: str, where: str) -> Unit:
    """A starting unit (``A Par``, ``F StP/sc``), checked against the map."""
    kind_text, _, place = text.strip().partition(" ")
    loc = Loc.parse(place)
    prov = m.lookup(loc.prov)
    kind = {"A": UnitType.ARMY, "F": UnitType.FLEET}.get(kind_text.upper())
    if prov is None or kind is None:
        raise VariantError(f"{where}: powers.{power}: {text!r} is not a unit like A Par or "
                           "F StP/sc on this map")
    loc = Loc(prov, loc.coast)
    ok = m.army_can_stand(loc) if kind is UnitType.ARMY else m.fleet_can_stand(loc)
    if not ok:
        what = "an army" if kind is UnitType.ARMY else "a fleet"
        raise VariantError(f"{where}: powers.{power}: {what} cannot stand in {loc}")
    return Unit(power, kind, loc)


def opening(spec: VariantSpec, edition: str = "2023") -> Position:
    """The variant's first position: its starting units, each power owning its
    home centres (DD4; DD12 in the dirigible game: a Winter 1900 build phase)."""
    return Position(spec.start, spec.units, spec.centres, variant=Variant(spec.ruleset),
                    edition=edition, powers=spec.powers,
                    variant_name="" if spec.default else spec.name)
