"""Rounds: pairing (RP2/RP3) with the cut (RP1), swaps and the start (DC4); the DC8
round end is app.events.round_end's.

A use case does its work on the live tables first, then writes the event's side in
one unit of work; if that fails, the tables it opened are discarded again, so a
failure half way leaves neither half a round nor tables nobody plays on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from app.domain import commands as c
from app.domain.errors import BadInput, NotFound, RuleError
from app.domain.formats import get_format, rules_for_scenario
from app.domain.game import Phase, Setup
from app.domain.pairing import Memory, Pairing, pair_with_notes, pairing_of
from app.domain.rankings import get_ranking, pair_finals
from app.domain.standings import PlayerRecord
from app.domain.tournament import (
    cut_to_top,
)
from app.events.base import (
    PairingRow,
    dump_pairings,
    event_clock_ms,
    event_variants,
    pairings_of,
)
from app.events.book import EventBook
from app.events.every_table import at_every_table
from app.events.pregame import Pregame
from app.events.results import Results, event_ranking
from app.events.round_clock import RoundClock
from app.store.models import EventRecord, PlayerEntry, RoundEntry
from app.tables.hub import TableHub
from app.tables.placement import Placement
from app.tables.room import TableMeta
from app.tables.timesource import TimeSource


def _seat_of(rows: list[PairingRow], player_id: str) -> tuple[int, str]:
    for i, row in enumerate(rows):
        if row.p1 == player_id:
            return i, "p1"
        if row.p2 == player_id:
            return i, "p2"
    raise NotFound(f"player {player_id!r} is not paired this round")


def _seat(row: PairingRow, side: str, player_id: str) -> PairingRow:
    return replace(row, p1=player_id) if side == "p1" else replace(row, p2=player_id)


class Rounds:
    """The EO's rounds: pairing the next one, swapping players before it starts, and
    starting it."""

    def __init__(
        self,
        book: EventBook,
        hub: TableHub,
        placement: Placement,
        time: TimeSource,
        rng: random.Random,
        results: Results,
        pregame: Pregame,
        clock: RoundClock,
    ) -> None:
        self.book = book
        self.hub = hub
        self.placement = placement
        self.time = time
        self.rng = rng
        self.results = results
        self.pregame = pregame
        self.clock = clock

    # -- tables -------------------------------------------------------------------

    def _open(
        self,
        event: EventRecord,
        number: int,
        scenario_id: str,
        pairings: Sequence[Pairing],
        players: list[PlayerEntry] | None = None,
    ) -> list[PairingRow]:
        """The pairings' rows, each game on a new table (a bye has none), the tables
        opened together: the database is asked a fixed number of times for a round,
        not a few times a table, while every table of the worker waits."""
        entries = {p.id: p for p in players or self.book.players(event.id)}

        def entry(player_id: str) -> PlayerEntry:
            found = entries.get(player_id)
            if found is None:
                raise NotFound(f"no player {player_id!r} in this event")
            return found

        fmt = rules_for_scenario(get_format(event.format_id), scenario_id)
        wanted = []
        for pairing in pairings:
            if pairing.p2 is None:
                continue
            p1, p2 = entry(pairing.p1), entry(pairing.p2)
            setup = Setup(
                format_id=fmt.id,
                scenario_id=scenario_id,
                player_clock_ms=event_clock_ms(event),
                army_points=event.points,
                names=(p1.name, p2.name),
                variants=event_variants(event),
            )
            wanted.append((setup, TableMeta(event.id, number, pairing.table, p1.id, p2.id)))
        rooms = iter(self.hub.open_tables(wanted))
        return [
            PairingRow(pairing.table, pairing.p1, pairing.p2, pairing.paired_down, None)
            if pairing.p2 is None
            else PairingRow(
                pairing.table, pairing.p1, pairing.p2, pairing.paired_down, next(rooms).table_id
            )
            for pairing in pairings
        ]

    def discard(self, rows: Iterable[PairingRow]) -> None:
        """The rows' tables go (a bye has none)."""
        for row in rows:
            if row.table_id is not None:
                self.hub.discard(row.table_id)

    # -- pairing ------------------------------------------------------------------

    def _check_can_pair(self, event_id: str, rounds: list[RoundEntry]) -> None:
        if rounds and rounds[-1].started_ms is None:
            raise RuleError(f"round {rounds[-1].number} is paired but not started yet")
        if rounds and not self.results.round_complete(rounds[-1]):
            raise RuleError(f"round {rounds[-1].number} still has results to come in")
        if self.results.event_over(event_id):
            raise RuleError("the event is over: see the final standings")
        if not rounds:
            players = self.book.players(event_id)
            self.results.plan(event_id).check_field(sum(1 for p in players if not p.dropped))

    def _cut(self, event: EventRecord, played: bool) -> list[str] | None:
        """RP1: the players the cut keeps, when it is due now (else None)."""
        if event.cut_to_top is None or event.cut_done or not played:
            return None
        records = self.results.player_records(event.id)
        tp, keys = get_format(event.format_id).tp, event_ranking(event).keys
        return cut_to_top(records, event.cut_to_top, tp, keys)

    def pair_next(self, event_id: str, scenario: str | None = None) -> RoundEntry:
        """Draft the next round: scenario (RP4), pairings (RP2/RP3) and their tables."""
        event = self.book.require(event_id, "rounds")
        rounds = self.book.rounds(event_id)
        self._check_can_pair(event_id, rounds)
        number = len(rounds) + 1
        keep = self._cut(event, bool(rounds))
        players = self.book.players(event_id)
        newly_cut = [p for p in players if keep is not None and p.id not in keep]
        for player in newly_cut:
            player.cut = True
        records = self.results.records(event_id, players)
        active = self._active(records, players, number)
        ranking = get_ranking(event.standings)
        memory = self._memory(event, players, rounds)
        if ranking.finals_places and number == self.results.planned_rounds(event_id):
            paired = pair_finals(active, number, self.rng, ranking, memory=memory)
        else:
            paired = pair_with_notes(active, number, self.rng, memory=memory)
        pairings = paired.pairings
        fmt = rules_for_scenario(get_format(event.format_id), scenario)
        scenario_id = fmt.pick_scenario(
            [s.id for s in fmt.scenarios], [r.scenario_id for r in rounds], self.rng, scenario
        )
        opened: list[PairingRow] = []
        try:
            opened = self._open(event, number, scenario_id, pairings, players)
            entry = RoundEntry(
                event_id=event_id,
                number=number,
                scenario_id=scenario_id,
                pairings_json=dump_pairings(opened),
                notes_json=json.dumps(paired.notes),
            )
            with self.book.unit() as repo:
                if keep is not None:
                    event.cut_done = True
                    repo.add(event, *newly_cut)
                    repo.add(
                        self.book.action(event_id, "cut_to_top", keep=sorted(keep), round=number)
                    )
                repo.add(entry)
                repo.add(
                    self.book.action(event_id, "pair_round", round=number, scenario=scenario_id)
                )
        except BaseException:
            self.discard(opened)
            raise
        self.book.changed(event_id)
        return entry

    @staticmethod
    def _memory(event: EventRecord, players: list[PlayerEntry], rounds: list[RoundEntry]) -> Memory:
        """The players' clubs and seeds (RP5) and, with fresh tables, where each sat."""
        sat: dict[str, dict[int, int]] | None = None
        if event.fresh_tables:
            sat = {}
            for entry in rounds:
                for row in pairings_of(entry):
                    for player_id in (row.p1, row.p2) if row.p2 is not None else ():
                        sat.setdefault(player_id, {})[row.table] = entry.number
        return Memory(
            clubs={p.id: p.club for p in players if p.club},
            seeds={p.id: p.seed_qp for p in players if p.seed_qp is not None},
            sat=sat,
        )

    @staticmethod
    def _active(
        records: list[PlayerRecord], players: list[PlayerEntry], number: int
    ) -> list[PlayerRecord]:
        entries = {p.id: p for p in players}
        return [
            r
            for r in records
            if not entries[r.id].dropped
            and not entries[r.id].cut
            and entries[r.id].joined_round <= number
        ]

    # -- swaps --------------------------------------------------------------------

    def _swap_warnings(
        self, event_id: str, row: PairingRow, pairing: Pairing, records: list[PlayerRecord]
    ) -> list[str]:
        history = {p.id: set(p.opponents) for p in records}
        downs = {p.id: p.paired_down_count for p in records}
        warnings = []
        if row.p2 in history.get(row.p1, set()):
            player = self.book.player
            names = (player(event_id, row.p1).name, player(event_id, row.p2 or "").name)
            warnings.append(f"rematch: {names[0]} and {names[1]} have played each other")
        if pairing.paired_down is not None and downs.get(pairing.paired_down, 0):
            name = self.book.player(event_id, pairing.paired_down).name
            warnings.append(f"{name} was already paired down once in this event")
        return warnings

    def swap(self, event_id: str, a: str, b: str) -> list[str]:
        """Swap two players between pairings of a round not started yet; warns on rematches."""
        event = self.book.require(event_id, "swap")
        entry = self.book.current_round(event_id)
        if entry is None or entry.started_ms is not None:
            raise RuleError("players can only be swapped before the round starts")
        if a == b:
            raise BadInput("choose two different players")
        rows = pairings_of(entry)
        (ia, sa), (ib, sb) = _seat_of(rows, a), _seat_of(rows, b)
        rows[ia] = _seat(rows[ia], sa, b)
        rows[ib] = _seat(rows[ib], sb, a)
        records = self.results.player_records(event_id)
        warnings: list[str] = []
        before = [rows[i] for i in sorted({ia, ib})]
        for row in before:
            room = self.hub.rooms.get(row.table_id or "")
            if room is not None and room.version > 0:
                raise RuleError("a table whose game has begun cannot be removed")
        opened: list[PairingRow] = []
        try:
            for row in before:
                pairing = pairing_of(row.table, row.p1, row.p2, records)
                if row.p2 is None:
                    new_row = replace(row, table_id=None, paired_down=None)
                else:
                    warnings += self._swap_warnings(event_id, row, pairing, records)
                    new_row = self._open(event, entry.number, entry.scenario_id, [pairing])[0]
                    opened.append(new_row)
                rows[next(i for i in (ia, ib) if rows[i].table == new_row.table)] = new_row
            names = [self.book.player(event_id, i).name for i in (a, b)]
            seated = {p for row in before for p in (row.p1, row.p2) if p}
            named = {p: self.book.player(event_id, p).name for p in seated}
            swapped = f"{names[0]} and {names[1]} were swapped by the EO after the pairing"
            notes = [*json.loads(entry.notes_json), swapped]
            with self.book.unit() as repo:
                entry.pairings_json = dump_pairings(rows)
                entry.notes_json = json.dumps(notes)
                discarded = [r.table_id for r in before if r.table_id]
                action = self.book.action(
                    event_id,
                    "swap",
                    a=a,
                    b=b,
                    warnings=warnings,
                    discarded=discarded,
                    round=entry.number,
                    names=named,
                )
                repo.add(entry, action)
        except BaseException:
            self.discard(opened)
            raise
        self.discard(before)  # the old tables, once the new pairings are stored
        self.book.changed(event_id)
        return warnings

    # -- the round's clock --------------------------------------------------------

    async def start(self, event_id: str) -> RoundEntry:
        """Every table goes into its pre-game, off the clock ("Starting the Game"): with
        the pre-game on the phones the whole of it (lists, the starting roll, sides),
        else only the starting roll and its winner's choice to go first or second. Each
        table's clocks start when its first player starts deployment, and the round's
        end (DC4) is set once the last table has begun (`RoundClock`)."""
        event = self.book.require(event_id, "rounds")
        entry = self.book.current_round(event_id)
        if entry is None:
            raise RuleError("pair a round first")
        if entry.started_ms is not None:
            raise RuleError(f"round {entry.number} has already started")
        opening = self.pregame.opening(event, entry)
        offers = {} if event.pregame else self.pregame.list_offers(event, entry.number)

        async def open_table(row: PairingRow) -> None:
            room = self.hub.get(row.table_id or "")
            if room is None or room.game.phase is not Phase.READY or room.game.pregame:
                return
            p1, p2 = offers.get(row.p1, ()), offers.get(row.p2 or "", ())
            if p1 or p2:
                offer = c.OfferLists(p1=p1, p2=p2)
                await self.placement.execute(room, c.Role.SYSTEM, "", 0, offer)
            await self.placement.execute(room, c.Role.EO, "", 0, opening(row))

        await at_every_table(pairings_of(entry), open_table)
        with self.book.unit() as repo:
            entry.started_ms = self.time.now_ms()
            entry.expected_end_ms = None
            repo.add(entry, self.book.action(event_id, "start_round", round=entry.number))
        self.clock.round_started(entry)
        self.book.changed(event_id)
        return entry
