"""What reading one YAML file may cost is bounded (issue 40, item 4).

A game master's file that is too big, nested too deep, holds too many values,
or whose anchors and aliases would expand too far ("billion laughs") is
refused with its file and line before anything is built of it, by both YAML
readers: PyYAML (every read) and ruamel.yaml's round trip (a command that
edits ``game.yaml``). Each bomb is also refused by a process that may use
neither much memory nor much CPU time: refused before it costs, not after.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from pbmref.base.errors import GameFileError
from pbmref.base.yamlfile import (
    LIMITS,
    load_round_trip,
    load_text,
    read_text,
    read_yaml,
    stored_yaml,
)
from pbmref.store.settings_file import SettingsFile

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = (REPO / "docs" / "example-game" / "game.yaml").read_text(encoding="utf-8")
HEAD = EXAMPLE.count("\n")  # the bombs are appended below the example's lines
# the example's own values (mappings, lists and plain values, the whole file one)
VALUES = sum(1 for event in yaml.parse(EXAMPLE, Loader=yaml.CSafeLoader)
             if isinstance(event, yaml.NodeEvent) and not isinstance(event, yaml.AliasEvent))

LAUGHS = "".join(
    f"lol{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9) if n > 1 else ', '.join(['lol'] * 9)}]\n"
    for n in range(1, 10))


def _deep_flow(depth: int) -> str:
    return "deep: " + "[" * depth + "]" * depth + "\n"


def _deep_block(depth: int) -> str:
    return "deep:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, depth + 1))


def _deep_by_aliases(levels: int) -> str:
    """Each anchor nests the one before it four levels deeper: five deep as
    written (the file's mapping, four lists), ``5 + 4 * n`` on line ``n + 1``
    once its alias is written out."""
    out = ["d0: &d0 [[[[x]]]]\n"]
    out += [f"d{n}: &d{n} [[[[*d{n - 1}]]]]\n" for n in range(1, levels)]
    return "".join(out)


_ALIAS_DEEP = (LIMITS.max_depth - 5) // 4 + 1  # the first n with 5 + 4n too deep


# name: (text appended to the example's game.yaml, line it must name (offset from
# the example's last line), words in the message)
BOMBS: dict[str, tuple[str, int, str]] = {
    # 9^6 values at lol6: the line whose aliases pass the limit
    "aliases": (LAUGHS, 6, "aliases .* expand|values"),
    "loop": ("loop: &me [1, *me]\n", 1, "inside itself|loop"),
    "deep-flow": (_deep_flow(LIMITS.max_depth + 5), 1, "nested|deep"),
    "deep-block": (_deep_block(LIMITS.max_depth + 5), LIMITS.max_depth + 1, "nested|deep"),
    "deep-by-aliases": (_deep_by_aliases(_ALIAS_DEEP + 3), _ALIAS_DEEP + 1, "nested|deep"),
    # two values a line: the value past the limit is on line (max - VALUES) / 2 + 1
    "many-keys": ("".join(f"k{i}: {i}\n" for i in range(LIMITS.max_nodes)),
                  (LIMITS.max_nodes - VALUES) // 2 + 1, "values"),
    "huge-scalar": ("note: " + "x" * LIMITS.max_bytes + "\n", 1, "too big|bytes"),
    "too-big": ("# a comment\n" * (LIMITS.max_bytes // 12 + 10),
                (LIMITS.max_bytes - len(EXAMPLE.encode())) // 12 + 1, "too big|bytes"),
}


def _bomb(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(EXAMPLE + BOMBS[name][0], encoding="utf-8")
    return path


def _named(exc: GameFileError, path: Path, name: str) -> None:
    import re

    _text, offset, words = BOMBS[name]
    assert exc.file == path
    assert exc.line == HEAD + offset, (exc.line, HEAD + offset, str(exc))
    assert re.search(words, exc.message, re.I), exc.message
    assert f"line {HEAD + offset}" in str(exc) and len(str(exc)) < 400, str(exc)


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_bomb_is_refused_with_file_and_line(tmp_path: Path, name: str) -> None:
    path = _bomb(tmp_path, name)
    for read in (read_yaml, stored_yaml):
        with pytest.raises(GameFileError) as caught:
            read(path)
        _named(caught.value, path, name)


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_command_editing_game_yaml_refuses_the_bomb_too(tmp_path: Path, name: str) -> None:
    """ruamel.yaml's round trip (``SettingsFile``) never sees a bomb: the same
    bounds stop it first, with the same file and line; nothing is written."""
    path = _bomb(tmp_path, name)
    before = path.read_bytes()
    settings = SettingsFile(path, "example")
    with pytest.raises(GameFileError) as caught:
        settings.update(lambda data: data.__setitem__("status", "paused"))
    _named(caught.value, path, name)
    with pytest.raises(GameFileError) as caught:
        settings.set({"status": "paused"})
    _named(caught.value, path, name)
    assert path.read_bytes() == before


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_the_round_trip_loader_is_handed_no_bomb(tmp_path: Path, name: str) -> None:
    """``load_round_trip`` (what a command editing game.yaml and a restored
    backup's config read with) stops a bomb with our bounds first."""
    from ruamel.yaml import YAML

    path = _bomb(tmp_path, name)

    class Refusing(YAML):
        def load(self, stream: object) -> object:
            raise AssertionError("ruamel.yaml was handed the bomb")

    with pytest.raises(GameFileError) as caught:
        load_round_trip(Refusing(typ="rt"), read_text(path) if name != "too-big"
                        else path.read_text(encoding="utf-8"), path)
    _named(caught.value, path, name)


def test_the_round_trip_loader_keeps_the_comments(tmp_path: Path) -> None:
    from ruamel.yaml import YAML

    data = load_round_trip(YAML(typ="rt"), "# the class\nturns: 10  # FP2\n", "x.yaml")
    assert data["turns"] == 10 and "FP2" in str(data.ca.items["turns"])


def test_text_given_whole_is_bounded_as_a_file_is() -> None:
    with pytest.raises(GameFileError) as caught:
        load_text(EXAMPLE + LAUGHS, "game.yaml")
    assert caught.value.line == HEAD + 6


def test_files_within_the_bounds_read_as_before(tmp_path: Path) -> None:
    """Aliases that stay small, nesting to the limit, a big text: all read."""
    path = tmp_path / "ok.yaml"
    path.write_text(textwrap.dedent("""\
        base: &base {hex: J10, heading: N}
        a: *base
        b: [*base, *base]
        """) + _deep_flow(LIMITS.max_depth - 1) + "raw: " + "x" * 100_000 + "\n",
        encoding="utf-8")
    data = read_yaml(path).data
    assert data["a"] == data["b"][1] == {"hex": "J10", "heading": "N"}
    assert len(data["raw"]) == 100_000


_CHILD = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from pbmref.base.errors import GameFileError
from pbmref.base.yamlfile import stored_yaml
from pbmref.store.settings_file import SettingsFile
for name in sys.argv[1:]:
    path = Path(name)
    for read in (stored_yaml, lambda p: SettingsFile(p, "x").set({"status": "paused"})):
        try:
            read(path)
        except GameFileError as exc:
            assert exc.line, exc
        else:
            raise SystemExit(f"{name} was read")
print("refused")
"""


def test_every_bomb_is_refused_within_a_gigabyte_and_a_minute_of_cpu(tmp_path: Path) -> None:
    """Bounds of resources, not a stopwatch: a reader that built the bomb first
    would run out of its memory (or its CPU time) and fail here."""
    paths = []
    for name in sorted(BOMBS):
        folder = tmp_path / name
        folder.mkdir()
        paths.append(str(_bomb(folder, name)))

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (60, 60))

    done = subprocess.run([sys.executable, "-c", _CHILD, *paths], capture_output=True,
                          text=True, preexec_fn=limits, check=False)
    assert done.returncode == 0 and "refused" in done.stdout, done.stderr[-2000:]
