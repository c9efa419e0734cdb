"""An event day of a Warmachine format, driven as the EO and the players drive it: over
the event's REST API (players, rounds, start, results, drop, late add) and each table's
seat sockets (the pre-game, the game, the reports, confirm or dispute), on the fake
clock. The script keeps what is true (`event_day_truth.Ledger`) as it plays.

Each round is three games, one plan a table (by table number): how the starting roll
goes, how the game ends, and what follows (both confirm; the loser disputes and the EO
settles it from the editor's pre-filled result; or both confirm and the EO corrects it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import httpx

from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, token_of
from tests.integration import event_day_games as play
from tests.integration.event_day_games import LoadedDice, Seats
from tests.integration.event_day_truth import Game, Ledger

PLAYERS = ("Ann Abbot", "Bob Bryce", "Cara Cole", "Dan Drake", "Eve Ek", "Finn Fox", "Gil Gray")
LATE = "Hana Ito"
CASTERS = ("Kreoss", "Severius", "Haley", "Butcher", "Vayl", "Morghoul", "Rasheth", "Lylyth")
POINTS = 75
DISPUTE = "my caster was out of range"
SETTLED = "a unit was counted twice"
OVERTURNED = "the caster was out of range: the assassination did not happen"
CORRECTED = "the flag was scored at the end"
GAME_LOSS = "moved models after the turn ended"
#: The army points the winner reports destroyed, by how the game ended (a concession's
#: winner reports less than half the opponent's army: TS8 gives them that much).
WON_APD = {"assassination": 41, "scenario": 33, "concession": 20, "clock": 27}


@dataclass(frozen=True)
class Day:
    """A format's event day: the event's settings, a scenario a round, RP3's bye."""

    format: str
    scenarios: tuple[str, str, str]
    lists: int | None = None
    bye_cp: int = 3  # RP3: SR2019/M&C 3; IG2014 half the CP for a scenario win
    concession_apd: bool = True  # TS8: the winner gets half the opponent's army at least
    #: The player declares their army meets the document's painting standard (IG2014).
    painted: bool = False
    #: RP1's Cut to Top [X] variant (None: every player plays every round).
    cut_to_top: int | None = None
    #: ST2's final standings variant ("baseline": ST1's order).
    standings: str = "baseline"
    #: Who registers before round 1, and each round's plans, a plan a table.
    players: tuple[str, ...] = PLAYERS
    rounds: tuple[tuple[Plan, ...], ...] = ()

    def lists_of(self, player: int) -> list[str]:
        caster = CASTERS[player % len(CASTERS)]
        count = self.lists or 1
        return [f"{caster} {n + 1} / Theme {'ABC'[n]}{player}" for n in range(count)]


@dataclass(frozen=True)
class Plan:
    """One table's game: the seat that wins the starting roll and whether they go first,
    how the game ends, which side loses (a clock: the first player, in deployment), and
    what follows the players' reports."""

    ending: str  # "assassination", "scenario", "concession" or "clock"
    roll_winner: int = 0
    goes_first: bool = True
    loser: str = "p2"
    #: "confirm"; "dispute": the loser disputes, the EO settles it (the winner's APD
    #: less), "overturn": the same, but the EO finds for the loser; "correct": both
    #: confirm, the EO corrects it (the winner's CP more); "game loss": both confirm, the
    #: EO records a game loss against the winner (warnings and penalties).
    after: str = "confirm"


#: Three rounds of three games: at table 1 the second seat's player wins the roll and goes
#: first; at table 2 of round 1 the second seat wins and goes second.
ROUNDS: tuple[tuple[Plan, Plan, Plan], ...] = (
    (
        Plan("assassination", 1, True, "p2", "overturn"),
        Plan("scenario", 1, False, "p1"),
        Plan("concession", 0, True, "p1", "dispute"),  # TS8 in the editor too
    ),
    (
        Plan("scenario", 1, True, "p2"),
        Plan("assassination", 0, True, "p1", "correct"),
        Plan("clock", 0, False, "p1"),
    ),
    (
        Plan("concession", 1, True, "p2", "correct"),
        Plan("clock", 1, True, "p1", "game loss"),
        Plan("assassination", 0, False, "p2", "dispute"),
    ),
)


