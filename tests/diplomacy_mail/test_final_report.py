"""The end of a game (issue 45, rule J14): a final report to everyone in it,
with the centre chart year by year, and the archive's last page.

The Dirigible game near its end (near_victory.yaml, S1905M) plays through
its Fall and Winter to 1906, then ends in the draw every survivor votes for.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from dipkit import PLAYERS, address, body_of, make_table

from pbmref.archive import write_archive
from pbmref.referee.turns import adjudicate_due

HERE = Path(__file__).parent
SURVIVORS = ("anton", "fleur", "ilaria", "raisa", "tarik")


def test_the_final_report_goes_to_everyone_with_the_chart_and_ends_the_archive(
        tmp_path: Path) -> None:
    position = yaml.safe_load((HERE / "near_victory.yaml").read_text(encoding="utf-8"))
    dip = make_table(tmp_path, ruleset="dirigible", position=position)
    dip.game().change_settings({"observers": ["press@example.org"]})
    while dip.phase() != "S1906M":  # nobody orders: every unit holds, the years go by
        out = dip.deadline()
        assert not any("final report" in str(m["Subject"]) for m in out)
    for pid in SURVIVORS:
        dip.reply(pid, "DRAW")
    out = dip.deadline()
    finals = {str(m["To"]): body_of(m) for m in out
              if str(m["Subject"]) == "[dip1] final report"}
    assert set(finals) == {address(p) for p in PLAYERS} | {"press@example.org"}
    text = finals[address("fleur")]
    assert len({*finals.values()}) == 1  # the same report for everyone
    flat = " ".join(text.split())
    assert ("The game ends in a draw shared by Austria, France, Italy, Russia, Turkey "
            "(Dirigible Diplomacy, 4 turns played; rule J14).") in flat
    assert "France Fleur" in flat and "England Edith" in flat  # who played what
    chart = text.split("Supply centres at the end of each year:")[1].splitlines()
    assert chart[2].split() == ["Year", "AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"]
    assert chart[3].split() == ["start", "3", "0", "17", "0", "3", "4", "7"]
    assert chart[4].split()[0] == "1905" and chart[5].split()[0] == "1906"
    assert max(len(line) for line in text.splitlines()) <= 70
    # the final report comes after the last turn's report, each once
    subjects = [str(m["Subject"]) for m in out if str(m["To"]) == address("fleur")]
    assert subjects.index("[dip1] final report") > subjects.index("[dip1] S1906M report")
    adjudicate_due(dip.referee)  # the job again: nothing more
    assert dip.new_outbox() == []
    # the archive's last page
    archive = tmp_path / "archive"
    write_archive(dip.game(), archive)
    page = (archive / "final.html").read_text(encoding="utf-8")
    assert "draw shared by Austria, France, Italy, Russia, Turkey" in page
    assert '<section id="chart">' in page and "<td>1906</td>" in page
    assert 'href="turn-004.html"' in page
    assert 'href="final.html">Final report</a>' in (archive / "index.html").read_text()
