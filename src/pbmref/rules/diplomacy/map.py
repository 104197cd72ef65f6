"""Diplomacy maps, each loaded once from a variant's data folder.

A map is the ``map.json`` of a folder of ``pbmref/data/diplomacy/variants/``
(provinces with their terrain, supply centres and coasts; borders by land, by
sea or both). The standard map's (``variants/standard/map.json``) is built
from the TedDriggs/diplomacy CSVs (MIT) by ``scripts/build_diplomacy_map.py``.
Provinces are lower-case abbreviations (``stp``); a place a unit stands on is
a :class:`Loc` (province plus coast for the split-coast provinces). Whose
home centre a province is comes from the variant (``load_map``'s ``homes``).
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from functools import cache
from importlib import resources

POWERS: tuple[str, ...] = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
POWER_NAMES: dict[str, str] = {
    "AUS": "Austria",
    "ENG": "England",
    "FRA": "France",
    "GER": "Germany",
    "ITA": "Italy",
    "RUS": "Russia",
    "TUR": "Turkey",
}


@dataclass(frozen=True, order=True)
class Loc:
    """A region: a province, and a coast (``nc``/``sc``/``ec``) or ``""``."""

    prov: str
    coast: str = ""

    def __str__(self) -> str:
        name = display(self.prov)
        return f"{name}/{self.coast}" if self.coast else name

    @staticmethod
    def parse(text: str) -> Loc:
        """``"spa/sc"``, ``"spa(sc)"``, ``"Spa"`` -> Loc (no name lookup)."""
        t = text.strip().lower().replace("(", "/").replace(")", "")
        if "/" in t:
            p, c = t.split("/", 1)
            return Loc(p.strip(), c.strip())
        return Loc(t)


@dataclass(frozen=True)
class Province:
    abbr: str
    name: str
    terrain: str  # land | coast | sea
    supply_center: bool
    home: str | None
    coasts: tuple[str, ...]


def display(prov: str) -> str:
    """Display form of a province abbreviation: ``Par``, ``StP``."""
    if prov == "stp":
        return "StP"
    return prov[:1].upper() + prov[1:]


@dataclass(frozen=True, eq=False)  # one object per map: compared and hashed by identity
class GameMap:
    provinces: dict[str, Province]
    army_adj: dict[str, frozenset[str]]
    fleet_adj: dict[Loc, frozenset[Loc]]
    any_adj: dict[str, frozenset[str]]

    # -- queries -------------------------------------------------------------
    def is_province(self, prov: str) -> bool:
        return prov in self.provinces

    def terrain(self, prov: str) -> str:
        return self.provinces[prov].terrain

    def is_sea(self, prov: str) -> bool:
        return self.provinces[prov].terrain == "sea"

    def is_land(self, prov: str) -> bool:
        return self.provinces[prov].terrain == "land" and not self.provinces[prov].coasts

    def is_coastal(self, prov: str) -> bool:
        p = self.provinces[prov]
        return p.terrain == "coast" or bool(p.coasts)

    def coasts(self, prov: str) -> tuple[str, ...]:
        return self.provinces[prov].coasts

    def supply_centers(self) -> tuple[str, ...]:
        return tuple(p for p, v in self.provinces.items() if v.supply_center)

    def home_centers(self, power: str) -> tuple[str, ...]:
        return tuple(p for p, v in self.provinces.items() if v.home == power)

    def is_supply_center(self, prov: str) -> bool:
        return prov in self.provinces and self.provinces[prov].supply_center

    def army_can_stand(self, loc: Loc) -> bool:
        return loc.prov in self.provinces and not loc.coast and not self.is_sea(loc.prov)

    def fleet_can_stand(self, loc: Loc) -> bool:
        if loc.prov not in self.provinces:
            return False
        p = self.provinces[loc.prov]
        if p.coasts:
            return loc.coast in p.coasts
        return not loc.coast and loc in self.fleet_adj

    def army_move(self, a: str, b: str) -> bool:
        return b in self.army_adj.get(a, frozenset())

    def fleet_move(self, a: Loc, b: Loc) -> bool:
        return b in self.fleet_adj.get(a, frozenset())

    def fleet_reaches(self, a: Loc, prov: str) -> bool:
        """Can a fleet at ``a`` move to some coast of ``prov`` (support reach)."""
        return any(x.prov == prov for x in self.fleet_adj.get(a, frozenset()))

    def fleet_dests(self, a: Loc, prov: str) -> tuple[Loc, ...]:
        return tuple(sorted(x for x in self.fleet_adj.get(a, frozenset()) if x.prov == prov))

    def adjacent(self, a: str, b: str) -> bool:
        """Province-level adjacency by land or sea, ignoring coasts (DD7)."""
        return b in self.any_adj.get(a, frozenset())

    def distances_from(self, sources: frozenset[str]) -> dict[str, int]:
        """Shortest number of steps (any border) from a set of provinces."""
        dist = {p: 0 for p in sources}
        queue = deque(sources)
        while queue:
            p = queue.popleft()
            for q in self.any_adj.get(p, frozenset()):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        return dist

    def name_of(self, prov: str) -> str:
        return self.provinces[prov].name

    def lookup(self, text: str) -> str | None:
        """Province abbreviation from an abbreviation or full name (any case)."""
        return _names(self).get(_norm(text))


def _norm(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


_NAME_CACHE: dict[int, dict[str, str]] = {}

# Common alternative spellings and abbreviations accepted in orders.
_ALIASES: dict[str, str] = {
    "stpetersburg": "stp",
    "saintpetersburg": "stp",
    "nat": "nao",
    "nrg": "nwg",
    "gol": "lyo",
    "gulfoflyon": "lyo",
    "lyon": "lyo",
    "mid": "mao",
    "midatlantic": "mao",
    "midatlanticocean": "mao",
    "northatlantic": "nao",
    "bot": "bot",
    "gulfofbothnia": "bot",
    "bothnia": "bot",
    "tyn": "tys",
    "tyrrhenian": "tys",
    "eme": "eas",
    "easternmed": "eas",
    "easternmediterranean": "eas",
    "wme": "wes",
    "westernmed": "wes",
    "westernmediterranean": "wes",
    "helgoland": "hel",
    "heligolandbight": "hel",
    "helgolandbight": "hel",
    "norwegian": "nwg",
    "english": "eng",
    "englishchannel": "eng",
    "irish": "iri",
    "north": "nth",
    "lvp": "lvp",
    "lpl": "lvp",
    "lon": "lon",
    "tyl": "tyr",
    "tyrolia": "tyr",
    "tyrol": "tyr",
    "con": "con",
    "cons": "con",
    "constantinople": "con",
}


def _names(m: GameMap) -> dict[str, str]:
    key = id(m)
    table = _NAME_CACHE.get(key)
    if table is None:
        table = {}
        for abbr, p in m.provinces.items():
            table[_norm(abbr)] = abbr
            table[_norm(p.name)] = abbr
        for alias, abbr in _ALIASES.items():
            if abbr in m.provinces:
                table.setdefault(alias, abbr)
        _NAME_CACHE[key] = table
    return table


def _region(text: str) -> Loc:
    return Loc.parse(text)


def standard_map() -> GameMap:
    """The standard board with its home centres (cached; read once from package data)."""
    from .variant import load_variant

    return load_variant("standard").map


def map_text(folder: str, name: str) -> str:
    """A data file of a variant's folder (``map.json``, ``board.json``, ``variant.yaml``)."""
    return (resources.files("pbmref").joinpath("data", "diplomacy", "variants", folder, name)
            .read_text(encoding="utf-8"))


