"""One truth about who is who after a starting roll that swaps the seats (TS9, ST1).

An event with the pre-game on the phones: at one table the pairing's second player
wins the starting roll, goes first and wins by assassination; both report, the other
player disputes, and the EO enters the result from the pre-filled editor, changing
the APD, with a reason. At the other table nothing is swapped. Every surface (the EO's
and the public's, the standings, the phones, the action log, the CSV, the cards and
the table log) names the same players, the same first player and the same winner."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, RunningServer, token_of
from tests.integration.surfaces import disagreements, read_every_surface

LISTS = {
    "Ann Abbot": "Kreoss 1",
    "Bob Bryce": "Severius 1",
    "Cara Cole": "Haley 2",
    "Hana Ito": "Butcher 3",
}


class LoadedDice(random.Random):
    """The server's dice, loaded by the test: these faces, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


async def _event(http: httpx.AsyncClient) -> str:
    body = {"name": "Steamroller night", "format": "sr2019", "pregame": True}
    created = (await http.post("/api/events", json=body)).json()
    http.headers["X-EO-Token"] = created["admin_token"]
    eid: str = created["id"]
    for name, army in LISTS.items():
        added = await http.post(f"/api/events/{eid}/players", json={"name": name, "lists": army})
        assert added.status_code == 201, added.text
    paired = await http.post(f"/api/events/{eid}/rounds", json={"scenario": "anarchy"})
    assert paired.status_code == 201, paired.text
    started = await http.post(f"/api/events/{eid}/rounds/current/start")
    assert started.status_code == 200, started.text
    return eid


async def _pregame(seats: tuple[Phone, Phone], lists: tuple[str, str], roll_winner: int) -> None:
    """Both players choose their list and objective; `roll_winner` (a seat: 0 or 1)
    wins the starting roll and goes first; the other player keeps their table edge."""
    for phone, army in zip(seats, lists, strict=True):
        assert (await phone.command("choose_list", list=army))["t"] == "ack"
        await seats[0].wait_version(phone.version)
        await seats[1].wait_version(phone.version)
    for phone, objective in zip(seats, ("Armory", "Stockpile"), strict=True):
        assert (await phone.command("choose_objective", objective=objective))["t"] == "ack"
    for phone in seats:
        assert (await phone.command("roll"))["t"] == "ack"
    first, second = seats[roll_winner], seats[1 - roll_winner]
    await first.wait_version(second.version)
    assert (await first.command("choose_order", first=True))["t"] == "ack"
    await second.wait_version(first.version)
    assert (await second.command("choose_edge", swap=False))["t"] == "ack"
    await first.wait_version(second.version)


async def _assassination(first: Phone, second: Phone) -> None:
    """Deployment, advance deployment, then the second player's caster falls (TS6)."""
    assert (await first.command("start"))["t"] == "ack"
    for client in (first, second, first, second):
        await client.wait_version(max(first.version, second.version))
        assert (await client.command("pass_turn", expect="p1" if client is first else "p2"))[
            "t"
        ] == "ack", client.received[-1]
    await second.wait_version(first.version)
    assert (await second.command("caster_destroyed"))["t"] == "ack"
    assert (await first.command("report", army_points_destroyed=45))["t"] == "ack"
    assert (await second.command("report", army_points_destroyed=15))["t"] == "ack"


def _truth(
    players: tuple[str, str], first: str, winner: str, apd: dict[str, int], tp: bool = True
) -> dict[str, Any]:
    scores = {
        name: {
            "cp": 0,
            "apd": apd[name],
            "list": LISTS[name],
            **({"tp": int(name == winner)} if tp else {}),
        }
        for name in players
    }
    return {"players": tuple(sorted(players)), "first": first, "winner": winner, "scores": scores}


