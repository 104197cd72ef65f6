"""Issue 8: the demo plays through the real pipeline and is reproducible."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest

from pbmref.demo import DemoError, run_demo


def _outbox(root: Path) -> list[email.message.EmailMessage]:
    out = []
    for sub in ("new", "cur"):
        folder = root / "mail" / "outbox" / sub
        for path in sorted(folder.iterdir()) if folder.exists() else []:
            out.append(email.message_from_bytes(path.read_bytes(), policy=email.policy.default))
    return out


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("demo") / "games"
    lines: list[str] = []
    result = run_demo(root, turns=10, seed=7, say=lines.append)
    return result, lines


def test_demo_plays_ten_turns_or_to_the_end(demo_run) -> None:
    result, lines = demo_run
    assert result.turns_played == 10 or result.winners
    assert len(result.reports) == result.turns_played
    assert result.archive is not None and result.archive.exists()
    assert any("HTML archive" in line for line in lines)
    # the last line is a link a terminal opens with a click (issue 21)
    assert lines[-1].endswith(result.archive.resolve().as_uri())
    assert lines[-1].split()[-1].startswith("file:///")


def test_every_computer_order_mail_is_accepted(demo_run) -> None:
    result, _ = demo_run
    replies = [m for m in _outbox(result.root) if m["In-Reply-To"]]
    assert len(replies) == result.order_mails
    for msg in replies:
        body = msg.get_body(("plain",)).get_content()
        assert "your orders are accepted" in body, body


def test_one_report_per_player_per_turn(demo_run) -> None:
    result, _ = demo_run
    reports = [m for m in _outbox(result.root) if str(m["Subject"]).endswith(" report")]
    assert len(reports) == result.players * result.turns_played
    for msg in reports:
        assert msg["Auto-Submitted"] == "auto-generated"
        assert len(msg["To"].addresses) == 1  # one mail each: no one sees another's address


def test_same_seed_gives_byte_identical_reports(demo_run, tmp_path: Path) -> None:
    result, _ = demo_run
    again = run_demo(tmp_path / "again", turns=10, seed=7, say=lambda _line: None)
    assert again.reports == result.reports
    first = sorted((result.root / "games" / "demo" / "turns").glob("*/report.txt"))
    second = sorted((tmp_path / "again" / "games" / "demo" / "turns").glob("*/report.txt"))
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def test_another_seed_gives_another_game(demo_run, tmp_path: Path) -> None:
    result, _ = demo_run
    other = run_demo(tmp_path / "other", turns=3, seed=8, say=lambda _line: None)
    assert other.reports != result.reports[:3]


def test_demo_refuses_a_folder_it_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(DemoError):
        run_demo(tmp_path, turns=1, say=lambda _line: None)
    assert (tmp_path / "precious.txt").read_text() == "keep me"