def _fleet_places(provinces: dict[str, Province]) -> list[Loc]:
    """Where a fleet may stand: each coast of a province with coasts, else a sea
    or coastal province."""
    out: list[Loc] = []
    for abbr, p in provinces.items():
        if p.coasts:
            out += [Loc(abbr, c) for c in p.coasts]
        elif p.terrain in ("sea", "coast"):
            out.append(Loc(abbr))
    return out


@cache
def load_map(folder: str, homes: tuple[tuple[str, str], ...] | None = None) -> GameMap:
    """The map of a variant's folder; ``homes`` ((province, power), ...) says
    whose home centre each province is, else ``map.json``'s ``home`` does."""
    data = json.loads(map_text(folder, "map.json"))
    given = dict(homes) if homes is not None else None
    provinces: dict[str, Province] = {}
    for abbr, p in data["provinces"].items():
        provinces[abbr] = Province(
            abbr=abbr,
            name=p["name"],
            terrain=p["terrain"],
            supply_center=bool(p["supply_center"]),
            home=p.get("home") if given is None else given.get(abbr),
            coasts=tuple(p["coasts"]),
        )
    army: dict[str, set[str]] = {p: set() for p in provinces}
    fleet: dict[Loc, set[Loc]] = {loc: set() for loc in _fleet_places(provinces)}
    anyadj: dict[str, set[str]] = {p: set() for p in provinces}
    for a_txt, b_txt, terrain in data["borders"]:
        a, b = _region(a_txt), _region(b_txt)
        anyadj[a.prov].add(b.prov)
        anyadj[b.prov].add(a.prov)
        if terrain in ("land", "coast"):
            army[a.prov].add(b.prov)
            army[b.prov].add(a.prov)
        if terrain in ("sea", "coast"):
            fleet.setdefault(a, set()).add(b)
            fleet.setdefault(b, set()).add(a)
    return GameMap(
        provinces=provinces,
        army_adj={k: frozenset(v) for k, v in army.items()},
        fleet_adj={k: frozenset(v) for k, v in fleet.items()},
        any_adj={k: frozenset(v) for k, v in anyadj.items()},
    )
