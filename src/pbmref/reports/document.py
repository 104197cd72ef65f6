"""A report as a document: sections of paragraphs and fixed-width blocks.

The turn reports of the game kinds (``rulesets/<game>/report.py``) build a
``Document``; ``Document.text()`` is the plain text stored (every line at most 70
columns), ``Document.flowed()`` the same as mailed (``format=flowed``: its
paragraphs re-wrap on a phone), and ``pbmref.reports.html`` lays the same document
out as HTML (paragraphs that reflow on a phone, fixed-width blocks in their
own scrolling box). So the text and the HTML version of a report say the
same thing by construction.

A ``Table`` is rows of short cells under a header: aligned columns in text,
a real table in HTML (it fits a phone's width where a fixed-width block
would be cut off).

A ``Para`` is one paragraph: in text it is word-wrapped with ``indent``
spaces before its first line and ``hang`` spaces before the others; in HTML
it is a paragraph indented by its level. A ``Fixed`` block is lines that
only make sense in a fixed-width font (the character map, the tables). A
``Sub`` is a heading inside a section (``Move 1``). ``Gap`` is a blank line.

>>> doc = Document([Section("AN EXAMPLE", [Para("one two three", 2, 4), Gap(),
...                 Fixed(["  a  b", "  1  2"])])])
>>> print(doc.text(), end="")
<BLANKLINE>
AN EXAMPLE
<BLANKLINE>
  one two three
<BLANKLINE>
  a  b
  1  2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pbmref.base.flowed import Flowed, soft_wrap, stuffed
from pbmref.reports.common import WIDTH, fit_width, wrap

__all__ = ["Block", "Document", "Fixed", "Gap", "Para", "Rule", "Section", "Sub", "Table",
           "Title", "paras"]


@dataclass(frozen=True)
class Para:
    """One paragraph, wrapped to the width in text."""

    text: str
    indent: int = 2
    hang: int = 4  # the indent of its second and later lines
    strong: bool = False  # a line that matters most (a kill, game over)

    def lines(self) -> list[str]:
        return wrap(self.text, " " * self.indent, " " * self.hang)

    def flowed_lines(self) -> list[str]:
        """The paragraph in flowed text: soft breaks (a trailing space) between
        its lines, which start flush (a reader joins them into one line)."""
        return soft_wrap(self.text, WIDTH, " " * self.indent)


@dataclass(frozen=True)
class Fixed:
    """Lines kept exactly as they are (a map, a table)."""

    rows: Sequence[str]

    def lines(self) -> list[str]:
        return list(self.rows)


@dataclass(frozen=True)
class Table:
    """Rows of short cells under a header: in text, columns aligned (the first
    to the left, the others, numbers most often, to the right); in HTML a table.

    >>> print("\\n".join(Table(("Power", "Centres"), [("FRA", "5"), ("ENG", "12")]).lines()))
      Power  Centres
      FRA          5
      ENG         12
    """

    head: Sequence[str]
    rows: Sequence[Sequence[str]]
    indent: int = 2

    def lines(self) -> list[str]:
        table = [list(self.head), *(list(r) for r in self.rows)]
        widths = [max(len(r[i]) for r in table) for i in range(len(self.head))]
        out = []
        for row in table:
            cells = [row[0].ljust(widths[0]),
                     *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))]
            out.append((" " * self.indent + "  ".join(cells)).rstrip())
        return out


@dataclass(frozen=True)
class Sub:
    """A heading inside a section, underlined in text (``Move 1``)."""

    title: str

    def lines(self) -> list[str]:
        return ["", self.title, "-" * len(self.title)]


@dataclass(frozen=True)
class Gap:
    """A blank line in text; a little space in HTML."""

    def lines(self) -> list[str]:
        return [""]


@dataclass(frozen=True)
class Title:
    """The report's title line: the game's title left, its id right (when both fit)."""

    left: str
    right: str

    def lines(self) -> list[str]:
        if len(self.left) + len(self.right) + 4 <= WIDTH:
            return [f"  {self.left}{' ' * (WIDTH - 2 - len(self.left) - len(self.right))}"
                    f"{self.right}"]
        return [*wrap(self.left, "  "), f"  {self.right}"]


@dataclass(frozen=True)
class Rule:
    """A line of ``=`` across the text (the report's head and foot)."""

    def lines(self) -> list[str]:
        return ["=" * WIDTH]


Block = Para | Fixed | Sub | Gap | Rule | Title | Table


@dataclass(frozen=True)
class Section:
    """A titled part of a report; ``title`` None for the head and foot."""

    title: str | None
    blocks: Sequence[Block] = ()
    kind: str = ""  # what the section is, for HTML: "head", "personal", "map", ...

    def lines(self, *, flowing: bool = False) -> list[str]:
        """Its lines in text; ``flowing``: its paragraphs with soft breaks."""
        out: list[str] = []
        if self.title is not None:
            out += ["", self.title]
            if self.blocks and not isinstance(self.blocks[0], Sub):
                out.append("")
        for block in self.blocks:
            out += block.flowed_lines() if flowing and isinstance(block, Para) else block.lines()
        return out


@dataclass(frozen=True)
class Document:
    """A whole report: its sections in reading order."""

    sections: Sequence[Section] = field(default_factory=list)

    def text(self) -> str:
        """The plain text: every line at most 70 characters, one newline at the end."""
        lines: list[str] = []
        for section in self.sections:
            lines += section.lines()
        return "\n".join(fit_width(lines)) + "\n"

    def flowed(self) -> Flowed:
        """The text as the mail carries it (``format=flowed``): the same lines, but
        each paragraph's joined by soft breaks, so a phone wraps it to its
        screen; fixed-width blocks (maps, tables) keep their hard lines."""
        lines: list[str] = []
        for section in self.sections:
            lines += section.lines(flowing=True)
        return Flowed("\n".join(stuffed(line) for line in lines) + "\n")

    def with_opening(self, opening: Iterable[Section]) -> Document:
        """The same document with ``opening`` sections before everything else."""
        return Document([*opening, *self.sections])

    def with_closing(self, closing: Iterable[Section]) -> Document:
        """The same document with ``closing`` sections after everything else."""
        return Document([*self.sections, *closing])

    @classmethod
    def preformatted(cls, text: str) -> Document:
        """A report written as text by a renderer of its own (kept line for line)."""
        return cls([Section(None, [Fixed(text.rstrip("\n").split("\n"))], "text")])


def paras(texts: Iterable[str], indent: int = 2, hang: int = 4) -> list[Block]:
    """Paragraphs at one indent."""
    return [Para(t, indent, hang) for t in texts]
