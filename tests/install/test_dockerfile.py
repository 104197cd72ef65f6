"""The container image (issue 44, item 5). No Docker engine runs on the test
machines, so this runs the Dockerfile's own pbmref steps here, each command as
written, under a folder standing for the image's root: the wheel built from a
fresh clone, a venv with the runtime lock (hashes checked; the package index
must be reachable, as for scripts/setup) and the wheel, then the image's
entry point runs the demo, a rule, and its command one round on a config in
the volume. The system steps (apt-get, useradd) are checked as text only:
run here they would change this machine."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from clonekit import CHECKOUT, fresh_clone

DOCKERFILE = CHECKOUT / "Dockerfile"
# the image's folders its steps name, each put under the stand-in root
PLACES = re.compile(r"(?<![\w.$/-])/(src|wheels|tmp|opt|data)\b")
SYSTEM_STEPS = ("apt-get ", "useradd ")


def _instructions() -> list[tuple[str, str]]:
    """(instruction, argument) of each line of the Dockerfile, continuations joined."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    found = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def test_the_image_runs_as_its_own_user_with_the_data_in_a_volume() -> None:
    steps = _instructions()
    said = {word: rest for word, rest in steps}  # the last of each
    assert said["USER"] == "pbmref" and said["VOLUME"] == "/data"
    assert said["WORKDIR"] == "/data"
    assert json.loads(said["ENTRYPOINT"]) == ["pbmref"]
    assert json.loads(said["CMD"]) == ["serve", "--config", "/data/config.yaml"]
    runs = " ".join(rest for word, rest in steps if word == "RUN")
    assert "--require-hashes -r /tmp/requirements-runtime.lock" in runs
    assert "useradd --system" in runs and "fonts-dejavu-core" in runs
    ignored = (CHECKOUT / ".dockerignore").read_text().split()
    for left_out in (".venv", "mail", "games", "config.yaml", ".git"):
        assert left_out in ignored


def test_the_dockerfiles_pbmref_steps_build_an_image_that_runs(tmp_path: Path) -> None:
    context = fresh_clone(tmp_path / "context")
    root = tmp_path / "image"
    (root / "tmp").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBMREF", "VIRTUAL_ENV"))}
    env["PATH"] = ":".join(p for p in env["PATH"].split(":") if ".venv" not in p)
    cwd = root

    def here(text: str) -> str:
        return PLACES.sub(lambda m: f"{root}/{m.group(1)}", text)

    for word, rest in _instructions():
        if word == "COPY":
            *sources, target = shlex.split(rest)
            base = context
            if sources[0].startswith("--from="):
                base, sources = root, sources[1:]
            for source in sources:
                src = base / source.lstrip("/") if source != "." else base
                dest = Path(here(target))
                if src.is_dir():
                    shutil.copytree(src, dest, symlinks=True, dirs_exist_ok=True)
                else:
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, dest)
        elif word == "RUN" and not rest.startswith(SYSTEM_STEPS):
            done = subprocess.run(["sh", "-c", here(rest)], cwd=cwd, env=env,
                                  capture_output=True, text=True, timeout=900)
            assert done.returncode == 0, f"RUN {rest}\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
        elif word == "ENV":
            for pair in shlex.split(rest):
                key, _, value = pair.partition("=")
                env[key] = here(value.replace("$PATH", env["PATH"]))
        elif word == "WORKDIR":
            cwd = Path(here(rest))
            cwd.mkdir(parents=True, exist_ok=True)
    assert not (root / "opt" / "pbmref" / "bin" / "pytest").exists(), "a development tool"

    def image(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["pbmref", *args], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=600)

    where = subprocess.run(["python", "-c", "import pbmref; print(pbmref.__file__)"],
                           cwd=cwd, env=env, capture_output=True, text=True)
    assert where.stdout.startswith(f"{root}/opt/pbmref/"), where
    demo = image("demo", "--turns", "2", "--dir", str(root / "tmp" / "demo"))
    assert demo.returncode == 0 and "HTML archive:" in demo.stdout, demo.stderr[-2000:]
    rule = image("rules", "M3")
    assert rule.returncode == 0 and rule.stdout.startswith("Rule M3"), rule.stderr
    # the image's command, one round, on a config in the volume
    (cwd / "config.yaml").write_text("referee:\n  address: referee@example.org\n")
    command = [here(a) for a in json.loads(dict(_instructions())["CMD"])]
    served = image(*command, "--once")
    assert served.returncode == 0, served.stderr
    assert f"starts: config {cwd}/config.yaml" in served.stderr
    assert (cwd / "mail" / "spool" / "in" / "format.yaml").is_file()
