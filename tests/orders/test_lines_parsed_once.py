"""An order line read without a mistake is parsed once for the mails that
write it again (the line's reading kept while the process runs)."""

from __future__ import annotations

from pbmref.orders.errors import OrderSyntaxError
from pbmref.orders.lines import read_past_mistakes
from pbmref.rulesets.tweedekker.orders import read_line


class _CountingParser:
    """A line parser that says what a line says (``made``) and counts its parses."""

    def __init__(self, made: object) -> None:
        self.made = made
        self.parses: list[str] = []

    def parse(self, line: str, **_: object) -> object:
        self.parses.append(line)
        return self.made


def _no_mistake(*_: object) -> tuple[str | None, OrderSyntaxError]:
    raise AssertionError("no mistake to explain")


def test_a_line_read_without_a_mistake_is_parsed_once_for_every_mail_that_writes_it():
    # issue 41, item 5: "1: A" and "TAKEOFF BETA" come in mail after mail
    parser = _CountingParser(("move", 1, ("A",)))
    for line_no in (3, 7):
        assert read_past_mistakes(parser, "1: A", line_no, _no_mistake) == (parser.made, [])
    assert read_past_mistakes(parser, "1: A.", 2, _no_mistake) == (parser.made, [])
    assert parser.parses == ["1: A", "1: A "]  # the cleaned line ("." ends it)


def test_a_line_whose_reading_could_change_is_parsed_each_time():
    parser = _CountingParser(["move", 1])  # a list: not kept
    for _ in range(2):
        assert read_past_mistakes(parser, "1: A", 1, _no_mistake) == (["move", 1], [])
    assert parser.parses == ["1: A", "1: A"]


def test_a_line_with_a_mistake_is_told_on_its_own_line_each_time():
    first = read_line("1: A Q", 4)
    again = read_line("1: A Q", 9)
    assert first[1] and again[1]
    assert [e.line_no for e in first[1]] == [4] * len(first[1])
    assert [e.line_no for e in again[1]] == [9] * len(again[1])
    assert read_line("1: A", 1) == read_line("1: A", 2)
