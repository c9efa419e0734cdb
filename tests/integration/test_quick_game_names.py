"""A quick game calls its players by name, never by a seat's number (TS1).

Left blank, the names are the players' order of play, which a game without a pre-game
settles at creation: the first name takes the first turn (TS1). Where the table settles the
order itself (a pre-game's starting roll, a Runewars table), a blank name would have to
be a seat's number, so the form and the API ask for both names, say why, and create
nothing."""

from __future__ import annotations

import re

import httpx

from tests.conftest import RunningServer


def _seat_cards(page: str) -> dict[str, str]:
    cards = re.findall(
        r'<article class="card seat-card" id="seat-(p[12])">(.*?)</article>', page, re.S
    )
    return {seat: " ".join(re.sub(r"<[^>]+>", " ", body).split()) for seat, body in cards}


def _rooms(server: RunningServer) -> int:
    return len(server.server.config.app.state.hub.rooms)  # type: ignore[attr-defined]


async def test_blank_names_are_the_order_of_play_without_a_pre_game__TS1(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base, follow_redirects=True) as http:
        made = await http.post("/quick", data={"format": "sr2019", "p1_name": " ", "p2_name": ""})
        assert made.status_code == 200, made.text
        cards = _seat_cards(made.text)
        assert cards["p1"].startswith("First player") and cards["p2"].startswith("Second player")
        assert "Player 1" not in made.text and "Player 2" not in made.text
        links = (await http.post("/api/tables", json={"clock_minutes": 30})).json()
    assert (links["p1"]["name"], links["p1"]["first"]) == ("First player", True)
    assert (links["p2"]["name"], links["p2"]["first"]) == ("Second player", False)


async def test_a_pre_game_asks_for_both_names_and_keeps_the_form__TS1(
    server: RunningServer,
) -> None:
    rooms = _rooms(server)
    form = {"format": "sr2019", "p1_name": "Ann", "p2_name": "  ", "pregame": "on"}
    async with httpx.AsyncClient(base_url=server.base) as http:
        refused = await http.post("/quick", data=form)
        body = {"format": "sr2019", "p2_name": "Bob", "pregame": True}
        api = await http.post("/api/tables", json=body)
    assert refused.status_code == 400
    page = " ".join(refused.text.split())
    assert "write both players&#39; names: the starting roll decides who goes first" in page
    # The form comes back as sent, its words those of a table that settles the order.
    assert 'id="p1_name"' in page and 'value="Ann"' in page
    assert re.search(r'id="pregame"[^>]*checked', page)
    assert re.search(r'<span id="p1-name-label"[^>]*>Player</span>', page)
    assert re.search(r'<span id="p2-name-label"[^>]*>Opponent</span>', page)
    assert re.search(r'id="p2_name"[^>]*required', page)
    assert api.status_code == 400
    assert "write both players' names: the starting roll decides who goes first" in api.text
    assert _rooms(server) == rooms  # nothing was created


async def test_a_runewars_table_asks_for_both_names__TS11(server: RunningServer) -> None:
    rooms = _rooms(server)
    async with httpx.AsyncClient(base_url=server.base) as http:
        api = await http.post("/api/tables", json={"format": "runewars2017", "p1_name": "Ann"})
        form = await http.post("/quick", data={"format": "runewars2017", "p2_name": "Bob"})
        named = await http.post(
            "/api/tables", json={"format": "runewars2017", "p1_name": "Ann", "p2_name": "Bob"}
        )
    assert api.status_code == 400 and form.status_code == 400
    assert "a Runewars table settles who goes first itself" in api.text
    assert "a Runewars table settles who goes first itself" in form.text
    assert _rooms(server) == rooms + 1
    assert named.status_code == 201
    assert (named.json()["p1"]["name"], named.json()["p2"]["name"]) == ("Ann", "Bob")
