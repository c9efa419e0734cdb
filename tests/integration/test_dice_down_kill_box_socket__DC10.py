"""DC10 with TS3 over the table's socket: at dice down both phones are asked the kill box
of the turn it ended, only its player's answer is taken, and the table log keeps it."""

from __future__ import annotations

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, create_table, token_of

MIN = 60_000


async def test_dice_down_asks_the_kill_box_of_its_turns_player__DC10_TS3(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links = await create_table(
        server.base,
        format="sr2019",
        points=75,
        scenario="king-of-the-hill",
        p1_name="Ann",
        p2_name="Bob",
        variants=["classic_turn_timing"],
    )
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    eo = await phone(links["id"], token_of(links["eo"]), "eo-laptop")
    assert (await p1.command("start"))["t"] == "ack"
    # Deployment, advance deployment, then Ann's and Bob's turn 1: Ann's turn 2 is on.
    for client, seat in ((p1, "p1"), (p2, "p2")) * 3:
        fake_time.advance(MIN)
        assert (await client.command("pass_turn", expect=seat))["t"] == "ack"
    fake_time.advance(MIN)
    assert (await eo.command("dice_down"))["t"] == "ack"
    await p2.wait_version(eo.version)
    asked = {"kind": "final_scoring", "by": "p1", "kill_box": True, "scoring": False}
    assert asked in p2.game["due"] and p2.game["final_kill_box"] == "p1"
    assert "the kill box of Ann's turn 2" in p2.game["ending"]["words"]

    refused = await p2.command("final_scoring", kill_box=True)
    assert refused["t"] == "error" and "only Ann answers" in refused["message"]
    refused = await p1.command("final_scoring", scoring={"control": {}, "destroyed": []})
    assert refused["t"] == "error" and "kill box" in refused["message"]

    assert (await p1.command("final_scoring", kill_box=True))["t"] == "ack"
    await p2.wait_version(p1.version)
    game = p2.game
    assert game["control_points"] == [0, 2] and game["final_kill_box"] is None
    assert game["ending"]["winner"] == "p2" and game["ending"]["method"] == "scenario"
    assert not [d for d in game["due"] if d["kind"] == "final_scoring"]

    async with httpx.AsyncClient(base_url=server.base) as http:
        log = await http.get(
            f"/api/tables/{links['id']}/log",
            headers={"X-Table-Token": token_of(links["eo"])},
        )
    last = [e for e in log.json()["entries"] if e["c"] == "final_scoring"]
    assert [(e["by"], e["kill_box"], e["scoring"]) for e in last] == [("p1", True, None)]
