"""The catalogue of common mistakes: each example line gets its own label."""

from __future__ import annotations

import pytest
from lark.exceptions import UnexpectedInput

from pbmref.orders.errors import OrderSyntaxError
from pbmref.rulesets.tweedekker.catalogue import CATALOGUE, label_of
from pbmref.rulesets.tweedekker.orders import line_parser, parse_line

EXAMPLES = [(m.label, ex) for m in CATALOGUE for ex in m.examples]


@pytest.mark.parametrize(("label", "line"), EXAMPLES, ids=[f"{lab}:{ex}" for lab, ex in EXAMPLES])
def test_example_gets_its_label(label: str, line: str) -> None:
    with pytest.raises(UnexpectedInput) as info:
        line_parser().parse(line)
    assert label_of(info.value) == label


@pytest.mark.parametrize(("label", "line"), EXAMPLES, ids=[f"{lab}:{ex}" for lab, ex in EXAMPLES])
def test_example_reads_as_a_syntax_error_with_a_spot(label: str, line: str) -> None:
    with pytest.raises(OrderSyntaxError) as info:
        parse_line(line, 4)
    err = info.value
    assert err.line_no == 4 and err.line == line
    assert err.column is not None and 1 <= err.column <= len(line) + 1
    assert err.message and "Token" not in err.message and "$END" not in err.message


# Mistakes a player makes, and a phrase the explanation must have.
PLAYER_MISTAKES = [
    ("1: A fA", "fA needs a dash: write f-A", 6),
    ("1: LS fr", "write f-R", 7),
    ("A F-FRONT", "F-FRONT is not a fire order", 3),
    ("1: RR", "RR is not one manoeuvre", 4),
    ("1) A", "1) is not how a move number is written", 1),
    ("2 LS", "needs a colon", 1),
    ("1: A FIRE", "FIRE needs a direction", 10),
    ("TAKEOFF DELTA", "DELTA is not a runway", 9),
    ("1: J13", "hex or a compass heading", 4),
    ("A PLANE", "must start a line of its own", 3),
    ("1: A banana", "cannot read banana", 6),
]


@pytest.mark.parametrize(("line", "phrase", "column"), PLAYER_MISTAKES,
                         ids=[m[0] for m in PLAYER_MISTAKES])
def test_mistake_explained(line: str, phrase: str, column: int) -> None:
    with pytest.raises(OrderSyntaxError) as info:
        parse_line(line, 1)
    assert phrase in info.value.message
    assert info.value.column == column


def test_every_generated_spot_gets_its_label() -> None:
    """A mistake is recognised wherever it stands in a line (no two labels clash)."""
    wrong = []
    for mistake in CATALOGUE:
        for line in mistake.all_examples():
            try:
                line_parser().parse(line)
            except UnexpectedInput as exc:
                if label_of(exc) != mistake.label:
                    wrong.append((line, mistake.label, label_of(exc)))
    assert not wrong, wrong[:20]
