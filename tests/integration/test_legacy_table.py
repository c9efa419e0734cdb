"""A quick game on a legacy scenario (TS10) over real sockets: offered by the REST API,
shown on both phones with its own victory condition and round notes, played to a win."""

from __future__ import annotations

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, create_table, token_of

MIN = 60_000


async def test_formats_offer_the_legacy_pack__TS10(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        formats = (await http.get("/api/formats")).json()
        home = (await http.get("/")).text
    legacy = next(f for f in formats if f["id"] == "legacy")
    assert legacy["name"] == "Legacy scenario pack"
    assert len(legacy["scenarios"]) == 16
    assert {"id": "transverse-assault", "name": "Transverse Assault", "roll": 14} in (
        legacy["scenarios"]
    )
    assert 'value="legacy"' in home and 'value="workin-in-a-coal-mine"' in home


async def test_quick_legacy_game_plays_to_its_condition__TS10_transverse_assault(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links = await create_table(
        server.base, format="legacy", scenario="transverse-assault", clock_minutes=45
    )
    assert (links["format"], links["scenario"]) == ("legacy", "Transverse Assault")
    assert links["player_clock_ms"] == 45 * MIN
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    table = p2.received[0]["table"]
    assert table["victory"] == "scenario"
    assert table["scenario"]["victory_words"].startswith(
        "From round 3, the first player wins by holding"
    )
    assert table["scenario"]["kill_box"] is False and table["last_turn"] is None
    assert table["scoring_from"] == {"turn": 3, "side": "p1"}
    assert [e["id"] for e in table["scenario"]["elements"]] == [
        "point-north",
        "point-east",
        "point-south",
        "point-west",
        "point-centre",
    ]

    await p1.command("start")
    for side, client in [("p1", p1), ("p2", p2)] * 4:  # deployment, advance, turns 1 and 2
        fake_time.advance(MIN)
        assert (await client.command("pass_turn", expect=side))["t"] == "ack"
    await p1.wait_version(p2.version)
    assert p1.game["turn"] == 3 and p1.game["scoring_due"] and not p1.game["kill_box_due"]
    refused = await p1.command(
        "pass_turn", expect="p1", scoring={"control": {}, "destroyed": ["objective-p2"]}
    )
    assert refused["t"] == "error" and "no objectives" in refused["message"]
    holds = {"point-north": "p1", "point-centre": "p1", "point-south": "p1"}
    await p1.command("pass_turn", expect="p1", scoring={"control": holds, "destroyed": []})
    await p2.wait_version(p1.version)
    for client in (p1, p2):
        assert client.game["phase"] == "over"
        assert client.game["ending"]["method"] == "scenario"
        assert client.game["ending"]["winner"] == "p1"
        assert client.game["control_points"] == [0, 0]


async def test_daybreak_shows_the_rounds_line_of_sight_on_both_phones__TS10_daybreak(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links = await create_table(server.base, format="legacy", scenario="daybreak", points=50)
    assert links["player_clock_ms"] == 42 * MIN  # the DC1 clock the pack is offered with
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    assert p1.received[0]["table"]["scoring_from"] is None  # assassination only
    assert p1.game["round_notes"] == ['Round 1: 6" LOS']
    await p1.command("start")
    seen = []
    for side, client in [("p1", p1), ("p2", p2)] * 5:
        fake_time.advance(MIN)
        await client.command("pass_turn", expect=side)
        await p1.wait_version(client.version)
        await p2.wait_version(client.version)
        assert p1.game["round_notes"] == p2.game["round_notes"]
        seen.append(p1.game["round_notes"][0])
    assert seen[-5:] == [
        'Round 2: 8" LOS',
        'Round 2: 8" LOS',
        'Round 3: 10" LOS',
        'Round 3: 10" LOS',
        'Round 4: 12" LOS',
    ]
    assert (await p2.command("caster_destroyed"))["t"] == "ack"
    assert p2.game["ending"] == {
        "method": "assassination",
        "winner": "p1",
        "at_ms": p2.game["ending"]["at_ms"],
        "words": p2.game["ending"]["words"],
    }
    assert p2.game["ending"]["words"].endswith(" wins by assassination")
    assert p2.game["final_scoring_due"] is False
