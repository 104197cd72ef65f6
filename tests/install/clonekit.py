"""A fresh clone of this checkout, made without git's network side: the files
git tracks (and new ones it would, not ignored), copied with their symbolic
links into a folder of the test's, so that a test can build, install or run
from it without writing into the checkout itself."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def tracked(root: Path = CHECKOUT) -> list[str]:
    """The paths a clone of ``root`` has: tracked, and new files not ignored."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                          "--exclude-standard"], cwd=root, check=True,
                         capture_output=True).stdout
    return sorted({p for p in out.decode().split("\0") if p and os.path.lexists(root / p)})


def fresh_clone(dest: Path) -> Path:
    """The checkout's files copied into ``dest`` (links kept as links)."""
    for rel in tracked():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(CHECKOUT / rel, target, follow_symlinks=False)
    return dest


def fingerprint(root: Path, paths: list[str]) -> dict[str, str]:
    """Each of ``paths`` under ``root``: the hash of its content (of its target for
    a link), or "missing"."""
    found = {}
    for rel in paths:
        path = root / rel
        if path.is_symlink():
            found[rel] = "link:" + os.readlink(path)
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            found[rel] = "missing"
    return found


def build_wheel(source: Path, out: Path) -> Path:
    """The wheel of the project in ``source`` (a fresh clone), built into ``out``
    with the build tools of this environment (no download)."""
    subprocess.run([PYTHON, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out),
                    str(source)], check=True, capture_output=True, cwd=source)
    wheels = list(out.glob("pbmref-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]