async def test_every_surface_names_the_roll_winner_who_went_first_and_won__TS9_ST1(
    server: RunningServer, phone: PhoneFactory, fake_time: FakeTime
) -> None:
    hub = server.server.config.app.state.hub  # type: ignore[attr-defined]
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid = await _event(http)
        tables = sorted(
            (await http.get(f"/api/events/{eid}/tables")).json(), key=lambda t: t["table_no"]
        )
        view = (await http.get(f"/api/events/{eid}/admin")).json()
        pairings = {p["table"]: p for p in view["rounds"][0]["pairings"]}
        seated: dict[int, tuple[Phone, Phone]] = {}
        names: dict[int, tuple[str, str]] = {}
        for table in tables:
            no = table["table_no"]
            names[no] = (pairings[no]["p1"]["name"], pairings[no]["p2"]["name"])
            seated[no] = (
                await phone(table["id"], token_of(table["links"]["p1"]["url"]), f"{no}-seat-1"),
                await phone(table["id"], token_of(table["links"]["p2"]["url"]), f"{no}-seat-2"),
            )

        # Before the roll: every surface names both players and nobody first yet.
        before = await read_every_surface(http, eid, 1)
        for no, readings in before.items():
            truth = {"players": tuple(sorted(names[no])), "first": None, "winner": None}
            assert disagreements(readings, truth) == [], no

        # Table 1: the pairing's first player wins the roll, goes first and wins;
        # table 2: the pairing's second player does (the seats swap).
        swapped_no, plain_no = 2, 1
        hub.rooms[tables[plain_no - 1]["id"]].dice = LoadedDice([5, 2])
        hub.rooms[tables[swapped_no - 1]["id"]].dice = LoadedDice([2, 5])
        for no, winner_seat in ((plain_no, 0), (swapped_no, 1)):
            seats = seated[no]
            await _pregame(seats, (LISTS[names[no][0]], LISTS[names[no][1]]), winner_seat)
            first, second = seats[winner_seat], seats[1 - winner_seat]
            assert (first.role, second.role) == ("p1", "p2")
            await _assassination(first, second)
        plain = seated[plain_no]
        for client in plain:
            assert (await client.command("confirm"))["t"] == "ack"
        disputed = await seated[swapped_no][0].command(
            "dispute", reason="my caster was out of range"
        )
        assert disputed["t"] == "ack"

        disputer, roll_winner = names[swapped_no]  # the pairing's second player went first
        plain_first, plain_second = names[plain_no]
        truth = {
            plain_no: _truth(
                (plain_first, plain_second),
                plain_first,
                plain_first,
                {plain_first: 45, plain_second: 15},
            ),
            swapped_no: _truth(
                (disputer, roll_winner),
                roll_winner,
                roll_winner,
                {roll_winner: 45, disputer: 15},
                tp=False,
            ),
        }
        disputed_surfaces = await read_every_surface(http, eid, 1)
        assert disagreements(disputed_surfaces[plain_no], truth[plain_no]) == []
        panel = disputed_surfaces[swapped_no]
        # Every surface names both players and the roll winner first.
        who = {k: truth[swapped_no][k] for k in ("players", "first")}
        assert disagreements(panel, who) == []
        # Until the EO decides, what the table says (its ending, both players' reports)
        # is the roll winner's win, on the dispute panel, in the editor and on the phones.
        for surface in ("dispute panel", "result editor", "phones"):
            assert disagreements({surface: panel[surface]}, truth[swapped_no]) == []
            assert panel[surface]["winner"] == roll_winner, surface
        assert panel["result editor"]["scores"] == truth[swapped_no]["scores"]
        assert panel["dispute panel"]["reported"] == {
            roll_winner: {"apd": 45},
            disputer: {"apd": 15},
        }
        assert f"{disputer}: my caster was out of range" in panel["dispute panel"]["text"]
        assert "P1" not in panel["dispute panel"]["text"]
        assert "P2" not in panel["dispute panel"]["text"]
        for surface in ("event page", "admin table list"):
            assert panel[surface]["winner"] is None, surface  # nothing counts yet

        # The EO saves what the editor was filled with, changing only the winner's APD.
        tid = tables[swapped_no - 1]["id"]
        detail = (await http.get(f"/api/events/{eid}/tables/{tid}")).json()
        body = {**detail["prefill"], "method": "eo"}
        winner_at = [p["name"] for p in detail["players"]].index(roll_winner)
        body["army_points_destroyed"][winner_at] = 40
        body["reason"] = "a unit was counted twice"
        saved = await http.put(f"/api/events/{eid}/tables/{tid}/result", json=body)
        assert saved.status_code == 200, saved.text

        decided = await read_every_surface(http, eid, 1)
        assert disagreements(decided[plain_no], truth[plain_no]) == []
        final = _truth(
            (disputer, roll_winner), roll_winner, roll_winner, {roll_winner: 40, disputer: 15}
        )
        assert disagreements(decided[swapped_no], final) == []
        table = decided[swapped_no]
        # Every surface that says who went first or won says it of the roll winner.
        for surface in ("event page", "admin table list", "pairings CSV", "table cards"):
            assert table[surface]["first"] == roll_winner, surface
        for surface in ("event page", "standings", "record sheets", "phones", "EO action log"):
            assert table[surface].get("winner", roll_winner) == roll_winner, surface
        assert table["standings"]["scores"][roll_winner] == {"tp": 1, "cp": 0, "apd": 40}
        assert table["standings"]["scores"][disputer] == {"tp": 0, "cp": 0, "apd": 15}
        assert table["table log"] == {**who, "winner": roll_winner}
        # The phones: the organiser's decision, with its reason, naming no seat.
        phones = table["phones"]["text"]
        assert phones.startswith(f"{roll_winner} wins by the organiser's decision")
        assert "a unit was counted twice" in phones
        assert "(P1)" not in phones and "(P2)" not in phones
        # The action log: from what to what, and why.
        logged = table["EO action log"]["text"]
        assert (
            f"{roll_winner} wins by assassination → {roll_winner} wins by the organiser's decision"
            in logged
        )
        assert f"{roll_winner}'s APD 45 → 40" in logged
        assert "a unit was counted twice" in logged

        # A correction of the settled result moves it again, and says so the same way.
        corrected = {**saved.json(), "reason": "the flag was scored at the end"}
        corrected["control_points"][winner_at] = 3
        again = await http.put(f"/api/events/{eid}/tables/{tid}/result", json=corrected)
        assert again.status_code == 200, again.text
        moved = (await read_every_surface(http, eid, 1))[swapped_no]
        final["scores"][roll_winner]["cp"] = 3
        assert disagreements(moved, final) == []
        assert moved["EO action log"]["text"] == (
            f"{roll_winner} wins by the organiser's decision; {roll_winner}'s CP 0 → 3. "
            "Why: the flag was scored at the end"
        )
        assert moved["phones"]["text"].endswith("the flag was scored at the end")


