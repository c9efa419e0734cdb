"""A drafted round cannot be played before the organiser starts it, over the real socket
and API: a seat of a paired round sees its table, its opponent and the round, and every
game command it sends is refused with a plain reason, the table unchanged; nothing of
the scenario (a Runewars round's deployment and objective) reaches a screen before the
start. The organiser's start opens every table of the round: in a pre-game event each
table goes into its pre-game, otherwise its clock starts (RP4, DC4, DC11)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from tests.conftest import RunningServer, runewars_round, token_of

NOT_STARTED = "Round 1 has not started: wait for the organiser to start it"


@dataclass
class RawPhone:
    """A table socket that keeps every frame exactly as the server sent it."""

    ws: websockets.ClientConnection
    frames: list[str] = field(default_factory=list)
    seq: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    version: int = 0

    async def recv(self) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), 5.0)
        text = raw if isinstance(raw, str) else raw.decode()
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["t"] in ("state", "event"):
            self.version = message["v"]
        if message["t"] == "state":
            self.state = message
        return message

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = await self.recv()
            if message["t"] == kind:
                return message

    async def command(self, name: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        await self.ws.send(json.dumps({"t": "cmd", "seq": self.seq, "c": name, **fields}))
        while True:
            message = await self.recv()
            if message["t"] in ("ack", "error") and message.get("seq") == self.seq:
                return message

    async def state_after(self, version: int) -> dict[str, Any]:
        """The table afresh, as the server sends it once the round has started."""
        while not (self.state and self.state["v"] >= version):
            await self.recv()
        return self.state

    def text(self) -> str:
        return "\n".join(self.frames)


async def _connect(server: RunningServer, table_id: str, url: str, device: str) -> RawPhone:
    ws = await websockets.connect(f"{server.ws_base}/ws/tables/{table_id}")
    await ws.send(json.dumps({"t": "hello", "token": token_of(url), "device": device}))
    phone = RawPhone(ws)
    await phone.until("state")
    return phone


async def _wm_draft(
    http: httpx.AsyncClient, pregame: bool
) -> tuple[str, dict[str, str], dict[str, Any]]:
    body = {"name": "Draft night", "format": "sr2019", "lists": 2, "pregame": pregame}
    created = (await http.post("/api/events", json=body)).json()
    eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
    for name, lists in (("Ann", "Haley Prime\nStryker 3"), ("Bob", "Kreoss\nSeverius")):
        added = await http.post(
            f"/api/events/{eid}/players", json={"name": name, "lists": lists}, headers=eo
        )
        assert added.status_code == 201, added.text
    paired = await http.post(
        f"/api/events/{eid}/rounds", json={"scenario": "spread-the-net"}, headers=eo
    )
    assert paired.status_code == 201, paired.text
    (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
    return eid, eo, table


def _no_scenario(text: str) -> None:
    for word in ("Spread the Net", "spread-the-net", '"scenario"', "kill_box"):
        assert word not in text, f"{word!r} reached a screen before the round started"


async def _refused(phone: RawPhone, name: str, **fields: Any) -> None:
    answer = await phone.command(name, **fields)
    assert answer["t"] == "error", (name, answer)
    assert answer["message"] == NOT_STARTED, (name, answer)


async def test_draft_seat_waits_and_every_game_command_is_refused_until_the_start__RP4_DC4(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, eo, table = await _wm_draft(http, pregame=True)
        tid, links = table["id"], table["links"]
        p1 = await _connect(server, tid, links["p1"]["url"], "phone-1")
        p2 = await _connect(server, tid, links["p2"]["url"], "phone-2")
        watch = await _connect(server, tid, links["watch"], "watcher")

        # The seat knows its table, its opponent and that the round waits for the EO.
        state = p1.state
        assert state["role"] == "p1" and state["v"] == 0
        assert state["table"]["round"] == {"number": 1, "table_no": 1, "started": False}
        assert sorted(state["table"]["names"]) == ["Ann", "Bob"]
        assert state["game"]["phase"] == "waiting"
        for screen in (p1, p2, watch):
            _no_scenario(screen.text())

        # Start, tap, concede and the pre-game's steps: each refused, in plain words.
        await _refused(p1, "start")
        await _refused(p1, "pass_turn", expect="p1")
        await _refused(p2, "concede")
        await _refused(p1, "choose_list", list="Haley Prime")
        await _refused(p2, "roll")
        await _refused(p1, "report_pause")
        # Nor can the EO play one table of a round not started by itself.
        eo_alone = await http.post(
            f"/api/events/{eid}/tables/{tid}/command", json={"c": "start"}, headers=eo
        )
        assert eo_alone.status_code == 400 and "Round 1 has not started" in eo_alone.text

        # Nothing changed: the table has no log and its status is still waiting.
        again = await _connect(server, tid, links["watch"], "watcher-2")
        assert again.state["v"] == 0 and again.state["game"]["phase"] == "waiting"
        watching = {"X-Table-Token": token_of(links["watch"])}
        log = await http.get(f"/api/tables/{tid}/log", headers=watching)
        assert log.status_code == 200 and log.json()["entries"] == []
        for screen in (p1, p2, watch, again):
            _no_scenario(screen.text())

        # The EO starts the round: the table goes into its pre-game, every screen live.
        started = await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
        assert started.status_code == 200, started.text
        for screen in (p1, p2, watch):
            fresh = await screen.state_after(1)
            assert fresh["table"]["round"]["started"] is True
            assert fresh["table"]["scenario"]["name"] == "Spread the Net"
            assert fresh["game"]["phase"] == "ready"
            assert fresh["game"]["pregame"]["step"] == "lists"
        mine = p1.state["game"]["pregame"]["mine"]["choices"]
        assert (await p1.command("choose_list", list=mine[0]))["t"] == "ack"


async def test_draft_seat_without_pregame_settles_who_goes_first_when_the_eo_starts__DC4_RP4(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, eo, table = await _wm_draft(http, pregame=False)
        tid, links = table["id"], table["links"]
        p1 = await _connect(server, tid, links["p1"]["url"], "phone-1")
        await _refused(p1, "start")
        _no_scenario(p1.text())
        started = await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)
        assert started.status_code == 200, started.text
        fresh = await p1.state_after(1)
        # Off the clock, the table settles who goes first: the starting roll, its winner's
        # choice; then the first player starts deployment.
        assert fresh["game"]["phase"] == "ready" and fresh["game"]["running"] is None
        assert fresh["game"]["pregame"]["step"] == "roll"
        assert fresh["table"]["scenario"]["id"] == "spread-the-net"
        assert (await p1.command("roll", at_table=[5, 2]))["t"] == "ack"
        assert (await p1.command("choose_order", first=True))["t"] == "ack"
        assert (await p1.command("start"))["t"] == "ack"
        assert (await p1.command("pass_turn", expect="p1"))["t"] == "ack"


async def test_runewars_draft_table_cannot_start_its_timer_and_shows_no_cards__DC11_RP6(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "Draft Runewars")
        eo_view = (await http.get(f"/api/events/{rw.event_id}/tournament", headers=rw.eo)).json()
        cards = eo_view["rounds"][0]
        deployment, objective = cards["deployment"], cards["objective"]
        tid, links = rw.table["id"], rw.table["links"]
        p1 = await _connect(server, tid, links["p1"]["url"], "rw-1")
        p2 = await _connect(server, tid, links["p2"]["url"], "rw-2")
        watch = await _connect(server, tid, links["watch"], "rw-watch")
        assert p1.state["table"]["round"] == {"number": 1, "table_no": 1, "started": False}
        assert p1.state["game"]["phase"] == "waiting"
        assert sorted(p1.state["game"]["names"]) == ["Ann", "Bob"]

        await _refused(p1, "start_round")
        await _refused(p2, "start_round")
        await _refused(p1, "choose_first", first="p1")
        await _refused(p2, "choose_first", first="p2")
        await _refused(p1, "concede")
        eo_alone = await http.post(
            f"/api/events/{rw.event_id}/tables/{tid}/command",
            json={"c": "start_round"},
            headers=rw.eo,
        )
        assert eo_alone.status_code == 400 and "Round 1 has not started" in eo_alone.text

        # The public sees neither the round's cards nor its pairings before the start
        # (the season's whole deck of cards is public; which were drawn is not).
        public = json.loads((await http.get(f"/api/events/{rw.event_id}/tournament")).text)
        without_deck = json.dumps({k: v for k, v in public.items() if k != "season"})
        for screen_text in (p1.text(), p2.text(), watch.text(), without_deck):
            assert deployment not in screen_text and objective not in screen_text
        assert public["rounds"][0]["deployment"] is None
        assert public["rounds"][0]["objective"] is None
        assert "Ann" not in json.dumps(public["rounds"])

        started = await http.post(
            f"/api/events/{rw.event_id}/tournament/rounds/current/start", headers=rw.eo
        )
        assert started.status_code == 200, started.text
        for screen in (p1, p2, watch):
            fresh = await screen.state_after(1)
            assert fresh["table"]["round"]["started"] is True
            assert fresh["game"]["deployment"] == deployment
            assert fresh["game"]["ends_ms"] is not None  # the round timer runs
        chooser = p1 if p1.state["game"]["chooser"] == "p1" else p2
        assert (await chooser.command("choose_first", first="p1"))["t"] == "ack"
        public_after = (await http.get(f"/api/events/{rw.event_id}/tournament")).json()
        assert public_after["rounds"][0]["deployment"] == deployment


async def test_a_runewars_player_dropped_before_the_start_concedes_when_it_starts__RP6_ST5(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "Draft drop")
        tid, links = rw.table["id"], rw.table["links"]
        bob = rw.players[1]
        dropped = await http.post(
            f"/api/events/{rw.event_id}/tournament/players/{bob}/drop", headers=rw.eo
        )
        assert dropped.status_code == 200, dropped.text
        watch = await _connect(server, tid, links["watch"], "rw-watch")
        assert watch.state["v"] == 0 and watch.state["game"]["phase"] == "waiting"

        started = await http.post(
            f"/api/events/{rw.event_id}/tournament/rounds/current/start", headers=rw.eo
        )
        assert started.status_code == 200, started.text
        while watch.version < 2:
            await watch.recv()
        fresh = await watch.state_after(1)
        assert fresh["table"]["round"]["started"] is True
        seat = "p1" if rw.table["names"][0] == "Ann" else "p2"
        ann = await _connect(server, tid, links[seat]["url"], "rw-ann")
        assert ann.state["game"]["phase"] == "scoring"
        assert ann.state["game"]["ended_by"] == "concession"
        scored = await ann.command("enter_score", destroyed=0, objectives=0)
        assert scored["t"] == "ack", scored
