"""The README's "For a game master", run as a new game master runs it (issue 46).

Every command of the section's shell block is run, in order, in an empty
folder, by the installed ``pbmref`` in a process of its own: each ends with
the exit status it should have, and none prints a Python traceback. Then the
same commands are given bad input (a game that does not exist, a broken
game.yaml, a bad time, a missing file ...): each is refused in plain words,
with a non-zero exit and no traceback.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## For a game master"

# The commands of the block that end non-zero, and why (all others: 0).
NOT_ZERO = {
    # nobody has sent orders: a warning and exit 1 (--force adjudicates anyway)
    "pbmref adjudicate zep1": 1,
    # the README's mail.eml and scenario folder are the GM's own (a clone's):
    # in an empty folder they are not there, which is one line and exit 1 or 2
    "pbmref orders check mail.eml --game zep1": 2,
    "pbmref scenario tests/scenarios/tweedekker/": 2,
    # the line before gave bert's place to the computer: nobody to mail it to
    "pbmref new-password zep1 bert": 1,
}


def readme_commands() -> list[str]:
    """The shell block of the section, one command a line: comments dropped,
    continued lines joined, ``a; b`` and ``a && b`` split."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index(SECTION):]
    block = section[section.index("```sh\n") + 6:]
    block = block[:block.index("```")]
    joined = re.sub(r"\\\n\s*", " ", block)
    commands = []
    for line in joined.splitlines():
        line = re.sub(r"\s+#.*$", "", line.split("#", 1)[0] if line.lstrip().startswith("#")
                      else line).strip()
        if not line:
            continue
        commands += [c.strip() for c in re.split(r";|&&", line) if c.strip()]
    return commands


def _run(words: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PBMREF_CONFIG"}
    return subprocess.run([sys.executable, "-m", "pbmref", *words], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def run_line(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """One README command as the shell runs it (``> FILE`` writes FILE)."""
    words = shlex.split(command)
    assert words[0] == "pbmref", command
    out_file = None
    if ">" in words:
        at = words.index(">")
        out_file, words = cwd / words[at + 1], words[:at]
    done = _run(words[1:], cwd)
    if out_file is not None:
        out_file.write_text(done.stdout)
    return done


def test_the_readme_block_is_found() -> None:
    commands = readme_commands()
    assert len(commands) >= 20, commands
    assert commands[0].startswith("pbmref new-game zep1")
    assert set(NOT_ZERO) <= set(commands), set(NOT_ZERO) - set(commands)


def test_every_command_of_the_readme_runs_in_an_empty_folder(tmp_path: Path) -> None:
    said = []
    for command in readme_commands():
        done = run_line(command, tmp_path)
        said.append(f"$ {command}\n-> {done.returncode}\n{done.stdout}{done.stderr}")
        assert "Traceback" not in done.stderr + done.stdout, said[-1]
        assert done.returncode == NOT_ZERO.get(command, 0), "\n".join(said)
        if done.returncode:  # said in a line or two, not a page
            assert 0 < len(done.stderr.strip().splitlines()) <= 3, said[-1]


# Bad input for the README's commands, after a game zep1 and a Diplomacy dip1
# are made: (command, expected exit status).
BAD = [
    ("status nope", 1), ("check nope", 1), ("adjudicate nope", 1), ("render nope", 1),
    ("extend nope --by 24h", 1), ("extend zep1 --by soon", 1), ("extend zep1 --by -3h", 2),
    ("resume nope", 1), ("pause zep1 --until tomorrow", 1), ("pause nope", 1),
    ("replace-player zep1 nobody --computer", 1), ("replace-player nope bert --computer", 1),
    ("new-password zep1 nobody", 1), ("kick zep1 nobody", 1), ("kick nope bert", 1),
    ("add-observer zep1 not-an-address", 1), ("add-observer nope press@example.org", 1),
    ("press nope", 1), ("press zep1 --turn x", 2), ("orders check missing.eml --game zep1", 2),
    ("orders check mail.eml --game nope", 2), ("scenario missing.yaml", 2),
    ("rules Q99", 1), ("rerun zep1 --from 7", 1), ("rerun nope --from 1", 1),
    ("new-game zep1 --player anna:anna@example.org", 1),
    ("new-game bad/id --player anna:anna@example.org", 1),
    ("new-game z2 --player anna:anna@example.org --player b:b@example.org --deadline x", 1),
    ("new-game d2 --ruleset diplomacy --player a:a@example.org:A:XXX", 1),
    ("new-game d3 --ruleset nosuch --player a:a@example.org", 2),
    ("new-class missing.yaml", 1), ("new-class class.yaml", 1), ("roster rebalance", 1),
    ("render zep1 --out /proc/no/such/place", 1),
]


@pytest.fixture(scope="module")
def bad_house(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("house")
    for command in readme_commands()[:2]:  # zep1; the class file
        assert run_line(command, root).returncode == 0, command
    (root / "mail.eml").write_text("From: anna@example.org\nSubject: x\n\nhello\n")
    (root / "class.yaml").write_text("title: [unclosed\n")
    return root


@pytest.mark.parametrize(("command", "code"), BAD, ids=[c for c, _ in BAD])
def test_bad_input_is_one_plain_refusal(bad_house: Path, command: str, code: int) -> None:
    done = _run(shlex.split(command), bad_house)
    said = f"$ pbmref {command}\n-> {done.returncode}\n{done.stdout}{done.stderr}"
    assert "Traceback" not in done.stdout + done.stderr, said
    assert done.returncode == code, said
    assert (done.stderr or done.stdout).strip(), said  # status lists games on stdout


def test_a_broken_game_file_is_named_with_its_line(tmp_path: Path) -> None:
    assert run_line(readme_commands()[0], tmp_path).returncode == 0
    game = tmp_path / "games" / "zep1" / "game.yaml"
    game.write_text(game.read_text().replace("status: open", "status: [open"))
    for command in ("status zep1", "check zep1", "adjudicate zep1", "render zep1",
                    "extend zep1 --by 24h", "pause zep1", "resume zep1", "kick zep1 bert",
                    "replace-player zep1 bert --computer", "new-password zep1 bert",
                    "add-observer zep1 press@example.org", "press zep1", "rerun zep1 --from 1",
                    "adjudicate --due", "serve --once"):
        done = _run(shlex.split(command), tmp_path)
        said = f"$ pbmref {command}\n-> {done.returncode}\n{done.stdout}{done.stderr}"
        assert "Traceback" not in done.stdout + done.stderr, said
        assert done.returncode != 0 or command in ("serve --once",), said
        assert re.search(r"game\.yaml(, line \d+|:\d+)", done.stdout + done.stderr) \
            or command in ("serve --once",), said
