"""Running an event: players, rounds, pairings, tables, results and standings.

The rules come from the domain (pairing, standings, tournament); this module keeps
the event in the store and opens one live table per pairing.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import col, select

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput, NotFound, RuleError, Unauthorized
from app.domain.formats import ListRule, get_format, split_lists
from app.domain.game import Phase, Setup
from app.domain.pairing import Pairing, pair_round, pairing_of
from app.domain.standings import Outcome, PlayerRecord, RoundRecord, Standing, standings
from app.domain.tournament import (
    RoundEndCall,
    RoundPlan,
    bye_award,
    cut_to_top,
    event_over,
    expected_end_ms,
    pick_scenario,
    round_end_call,
)
from app.store.models import EoAction, EventRecord, PlayerEntry, ResultEntry, RoundEntry
from app.store.repository import Store
from app.tables.hub import TableHub, new_id, new_token
from app.tables.room import TableMeta, TableRoom
from app.tables.timesource import TimeSource


@dataclass(frozen=True, slots=True)
class EventSpec:
    name: str
    format_id: str = "sr2019"
    points: int = 75
    lists: int | None = None  # None: the format's own choice (Masters must name one)
    fixed_rounds: int | None = None
    cut_to_top: int | None = None


@dataclass(frozen=True, slots=True)
class PairingRow:
    """A pairing of a round as stored: the domain pairing plus its live table."""

    table: int
    p1: str
    p2: str | None
    paired_down: str | None
    table_id: str | None


def _pairings(entry: RoundEntry) -> list[PairingRow]:
    return [PairingRow(**row) for row in json.loads(entry.pairings_json)]


def _dump_pairings(rows: Sequence[PairingRow]) -> str:
    return json.dumps(
        [
            {
                "table": r.table,
                "p1": r.p1,
                "p2": r.p2,
                "paired_down": r.paired_down,
                "table_id": r.table_id,
            }
            for r in rows
        ]
    )


def _list_played(result: dict[str, Any], index: int) -> str:
    lists = result.get("lists") or []
    return str(lists[index]) if index < len(lists) else ""


class EventService:
    def __init__(
        self,
        store: Store,
        hub: TableHub,
        time: TimeSource,
        rng: random.Random | None = None,
        players_per_event: int = 1024,
    ) -> None:
        self.store = store
        self.hub = hub
        self.time = time
        self.rng = rng or random.Random()
        self._round_ends: dict[str, asyncio.Task[None]] = {}
        self.players_per_event = players_per_event

    # -- the DC8 round-end timer ---------------------------------------------------

    def start_timers(self) -> None:
        with self.store.session() as session:
            running = session.exec(
                select(RoundEntry).where(
                    col(RoundEntry.expected_end_ms).is_not(None),
                    col(RoundEntry.end_calls_json).is_(None),
                )
            )
            for entry in running:
                self._schedule_round_end(entry)

    def _schedule_round_end(self, entry: RoundEntry) -> None:
        old = self._round_ends.pop(entry.event_id, None)
        if old is not None:
            old.cancel()
        if entry.expected_end_ms is not None:
            self._round_ends[entry.event_id] = asyncio.get_running_loop().create_task(
                self._round_end_when_due(entry.event_id, entry.expected_end_ms)
            )

    async def _round_end_when_due(self, event_id: str, at_ms: int) -> None:
        await self.time.sleep_until(at_ms)
        await self.call_round_end(event_id)

    async def close(self) -> None:
        for task in self._round_ends.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._round_ends.clear()

    # -- events -------------------------------------------------------------------

    def create_event(self, spec: EventSpec) -> EventRecord:
        fmt = get_format(spec.format_id)
        fmt.player_clock_ms(spec.points)
        name = spec.name.strip()
        if not name or len(name) > 120:
            raise BadInput("the event needs a name (120 characters at most)")
        lists = fmt.list_rule(spec.lists).lists
        if spec.fixed_rounds is not None and not 1 <= spec.fixed_rounds <= 12:
            raise BadInput("a fixed round count is between 1 and 12")
        if spec.cut_to_top is not None and not 2 <= spec.cut_to_top <= self.players_per_event:
            raise BadInput(
                f"Cut to Top X takes any X from 2 to the number of players "
                f"({self.players_per_event} at most)"
            )
        RoundPlan(rounds=spec.fixed_rounds, cut_to_top=spec.cut_to_top)
        event = EventRecord(
            id=new_id(),
            name=name,
            format_id=fmt.id,
            points=spec.points,
            lists=lists,
            fixed_rounds=spec.fixed_rounds,
            cut_to_top=spec.cut_to_top,
            admin_token=new_token(),
            created_ms=self.time.now_ms(),
        )
        with self.store.session() as session:
            session.add(event)
            session.commit()
        return event

    def event(self, event_id: str) -> EventRecord:
        with self.store.session() as session:
            event = session.get(EventRecord, event_id)
        if event is None:
            raise NotFound(f"no event {event_id!r}")
        return event

    def authorize(self, event_id: str, token: str | None) -> EventRecord:
        event = self.event(event_id)
        if not token or not secrets.compare_digest(token.encode(), event.admin_token.encode()):
            raise Unauthorized("this needs the EO's token (X-EO-Token header)")
        return event

    def _action(self, event_id: str, action: str, **detail: Any) -> EoAction:
        return EoAction(
            event_id=event_id,
            at_ms=self.time.now_ms(),
            action=action,
            detail_json=json.dumps(detail),
        )

    def log_action(self, event_id: str, action: str, **detail: Any) -> None:
        with self.store.session() as session:
            session.add(self._action(event_id, action, **detail))
            session.commit()

    def actions(self, event_id: str) -> list[EoAction]:
        with self.store.session() as session:
            return list(
                session.exec(
                    select(EoAction)
                    .where(col(EoAction.event_id) == event_id)
                    .order_by(col(EoAction.id))
                )
            )

    # -- players ------------------------------------------------------------------

    def players(self, event_id: str) -> list[PlayerEntry]:
        with self.store.session() as session:
            return list(
                session.exec(
                    select(PlayerEntry)
                    .where(col(PlayerEntry.event_id) == event_id)
                    .order_by(col(PlayerEntry.name))
                )
            )

    def player(self, event_id: str, player_id: str) -> PlayerEntry:
        with self.store.session() as session:
            player = session.get(PlayerEntry, player_id)
        if player is None or player.event_id != event_id:
            raise NotFound(f"no player {player_id!r} in this event")
        return player

    @staticmethod
    def _list_rule(event: EventRecord) -> ListRule:
        return get_format(event.format_id).list_rule(event.lists)

    @staticmethod
    def _clean(name: str, faction: str, lists: str) -> tuple[str, str, str]:
        name, faction, lists = name.strip(), faction.strip(), lists.strip()
        if not name or len(name) > 60:
            raise BadInput("a player needs a name (60 characters at most)")
        if len(faction) > 60 or len(lists) > 500:
            raise BadInput("faction is 60 characters at most, lists 500")
        return name, faction, lists

    def add_player(
        self, event_id: str, name: str, faction: str = "", lists: str = ""
    ) -> PlayerEntry:
        """Register a player; a late arrival joins from the next round (RP7: losses before)."""
        added, errors = self._add_players(event_id, [(name, faction, lists)])
        if errors:
            raise BadInput(errors[0][1])
        return added[0]

    def _add_players(
        self, event_id: str, rows: list[tuple[str, str, str]]
    ) -> tuple[list[PlayerEntry], list[tuple[int, str]]]:
        """Register several players in one transaction; bad rows come back by index."""
        list_rule = self._list_rule(self.event(event_id))
        taken = {p.name.lower() for p in self.players(event_id)}
        joined_round = len(self.rounds(event_id)) + 1
        added: list[PlayerEntry] = []
        errors: list[tuple[int, str]] = []
        for index, raw in enumerate(rows):
            try:
                name, faction, lists = self._clean(*raw)
                list_rule.check(len(split_lists(lists)))
                if name.lower() in taken:
                    raise BadInput(f"{name} is already registered")
                if len(taken) >= self.players_per_event:
                    raise BadInput(
                        f"an event takes {self.players_per_event} players at most "
                        f"({self.players_per_event // 2} tables)"
                    )
            except RuleError as exc:
                errors.append((index, exc.message))
                continue
            taken.add(name.lower())
            added.append(
                PlayerEntry(
                    id=secrets.token_hex(4),
                    event_id=event_id,
                    name=name,
                    faction=faction,
                    lists=lists,
                    joined_round=joined_round,
                )
            )
        if added:
            with self.store.session() as session:
                for player in added:
                    session.add(player)
                    session.add(
                        self._action(event_id, "add_player", player=player.id, name=player.name)
                    )
                session.commit()
        return added, errors

    def edit_player(
        self, event_id: str, player_id: str, name: str, faction: str, lists: str
    ) -> PlayerEntry:
        player = self.player(event_id, player_id)
        name, faction, lists = self._clean(name, faction, lists)
        self._list_rule(self.event(event_id)).check(len(split_lists(lists)))
        with self.store.session() as session:
            player.name, player.faction, player.lists = name, faction, lists
            session.add(player)
            session.commit()
        self.log_action(event_id, "edit_player", player=player_id, name=name)
        for room in self.hub.event_tables(event_id):  # the tables show the name as corrected
            if room.meta is not None and player_id in (room.meta.p1_player, room.meta.p2_player):
                names = list(room.game.setup.names)
                names[0 if room.meta.p1_player == player_id else 1] = name
                room.rename_players((names[0], names[1]))
        return player

    def drop_player(self, event_id: str, player_id: str, dropped: bool = True) -> PlayerEntry:
        """RP7: a dropped player is not paired again; undropping rejoins them."""
        player = self.player(event_id, player_id)
        with self.store.session() as session:
            player.dropped = dropped
            if not dropped:
                player.joined_round = max(player.joined_round, len(self.rounds(event_id)) + 1)
            session.add(player)
            session.commit()
        self.log_action(event_id, "drop" if dropped else "rejoin", player=player_id)
        return player

    def import_players(self, event_id: str, text: str) -> tuple[list[PlayerEntry], list[str]]:
        """CSV with a header row: name, faction, lists (faction and lists optional)."""
        if len(text) > 200_000:
            raise BadInput("the CSV file is too large (200 kB at most)")
        reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
        fields = [f.strip().lower() for f in (reader.fieldnames or [])]
        if "name" not in fields:
            raise BadInput("the CSV needs a header row with a 'name' column")
        rows: list[tuple[str, str, str]] = []
        for row in reader:
            clean = {(k or "").strip().lower(): (v or "") for k, v in row.items()}
            rows.append((clean.get("name", ""), clean.get("faction", ""), clean.get("lists", "")))
        added, errors = self._add_players(event_id, rows)
        return added, [f"line {index + 2}: {message}" for index, message in errors]

    # -- rounds -------------------------------------------------------------------

    def rounds(self, event_id: str) -> list[RoundEntry]:
        with self.store.session() as session:
            return list(
                session.exec(
                    select(RoundEntry)
                    .where(col(RoundEntry.event_id) == event_id)
                    .order_by(col(RoundEntry.number))
                )
            )

    def current_round(self, event_id: str) -> RoundEntry | None:
        rounds = self.rounds(event_id)
        return rounds[-1] if rounds else None

    def _results(self, event_id: str) -> dict[str, dict[str, Any]]:
        """Recorded results by table: the EO's entry, else the players' confirmed one."""
        recorded: dict[str, dict[str, Any]] = {}
        for room in self.hub.event_tables(event_id):
            game = room.game
            result = game.result()
            if result is not None and all(game.confirmed) and game.disputed is None:
                recorded[room.table_id] = {
                    "winner": None if result.winner is None else result.winner.name.lower(),
                    "control_points": list(result.control_points),
                    "army_points_destroyed": list(result.army_points_destroyed),
                    "lists": list(result.lists),
                    "method": result.method.value,
                    "by": "players",
                }
        with self.store.session() as session:
            for entry in session.exec(
                select(ResultEntry).where(col(ResultEntry.event_id) == event_id)
            ):
                recorded[entry.table_id] = {**json.loads(entry.result_json), "by": "eo"}
        return recorded

    def player_records(self, event_id: str) -> list[PlayerRecord]:
        event = self.event(event_id)
        entries = self.players(event_id)
        results = self._results(event_id)
        games: dict[str, list[RoundRecord]] = {p.id: [] for p in entries}
        bye_tp, bye_cp, bye_apd = bye_award(event.points)
        del bye_tp
        for rnd in self.rounds(event_id):
            if rnd.started_ms is None:
                continue  # RP4: a drafted round (its byes too) counts once it starts
            paired: set[str] = set()
            for row in _pairings(rnd):
                paired.update(x for x in (row.p1, row.p2) if x)
                if row.p2 is None:
                    games[row.p1].append(
                        RoundRecord(rnd.number, None, Outcome.BYE, bye_cp, bye_apd)
                    )
                    continue
                result = results.get(row.table_id or "")
                if result is None:
                    continue
                for index, (me, them) in enumerate(((row.p1, row.p2), (row.p2, row.p1))):
                    winner = result["winner"]
                    outcome = (
                        Outcome.TIE
                        if winner is None
                        else Outcome.WIN
                        if winner == ("p1", "p2")[index]
                        else Outcome.LOSS
                    )
                    games[me].append(
                        RoundRecord(
                            round=rnd.number,
                            opponent_id=them,
                            outcome=outcome,
                            control_points=int(result["control_points"][index]),
                            army_points_destroyed=int(result["army_points_destroyed"][index]),
                            list_played=_list_played(result, index),
                            paired_down=row.paired_down == me,
                        )
                    )
            for player in entries:
                if player.id not in paired and player.joined_round > rnd.number:
                    games[player.id].append(RoundRecord(rnd.number, None, Outcome.LOSS, 0, 0))
        return [
            PlayerRecord(
                id=p.id,
                name=p.name,
                faction=p.faction,
                dropped=p.dropped or p.cut,
                rounds=tuple(sorted(games[p.id], key=lambda g: g.round)),
            )
            for p in entries
        ]

    def standings(self, event_id: str) -> list[Standing]:
        return standings(self.player_records(event_id))

    def round_complete(self, entry: RoundEntry) -> bool:
        results = self._results(entry.event_id)
        return all(
            row.p2 is None or (row.table_id is not None and row.table_id in results)
            for row in _pairings(entry)
        )

    def plan(self, event_id: str) -> RoundPlan:
        event = self.event(event_id)
        return RoundPlan(rounds=event.fixed_rounds, cut_to_top=event.cut_to_top)

    def planned_rounds(self, event_id: str) -> int:
        """RP1 by the number of registered players, or the EO's fixed count."""
        return self.plan(event_id).round_limit(max(len(self.players(event_id)), 2))

    def event_over(self, event_id: str) -> bool:
        """RP1: all rounds played, or one player leads on TP alone after a round."""
        rounds = self.rounds(event_id)
        if not rounds or not self.round_complete(rounds[-1]):
            return False
        return event_over(self.player_records(event_id), len(rounds), self.plan(event_id))

    def pair_next_round(self, event_id: str, scenario: str | None = None) -> RoundEntry:
        """Draft the next round: scenario (RP4), pairings (RP2/RP3) and their tables."""
        event = self.event(event_id)
        rounds = self.rounds(event_id)
        if rounds and rounds[-1].started_ms is None:
            raise RuleError(f"round {rounds[-1].number} is paired but not started yet")
        if rounds and not self.round_complete(rounds[-1]):
            raise RuleError(f"round {rounds[-1].number} still has results to come in")
        if self.event_over(event_id):
            raise RuleError("the event is over: see the final standings")
        number = len(rounds) + 1
        if number == 1:
            self.plan(event_id).check_field(sum(1 for p in self.players(event_id) if not p.dropped))
        self._apply_cut(event)
        records = self.player_records(event_id)
        entries = {p.id: p for p in self.players(event_id)}
        active = [
            r
            for r in records
            if not entries[r.id].dropped
            and not entries[r.id].cut
            and entries[r.id].joined_round <= number
        ]
        pairings = pair_round(active, number, self.rng)
        fmt = get_format(event.format_id)
        scenario_id = pick_scenario(
            [s.id for s in fmt.scenarios], [r.scenario_id for r in rounds], self.rng, scenario
        )
        entry = RoundEntry(
            event_id=event_id,
            number=number,
            scenario_id=scenario_id,
            pairings_json=_dump_pairings(
                [self._open(event, number, scenario_id, p) for p in pairings]
            ),
        )
        with self.store.session() as session:
            session.add(entry)
            session.commit()
        self.log_action(event_id, "pair_round", round=number, scenario=scenario_id)
        return entry

    def _apply_cut(self, event: EventRecord) -> None:
        if event.cut_to_top is None or event.cut_done or not self.rounds(event.id):
            return
        keep = cut_to_top(self.player_records(event.id), event.cut_to_top)
        if keep is None:
            return
        with self.store.session() as session:
            for player in self.players(event.id):
                if player.id not in keep:
                    player.cut = True
                    session.add(player)
            event.cut_done = True
            session.add(event)
            session.commit()
        self.log_action(event.id, "cut_to_top", keep=sorted(keep))

    def _open(
        self, event: EventRecord, number: int, scenario_id: str, pairing: Pairing
    ) -> PairingRow:
        if pairing.p2 is None:
            return PairingRow(pairing.table, pairing.p1, None, pairing.paired_down, None)
        p1 = self.player(event.id, pairing.p1)
        p2 = self.player(event.id, pairing.p2)
        fmt = get_format(event.format_id)
        setup = Setup(
            format_id=fmt.id,
            scenario_id=scenario_id,
            player_clock_ms=fmt.player_clock_ms(event.points),
            army_points=event.points,
            names=(p1.name, p2.name),
        )
        meta = TableMeta(event.id, number, pairing.table, p1.id, p2.id)
        room = self.hub.open_table(setup, meta)
        return PairingRow(pairing.table, p1.id, p2.id, pairing.paired_down, room.table_id)

    def swap(self, event_id: str, a: str, b: str) -> list[str]:
        """Swap two players between pairings of a round not started yet; warns on rematches."""
        event = self.event(event_id)
        entry = self.current_round(event_id)
        if entry is None or entry.started_ms is not None:
            raise RuleError("players can only be swapped before the round starts")
        if a == b:
            raise BadInput("choose two different players")
        rows = _pairings(entry)

        def seat_of(player_id: str) -> tuple[int, str]:
            for i, row in enumerate(rows):
                if row.p1 == player_id:
                    return i, "p1"
                if row.p2 == player_id:
                    return i, "p2"
            raise NotFound(f"player {player_id!r} is not paired this round")

        (ia, sa), (ib, sb) = seat_of(a), seat_of(b)
        rows[ia] = replace(rows[ia], p1=b) if sa == "p1" else replace(rows[ia], p2=b)
        rows[ib] = replace(rows[ib], p1=a) if sb == "p1" else replace(rows[ib], p2=a)
        records = self.player_records(event_id)
        history = {p.id: set(p.opponents) for p in records}
        downs = {p.id: p.paired_down_count for p in records}
        warnings = []
        reopened = []
        for i in sorted({ia, ib}):
            row = rows[i]
            if row.table_id is not None:
                self.hub.discard(row.table_id)
            pairing = pairing_of(row.table, row.p1, row.p2, records)
            if row.p2 is None:
                reopened.append(replace(row, table_id=None, paired_down=None))
                continue
            if row.p2 in history.get(row.p1, set()):
                names = (self.player(event_id, row.p1).name, self.player(event_id, row.p2).name)
                warnings.append(f"rematch: {names[0]} and {names[1]} have played each other")
            if pairing.paired_down is not None and downs.get(pairing.paired_down, 0):
                name = self.player(event_id, pairing.paired_down).name
                warnings.append(f"{name} was already paired down once in this event")
            reopened.append(self._open(event, entry.number, entry.scenario_id, pairing))
        for row in reopened:
            rows[next(i for i in (ia, ib) if rows[i].table == row.table)] = row
        with self.store.session() as session:
            entry.pairings_json = _dump_pairings(rows)
            session.add(entry)
            session.commit()
        self.log_action(event_id, "swap", a=a, b=b, warnings=warnings)
        return warnings

    async def start_round(self, event_id: str) -> RoundEntry:
        """DC4: every clock starts now; the round ends after both player clocks."""
        event = self.event(event_id)
        entry = self.current_round(event_id)
        if entry is None:
            raise RuleError("pair a round first")
        if entry.started_ms is not None:
            raise RuleError(f"round {entry.number} has already started")
        for row in _pairings(entry):
            room = self.hub.get(row.table_id or "")
            if room is not None and room.game.phase is Phase.READY:
                await room.execute(c.Role.EO, "", 0, c.StartClock())
        now = self.time.now_ms()
        clock_ms = get_format(event.format_id).player_clock_ms(event.points)
        with self.store.session() as session:
            entry.started_ms = now
            entry.expected_end_ms = expected_end_ms(now, clock_ms)
            session.add(entry)
            session.commit()
        self.log_action(event_id, "start_round", round=entry.number)
        self._schedule_round_end(entry)
        return entry

    async def call_round_end(self, event_id: str) -> dict[str, str]:
        """DC8 at the round's end time: play on under 5 minutes combined, else a tie."""
        entry = self.current_round(event_id)
        if entry is None or entry.expected_end_ms is None:
            raise RuleError("no round is running")
        if entry.end_calls_json is not None:
            calls: dict[str, str] = json.loads(entry.end_calls_json)
            return calls
        now = self.time.now_ms()
        calls = {}
        for row in _pairings(entry):
            room = self.hub.get(row.table_id or "")
            if room is None or room.game.phase is Phase.OVER:
                continue
            if room.broken is None:  # a clock that ran out by now is decided first (DC7)
                await room.execute(c.Role.SYSTEM, "", 0, c.FlagCheck())
            game = room.game
            if game.phase is Phase.OVER:
                continue
            remaining = (game.remaining(game.active, now), game.remaining(game.active.other, now))
            call = round_end_call(
                remaining, game.paused_by_eo, clock_ran_out=game.phase is Phase.CLOCK_OUT
            )
            calls[room.table_id] = call.value
            if call is RoundEndCall.TIE:
                await room.execute(c.Role.SYSTEM, "", 0, c.CallTie())
        with self.store.session() as session:
            entry.end_calls_json = json.dumps(calls)
            session.add(entry)
            session.commit()
        self.log_action(event_id, "round_end", round=entry.number, calls=calls)
        return calls

    async def enter_result(self, event_id: str, table_id: str, result: dict[str, Any]) -> None:
        """The EO enters or corrects a table's result; it overrides the players' own.

        A game still in play ends with it (its clock stops) and both phones show it.
        """
        room = self.hub.get(table_id)
        if room is None or room.meta is None or room.meta.event_id != event_id:
            raise NotFound(f"no table {table_id!r} in this event")
        winner = result.get("winner")
        if winner not in ("p1", "p2", None):
            raise BadInput("winner must be 'p1', 'p2' or null for a tie")
        pairs = {}
        for key in ("control_points", "army_points_destroyed"):
            value = result.get(key)
            if (
                not isinstance(value, list)
                or len(value) != 2
                or not all(isinstance(v, int) and 0 <= v <= 10_000 for v in value)
            ):
                raise BadInput(f"{key} must be two whole numbers from 0, [P1, P2]")
            pairs[key] = value
        stored = {
            "winner": winner,
            "method": str(result.get("method") or "eo"),
            "lists": ([str(x)[:200] for x in (result.get("lists") or [])] + ["", ""])[:2],
            **pairs,
        }
        correction = self._correction(event_id, table_id, room, str(result.get("reason") or ""))
        if correction is not None:
            stored["correction"] = correction
        with self.store.session() as session:
            session.merge(
                ResultEntry(
                    table_id=table_id,
                    event_id=event_id,
                    result_json=json.dumps(stored),
                    at_ms=self.time.now_ms(),
                )
            )
            session.commit()
        action = "enter_result" if correction is None else "correct_result"
        self.log_action(event_id, action, table=table_id, result=stored)
        if room.broken is None:
            await room.execute(
                c.Role.EO,
                "",
                0,
                c.RecordResult(
                    winner=None if winner is None else Side.parse(winner),
                    control_points=(pairs["control_points"][0], pairs["control_points"][1]),
                    army_points_destroyed=(
                        pairs["army_points_destroyed"][0],
                        pairs["army_points_destroyed"][1],
                    ),
                ),
            )

    def _correction(
        self, event_id: str, table_id: str, room: TableRoom, reason: str
    ) -> dict[str, Any] | None:
        """TS9: a settled result (both players confirmed it, or the EO entered it) moves
        only by the EO, with the reason; in a closed round it shows as a correction."""
        before = self.table_result(event_id, table_id)
        if before is None:
            return None
        reason = reason.strip()
        if not reason:
            raise BadInput("this result is settled: give the reason for the correction")
        before.pop("correction", None)
        number = room.meta.round_number if room.meta is not None else 0
        return {
            "reason": reason[:300],
            "at_ms": self.time.now_ms(),
            "before": before,
            "round_closed": number < len(self.rounds(event_id)) or self.event_over(event_id),
        }

    def table_result(self, event_id: str, table_id: str) -> dict[str, Any] | None:
        return self._results(event_id).get(table_id)

    def rooms(self, event_id: str) -> list[TableRoom]:
        return sorted(
            self.hub.event_tables(event_id),
            key=lambda r: (r.meta.round_number, r.meta.table_no) if r.meta else (0, 0),
        )
