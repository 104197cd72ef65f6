"""Press and votes in an air game (issue 18): off unless the game master allows
it, then to pilots by name; no draws in a game kind without sides; WAIT
works in every game kind."""

from __future__ import annotations

from tablekit import Table, body_of


def mail(table: Table, player: str, *lines: str) -> str:
    return "\n".join([f"GAME zep1\nPASSWORD {table.passwords[player]}", *lines, "END"])


def test_an_air_game_relays_no_press_by_default(table: Table) -> None:
    assert table.game().press_level == "none"
    out = table.send(mail(table, "anna", "PRESS TO bert", "Over the lines at dawn?"))
    assert [m["To"] for m in out] == ["anna@example.org"]
    text = " ".join(body_of(out[0]).split())
    assert "NOT accepted" in text and "relays no press between players" in text.lower()
    assert "Your press message was not sent" in text


def test_press_to_pilots_by_name_when_the_game_master_allows_it(table: Table) -> None:
    table.game().change_settings({"press": "white"})
    out = table.send(mail(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L",
                          "PRESS TO Bert", "Over the lines at dawn?"))
    press = [m for m in out if m["To"] == "bert@example.org"]
    assert [m["Subject"] for m in press] == ["[zep1] Press from Anna to Bert"]
    assert "Over the lines at dawn?" in body_of(press[0])
    assert "To answer, mail the referee: PRESS TO ANNA" in body_of(press[0])
    reply = body_of(next(m for m in out if m["To"] == "anna@example.org"))
    assert "your orders are accepted" in reply and "Your path if nothing else happens" in reply
    assert "Your press was sent to Bert. Your copy:" in reply
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]
    # an unknown pilot is answered with the names press may use
    out = table.send(mail(table, "anna", "PRESS TO baron", "Hello?"))
    text = " ".join(body_of(out[0]).split())
    assert "Nobody called BARON can get press in this game" in text
    assert "Expected: Bert (BERT), Cora (CORA)" in text


def test_no_draws_in_an_air_game_but_wait_works(table: Table) -> None:
    text = " ".join(body_of(table.send(mail(table, "anna", "DRAW"))[0]).split())
    assert "NOT accepted" in text and "Tweedekker has no draws or concessions" in text
    text = " ".join(body_of(table.send(mail(table, "anna", "WAIT"))[0]).split())
    assert "WAIT: turn 1 will not be played before its deadline" in text
    assert table.game().schedule.waits == ("anna",)
