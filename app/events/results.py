"""Results and standings: what each table recorded (the players' confirmed result or
the EO's entry), the players' records, RP1's end of the event, and the EO's results."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.domain import commands as c
from app.domain.clock import Side
from app.domain.errors import BadInput
from app.domain.game import Game
from app.domain.standings import Outcome, PlayerRecord, RoundRecord, Standing, standings
from app.domain.tournament import RoundPlan, bye_award, event_over
from app.events.base import EventBase, NotFound, PairingRow, pairings_of
from app.store.models import EventRecord, PlayerEntry, ResultEntry, RoundEntry
from app.tables.room import TableRoom

#: A table's result as the API shows it: winner "p1"/"p2"/None, the [P1, P2] points,
#: lists and method, "by" ("players" or "eo") and, for a correction, "correction".
ResultDict = dict[str, Any]


def _list_played(result: ResultDict, index: int) -> str:
    lists = result.get("lists") or []
    return str(lists[index]) if index < len(lists) else ""


def players_result(game: Game) -> ResultDict | None:
    """The table's own result, once both players confirmed it and nobody disputes it."""
    result = game.result()
    if result is None or not all(game.confirmed) or game.disputed is not None:
        return None
    return {
        "winner": None if result.winner is None else result.winner.name.lower(),
        "control_points": list(result.control_points),
        "army_points_destroyed": list(result.army_points_destroyed),
        "lists": list(result.lists),
        "method": result.method.value,
        "by": "players",
    }


def _game_records(rnd: RoundEntry, row: PairingRow, result: ResultDict) -> list[RoundRecord]:
    """Both players' records of one played game (P1's, then P2's)."""
    records = []
    for index, them in enumerate((row.p2, row.p1)):
        winner = result["winner"]
        outcome = (
            Outcome.TIE
            if winner is None
            else Outcome.WIN
            if winner == ("p1", "p2")[index]
            else Outcome.LOSS
        )
        me = row.p1 if index == 0 else row.p2
        records.append(
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
    return records


def checked_result(result: dict[str, Any]) -> ResultDict:
    """The EO's result as given, checked, in the form it is stored."""
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
    return {
        "winner": winner,
        "method": str(result.get("method") or "eo"),
        "lists": ([str(x)[:200] for x in (result.get("lists") or [])] + ["", ""])[:2],
        **pairs,
    }


def recorded_results(
    rooms: Iterable[TableRoom], eo_results: Iterable[ResultEntry]
) -> dict[str, ResultDict]:
    """Recorded results by table: the EO's entry, else the players' confirmed one."""
    recorded: dict[str, ResultDict] = {}
    for room in rooms:
        result = players_result(room.game)
        if result is not None:
            recorded[room.table_id] = result
    for entry in eo_results:
        recorded[entry.table_id] = {**json.loads(entry.result_json), "by": "eo"}
    return recorded


def records_of(
    event: EventRecord,
    entries: Sequence[PlayerEntry],
    rounds: Sequence[RoundEntry],
    results: Mapping[str, ResultDict],
) -> list[PlayerRecord]:
    """Every player's games so far, from the event as stored and its results."""
    games: dict[str, list[RoundRecord]] = {p.id: [] for p in entries}
    _, bye_cp, bye_apd = bye_award(event.points)
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


def complete(entry: RoundEntry, results: Mapping[str, ResultDict]) -> bool:
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
    results: Mapping[str, ResultDict],
) -> bool:
    """RP1: all rounds played, or one player leads on TP alone after a round."""
    if not rounds or not complete(rounds[-1], results):
        return False
    return event_over(records, len(rounds), plan_of(event))


class Results(EventBase):
    def _results(self, event_id: str) -> dict[str, ResultDict]:
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
        return standings(self.player_records(event_id))

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

    def table_result(self, event_id: str, table_id: str) -> ResultDict | None:
        return self._results(event_id).get(table_id)

    # -- the EO's results ---------------------------------------------------------

    async def enter_result(self, event_id: str, table_id: str, result: dict[str, Any]) -> None:
        """The EO enters or corrects a table's result; it overrides the players' own.

        A game still in play ends with it (its clock stops) and both phones show it.
        """
        room = self.hub.get(table_id)
        if room is None or room.meta is None or room.meta.event_id != event_id:
            raise NotFound(f"no table {table_id!r} in this event")
        stored = checked_result(result)
        correction = self._correction(event_id, table_id, room, str(result.get("reason") or ""))
        if correction is not None:
            stored["correction"] = correction
        action = "enter_result" if correction is None else "correct_result"
        with self.db.unit() as repo:
            repo.put_result(
                ResultEntry(
                    table_id=table_id,
                    event_id=event_id,
                    result_json=json.dumps(stored),
                    at_ms=self.time.now_ms(),
                )
            )
            repo.add(self._action(event_id, action, table=table_id, result=stored))
        if room.broken is None:
            winner = stored["winner"]
            cp, apd = stored["control_points"], stored["army_points_destroyed"]
            await room.execute(
                c.Role.EO,
                "",
                0,
                c.RecordResult(
                    winner=None if winner is None else Side.parse(winner),
                    control_points=(cp[0], cp[1]),
                    army_points_destroyed=(apd[0], apd[1]),
                ),
            )
        self.changed(event_id)

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
