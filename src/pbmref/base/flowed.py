"""Plain text as ``format=flowed`` (RFC 3676, ``DelSp=no``): what a phone's
mail app re-wraps to its screen without ragged lines.

In flowed text a line that ends in a space goes on in the next one (a soft
break): a reader that knows the format joins such lines into one paragraph
and wraps it to its own width; a line that ends without a space is a hard
break, kept as it is (a map row, a table, a caret under a mistake). A line
that begins with a space, ``>`` or ``From `` gets one more space in front
(space-stuffing), which the reader takes off again. A reader that does not
know the format shows the lines as written, so the text looks as before.

``Flowed`` is such text, ready to mail. ``flowed(text)`` makes it of plain
text: every line hard (its trailing spaces dropped) and stuffed where
needed; a writer of long lines wraps them itself (a reply's lines stay as
the replies write them).
``soft_wrap`` breaks one paragraph softly (the reports' paragraphs,
``pbmref.reports.document``).

>>> print(flowed("GAME zep1\\n From the map:\\n   A B\\n").replace(" \\n", "~\\n"), end="")
GAME zep1
  From the map:
    A B
>>> soft_wrap("one two three four", 9)
['one two ', 'three ', 'four']
"""

from __future__ import annotations

import textwrap

__all__ = ["LIMIT", "Flowed", "flowed", "soft_wrap", "stuffed", "unflowed"]

#: The longest line a flowed text has (RFC 3676 asks for at most 78).
LIMIT = 76


class Flowed(str):
    """Text already in ``format=flowed``: soft breaks marked, lines stuffed."""


def stuffed(line: str) -> str:
    """The line with a space in front where a reader would take it for a quote,
    a ``From `` line or a space-stuffed one (RFC 3676, 4.4).

    >>> stuffed(">1"), stuffed("From here"), stuffed("x")
    (' >1', ' From here', 'x')
    """
    return " " + line if line.startswith((" ", ">", "From ")) else line


def soft_wrap(text: str, width: int = LIMIT, indent: str = "") -> list[str]:
    """One paragraph in lines of at most ``width`` (a word longer than that on
    a line of its own), each but the last ending in the space of a soft
    break; ``indent`` before the first."""
    lines = textwrap.wrap(text, width, initial_indent=indent, break_long_words=False,
                          break_on_hyphens=False) or [indent.rstrip()]
    return [line + " " for line in lines[:-1]] + lines[-1:]


def flowed(text: str) -> Flowed:
    """Plain text as flowed text: each line hard, stuffed where needed."""
    if isinstance(text, Flowed):
        return text
    return Flowed("\n".join(stuffed(line.rstrip()) for line in text.split("\n")))


def unflowed(text: str, *, delsp: bool = False) -> str:
    """What a reader of flowed text shows: the stuffing taken off, the lines of a
    soft break joined (a signature's ``-- `` stays a line; a quoted line is
    joined only to the next of the same quote depth). With ``delsp`` (RFC 3676,
    ``DelSp=yes``, as some mail programs write) the space of a soft break is
    no part of the text: a word may be broken there.

    >>> unflowed("  Your plane \\nis at J10.\\n   A B\\n")
    ' Your plane is at J10.\\n  A B\\n'
    >>> unflowed("re \\nceived\\n", delsp=True)
    'received\\n'
    """
    out: list[str] = []
    joining = False
    depth_before = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        quote, line = line[:depth], line[depth:]
        line = line[1:] if line.startswith(" ") else line
        if joining and depth == depth_before:
            out[-1] = (out[-1][:-1] if delsp else out[-1]) + line
        else:
            out.append(quote + (" " if quote and line else "") + line if quote else line)
        joining = line.endswith(" ") and line != "-- "
        depth_before = depth
    return "\n".join(out)
