"""The store decodes each orders file's entry once, when it checks it against
the turn's position (``OrdersFile.orders``, issue 41 item 1): what it hands on
encodes back to the file's entry, and a deadline plays those typed orders
without decoding any entry again."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
import yaml

from pbmref import gm
from pbmref.store import GameStore


def test_the_example_games_files_round_trip(example_store: GameStore) -> None:
    """The entries of the example game's orders files, decoded by the store when
    it reads them (``OrdersFile.orders``), encode to the entries of the files."""
    game = example_store.open("example")
    found = game.book.in_force()
    assert found, "the example game has orders in force"
    for player, f in found.items():
        assert f.orders is not None, player
        assert game.ruleset.encode_orders(f.orders) == f.entry
        on_disk = yaml.safe_load(f.path.read_text(encoding="utf-8"))["entry"]
        assert game.ruleset.encode_orders(f.orders) == on_disk


def test_a_deadline_decodes_each_entry_in_force_once(example_store: GameStore,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The book's check decodes each entry in force; the adjudication plays
    those typed orders and decodes none again."""
    game = example_store.open("example")
    rules = game.ruleset
    decoded: list[str] = []
    decode = type(rules).decode_orders

    def counting(self: Any, state: Any, player: str, entry: Any) -> Any:
        decoded.append(player)
        return decode(self, state, player, entry)

    monkeypatch.setattr(type(rules), "decode_orders", counting)
    in_force = game.book.in_force()
    record = gm.adjudicate(example_store, "example", datetime.now().astimezone(), force=True,
                           game=game)
    assert record is not None
    assert sorted(decoded) == sorted(in_force)
