"""A Runewars table over real WebSockets: created with format=runewars2017, played by
two phones to a Final Flurry (DC11, TS11, ST5)."""

from __future__ import annotations

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, create_table, token_of

MIN = 60_000


async def test_two_phones_play_a_runewars_game_to_a_final_flurry__TS11_DC11(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links = await create_table(
        server.base,
        format="runewars2017",
        p1_name="Ann",
        p2_name="Bob",
        p1_army=200,
        p2_army=188,
    )
    assert links["format"] == "runewars2017" and links["format_name"] == "Runewars 2017"
    assert links["player_clock_ms"] == 90 * MIN
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    assert p1.game["game"] == "runewars" and p1.game["chooser"] == "p2"

    refused = await p1.command("choose_first", first="p1")
    assert refused["t"] == "error" and "other player's" in refused["message"]
    assert (await p2.command("choose_first", first="p1"))["t"] == "ack"
    assert (await p2.command("choose_area", area="red"))["t"] == "ack"
    assert (await p1.command("start_round"))["t"] == "ack"
    assert p1.game["phase"] == "playing" and p1.game["areas"] == ["blue", "red"]
    # A Warmachine command is no command at a Runewars table.
    wm = await p1.command("pass_turn", expect="p1")
    assert wm["t"] == "error" and wm["code"] == "unsupported"
    assert "no turns to pass" in wm["message"]

    for n in range(1, 9):
        fake_time.advance(5 * MIN)
        assert (await p1.command("end_game_round", expect=n))["t"] == "ack"
    assert p1.game["phase"] == "scoring" and p1.game["ended_by"] == "eight_rounds"
    assert (await p1.command("enter_score", destroyed=150, objectives=0))["t"] == "ack"
    assert (await p2.command("enter_score", destroyed=130, objectives=20))["t"] == "ack"
    assert p2.game["phase"] == "final_flurry"
    # Each phone enters its own player's hits; one phone cannot enter both.
    both = await p2.command("final_flurry", hits=[2, 4])
    assert both["t"] == "error" and "their own Final Flurry hits" in both["message"]
    assert (await p2.command("flurry_hits", hits=4))["t"] == "ack"
    assert (await p1.command("flurry_hits", hits=2))["t"] == "ack"
    await p2.wait_version(p1.version)
    result = p2.game["result"]
    assert result["winner"] == "p2" and result["tp"] == [5, 6] and result["mov"] == [0, 0]
    assert result["final_flurry"] == [2, 4] and p2.game["settled"] is False
    assert (await p1.command("confirm"))["t"] == "ack"
    assert (await p2.command("confirm"))["t"] == "ack"
    assert p2.game["settled"] is True


async def test_unknown_format_is_refused_in_the_players_words(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        response = await http.post("/api/tables", json={"format": "runewars2016"})
    assert response.status_code in (400, 422)
    assert "runewars2017" in response.text
