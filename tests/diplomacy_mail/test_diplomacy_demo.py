"""Issue 19: ``pbmref demo --ruleset diplomacy|dirigible``, seven computer powers by mail.

Each demo plays its first phases (Dirigible from the Winter 1900 builds, DD12)
through the real pipeline: every power's order mail goes into the inbox and
is accepted, every phase's report goes to all seven powers with its two
pictures, and a second run with the same seed prints the same, byte for
byte. The runs are short (CI has two cores): five phases each.
"""

from __future__ import annotations

import email
import email.policy
import os
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbmref.cli import main
from pbmref.demo import DemoError, DemoResult, run_demo

PHASES = 5
FIRST = {"diplomacy": ["S1901M", "F1901M"], "dirigible": ["W1900A", "S1901M", "F1901M"]}


def _mails(root: Path, box: str) -> list[EmailMessage]:
    folder = root / "mail" / box / "new"
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(folder.iterdir())]


def _play(root: Path, ruleset: str, seed: int) -> tuple[DemoResult, list[str]]:
    lines: list[str] = []
    return run_demo(root, ruleset=ruleset, turns=PHASES, seed=seed, say=lines.append), lines


@pytest.fixture(scope="module", params=["diplomacy", "dirigible"])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    # Crash safety is not what these tests are about: skip the disk flushes,
    # which cost more than the game on a slow disk.
    real_fsync = os.fsync
    os.fsync = lambda fd: None
    try:
        base = tmp_path_factory.mktemp(request.param)
        first = _play(base / "one", request.param, seed=19)
        again = _play(base / "two", request.param, seed=19)
    finally:
        os.fsync = real_fsync
    return request.param, first, again


def test_the_demo_plays_its_phases_in_order(played) -> None:
    ruleset, (result, lines), _ = played
    assert result.turns_played == PHASES and not result.winners
    headings = [line for line in lines if line.startswith("=== phase ")]
    assert len(headings) == PHASES
    for heading, phase in zip(headings, FIRST[ruleset], strict=False):
        assert heading.startswith(f"=== phase {phase} (turn "), heading
    assert all("reports mailed to 7 powers ===" in h for h in headings)
    assert lines[0].startswith(f"pbmref demo: {'Dirigible ' if ruleset == 'dirigible' else ''}"
                               "Diplomacy game 'demo' with 7 computer powers")
    assert result.archive is not None and result.archive.exists()


def test_every_order_mail_is_a_real_mail_and_is_accepted(played) -> None:
    _, (result, _), _ = played
    assert _mails(result.root, "inbox") == []  # every one taken in ...
    handled = sorted((result.root / "mail" / "inbox" / ".handled" / "cur").iterdir())
    assert len(handled) == result.order_mails  # ... and marked handled
    replies = [m for m in _mails(result.root, "outbox") if m["In-Reply-To"]]
    assert len(replies) == result.order_mails >= 7 * 2
    for msg in replies:
        body = msg.get_body(("plain",)).get_content()
        assert "your orders are accepted" in body, body
    first = email.message_from_bytes(handled[0].read_bytes(), policy=email.policy.default)
    text = first.get_body(("plain",)).get_content()
    assert text.startswith("GAME demo\nPASSWORD ") and "\nPHASE " in text and "\nEND" in text


def test_each_report_goes_to_the_seven_powers_with_their_part_and_two_pictures(played) -> None:
    _, (result, _), _ = played
    reports = [m for m in _mails(result.root, "outbox") if str(m["Subject"]).endswith(" report")]
    assert len(reports) == 7 * PHASES
    assert len({str(m["To"]) for m in reports}) == 7
    for msg in reports:
        # shown inline as light PNGs, nothing attached (issue 43)
        names = sorted(str(p.get_filename()) for p in msg.walk()
                       if p.get_content_type() == "image/png")
        # the power's own part of the board first (issue 43, item 2), then both boards
        assert [n.split("-", 2)[2] for n in names] == [
            "after-you.png", "after.png", "orders.png"], names
        assert list(msg.iter_attachments()) == [] and len(msg.as_bytes()) < 250_000


def test_the_same_seed_prints_the_same_game(played) -> None:
    _, (result, lines), (again, again_lines) = played
    assert again.reports == result.reports
    def unfoldered(text: list[str]) -> list[str]:  # the runs' own folders differ
        return [line for line in text if "/one/" not in line and "/two/" not in line]

    assert unfoldered(again_lines) == unfoldered(lines)
    first = sorted((result.root / "games" / "demo" / "turns").glob("*/report.txt"))
    second = sorted((again.root / "games" / "demo" / "turns").glob("*/report.txt"))
    assert len(first) == PHASES
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def test_a_ruleset_without_a_demo_says_so(tmp_path: Path) -> None:
    with pytest.raises(DemoError, match="no demo of Fast Play; demos: "):
        run_demo(tmp_path / "fp", ruleset="fastplay", turns=1, say=lambda _line: None)
    assert main(["demo", "--ruleset", "fastplay", "--dir", str(tmp_path / "fp2")]) == 2


def test_the_archive_names_the_phases_and_shows_both_pictures(played) -> None:
    ruleset, (result, _), _ = played
    assert result.archive is not None
    index = result.archive.read_text(encoding="utf-8")
    first, second = FIRST[ruleset][:2]
    assert f'<a href="turn-001.html">{first}</a>' in index
    page = (result.archive.parent / "turn-002.html").read_text(encoding="utf-8")
    assert f'&larr; {first}</a>' in page and "turn 1" not in page
    assert page.count("<figure ") == 2 and '<main class="boards">' in page
    assert f"<figcaption>{second}: the orders and what became of them</figcaption>" in page
    assert f"<figcaption>The board after {second}</figcaption>" in page


def test_no_mail_of_a_plain_diplomacy_game_speaks_of_dirigibles(played) -> None:
    """Issue 43, item 3: plain Diplomacy never mentions dirigibles (nor DD11's
    supply points), in any mail of the demo: reports, replies, their HTML and
    picture names. The Dirigible demo's mails do (the search finds them)."""
    ruleset, (result, _), _ = played
    mails = _mails(result.root, "outbox")
    assert len(mails) >= 7 * PHASES
    found = []
    for msg in mails:
        for part in msg.walk():
            words = [str(part.get_filename() or ""), str(msg["Subject"])]
            if part.get_content_maintype() == "text":
                words.append(part.get_content())
            said = " ".join(words).lower()
            if "dirig" in said or "supply point" in said:
                found.append(str(msg["Subject"]))
    if ruleset == "diplomacy":
        assert found == []
    else:
        assert len(found) >= 7 * PHASES
