"""The documents a user reads need nothing outside the checkout (issue 21):
every relative link resolves inside it, and none points at ``../shared/``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "games" / "README.md", ROOT / "tests" / "scenarios" /
        "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_links_stay_in_the_checkout(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert not re.search(r"(\.\./|\b)shared/(rules|spec|data)", text), \
        f"{doc.name} points outside the checkout"
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # https:, file:, mailto:
            continue
        path = (doc.parent / target).resolve()
        assert path.exists(), f"{doc.name}: {target} does not exist"
        assert path.is_relative_to(ROOT.resolve()), f"{doc.name}: {target} leaves the checkout"
