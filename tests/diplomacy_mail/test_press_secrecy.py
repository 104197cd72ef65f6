"""Press keeps passwords and terminal tricks to itself (issue 40, item 8).

A password written inside a press message is hidden before the message goes
anywhere: in the receivers' mails, in the game folder, in ``pbmref press``
and in the sender's own copy, as everywhere else the referee quotes a mail
(``referee.secrecy``). Control characters, escape sequences, bidi overrides
and zero-width characters never reach a receiver, the game folder, or the
game master's terminal through ``pbmref press`` and ``pbmref orders check``.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
import yaml
from dipkit import DipTable, address, make_table

from pbmref.cli import main

# What a terminal acts on or a screen hides: ESC (a window title, the cursor sent
# back up over the line before and that line wiped), BEL, a bare carriage
# return's cousin NEL, DEL, a right-to-left override and its end, an isolate,
# zero-width space and joiner, a byte-order mark.
TRICKS = ("\x1b]0;you are fired\x07", "\x1b[1A\x1b[2K", "\x85", "\x7f", "\u202e", "\u202c",
          "\u2066", "\u2069", "\u200b", "\u200d", "\ufeff", "\x9b")


def hidden_chars(text: str) -> set[str]:
    """The characters of ``text`` a terminal would act on or a screen hide."""
    return {c for c in text if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Cf")}


@pytest.fixture
def dip(tmp_path: Path) -> DipTable:
    return make_table(tmp_path)


def mails_to(out: list, player: str) -> list[str]:
    """Every text part and header of the mails ``player`` got."""
    texts = []
    for m in out:
        if m["To"] != address(player):
            continue
        parts = [str(p.get_content()) for p in m.walk() if p.get_content_maintype() == "text"]
        texts.append("\n".join([*parts, *(f"{k}: {v}" for k, v in m.items())]))
    return texts


def press_cli(dip: DipTable, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["press", "--games", str(dip.game().dir.parent), "dip1"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("line", [
    "my PASSWORD: {pw} -- keep it for me",
    "you can mail as me, the word is {pw}",
    "pw {pw}",
])
def test_a_password_written_in_press_is_hidden_everywhere(
        dip: DipTable, capsys: pytest.CaptureFixture[str], line: str) -> None:
    secret = dip.passwords["fleur"]
    out = dip.send("fleur", "PRESS TO ENG", "Dear Edith,", line.format(pw=secret))
    edith, = mails_to(out, "edith")
    assert "Dear Edith," in edith and "(hidden)" in edith
    fleur, = mails_to(out, "fleur")
    assert "Your press was sent to England" in fleur and "(hidden)" in fleur
    record, = dip.game().press.records()
    assert "(hidden)" in record.text
    shown = press_cli(dip, capsys)
    assert "Dear Edith," in shown
    stored = "\n".join(p.read_text(encoding="utf-8")
                       for p in (dip.game().dir / "press").iterdir())
    for where, text in [("edith's mail", edith), ("fleur's copy", fleur),
                        ("the press file", stored), ("pbmref press", shown)]:
        assert secret not in text, f"{where} shows the password"


def test_press_with_terminal_tricks_reaches_nobody_with_them(
        dip: DipTable, capsys: pytest.CaptureFixture[str]) -> None:
    body = "Hello" + "".join(TRICKS) + " Edith"
    out = dip.send("fleur", "PRESS TO E\u200bNG\u202e\x07", body, "From: Germany\u202e")
    edith, = mails_to(out, "edith")
    assert "Hello" in edith and "Edith" in edith and "From: Germany" in edith
    record, = dip.game().press.records()
    shown = press_cli(dip, capsys)
    assert "fleur to edith" in shown
    for where, text in [("edith's mail", edith), ("the kept press", record.text),
                        ("pbmref press", shown)]:
        assert not hidden_chars(text), f"{where} holds {hidden_chars(text)}"


def test_pbmref_press_shows_no_tricks_a_kept_file_holds(
        dip: DipTable, capsys: pytest.CaptureFixture[str]) -> None:
    """A press file kept before, or edited by hand, shows on the terminal clean."""
    dip.send("fleur", "PRESS TO ENG", "Plain words.")
    path, = (dip.game().dir / "press").iterdir()
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["text"] = "\x1b[2J\x1b]0;owned\x07Line one\r\nLine\u202e two"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    shown = press_cli(dip, capsys)
    assert "Line one" in shown and "owned" in shown
    assert not hidden_chars(shown)


def test_orders_check_prints_no_tricks_of_the_mail(
        tmp_path: Path, dip: DipTable, capsys: pytest.CaptureFixture[str]) -> None:
    mail = tmp_path / "m.eml"
    trick = "\x1b]0;hello\x07\x1b[1A\x1b[2K\u202e"
    head = f"From: {address('fleur')}\nSubject: dip1 orders{trick}\n\n"
    for text, code, shown in [
            (f"PRESS TO ENG{trick}\nhi{trick}\nENDPRESS\nA Par - Bur\n", 0, "Press: to ENG"),
            (f"A Par - Mun{trick}\nPRESS TO XYZ\nhi\n", 1, "A Par - Mun]0;hello")]:
        mail.write_text(head + text, encoding="utf-8")
        assert main(["orders", "check", str(mail), "--game", str(dip.game().dir),
                     "--no-password"]) == code
        captured = capsys.readouterr()
        assert shown in captured.out
        assert not hidden_chars(captured.out + captured.err)
