"""Letters of other alphabets that look like Latin ones, in an order line.

A keyboard switched to Cyrillic or Greek types "\u0410" for "A" and "\u0430" for "a":
the line looks right to the player and is no order to the referee. Such a
line must never be left out as a greeting (issue 40); the reply says which
letter is not Latin, so the player can see a mistake they cannot see.

- ``in_latin(line)``: the line with every such letter made the Latin one it
  looks like, column for column (to find out whether it would be an order);
- ``foreign_letters(line)``: the error that names them, or None.

A greeting in another alphabet ("\u041f\u0440\u0438\u0432\u0435\u0442!") holds such letters too; the
callers tell it from an order by reading the line in Latin letters: it is
still no order then (``pbmref.orders.check``, ``pbmref.orders.envelope``).
"""

from __future__ import annotations

import unicodedata

from pbmref.orders.errors import OrderSyntaxError

__all__ = ["foreign_letters", "in_latin"]

# Cyrillic and Greek letters that look like a Latin letter in common fonts.
_LOOKS_LIKE: dict[str, str] = {
    **dict(zip("АВСЕНІЈКМОРЅТХУҮԚԜ", "ABCEHIJKMOPSTXYYQW", strict=True)),  # Cyrillic
    **dict(zip("асеіјорѕхуһԁԛԝ", "aceijopsxyhdqw", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),  # Greek
    **dict(zip("ακιορυχν", "akiopuxv", strict=True)),
}


def _latin(char: str) -> str | None:
    """The plain Latin letter or digit ``char`` looks like (None: it is one, or
    looks like none): a Cyrillic or Greek look-alike, or a wide or styled form
    ("Ａ", "𝐀") that Unicode itself folds to one."""
    if char.isascii():
        return None
    if char in _LOOKS_LIKE:
        return _LOOKS_LIKE[char]
    folded = unicodedata.normalize("NFKC", char)
    return folded if len(folded) == 1 and folded.isascii() and folded.isalnum() else None


def in_latin(line: str) -> str:
    """``line`` with each look-alike made the Latin letter it looks like.

    >>> in_latin("\u0410 G\u0430s - Spa")
    'A Gas - Spa'
    """
    if line.isascii():
        return line
    return "".join(_latin(c) or c for c in line)


def foreign_letters(line: str, *, rule: str = "SYNTAX") -> OrderSyntaxError | None:
    """The error of a line with letters that look Latin and are not, naming the
    first and marking them all; None when it has none.

    >>> print(foreign_letters("A G\u0430s - Spa").message)
    "\u0430" is a Cyrillic letter, not the Latin a
    >>> print(foreign_letters("PL\uff21NE").message)
    "\uff21" is not the plain letter A but FULLWIDTH LATIN CAPITAL LETTER A
    """
    found = [(i, c, latin) for i, c in enumerate(line) if (latin := _latin(c)) is not None]
    if not found:
        return None
    first, char, latin = found[0]
    name = unicodedata.name(char, "")
    script = name.split(" ")[0].capitalize()
    kind = "letter" if latin.isalpha() else "digit"
    if script in ("Cyrillic", "Greek"):
        message = f'"{char}" is a {script} {kind}, not the Latin {latin}'
    else:
        message = f'"{char}" is not the plain {kind} {latin} but {name or "a look-alike"}'
    more = len({c for _, c, _ in found}) - 1
    if more:
        message += f" (and {more} more such {'letter' if more == 1 else 'letters'} here)"
    return OrderSyntaxError(
        message, rule=rule, column=first + 1, width=found[-1][0] - first + 1,
        hint="type the line again in Latin letters (A to Z)")
