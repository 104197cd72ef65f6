"""What the house asks of a game kind that plays in classes (``Ruleset.classroom``).

A class is many boards of one game kind made and played together: its
pilots dealt over as many games as needed, each side as even as it can be,
and returning pilots sent between the boards (a Fast Play class, FP1, FP14).
The game kind's ``Classroom`` knows the class file, how to deal the boards
and what a position looks like; the game master's side
(``pbmref.gm.classroom``) makes the boards into games with the store, keeps
the roster of careers, and never names a game kind.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from pbmref.rulesets.base import Outcome

__all__ = ["ClassGame", "ClassPilot", "ClassTemplate", "Classroom", "OrdersFor", "Transfer"]


@dataclass(frozen=True)
class ClassPilot:
    """One pupil of a class: id, name, side, and a mail address unless the
    computer flies the plane."""

    id: str
    name: str
    team: str
    address: str = ""
    computer: bool = False


class ClassTemplate(Protocol):
    """A class file, checked: what the game master's side reads of it."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def pilots(self) -> tuple[ClassPilot, ...]: ...
    @property
    def turns(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def turn_length(self) -> str: ...
    @property
    def timezone(self) -> str: ...
    @property
    def early_delay(self) -> str | None: ...

    def pilot(self, pid: str) -> ClassPilot: ...


@dataclass(frozen=True)
class ClassGame:
    """One board of a class: its game id (``<class>-<n>``), its pilots and the
    position of its turn 1."""

    game_id: str
    players: tuple[str, ...]
    position: dict[str, object]


@dataclass(frozen=True)
class Transfer:
    """A returning pilot sent from one board of a class to another."""

    player: str
    from_game: str
    to_game: str


# The orders of one pilot on one board: (game id, position, pilot, dice) -> orders entry.
OrdersFor = Callable[[str, Mapping[str, object], str, random.Random], dict[str, object]]

T = TypeVar("T", bound=ClassTemplate)


class Classroom(ABC, Generic[T]):
    """The classes of one game kind (``T``: its checked class file)."""

    ruleset: str  # the game kind of the boards, as game.yaml names it
    teams: tuple[str, ...]  # the sides a pupil may fly for

    @abstractmethod
    def example_template(self) -> str:
        """The commented example class file (``pbmref new-class --example``)."""

    @abstractmethod
    def template_from_dict(self, data: Mapping[str, object]) -> T:
        """A class file's data, checked; raises ``DataError`` with the key path."""

    @abstractmethod
    def load_template(self, path: Path | str) -> T:
        """A class file read and checked; errors name the file and line."""

    @abstractmethod
    def new_class(self, template: T,
                  victories: Callable[[str], int] | None = None) -> list[ClassGame]:
        """The boards of a class, each with its turn 1 (``victories``: what each
        pupil brings from the roster)."""

    @abstractmethod
    def rebalance(self, positions: Mapping[str, Mapping[str, object]]
                  ) -> tuple[dict[str, dict[str, object]], list[Transfer]]:
        """Returning pilots sent to the boards where the sides are most even:
        the new positions (the inputs untouched) and the moves."""

    @abstractmethod
    def returning(self, position: Mapping[str, object], pilot: str) -> dict[str, object] | None:
        """The pilot's record to take to another board, or None when the pilot
        is not returning."""

    @abstractmethod
    def with_pilot(self, position: Mapping[str, object], pilot: str,
                   record: Mapping[str, object]) -> dict[str, object]:
        """The position with the pilot's record (from ``returning``) added."""

    @abstractmethod
    def without_pilot(self, position: Mapping[str, object], pilot: str) -> dict[str, object]:
        """The position with the pilot taken out."""

    @abstractmethod
    def play_turn(self, game_id: str, position: Mapping[str, object], rng: random.Random,
                  seed: int, orders_for: OrdersFor | None = None) -> Outcome[Any]:
        """One turn of a board, every pilot still in it ordered by ``orders_for``
        (default: the computer); the position after it says whether the game
        is over (``game_over``) and who won."""

    @abstractmethod
    def plain_events(self, events: Sequence[Any],
                     position: Mapping[str, object]) -> list[dict[str, object]]:
        """The events of a turn ``play_turn`` played from ``position``, as the
        game's events.yaml keeps them (what the roster reads)."""