def _seat_cards(page: str) -> dict[str, str]:
    """The links page's seat cards, by seat: the text a person reads on each."""
    cards = re.findall(
        r'<article class="card seat-card" id="seat-(p[12])">(.*?)</article>', page, re.S
    )
    return {seat: " ".join(re.sub(r"<[^>]+>", " ", body).split()) for seat, body in cards}


async def test_the_links_page_names_the_first_player_only_once_the_roll_decides__TS9(
    server: RunningServer, phone: PhoneFactory
) -> None:
    """A quick game with the pre-game on the phones: before the starting roll each seat
    card just names its player; once the second seat's player won it and chose to go
    first, their card (and only theirs) says they deploy and play first."""
    hub = server.server.config.app.state.hub  # type: ignore[attr-defined]
    form = {"format": "sr2019", "p1_name": "Cara Cole", "p2_name": "Hana Ito", "pregame": "1"}
    async with httpx.AsyncClient(base_url=server.base, follow_redirects=True) as http:
        made = await http.post("/quick", data=form)
        assert made.status_code == 200, made.text
        tid = str(made.url).split("/t/", 1)[1].split("/")[0]
        before = _seat_cards(made.text)
        assert before["p1"].startswith("Cara Cole") and before["p2"].startswith("Hana Ito")
        assert not any("First player" in c or "Second player" in c for c in before.values())
        links = dict(re.findall(r'id="link-(p[12])"[^>]*value="([^"]+)"', made.text))
        seats = (
            await phone(tid, token_of(links["p1"]), "quick-seat-1"),
            await phone(tid, token_of(links["p2"]), "quick-seat-2"),
        )
        hub.rooms[tid].dice = LoadedDice([2, 5])
        await _pregame(seats, ("Haley 2", "Butcher 3"), roll_winner=1)
        after = _seat_cards((await http.get(f"/t/{tid}/links")).text)
        assert "First player — deploys and plays first" in after["p2"]
        assert "Second player" in after["p1"] and "First player" not in after["p1"]
