"""Results and standings: what each table recorded (the players' confirmed result or
the EO's entry), the players' records, RP1's end of the event, and the EO's results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.formats import get_format
from app.domain.standings import (
    Outcome,
    PlayerRecord,
    RoundRecord,
    Standing,
    ruleset_standings,
)
from app.domain.tournament import RoundPlan, bye_award, event_over
from app.events.base import EventBase, PairingRow, pairings_of
from app.events.table_result import (
    Correction,
    TableResult,
    by_seat,
    players_result,
    seats_swapped,
)
from app.store.models import EventRecord, PlayerEntry, RoundEntry
from app.tables.room import TableRoom


def _game_records(rnd: RoundEntry, row: PairingRow, result: TableResult) -> list[RoundRecord]:
    """Both players' records of one played game (P1's, then P2's)."""
    records = []
    for index, (me, them) in enumerate(((row.p1, row.p2), (row.p2, row.p1))):
        outcome = {"win": Outcome.WIN, "loss": Outcome.LOSS, "tie": Outcome.TIE}[
            result.outcome_for((Side.P1, Side.P2)[index])
        ]
        records.append(
            RoundRecord(
                round=rnd.number,
                opponent_id=them,
                outcome=outcome,
                control_points=result.control_points[index],
                army_points_destroyed=result.army_points_destroyed[index],
                list_played=result.lists[index],
                paired_down=row.paired_down == me,
            )
        )
    return records


def recorded_results(
    rooms: Iterable[TableRoom], eo_results: Mapping[str, TableResult]
) -> dict[str, TableResult]:
    """Recorded results by table: the EO's entry, else the players' confirmed one."""
    recorded: dict[str, TableResult] = {}
    for room in rooms:
        result = players_result(room.game)
        if result is not None:
            recorded[room.table_id] = result
    recorded.update(eo_results)
    return recorded


def records_of(
    event: EventRecord,
    entries: Sequence[PlayerEntry],
    rounds: Sequence[RoundEntry],
    results: Mapping[str, TableResult],
) -> list[PlayerRecord]:
    """Every player's games so far, from the event as stored and its results."""
    games: dict[str, list[RoundRecord]] = {p.id: [] for p in entries}
    _, bye_cp, bye_apd = bye_award(event.points, get_format(event.format_id))
    for rnd in rounds:
        if rnd.started_ms is None:
            continue  # RP4: a drafted round (its byes too) counts once it starts
        paired: set[str] = set()
        for row in pairings_of(rnd):
            paired.update(x for x in (row.p1, row.p2) if x)
            if row.p2 is None:
                games[row.p1].append(RoundRecord(rnd.number, None, Outcome.BYE, bye_cp, bye_apd))
                continue
            result = results.get(row.table_id or "")
            if result is None:
                continue
            first, second = _game_records(rnd, row, result)
            games[row.p1].append(first)
            games[row.p2].append(second)
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


def complete(entry: RoundEntry, results: Mapping[str, TableResult]) -> bool:
    """Every game of the round has its result (a bye needs none)."""
    return all(
        row.p2 is None or (row.table_id is not None and row.table_id in results)
        for row in pairings_of(entry)
    )


def plan_of(event: EventRecord) -> RoundPlan:
    return RoundPlan(rounds=event.fixed_rounds, cut_to_top=event.cut_to_top)


def over(
    event: EventRecord,
    rounds: Sequence[RoundEntry],
    records: Sequence[PlayerRecord],
    results: Mapping[str, TableResult],
) -> bool:
    """RP1: all rounds played, or one player leads on TP alone after a round."""
    if not rounds or not complete(rounds[-1], results):
        return False
    return event_over(records, len(rounds), plan_of(event))


class Results(EventBase):
    def _results(self, event_id: str) -> dict[str, TableResult]:
        """Recorded results by table: the EO's entry, else the players' confirmed one."""
        with self.db.read() as repo:
            eo_results = repo.results(event_id)
        return recorded_results(self.hub.event_tables(event_id), eo_results)

    def player_records(self, event_id: str) -> list[PlayerRecord]:
        return self._records(event_id, self.players(event_id))

    def _records(self, event_id: str, entries: list[PlayerEntry]) -> list[PlayerRecord]:
        event = self.event(event_id)
        return records_of(event, entries, self.rounds(event_id), self._results(event_id))

    def standings(self, event_id: str) -> list[Standing]:
        rules = get_format(self.event(event_id).format_id)
        return ruleset_standings(self.player_records(event_id), rules)

    def round_complete(self, entry: RoundEntry) -> bool:
        return complete(entry, self._results(entry.event_id))

    def plan(self, event_id: str) -> RoundPlan:
        return plan_of(self.event(event_id))

    def planned_rounds(self, event_id: str) -> int:
        """RP1 by the number of registered players, or the EO's fixed count."""
        return self.plan(event_id).round_limit(max(len(self.players(event_id)), 2))

    def event_over(self, event_id: str) -> bool:
        """RP1: all rounds played, or one player leads on TP alone after a round."""
        rounds = self.rounds(event_id)
        if not rounds or not self.round_complete(rounds[-1]):
            return False
        return event_over(self.player_records(event_id), len(rounds), self.plan(event_id))

    def table_result(self, event_id: str, table_id: str) -> TableResult | None:
        return self._results(event_id).get(table_id)

    # -- the EO's results ---------------------------------------------------------

    async def enter_result(
        self, event_id: str, table_id: str, result: TableResult, reason: str = ""
    ) -> None:
        """The EO enters or corrects a table's result; it overrides the players' own.

        A game still in play ends with it (its clock stops) and both phones show it.
        """
        room = self.event_table(event_id, table_id)
        correction = self._correction(event_id, table_id, room, reason)
        entered = replace(result, by="eo", correction=correction)
        action = "enter_result" if correction is None else "correct_result"
        with self.db.unit() as repo:
            repo.put_result(event_id, table_id, entered, self.time.now_ms())
            detail = entered.stored_json()
            repo.add(self._action(event_id, action, table=table_id, result=detail))
        if room.broken is None:  # the table's sides: P1 is whoever went first
            played = by_seat(entered, seats_swapped(room.game))
            command = c.RecordResult(
                winner=played.winner,
                control_points=played.control_points,
                army_points_destroyed=played.army_points_destroyed,
            )
            await room.execute(c.Role.EO, "", 0, command)
        self.changed(event_id)

    def _correction(
        self, event_id: str, table_id: str, room: TableRoom, reason: str
    ) -> Correction | None:
        """TS9: a settled result (both players confirmed it, or the EO entered it) moves
        only by the EO, with the reason; in a closed round it shows as a correction."""
        before = self.table_result(event_id, table_id)
        if before is None:
            return None
        reason = reason.strip()
        if not reason:
            raise BadInput("this result is settled: give the reason for the correction")
        number = room.meta.round_number if room.meta is not None else 0
        return Correction(
            reason=reason[:300],
            at_ms=self.time.now_ms(),
            before=before.plain(),
            round_closed=number < len(self.rounds(event_id)) or self.event_over(event_id),
        )
