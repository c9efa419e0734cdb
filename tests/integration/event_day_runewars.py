"""A Runewars 2017 event day, driven as the organiser and the players drive it: the
event's tournament API (players with army values, rounds, start, the organiser's
result, drop) and each table's seat sockets (the first player chosen, the deployment
area, the round counter, the game's end, each player's score, confirm or dispute), on
the fake clock. What is true is kept here as it is played, and the ST5 standings are
computed from it without the app (TP by margin of victory, cumulative MoV).

Each round is one plan a table (by table number): whose seat the chooser names first
player, how the game ends (a defeated army, the eighth game round, a concession, the
round timer), which seat loses, and what follows the scores (both confirm; the loser
disputes and the organiser settles it from the form's pre-filled entries; or both
confirm and the organiser corrects it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import Phone, PhoneFactory, token_of
from tests.integration.event_day_games import Seats

PLAYERS = {
    "Ann Abbot": 200,
    "Bob Bryce": 196,
    "Cara Cole": 192,
    "Dan Drake": 188,
    "Eve Ek": 184,
    "Finn Fox": 180,
    "Gil Gray": 176,
    "Hana Ito": 172,
}
DISPUTE = "the objective tokens were miscounted"
SETTLED = "the judge recounted the objective tokens"
CORRECTED = "a destroyed unit was left off the score"
#: What each player enters: the winner's score by how the game ended, the loser's.
WON_ENTRY = {"defeated": [120, 15], "eight_rounds": [130, 20], "time": [110, 10]}
WON_ENTRY["concession"] = [100, 10]  # MoV 45: the winner of a concession gets 8 TP, MoV 70
LOST_ENTRY = [60, 5]
#: ST5: (lowest MoV, TP for the win, TP for the loss); a bye (RP6) 8 TP and MoV 70.
TP_TABLE = ((150, 10, 1), (110, 9, 2), (70, 8, 3), (30, 7, 4), (0, 6, 5))
BYE = (8, 70)


@dataclass(frozen=True)
class RwPlan:
    first: str  # the seat the chooser names first player
    ending: str  # "defeated", "eight_rounds", "concession" or "time"
    loser: str = "p2"  # the seat that loses
    after: str = "confirm"  # or "dispute" (the organiser settles it) or "correct"


ROUNDS: tuple[tuple[RwPlan, ...], ...] = (
    (
        RwPlan("p2", "defeated", "p1", "dispute"),
        RwPlan("p1", "eight_rounds", "p2"),
        RwPlan("p2", "concession", "p2"),
        RwPlan("p1", "time", "p1"),
    ),
    (
        RwPlan("p2", "eight_rounds", "p1", "correct"),
        RwPlan("p1", "defeated", "p2"),
        RwPlan("p2", "time", "p2", "dispute"),
    ),
    (
        RwPlan("p2", "concession", "p1", "correct"),
        RwPlan("p1", "time", "p2"),
        RwPlan("p2", "defeated", "p2", "dispute"),
    ),
)


def tp_for(mov: int, won: bool) -> int:
    """ST5: TP by the winner's margin of victory."""
    return next(win if won else loss for low, win, loss in TP_TABLE if mov >= low)


@dataclass
class RwGame:
    """One game, by the players' names (seat order), as it was played and scored."""

    table: int
    players: tuple[str, str]
    first: str
    ending: str
    loser: str
    entries: dict[str, list[int]]
    reason: str = ""

    def opponent(self, name: str) -> str:
        return self.players[1 - self.players.index(name)]

    def outcome(self) -> tuple[str, dict[str, dict[str, int]]]:
        """TS11/ST5: the winner, and each player's TP and MoV."""
        score = {
            n: (200 if self.ending == "defeated" and n != self.loser else e[0]) + e[1]
            for n, e in self.entries.items()
        }
        if self.ending == "concession":
            winner = self.opponent(self.loser)
        else:
            winner = max(self.players, key=lambda n: score[n])
        loser = self.opponent(winner)
        mov = max(0, min(200, score[winner] - score[loser]))
        won = (tp_for(mov, True), mov)
        if self.ending == "concession":
            won = won if mov >= 70 else BYE
            lost = (0, 0)
        else:
            lost = (tp_for(mov, False), 0)
        return winner, {winner: {"tp": won[0], "mov": won[1]}, loser: {"tp": lost[0], "mov": 0}}


