"""The install a host makes (issue 44, item 4): the wheel, built from a fresh
clone, installed into a fresh venv outside the checkout, runs the demo and
prints a rule from the data shipped inside it (grammars, rulebooks, the
Diplomacy map, the word list, the class example), and says its version.

The fresh venv gets the wheel alone (``--no-deps``, nothing downloaded); the
runtime dependencies are lent from this environment's site-packages by a
path file, whose own path files (the checkout's editable pbmref) Python does
not read, so the pbmref that runs is the wheel's."""

from __future__ import annotations

import email.parser
import os
import site
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest
from clonekit import CHECKOUT, build_wheel, fresh_clone

import pbmref

DEV_TOOLS = {"pytest", "hypothesis", "ruff", "mypy", "types-pyyaml", "aiosmtpd",
             "import-linter", "shapely", "vulture", "pip-tools", "radon", "build"}


def _name(requirement: str) -> str:
    for stop in "<>=!~[; ":
        requirement = requirement.split(stop)[0]
    return requirement.lower()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the fresh venv's bin folder) with the wheel installed."""
    root = tmp_path_factory.mktemp("install")
    wheel = build_wheel(fresh_clone(root / "clone"), root / "dist")
    env = root / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    bin_dir = env / "bin"
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True)
    lib = subprocess.run([bin_dir / "python", "-c", "import sysconfig; "
                          "print(sysconfig.get_paths()['purelib'])"],
                         check=True, capture_output=True, text=True).stdout.strip()
    Path(lib, "lent-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return wheel, bin_dir


def _run(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PBMREF"))}
    return subprocess.run([str(bin_dir / "pbmref"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_pbmref_that_runs_is_the_wheels(installed: tuple[Path, Path],
                                            tmp_path: Path) -> None:
    _, bin_dir = installed
    where = subprocess.run([bin_dir / "python", "-c", "import pbmref; print(pbmref.__file__)"],
                           cwd=tmp_path, check=True, capture_output=True, text=True).stdout
    assert Path(where.strip()).is_relative_to(bin_dir.parent), where
    assert not Path(where.strip()).is_relative_to(CHECKOUT), where


def test_version_is_one_number_everywhere(installed: tuple[Path, Path],
                                          tmp_path: Path) -> None:
    wheel, bin_dir = installed
    said = _run(bin_dir, tmp_path, "--version")
    assert said.returncode == 0, said.stderr
    assert said.stdout.strip() == f"pbmref {pbmref.__version__}"
    assert wheel.name.startswith(f"pbmref-{pbmref.__version__}-")
    changelog = (CHECKOUT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {pbmref.__version__}" in changelog, "the CHANGELOG has no entry for this version"


def test_rules_and_demo_run_from_the_installed_package(installed: tuple[Path, Path],
                                                      tmp_path: Path) -> None:
    _, bin_dir = installed
    rule = _run(bin_dir, tmp_path, "rules", "M3")
    assert rule.returncode == 0, rule.stderr
    assert rule.stdout.startswith("Rule M3 (tweedekker):"), rule.stdout[:200]
    example = _run(bin_dir, tmp_path, "new-class", "--example")
    assert example.returncode == 0 and "per_board" in example.stdout, example.stderr
    demo = _run(bin_dir, tmp_path, "demo", "--turns", "2", "--dir", str(tmp_path / "demo"))
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert "HTML archive:" in demo.stdout
    assert (tmp_path / "demo" / "games" / "demo" / "turns" / "002" / "result.yaml").is_file()
    diplomacy = _run(bin_dir, tmp_path, "demo", "--ruleset", "dirigible", "--turns", "1",
                     "--dir", str(tmp_path / "dip"))
    assert diplomacy.returncode == 0, diplomacy.stderr[-2000:]


def test_package_data_is_inside_the_wheel(installed: tuple[Path, Path]) -> None:
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("pbmref/grammar/tweedekker.lark", "pbmref/grammar/envelope.lark",
                   "pbmref/rulebook/books/diplomacy.md", "pbmref/data/words.txt",
                   "pbmref/data/diplomacy/variants/standard/board.json",
                   "pbmref/data/diplomacy/variants/viking_age/map.json",
                   "pbmref/rulesets/fastplay/class.example.yaml",
                   "pbmref/data/pbmref.service"):
        assert needed in names, f"{needed} is not in {wheel.name}"


def test_development_tools_stay_out_of_the_runtime_dependencies(
        installed: tuple[Path, Path]) -> None:
    wheel, _ = installed
    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())["project"]
    runtime = {_name(r) for r in project["dependencies"]}
    assert not runtime & DEV_TOOLS, runtime & DEV_TOOLS
    with zipfile.ZipFile(wheel) as z:
        meta_name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(z.read(meta_name).decode())
    required = {_name(r) for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r}
    assert required == runtime
    assert sys.version_info >= (3, 11)
