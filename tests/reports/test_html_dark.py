"""The report mail in dark mode (issue 43, item 6): styles a phone's mail app
honours, and the map on a light card of its own."""

from __future__ import annotations

import re

from pbmref.reports.document import Document, Para, Section
from pbmref.reports.html import MailPicture, render_report_mail


def _mail() -> str:
    doc = Document([Section("FOR ANNA (A)", [Para("Your aircraft (A) is at J10.")], "personal")])
    pictures = [MailPicture("map.png@pbmref", 666, 1070, "the board"),
                *(MailPicture(f"m{i}.png@pbmref", 260, 321, f"move {i}", small=True)
                  for i in (1, 2, 3))]
    return render_report_mail(doc, title="zep1: turn 1", pictures=pictures)


def test_the_head_carries_dark_styles_and_says_both_schemes_are_supported() -> None:
    html = _mail()
    head = html[:html.index("</head>")]
    assert '<meta name="color-scheme" content="light dark">' in head
    dark = head[head.index("@media (prefers-color-scheme: dark)"):]
    for selector in (".pbmref-page", ".part-personal", "pre", ".pbmref-card"):
        assert selector in dark, selector
    # the card stays light in dark mode: the map is drawn for a light page
    card = re.search(r"\.pbmref-card \{ background: #([0-9a-f]{6})", dark)
    assert card is not None and int(card.group(1)[:2], 16) > 0xd0


def test_every_picture_sits_on_a_light_card() -> None:
    html = _mail()
    cards = re.findall(r'<(?:div|table) class="pbmref-card"(.*?)</(?:div|table)>', html, re.S)
    shown = [c for card in cards for c in re.findall(r'src="cid:([^"]+)"', card)]
    assert sorted(shown) == sorted(re.findall(r'src="cid:([^"]+)"', html)) and len(shown) == 4
