"""Undo by agreement over real sockets, fake clock: the request reaches the opponent's
phone, its showing starts the opponent's window, and both phones hear what became of it."""

from __future__ import annotations

from typing import Any

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, create_table, start_server, token_of

MIN = 60_000


async def _tapped(server: RunningServer, phone: PhoneFactory, time: FakeTime) -> Any:
    """Ann (P1) started the clock and tapped 15 s later: Bob (P2) deploys."""
    links = await create_table(
        server.base, clock_minutes=60, scenario="bunkers", p1_name="Ann", p2_name="Bob"
    )
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "ann-phone")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "bob-phone")
    await p1.command("start")
    time.advance(15_000)
    await p1.command("pass_turn", expect="p1")
    return links, p1, p2


async def _event(client: Phone, what: str) -> dict[str, Any]:
    """The next event of this kind on the phone's socket (the frames before it are kept)."""
    while True:
        message = await client.recv_until("event")
        if message["what"]["c"] == what:
            return message


def _undo_prompts(game: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in game["due"] if d["kind"] in ("answer_undo", "undo_outcome")]


async def test_undo_request_reaches_the_opponent_whose_phone_starts_the_window_on_showing(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    _, p1, p2 = await _tapped(server, phone, fake_time)
    fake_time.advance(9_000)  # Ann's confirm dialog took 9 s: still within the 10 s to ask
    assert (await p1.command("propose_undo"))["t"] == "ack"
    asked_at = fake_time.now_ms()
    frame = await _event(p2, "propose_undo")
    assert frame["what"]["by"] == "p1"
    assert _undo_prompts(frame["game"]) == [
        {
            "kind": "answer_undo",
            "by": "p2",
            "asked_by": "p1",
            "seen": False,
            "until_ms": asked_at + 60_000,
        }
    ]
    # Bob's phone was dark for 20 s; it shows the request now and says so.
    fake_time.advance(20_000)
    refused = await p1.command("undo_seen")
    assert refused["t"] == "error" and refused["code"] == "forbidden"
    assert (await p2.command("undo_seen"))["t"] == "ack"
    seen = await _event(p1, "undo_seen")
    assert seen["what"]["by"] == "p2"
    assert seen["game"]["undo"]["seen_at_ms"] == fake_time.now_ms()
    (prompt,) = _undo_prompts(seen["game"])
    assert (prompt["seen"], prompt["until_ms"]) == (True, fake_time.now_ms() + 10_000)
    again = await p2.command("undo_seen")  # a second report moves nothing
    assert again["t"] == "error" and again["code"] == "stale"
    # 38 s after the tap, 9 s after it showed: Bob accepts, and both phones hear it.
    fake_time.advance(9_000)
    assert (await p2.command("answer_undo", accept=True))["t"] == "ack"
    accepted = await _event(p1, "answer_undo")
    for game in (accepted["game"], p2.game):
        # As if the tap never happened: Ann's clock ran all along, Bob's never did.
        assert (game["phase"], game["running"], game["undo"]) == ("deployment", "p1", None)
        assert game["remaining_ms"] == [60 * MIN - 53_000, 60 * MIN]
        (outcome,) = _undo_prompts(game)
        assert (outcome["asked_by"], outcome["by"], outcome["end"]) == ("p1", "p2", "accepted")


async def test_undo_declined_both_phones_hear_it_by_who_asked(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    _, p1, p2 = await _tapped(server, phone, fake_time)
    await p1.command("propose_undo")
    await _event(p2, "propose_undo")
    await p2.command("undo_seen")
    fake_time.advance(3_000)
    await p2.command("answer_undo", accept=False)
    frame = await _event(p1, "answer_undo")
    for game in (frame["game"], p2.game):
        assert game["running"] == "p2" and game["undo"] is None
        (outcome,) = _undo_prompts(game)
        assert (outcome["asked_by"], outcome["end"]) == ("p1", "declined")


async def test_undo_unanswered_lapses_on_the_servers_timer_both_phones_hear_it_and_it_is_logged(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime, database_url: str
) -> None:
    links, p1, p2 = await _tapped(server, phone, fake_time)
    await p1.command("propose_undo")
    await _event(p2, "propose_undo")
    await p2.command("undo_seen")
    seen_at = fake_time.now_ms()
    fake_time.advance(10_000)  # nobody answers: the server's timer lapses the request
    for client in (p1, p2):
        frame = await _event(client, "flag")
        assert frame["what"] == {
            "c": "flag",
            "undo": "lapsed",
            "by": "system",
            "at_ms": seen_at + 10_000,
            "turn": "P2's deployment",
        }
        assert frame["game"]["undo"] is None and frame["game"]["running"] == "p2"
        (outcome,) = _undo_prompts(frame["game"])
        assert (outcome["asked_by"], outcome["end"]) == ("p1", "lapsed")
    late = await p2.command("answer_undo", accept=True)
    assert late["t"] == "error" and "lapsed" in late["message"]
    async with httpx.AsyncClient(base_url=server.base) as http:
        log = await http.get(
            f"/api/tables/{links['id']}/log", headers={"X-Table-Token": token_of(links["watch"])}
        )
    entries = log.json()["entries"]
    assert [e["c"] for e in entries[-3:]] == ["propose_undo", "undo_seen", "flag"]
    assert entries[-1]["undo"] == "lapsed"
    # After a restart the table is rebuilt from its log: the request lapsed, as told.
    await server.stop()
    again = await start_server(database_url, fake_time)
    try:
        back = await phone(links["id"], token_of(links["p1"]["url"]), "ann-phone", at=again)
        (outcome,) = _undo_prompts(back.game)
        assert (outcome["asked_by"], outcome["end"], outcome["at_ms"]) == (
            "p1",
            "lapsed",
            seen_at + 10_000,
        )
    finally:
        await again.stop()


async def test_undo_never_shown_lapses_a_minute_after_asking_and_the_asker_is_told(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    links, p1, p2 = await _tapped(server, phone, fake_time)
    await p2.ws.close()  # Bob's phone is off
    await p1.command("propose_undo")
    fake_time.advance(59_999)
    assert (await p1.command("propose_undo"))["code"] == "stale"  # still waiting
    fake_time.advance(1)
    frame = await _event(p1, "flag")
    assert frame["what"]["undo"] == "unseen"
    (outcome,) = _undo_prompts(frame["game"])
    assert (outcome["asked_by"], outcome["by"], outcome["end"]) == ("p1", "p2", "unseen")
    # Bob's phone comes back: it is told what became of the request, not asked to answer it.
    bob = await phone(links["id"], token_of(links["p2"]["url"]), "bob-phone")
    (outcome,) = _undo_prompts(bob.game)
    assert outcome["end"] == "unseen"


async def test_undo_request_overtaken_by_the_opponents_tap_both_phones_hear_it(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    _, p1, p2 = await _tapped(server, phone, fake_time)
    await p1.command("propose_undo")
    await _event(p2, "propose_undo")
    fake_time.advance(4_000)
    await p2.command("pass_turn", expect="p2")  # Bob ends his deployment instead
    frame = await _event(p1, "pass_turn")
    for game in (frame["game"], p2.game):
        assert game["running"] == "p1"
        (outcome,) = _undo_prompts(game)
        assert (outcome["asked_by"], outcome["end"]) == ("p1", "superseded")
