"""A finished game told again over the API: each player's clock time per turn, the CP
after each turn and what decided it, read from the table's log (fake clock)."""

from __future__ import annotations

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, create_table, token_of

MIN = 60_000


async def test_the_story_is_told_once_the_game_is_over(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links = await create_table(server.base, clock_minutes=60, scenario="bunkers")
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    watch = {"X-Table-Token": token_of(links["watch"])}
    url = f"/api/tables/{links['id']}/story"
    assert (await p1.command("start"))["t"] == "ack"
    for seat, minutes in (("p1", 2), ("p2", 3), ("p1", 1), ("p2", 1), ("p1", 4)):
        fake_time.advance(minutes * MIN)
        player = p1 if seat == "p1" else p2
        assert (await player.command("pass_turn", expect=seat))["t"] == "ack"
    async with httpx.AsyncClient(base_url=server.base) as http:
        assert (await http.get(url, headers=watch)).json() is None  # not over yet
        assert (await http.get(url)).status_code == 403
        fake_time.advance(MIN)
        assert (await p1.command("concede"))["t"] == "ack"
        story = (await http.get(url, headers=watch)).json()
    assert [t["turn"] for t in story["turns"]] == [0, 1]
    assert story["turns"][0]["clock_ms"] == [3 * MIN, 4 * MIN]
    assert story["turns"][1]["clock_ms"] == [4 * MIN, MIN]
    assert story["decided"]["method"] == "concession"
    assert (story["decided"]["winner"], story["decided"]["turn"]) == ("p2", 1)  # P1 conceded
    assert len(story["names"]) == 2 and "P1" not in story["names"]