@dataclass
class RunewarsDay:
    http: httpx.AsyncClient  # the organiser's: its headers carry the EO token
    phone: PhoneFactory
    fake_time: FakeTime
    event_id: str = ""
    ids: dict[str, str] = field(default_factory=dict)
    games: dict[int, list[RwGame]] = field(default_factory=dict)
    byes: dict[int, str] = field(default_factory=dict)
    seats: dict[int, Seats] = field(default_factory=dict)
    disputed: dict[int, str] = field(default_factory=dict)  # this round's: table id by number

    @property
    def api(self) -> str:
        return f"/api/events/{self.event_id}/tournament"

    async def create(self) -> None:
        body = {"name": "Runewars day", "format": "runewars2017", "fixed_rounds": 3}
        created = await self.http.post("/api/events", json=body)
        assert created.status_code == 201, created.text
        self.http.headers["X-EO-Token"] = created.json()["admin_token"]
        self.event_id = created.json()["id"]
        for name, army in PLAYERS.items():
            added = await self.http.post(
                f"{self.api}/players", json={"name": name, "army_value": army}
            )
            assert added.status_code == 201, added.text
            self.ids[name] = added.json()["id"]

    def game(self, number: int, table: int) -> RwGame:
        return next(g for g in self.games[number] if g.table == table)

    def totals(self, upto: int) -> dict[str, dict[str, int]]:
        """ST5 after round `upto`: each player's TP and cumulative MoV."""
        totals = {name: {"tp": 0, "mov": 0} for name in self.ids}
        for number in range(1, upto + 1):
            for game in self.games.get(number, []):
                for name, got in game.outcome()[1].items():
                    totals[name] = {k: totals[name][k] + got[k] for k in ("tp", "mov")}
            if number in self.byes:
                bye = totals[self.byes[number]]
                bye["tp"], bye["mov"] = bye["tp"] + BYE[0], bye["mov"] + BYE[1]
        return totals

    # -- a round ---------------------------------------------------------------------

    async def play_round(self, number: int) -> dict[str, Any]:
        """Pair, start and play round `number` (its disputes stay open until
        `settle_disputes`); the round as the organiser pairs it."""
        paired = await self.http.post(f"{self.api}/rounds")
        assert paired.status_code == 201, paired.text
        started = await self.http.post(f"{self.api}/rounds/current/start")
        assert started.status_code == 200, started.text
        pairings = paired.json()["pairings"]
        byes = [p["p1"]["name"] for p in pairings if p["p2"] is None]
        if byes:
            self.byes[number] = byes[0]
        games = sorted((p for p in pairings if p["p2"]), key=lambda p: p["table"])
        plans = list(zip(games, ROUNDS[number - 1], strict=True))
        await self._seat(number)
        self.games[number] = []
        # The round timer runs out on the fake clock: every other table has ended by then.
        for pairing, plan in sorted(plans, key=lambda x: x[1].ending == "time"):
            self.games[number].append(await self._game(pairing, plan))
        self.games[number].sort(key=lambda g: g.table)
        for pairing, plan in plans:
            await self._after(number, pairing, plan)
        return dict(paired.json())

    async def _seat(self, number: int) -> None:
        tables = (await self.http.get(f"/api/events/{self.event_id}/tables")).json()
        self.seats = {}
        for table in (t for t in tables if t["round"] == number):
            links = table["links"]
            phones: list[Phone] = []
            for seat in ("p1", "p2"):
                device = f"rw{number}-t{table['table_no']}-{seat}"
                phones.append(await self.phone(table["id"], token_of(links[seat]["url"]), device))
            names = (links["p1"]["name"], links["p2"]["name"])
            self.seats[table["table_no"]] = Seats((phones[0], phones[1]), names)

    async def _game(self, pairing: dict[str, Any], plan: RwPlan) -> RwGame:
        seats = self.seats[pairing["table"]]
        by_seat = dict(zip(("p1", "p2"), seats.phones, strict=True))
        chooser = by_seat[seats.phones[0].game["chooser"]]
        await seats.send(chooser, "choose_first", first=plan.first)
        second = "p2" if plan.first == "p1" else "p1"
        await seats.send(by_seat[second], "choose_area", area="red")
        first = by_seat[plan.first]
        loser = by_seat[plan.loser]
        if plan.ending == "defeated":
            await seats.send(loser, "army_destroyed", side=plan.loser)
        elif plan.ending == "concession":
            await seats.send(loser, "concede")
        else:
            if plan.ending == "time":
                self.fake_time.advance(first.game["time_left_ms"])
                while not first.game["time_called"]:
                    await first.recv()
            while first.game["phase"] == "playing":
                await seats.send(first, "end_game_round", expect=first.game["game_round"])
        names = dict(zip(("p1", "p2"), seats.names, strict=True))
        won = WON_ENTRY[plan.ending]
        entries = {names[s]: list(LOST_ENTRY if s == plan.loser else won) for s in names}
        for seat, phone in by_seat.items():
            entry = entries[names[seat]]
            await seats.send(phone, "enter_score", destroyed=entry[0], objectives=entry[1])
        game = RwGame(
            pairing["table"],
            seats.names,
            names[plan.first],
            plan.ending,
            names[plan.loser],
            entries,
        )
        result = seats.phones[0].game["result"]
        assert result is not None and names[result["winner"]] == game.outcome()[0], result
        return game

    async def _after(self, number: int, pairing: dict[str, Any], plan: RwPlan) -> None:
        seats = self.seats[pairing["table"]]
        game = self.game(number, pairing["table"])
        if plan.after == "dispute":
            loser = seats.phones[seats.names.index(game.loser)]
            await seats.send(loser, "dispute", reason=DISPUTE)
            self.disputed[game.table] = pairing["table_id"]
            return
        for phone in seats.phones:
            await seats.send(phone, "confirm")
        if plan.after == "correct":
            winner = game.outcome()[0]
            await self.settle(game, pairing["table_id"], {winner: [0, 10]}, CORRECTED)

    async def settle_disputes(self, number: int) -> None:
        """The organiser settles each dispute from the form's pre-filled entries: the
        winner's objective points 10 less."""
        for table, table_id in sorted(self.disputed.items()):
            game = self.game(number, table)
            await self.settle(game, table_id, {game.outcome()[0]: [0, -10]}, SETTLED)
        self.disputed = {}

    async def settle(
        self, game: RwGame, table_id: str, change: dict[str, list[int]], why: str
    ) -> None:
        """The organiser's form as it opens (the table's entries, in seat order), the
        entries changed, sent with the reason."""
        view = (await self.http.get(self.api)).json()
        pairing = next(
            p for r in view["rounds"] for p in r["pairings"] if p["table_id"] == table_id
        )
        entries = [list(e) for e in pairing["judging"]["entries"]]
        for name, (destroyed, objectives) in change.items():
            at = game.players.index(name)
            entries[at] = [entries[at][0] + destroyed, entries[at][1] + objectives]
        body = {"entries": entries, "conceded": pairing["judging"]["conceded"], "reason": why}
        url = f"/api/events/{self.event_id}/tables/{table_id}/result"
        saved = await self.http.put(url, json=body)
        assert saved.status_code == 200, saved.text
        game.entries = {name: entries[i] for i, name in enumerate(game.players)}
        game.reason = why
