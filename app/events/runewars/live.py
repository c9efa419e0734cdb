"""Running a Runewars event over live tables: the event's rules are the pure
`app.domain.runewars.event`; this opens each game's table on the Runewars engine (the
round's deployment, objective and time limit, both army values), starts and calls the
round timer on every table, and takes each finished table's result into the event."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from app.domain.clock import Side
from app.domain.commands import Role
from app.domain.errors import NotFound, RuleError
from app.domain.runewars import commands as rc
from app.domain.runewars import engine
from app.domain.runewars import event as ev
from app.domain.runewars.disqualification import disqualify
from app.domain.runewars.pairing import Match
from app.domain.runewars.rules import Plan
from app.domain.runewars.standings import Standing, export_csv
from app.domain.runewars.state import Phase, RwGame, TableSetup
from app.events.every_table import at_every_table
from app.tables.hub import TableHub, new_id
from app.tables.placement import Placement
from app.tables.room import TableMeta, TableRoom
from app.tables.round_gate import waiting


@dataclass
class RunewarsEvent:
    """One Runewars event and its live tables (round number, game number → table)."""

    hub: TableHub
    #: Where the tables' commands go: here, or at the worker that owns a table.
    placement: Placement
    name: str
    plan: Plan
    rng: random.Random = field(default_factory=random.Random)
    id: str = field(default_factory=new_id)
    tables: dict[tuple[int, int], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.state = ev.RwEvent(self.name, self.plan)

    # -- players ------------------------------------------------------------------

    def register(
        self, player_id: str, name: str, army_value: int | None, army_list: str = ""
    ) -> None:
        self.state = ev.register(self.state, player_id, name, army_value, self.rng, army_list)

    async def drop(self, player_id: str) -> None:
        """RP6: the player is not paired again; during the elimination their opponent has
        a bye, and their open table is conceded for them (a table whose round has not
        started yet: once the organiser starts it)."""
        room = self._open_table_of(player_id)
        self.state = ev.drop(self.state, player_id)
        if room is not None and not waiting(room.meta, room.version):
            await self._concede_dropped(room)

    async def disqualify(self, player_id: str, reason: str) -> None:
        """The organiser removes the player: as a drop (their open table conceded for
        them), and for good: they cannot rejoin."""
        room = self._open_table_of(player_id)
        gone = self.state.player(player_id).dropped  # their table was conceded then
        self.state = disqualify(self.state, player_id, reason)
        if room is not None and not gone and not waiting(room.meta, room.version):
            await self._concede_dropped(room)

    async def _concede_dropped(self, room: TableRoom) -> None:
        """A dropped player's game on `room` is conceded for them."""
        meta, game, play = room.meta, room.game, self.state.current
        if meta is None or not isinstance(game, RwGame) or game.conceded is not None:
            return
        if game.phase in (Phase.FINAL_FLURRY, Phase.OVER) or play is None:
            return
        if meta.table_no in play.results:  # decided by the drop (a bye in the elimination)
            return
        for side, player_id in ((Side.P1, meta.p1_player), (Side.P2, meta.p2_player)):
            if self.state.player(player_id).dropped:
                await self.placement.execute(room, side, "event", 0, rc.Concede())
                return

    def _open_table_of(self, player_id: str) -> TableRoom | None:
        play = self.state.current
        if play is None:
            return None
        match = play.match_of(player_id)
        if match is None or match.game in play.results:
            return None
        return self._room(play.number, match.game)

    # -- rounds -------------------------------------------------------------------

    def cut_waits(self, player_id: str) -> bool:
        """RP6: `player_id` is in the cut, whose first round is paired and not started:
        no game of the elimination is played yet."""
        state = self.state
        if player_id not in state.cut_to or not ev.cut_unplayed(state):
            return False
        return all(waiting(room.meta, room.version) for room in self.rooms())

    def drop_before_the_cut_plays(self, player_id: str, disqualified_for: str = "") -> None:
        """RP6: a cut player drops (or is disqualified, `disqualified_for` the organiser's
        reason) before any game of the elimination: the next-ranked player comes into the
        cut and its first round is paired again, on new tables (the round's tables, none
        started, are removed)."""
        play = self.state.current
        assert play is not None and self.cut_waits(player_id)
        if disqualified_for:
            self.state = disqualify(self.state, player_id, disqualified_for, cut_begun=False)
        else:
            self.state = ev.drop(self.state, player_id, cut_begun=False)
        for match in play.matches:
            table_id = self.tables.pop((play.number, match.game), None)
            if table_id is not None:
                self.hub.discard(table_id)
        self._open_tables()

    def pair_next(self) -> ev.RoundPlay:
        """The next round's pairings, each game on a table of its own."""
        self.state = ev.pair_next(self.state, self.rng)
        return self._open_tables()

    def _open_tables(self) -> ev.RoundPlay:
        """The current round's games, each on a table of its own."""
        play = self.state.rounds[-1]
        games, wanted = [], []
        for match in play.matches:
            if match.b is None:
                continue
            a, b = self.state.player(match.a), self.state.player(match.b)
            setup = TableSetup(
                names=(a.name, b.name),
                army_values=(a.army_value, b.army_value),
                deployment=play.deployment,
                objective=play.objective,
                round_minutes=play.minutes,
            )
            games.append(match.game)
            wanted.append((setup, TableMeta(self.id, play.number, match.game, a.id, b.id)))
        for game, room in zip(games, self.hub.open_tables(wanted), strict=True):
            self.tables[(play.number, game)] = room.table_id  # opened together: one write
        return play

    def _room(self, number: int, game: int) -> TableRoom | None:
        table_id = self.tables.get((number, game))
        return None if table_id is None else self.hub.get(table_id)

    def rooms(self) -> list[TableRoom]:
        play = self.state.current
        if play is None:
            return []
        found = (self._room(play.number, m.game) for m in play.matches)
        return [room for room in found if room is not None]

    async def start_round(self) -> None:
        """DC11: the organiser starts the round timer on every table of the round, which
        opens the tables to their players (a player dropped meanwhile concedes)."""

        async def start(room: TableRoom) -> None:
            if isinstance(room.game, RwGame) and room.game.started_ms is None:
                await self.placement.execute(room, Role.EO, "", 0, rc.StartRound())
                room.schedule_flag()
            await self._concede_dropped(room)

        await at_every_table(self.rooms(), start)

    async def call_time(self) -> list[int]:
        """DC11: the organiser calls time: every table finishes its game round, but for
        a table whose extension ("Lost and Damaged Components") runs past now: its own
        timer calls its time at its end. Returns those tables' numbers."""
        now, extended, calling = self.hub.time.now_ms(), list[int](), list[TableRoom]()
        for room in self.rooms():
            game = room.game
            if not isinstance(game, RwGame) or game.phase is Phase.OVER:
                continue
            end = game.ends_ms()
            if game.extension_ms and end is not None and end > now and not game.time_called:
                assert room.meta is not None
                extended.append(room.meta.table_no)
                continue
            calling.append(room)
        call = rc.CallTime()
        await at_every_table(
            calling, lambda room: self.placement.execute(room, Role.EO, "", 0, call)
        )
        return extended

    async def extend(self, table_id: str, minutes: int, reason: str) -> RwGame:
        """Lost and Damaged Components: the organiser gives one table of the round
        under way a short time extension; its timer's end moves, and its phones and
        the dashboard follow."""
        number, _game = self.table_key(table_id)
        play = self.state.current
        if play is None or number != play.number:
            raise RuleError("only a table of the round under way can have more time")
        room = self.hub.get(table_id)
        if room is None or not isinstance(room.game, RwGame):
            raise NotFound(f"no Runewars table {table_id!r} in this event")
        await self.placement.execute(room, Role.EO, "", 0, rc.ExtendTime(minutes, reason))
        assert isinstance(room.game, RwGame)
        return room.game

    def collect(self) -> int:
        """Every finished table's result into the event, and every result the organiser
        judged on its table since (see `reconcile`); returns how many came in."""
        play = self.state.current
        taken = self.reconcile()
        if play is None:
            return taken
        for match in play.matches:
            if match.game in play.results:
                continue
            result = self._table_result(play.number, match)
            if result is not None:
                self.state = ev.record(self.state, match.game, result)
                taken += 1
        return taken

    def _finished_game(self, number: int, game_no: int) -> RwGame | None:
        room = self._room(number, game_no)
        game = None if room is None else room.game
        return game if isinstance(game, RwGame) and game.settled else None

    def _table_result(self, number: int, match: Match) -> ev.Result | None:
        """The finished table's outcome as the event's result (None: none yet, a bye)."""
        game = self._finished_game(number, match.game)
        if game is None or game.outcome is None or match.b is None:
            return None
        out = game.outcome
        return ev.results_from_table(int(out.winner), match.a, match.b, out.tp, out.mov)

    def reconcile(self) -> int:
        """TS11/ST5: the table's log is a judged result's one record. A result the
        organiser judged on its table that the event holds otherwise (the event's
        write after the table's failed, or was lost) is corrected from the table, so
        the event's write is safe to make again; returns how many were corrected."""
        fixed = 0
        for play in self.state.rounds:
            for match in play.matches:
                held = play.results.get(match.game)
                game = self._finished_game(play.number, match.game)
                if held is None or game is None or not game.judged:
                    continue
                result = self._table_result(play.number, match)
                if result is not None and _key(result) != _key(held):
                    self.state = ev.correct(self.state, play.number, match.game, result)
                    fixed += 1
        return fixed

    def table_key(self, table_id: str) -> tuple[int, int]:
        """The (round number, game number) a table of this event plays."""
        for key, found in self.tables.items():
            if found == table_id:
                return key
        raise NotFound(f"no table {table_id!r} in this event")

    async def judge(self, table_id: str, command: rc.JudgeScores) -> RwGame:
        """TS11/ST5: the organiser's result on the table (logged in its log, once: the
        very result the table has already, sent again, is not logged again); the table
        as it is now comes back."""
        number, _ = self.table_key(table_id)
        room = self.hub.get(table_id)
        if room is None or not isinstance(room.game, RwGame):
            raise NotFound(f"no Runewars table {table_id!r} in this event")
        game = room.game
        if game.started_ms is None:  # RP4: the round's pairings are not even public yet
            raise RuleError(
                f"round {number} has not started: its results are entered once the "
                "organiser starts the round"
            )
        if engine.apply(game, Role.EO, command, self.hub.time.now_ms()) != game:
            await self.placement.execute(room, Role.EO, "", 0, command)
        # else: the table has this very result already (a retry): its log stays as it is
        assert isinstance(room.game, RwGame)
        return room.game

    def take_judged(self, table_id: str) -> bool:
        """A judged table's outcome into the event: a result already recorded is
        corrected (True, also when the event holds it already: the write is made again);
        one not yet in is recorded like any finished table."""
        number, game_no = self.table_key(table_id)
        play = next(r for r in self.state.rounds if r.number == number)
        match = next(m for m in play.matches if m.game == game_no)
        result = self._table_result(number, match)
        if result is None:
            return False
        if game_no in play.results:
            self.state = ev.correct(self.state, number, game_no, result)
            return True
        if play is self.state.current:
            self.collect()
        return False

    def round_complete(self) -> bool:
        play = self.state.current
        if play is None:
            raise RuleError("no round is paired yet")
        return play.complete

    # -- standings ----------------------------------------------------------------

    def standings(self) -> list[Standing]:
        return self.state.standings()

    def standings_csv(self) -> str:
        return export_csv(self.standings())


def _key(result: ev.Result) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    return result.winner, tuple(result.tp), tuple(result.mov)
