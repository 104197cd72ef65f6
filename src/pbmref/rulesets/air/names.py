"""How the air games' reports name their pieces: a map letter for each pilot
and zeppelin, display names, and the one line that tells what a corrected
turn changed (``pbmref rerun``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

__all__ = ["Facts", "Namer", "changes_line", "pilot_letters"]


def pilot_letters(pilots: Iterable[str], zeppelins: Iterable[str] = ()) -> dict[str, str]:
    """One map letter per pilot (and per zeppelin), stable and unique.

    Zeppelins take ``Z`` (then ``Y``, ``X``...); each pilot takes the first
    letter of its id that is still free, else the first free letter.

    >>> pilot_letters(["baron", "biggles"], ["L59"])
    {'L59': 'Z', 'baron': 'B', 'biggles': 'I'}
    """
    letters: dict[str, str] = {}
    used: set[str] = set()
    for i, name in enumerate(sorted(zeppelins, key=str)):
        letter = chr(ord("Z") - i)
        letters[name] = letter
        used.add(letter)
    for pilot in sorted(pilots, key=str):
        candidates = [c.upper() for c in pilot if c.isalpha() and c.isascii()]
        candidates += [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        for c in candidates:
            if c not in used:
                letters[pilot] = c
                used.add(c)
                break
        else:
            letters[pilot] = "?"
    return letters


class Namer:
    """Display names and map letters for the pilots and zeppelins of a turn."""

    def __init__(self, pilots: Iterable[str], zeppelins: Iterable[str],
                 names: Mapping[str, str]) -> None:
        self.pilots = sorted(set(pilots))
        self.zeppelins = sorted(set(zeppelins))
        self.letters = pilot_letters(self.pilots, self.zeppelins)
        self.names = dict(names)

    def __call__(self, who: str | None) -> str:
        if who is None or who == "":
            return "nobody"
        who = str(who)
        if who in self.zeppelins:
            return f"zeppelin {who}"
        return self.names.get(who) or who

    def tagged(self, who: str) -> str:
        """``B baron``: the map letter and the name."""
        return f"{self.letters.get(who, '?')} {self(who)}"


Facts = Mapping[str, Mapping[str, str]]  # pilot -> what the turn came to, in words


def changes_line(before: Facts, after: Facts, readers: Iterable[str],
                 name: Callable[[str], str], craft: str) -> str:
    """One line: what a corrected turn changed for ``readers`` (each pilot's for
    an observer), from each pilot's facts before and after the correction.

    >>> changes_line({"a": {"hits": "1"}}, {"a": {"hits": "2"}}, ["a"], str, "plane")
    'For you: hits 2 (was 1).'
    """
    def diffs(pilot: str) -> list[str]:
        old, new = before.get(pilot, {}), after.get(pilot, {})
        return [f"{k} {new.get(k, '-')} (was {old.get(k, '-')})" for k in new
                if old.get(k) != new.get(k)]

    readers = list(readers)
    if readers:
        found = [d for p in readers for d in diffs(p)]
        return ("For you: " + "; ".join(found) + ".") if found else \
            f"For your {craft} nothing changed; other pilots' turns may have."
    found = [f"{name(p)} " + ", ".join(d) for p in after if (d := diffs(p))]
    return ("What changed: " + "; ".join(found) + ".") if found else \
        f"No {craft} ends the turn differently; the account of it changed."
