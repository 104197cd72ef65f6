"""scripts/ on a shared machine (issue 44, item 8): the package manager's lock
held by another program is waited for, within a bound and with a plain
message; no script stops programs by name (other users' Dovecots included)."""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APT_WAIT = ROOT / "scripts" / "apt-wait"
LOCK = Path("/var/lib/dpkg/lock-frontend")
# a real apt-get that needs the lock and changes nothing (bash is essential)
NO_OP = ["apt-get", "install", "-y", "-qq", "--no-upgrade", "bash"]


@pytest.fixture
def held_lock() -> Iterator[int]:
    """The dpkg front-end lock, held as another apt would hold it."""
    if os.geteuid() != 0 or not LOCK.parent.is_dir():
        pytest.skip("needs root on a Debian machine (the dpkg lock)")
    fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o640)
    fcntl.lockf(fd, fcntl.LOCK_EX)
    try:
        yield fd
    finally:
        os.close(fd)


def run_waiting(seconds: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PBMREF_APT_WAIT": seconds, "PBMREF_APT_POLL": "0.2",
           "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.Popen([str(APT_WAIT), *NO_OP], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)


def test_a_busy_package_manager_is_waited_for_then_used(held_lock: int) -> None:
    proc = run_waiting("300")
    assert proc.stderr is not None
    told = proc.stderr.readline()  # the plain message, once: then let go of the lock
    assert told.startswith("apt-wait: another program is using the package manager "
                           f"(held by process {os.getpid()}")
    assert "waiting for it, up to 300 s" in told
    fcntl.lockf(held_lock, fcntl.LOCK_UN)
    assert proc.wait(timeout=120) == 0, proc.stderr.read()
    assert proc.stderr.read() == ""


def test_the_wait_is_bounded_and_says_so(held_lock: int) -> None:
    proc = run_waiting("1")
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 100
    assert "apt-wait: the package manager is still busy after 1 s (held by process" in err
    assert "try again later (PBMREF_APT_WAIT sets how long to wait)" in err


def test_other_failures_are_not_waited_on() -> None:
    proc = subprocess.run([str(APT_WAIT), "sh", "-c", "echo 'E: broken' >&2; exit 7"],
                          capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stderr) == (7, "E: broken\n")


def test_no_script_stops_programs_by_name() -> None:
    """pkill -x dovecot stopped every Dovecot on the machine, other users' too."""
    for script in (ROOT / "scripts").iterdir():
        if script.is_file():
            text = script.read_text(errors="replace")
            assert not re.search(r"\b(pkill|killall)\b", text), script
