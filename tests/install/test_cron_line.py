"""The README's cron lines work as written (issue 44, item 5): the crontab of
"Run as a service" is run as cron runs it, each job's command with ``sh -c``
in the user's home, here an empty folder, with the crontab's own variables;
only the install folder its PATH names stands for this environment's. The
line of 0.1.0 failed there before pbmref ran (its log/ folder did not exist)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from clonekit import CHECKOUT

INSTALLED = "/opt/pbmref/bin"  # where the README installs pbmref


def _crontab() -> tuple[dict[str, str], list[str]]:
    """The variables and the jobs' commands of the README's crontab."""
    readme = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Run as a service", 1)[1].split("\n## ", 1)[0]
    block = section.split("```cron\n", 1)[1].split("```", 1)[0]
    variables, commands = {}, []
    for line in block.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name = re.match(r"^([A-Z_]+)=(.*)$", line)
        if name:
            variables[name.group(1)] = name.group(2)
        else:
            fields = line.split(None, 5)
            assert len(fields) == 6, f"not a cron job: {line}"
            commands.append(fields[5])
    return variables, commands


def test_the_crontab_runs_pbmref_in_an_empty_home(tmp_path: Path) -> None:
    variables, commands = _crontab()
    assert variables["PATH"].startswith(f"{INSTALLED}:"), variables
    assert commands and all("pbmref" in c for c in commands)
    env = {"HOME": str(tmp_path), "SHELL": "/bin/sh", "LOGNAME": "pbmref", **variables}
    env["PATH"] = variables["PATH"].replace(INSTALLED, str(Path(sys.executable).parent))
    for _run in range(2):  # the second run finds what the first one made
        for command in commands:
            done = subprocess.run(["/bin/sh", "-c", command], cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, (command, done.stdout, done.stderr)
            assert done.stdout == done.stderr == "", "cron would mail this"
    log = (tmp_path / "log" / "adjudicate.log").read_text()
    assert log.count("no game was due") == 2, log
    assert (tmp_path / "mail" / "spool" / "in" / "format.yaml").is_file()
    assert os.listdir(tmp_path / "log") == ["adjudicate.log"]