@dataclass
class EventDay:
    server: RunningServer
    http: httpx.AsyncClient  # the EO's: its headers carry the EO token
    phone: PhoneFactory
    fake_time: FakeTime
    day: Day
    pregame: bool = True  # the pre-game on the phones (lists, objectives), else off
    event_id: str = ""
    ids: dict[str, str] = field(default_factory=dict)
    lists: dict[str, list[str]] = field(default_factory=dict)
    played: dict[str, set[str]] = field(default_factory=dict)
    ledger: Ledger = field(default_factory=Ledger)
    seats: dict[int, Seats] = field(default_factory=dict)  # this round's, by table number
    #: This round's disputes by table number: the table's id, and whether the EO finds
    #: for the player who disputes.
    disputed: dict[int, tuple[str, bool]] = field(default_factory=dict)

    @property
    def api(self) -> str:
        return f"/api/events/{self.event_id}"

    async def create(self) -> None:
        body: dict[str, Any] = {"name": "Event day", "format": self.day.format}
        body["pregame"] = self.pregame
        body |= {"points": POINTS} | ({"lists": self.day.lists} if self.day.lists else {})
        body |= {"cut_to_top": self.day.cut_to_top} if self.day.cut_to_top else {}
        body |= {"standings": self.day.standings}
        created = await self.http.post("/api/events", json=body)
        assert created.status_code == 201, created.text
        self.http.headers["X-EO-Token"] = created.json()["admin_token"]
        self.event_id = created.json()["id"]
        self.ledger.bye_award = (self.day.bye_cp, math.ceil(POINTS / 2))
        for name in self.day.players:
            await self.add(name)

    async def add(self, name: str) -> dict[str, Any]:
        army = self.day.lists_of(len(self.ids))
        added = await self.http.post(
            f"{self.api}/players",
            json={"name": name, "lists": "\n".join(army), "painted": self.day.painted},
        )
        assert added.status_code == 201, added.text
        self.ids[name], self.lists[name], self.played[name] = added.json()["id"], army, set()
        return dict(added.json())

    async def drop(self, name: str) -> None:
        dropped = await self.http.post(f"{self.api}/players/{self.ids[name]}/drop", json={})
        assert dropped.status_code == 200 and dropped.json()["dropped"], dropped.text

    # -- a round ---------------------------------------------------------------------

    async def play_round(self, number: int) -> dict[str, Any]:
        """Pair (or take the draft the EO has paired already), start and play round
        `number` by its plans (its disputes stay open until `settle_disputes`); the round
        as the EO pairs it."""
        view = (await self.http.get(f"{self.api}/admin")).json()
        drafted = [r for r in view["rounds"] if r["number"] == number]
        if drafted:
            round_view = drafted[0]
        else:
            paired = await self.http.post(
                f"{self.api}/rounds", json={"scenario": self.day.scenarios[number - 1]}
            )
            assert paired.status_code == 201, paired.text
            round_view = paired.json()
        started = await self.http.post(f"{self.api}/rounds/current/start")
        assert started.status_code == 200, started.text
        pairings = round_view["pairings"]
        byes = [p["p1"]["name"] for p in pairings if p["p2"] is None]
        if byes:
            self.ledger.byes[number] = byes[0]
        games = sorted((p for p in pairings if p["p2"]), key=lambda p: p["table"])
        plans_of_round = (self.day.rounds or ROUNDS)[number - 1]
        assert len(games) == len(plans_of_round), pairings
        await self._seat(number)
        plans = list(zip(games, plans_of_round, strict=True))
        self.ledger.games[number] = []
        # A clock runs out on the fake clock: every other table has finished by then.
        for pairing, plan in sorted(plans, key=lambda x: x[1].ending == "clock"):
            self.ledger.games[number].append(await self._game(pairing, plan))
        self.ledger.games[number].sort(key=lambda g: g.table)
        for pairing, plan in plans:
            await self._after(number, pairing, plan)
        return dict(round_view)

    async def _seat(self, number: int) -> None:
        """Both players of every table open their seat link (each card names its player)."""
        tables = (await self.http.get(f"{self.api}/tables")).json()
        self.seats = {}
        for table in (t for t in tables if t["round"] == number):
            links = table["links"]
            phones = []
            for seat in ("p1", "p2"):
                token = token_of(links[seat]["url"])
                device = f"r{number}-t{table['table_no']}-{seat}"
                phones.append(await self.phone(table["id"], token, device))
            names = (links["p1"]["name"], links["p2"]["name"])
            self.seats[table["table_no"]] = Seats((phones[0], phones[1]), names)

    def _list_for(self, name: str, choices: list[str]) -> str:
        """The first list the player has not played yet, of those offered."""
        return next((x for x in choices if x not in self.played[name]), choices[0])

    async def _game(self, pairing: dict[str, Any], plan: Plan) -> Game:
        seats = self.seats[pairing["table"]]
        assert seats.names == (pairing["p1"]["name"], pairing["p2"]["name"])
        hub = self.server.server.config.app.state.hub  # type: ignore[attr-defined]
        hub.rooms[pairing["table_id"]].dice = LoadedDice(
            [5, 2] if plan.roll_winner == 0 else [2, 5]
        )
        chosen = tuple(  # without the pre-game's choice, the player says it in the report
            self._list_for(name, play.offered(phone) or self.lists[name])
            for name, phone in zip(seats.names, seats.phones, strict=True)
        )
        at_table = not self.pregame and pairing["table"] == 1  # the dice rolled at the table
        lists = (chosen[0], chosen[1])
        swaps = await play.pregame(seats, lists, plan.roll_winner, plan.goes_first, at_table)
        for name, army in zip(seats.names, chosen, strict=True):
            self.played[name].add(army)
        winner_side = "p1" if plan.loser == "p2" else "p2"
        winner, loser = seats.name_of(winner_side), seats.name_of(plan.loser)
        if plan.ending == "assassination":
            await play.assassination(seats, plan.loser)
        elif plan.ending == "scenario":
            await play.scenario(seats, winner_side)
        elif plan.ending == "concession":
            await play.concession(seats, plan.loser)
        else:
            await play.clock_out(seats, self.fake_time)
        apd = {winner: WON_APD[plan.ending], loser: 17}
        await play.report(
            seats, apd, None if self.pregame else dict(zip(seats.names, lists, strict=True))
        )
        cp = play.control_points(seats)
        if plan.ending == "concession":  # TS8
            cp = {winner: max(cp[winner], 3), loser: 0}
            half = math.ceil(POINTS / 2)
            apd = {winner: max(apd[winner], half) if self.day.concession_apd else apd[winner]}
            apd[loser] = 0
        return Game(
            table=pairing["table"],
            players=seats.names,
            first=seats.name_of("p1"),
            winner=winner,
            method=plan.ending,
            cp=cp,
            apd=apd,
            lists=dict(zip(seats.names, chosen, strict=True)),
            specialists=dict(zip(seats.names, swaps, strict=True)),
        )

    async def _after(self, number: int, pairing: dict[str, Any], plan: Plan) -> None:
        """The players confirm, or the loser disputes (`settle_disputes`: the EO settles
        it); a correction follows both players' confirmation."""
        seats = self.seats[pairing["table"]]
        game = self.ledger.game(number, pairing["table"])
        loser = seats.phones[seats.names.index(game.opponent(game.winner))]
        if plan.after in ("dispute", "overturn"):
            await seats.send(loser, "dispute", reason=DISPUTE)
            self.disputed[game.table] = (pairing["table_id"], plan.after == "overturn")
            return
        for phone in seats.phones:
            await seats.send(phone, "confirm")
        if plan.after == "correct":
            await self.settle(game, pairing["table_id"], {"cp": 1}, CORRECTED)
        if plan.after == "game loss":
            await self.game_loss(number, game)

    async def game_loss(self, number: int, game: Game) -> None:
        """The EO records a game loss against the round's winner: the opponent wins, the
        points stand, the reason says why (warnings and penalties)."""
        winner = next(
            p for p in (await self.http.get(self.api)).json()["players"] if p["name"] == game.winner
        )
        body = {"player": winner["id"], "kind": "game_loss", "reason": GAME_LOSS, "round": number}
        given = await self.http.post(f"{self.api}/penalties", json=body)
        assert given.status_code in (200, 201), given.text
        game.reason = f"Game loss for {game.winner}: {GAME_LOSS}"
        game.winner, game.method = game.opponent(game.winner), "eo"

    async def settle_disputes(self, number: int) -> None:
        """The EO settles each dispute of the round from the pre-filled editor."""
        for table, (table_id, overturn) in sorted(self.disputed.items()):
            change = {"overturn": 1} if overturn else {"apd": -4}
            why = OVERTURNED if overturn else SETTLED
            await self.settle(self.ledger.game(number, table), table_id, change, why)
        self.disputed = {}

    async def settle(self, game: Game, table_id: str, change: dict[str, int], why: str) -> None:
        """The EO's editor as it opens (the result that stands, else the server's pre-fill,
        in the pairing's order), the winner's CP or APD changed or the other player made
        the winner, saved with a reason."""
        view = (await self.http.get(f"{self.api}/admin")).json()
        pairing = next(
            p for r in view["rounds"] for p in r["pairings"] if p["table_id"] == table_id
        )
        detail = (await self.http.get(f"{self.api}/tables/{table_id}")).json()
        draft = pairing["result"] or detail["prefill"]
        at = list(game.players).index(game.winner)
        body = {
            "winner": draft["winner"],
            "control_points": list(draft["control_points"]),
            "army_points_destroyed": list(draft["army_points_destroyed"]),
            "lists": list(draft["lists"]),
            "method": "eo",
            "reason": why,
        }
        body["control_points"][at] += change.get("cp", 0)
        body["army_points_destroyed"][at] += change.get("apd", 0)
        if change.get("overturn"):
            body["winner"] = ("p2", "p1")[at]
        saved = await self.http.put(f"{self.api}/tables/{table_id}/result", json=body)
        assert saved.status_code == 200, saved.text
        game.cp[game.winner] += change.get("cp", 0)
        game.apd[game.winner] += change.get("apd", 0)
        if change.get("overturn"):
            game.winner = game.opponent(game.winner)
        game.method, game.reason = "eo", why
