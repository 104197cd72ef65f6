"""The HTML archive of a three-turn game in a real browser (headless Chromium).

Each turn page is opened from disk, a screenshot is taken and checked to be a
real picture (decoded here with zlib: many different colours, not one flat
colour), and the prev/next links of the rendered DOM are followed to files
that exist and show the neighbouring turn.
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import tempfile
import zlib
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbmref.cli import main
from reports.archive_game import make_game

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="headless Chromium (/usr/bin/chromium, Debian package "
                              "'chromium') is not installed"),
]


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
             *args],
            capture_output=True, text=True, timeout=120, check=False)


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA PNG: (width, height, one bytes object per pixel)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6), f"unexpected PNG type {depth}/{colour}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytearray] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append(line)
        prev = line
    pixels = [bytes(row[x * channels:x * channels + 3])
              for row in rows[::4] for x in range(0, width, 4)]  # every 4th pixel
    return width, height, pixels


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("archive")
    make_game(root / "games")
    assert main(["render", "arch3", "--games", str(root / "games"),
                 "--out", str(root / "archive")]) == 0
    return root / "archive" / "arch3"


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_turn_page_screenshot_is_a_real_picture(archive: Path, turn: int) -> None:
    page = archive / f"turn-{turn:03d}.html"
    shot = archive.parent / f"shot-{turn}.png"
    run = chromium(f"--screenshot={shot}", "--window-size=1000,1400", page.as_uri())
    assert shot.exists(), f"no screenshot: {run.stderr[-2000:]}"
    width, height, pixels = png_pixels(shot.read_bytes())
    assert (width, height) == (1000, 1400)
    colours = Counter(pixels)
    assert len(colours) > 50, f"only {len(colours)} colours: a blank page?"
    assert colours.most_common(1)[0][1] < 0.8 * len(pixels), "one colour covers the page"


def test_links_between_turns_resolve(archive: Path) -> None:
    seen: dict[int, dict[str, str]] = {}
    for turn in (1, 2, 3):
        page = archive / f"turn-{turn:03d}.html"
        run = chromium("--dump-dom", page.as_uri())
        dom = run.stdout
        assert f"turn {turn}</h1>" in dom, run.stderr[-2000:]
        assert "<svg" in dom and "<pre>" in dom
        links = dict(re.findall(r'<a rel="(prev|next)" id="\w+" href="([^"]+)"', dom))
        seen[turn] = links
        for rel, href in links.items():
            target = (page.parent / href).resolve()
            assert target.exists(), f"turn {turn} {rel} link {href} goes nowhere"
            expect = turn - 1 if rel == "prev" else turn + 1
            assert f"turn {expect}</h1>" in target.read_text(encoding="utf-8")
    assert set(seen[1]) == {"next"}
    assert set(seen[2]) == {"prev", "next"}
    assert set(seen[3]) == {"prev"}
    index = chromium("--dump-dom", (archive / "index.html").as_uri()).stdout
    for turn in (1, 2, 3):
        assert f'href="turn-{turn:03d}.html"' in index
