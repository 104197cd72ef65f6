"""The two locks (issue 44, item 4): requirements.lock pins the runtime and the
development dependencies for the clone and CI; requirements-runtime.lock,
for a host's install and the container image, pins the runtime ones alone,
at the same versions, with their hashes: no development tool runs the
referee."""

from __future__ import annotations

import re
import tomllib

from clonekit import CHECKOUT

PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", re.MULTILINE)


def _pins(name: str) -> dict[str, str]:
    return {k.lower(): v for k, v in PIN.findall((CHECKOUT / name).read_text())}


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_runtime_lock_holds_the_runtime_dependencies_at_the_full_locks_versions() -> None:
    full, runtime = _pins("requirements.lock"), _pins("requirements-runtime.lock")
    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())["project"]
    dev = {_name(r) for r in project["optional-dependencies"]["dev"]}
    wanted = {_name(r).replace(".", "-") for r in project["dependencies"]}
    assert wanted <= set(runtime), wanted - set(runtime)
    assert not set(runtime) & dev, set(runtime) & dev
    assert {k: full.get(k) for k in runtime} == runtime
    lines = (CHECKOUT / "requirements-runtime.lock").read_text().splitlines()
    for i, line in enumerate(lines):  # every pin with the hashes of its files
        if PIN.match(line + "\n"):
            assert lines[i + 1].strip().startswith("--hash=sha256:"), line
