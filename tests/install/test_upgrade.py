"""The upgrade recipe of the README (issue 44, item 6) on data the previous
release wrote: ``release-0.1.0/`` is a referee's folder made by pbmref 0.1.0
(``make_release_fixture.py`` says how): three games of three kinds, the Fast
Play roster, a spool with a mail taken in and not handled, a reply queued and
not sent, none of it with a data-format file. Backed up, checked and started
with this release as the recipe says: every game checks ok and gets its
format written, nothing else of it changes, the waiting mail is answered and
the queued reply sent; the backup restores and checks too."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from clonekit import CHECKOUT

from pbmref.cli import main
from pbmref.mail.outbox import read_maildir

FIXTURE = Path(__file__).parent / "release-0.1.0"
GAMES = ["4a-1", "dip1", "zep1"]


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".lock"}


def _recipe() -> str:
    readme = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Upgrade", 1)[1].split("\n## ", 1)[0]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def test_the_fixture_is_in_the_previous_releases_format() -> None:
    assert sorted(p.name for p in (FIXTURE / "games").iterdir() if p.is_dir()) == GAMES
    assert not list(FIXTURE.rglob("format.yaml"))
    assert (FIXTURE / "spool" / "in" / ".layout").read_text() == "2 one file an entry\n"
    assert len(list((FIXTURE / "spool" / "in" / "new").iterdir())) == 1
    assert len(list((FIXTURE / "spool" / "out" / "queue").iterdir())) == 1


def test_the_recipe_stops_backs_up_installs_checks_and_starts() -> None:
    steps = [ln.split("#")[0].strip() for ln in _recipe().splitlines() if ln.strip()]
    said = [next(i for i, s in enumerate(steps) if re.search(pattern, s)) for pattern in (
        r"systemctl stop pbmref", r"pbmref backup ", r"pip install .*--require-hashes",
        r"pip install .*--no-deps .*pbmref-", r"pbmref check", r"systemctl start pbmref")]
    assert said == sorted(said), steps


def test_the_upgrade_from_the_previous_releases_data(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "pbmref"
    shutil.copytree(FIXTURE, site, symlinks=True)
    config = str(site / "config.yaml")
    before = _files(site / "games")

    assert main(["backup", str(tmp_path / "before-upgrade.tar.gz"), "--config", config]) == 0
    assert main(["check", "--config", config]) == 0
    out = capsys.readouterr().out
    assert all(f"{gid}: ok" in out for gid in GAMES), out
    after = _files(site / "games")
    assert {k: v for k, v in after.items() if not k.endswith("format.yaml")} == before
    assert sorted(k for k in after if k.endswith("format.yaml")) == [
        f"{gid}/format.yaml" for gid in GAMES]

    assert main(["serve", "--once", "--config", config]) == 0
    assert "handled 1 mail(s)" in capsys.readouterr().out
    sent = read_maildir(site / "mail" / "outbox")
    assert any(m["In-Reply-To"] == "<t2-anna@club.example>" for m in sent)
    assert any(m["Subject"] == "[zep1] a note" and m["To"] == "bert@club.example" for m in sent)
    assert list((site / "spool" / "in" / "new").iterdir()) == []
    assert list((site / "spool" / "out" / "queue").iterdir()) == []
    for spool in ("in", "out"):
        assert "format: 1" in (site / "spool" / spool / "format.yaml").read_text()
    assert main(["status", "zep1", "--config", config]) == 0

    assert main(["restore", str(tmp_path / "before-upgrade.tar.gz"),
                 str(tmp_path / "restored")]) == 0
    assert main(["check", "--config", str(tmp_path / "restored" / "config.yaml")]) == 0
    out = capsys.readouterr().out
    assert all(f"{gid}: ok" in out for gid in GAMES), out
