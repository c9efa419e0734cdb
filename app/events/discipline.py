"""Warnings and penalties (app.domain.penalties): the EO records a warning, a game loss
or a disqualification against a player, with the reason, and may withdraw one recorded
in error. A game loss goes through the EO's result path (TS9: the table's result moves
with the reason), a disqualification through the prizes' own (ST3); every one is in the
EO's log. The record also lists IG2014's warnings for pausing (DC5), which the tables
keep in their own logs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.domain.clock import Side
from app.domain.errors import BadInput, NotFound, RuleError
from app.domain.penalties import (
    REASON_LENGTH,
    Kind,
    Penalty,
    Withdrawal,
    check_new,
    check_reason,
    check_withdraw,
    parse_kind,
    pause_record,
)
from app.events.base import PairingRow, pairings_of
from app.events.book import EventBook
from app.events.control import Control
from app.events.eligibility import Eligibility
from app.events.results import Results
from app.events.table_result import TableResult, table_says
from app.store.models import RoundEntry
from app.store.models_discipline import PenaltyRecord, penalties_of
from app.tables.hub import TableHub
from app.tables.jsontext import dumps, loads
from app.tables.room import TableRoom
from app.tables.warmachine import seating

View = dict[str, Any]

PAUSED = "Paused the chess clock"
PAUSED_AGAIN = "Paused the chess clock a second time: the game is lost"


def _penalty(row: PenaltyRecord) -> Penalty:
    withdrawn = None
    if row.withdrawn_ms is not None:
        withdrawn = Withdrawal(row.withdrawn_ms, row.withdrawn_reason)
    return Penalty(
        player=row.player_id,
        kind=Kind(row.kind),
        round=row.round_number,
        reason=row.reason,
        at_ms=row.at_ms,
        withdrawn=withdrawn,
    )


def pause_penalties(room: TableRoom) -> list[Penalty]:
    """DC5 (IG2014): the warnings for pausing a table gave, by player, each at the time
    its log has (the second one lost the game)."""
    game, meta = room.game, room.meta
    given = room.engine.pause_warnings(game)
    if meta is None or given is None or not any(given[0]):
        return []
    warnings, lose = given
    times: dict[Side, list[int]] = {Side.P1: [], Side.P2: []}
    for entry in room.store.log(room.table_id, 0, room.version):
        wire = loads(entry.command_json)
        if wire.get("c") == "warn_for_pausing":
            times[Side.parse(wire["side"])].append(entry.at_ms)
    found = []
    for side in (Side.P1, Side.P2):
        player = (meta.p1_player, meta.p2_player)[seating.seat_of(game, side)]
        for n, kind in enumerate(pause_record(warnings[side], lose)):
            at = times[side][n] if n < len(times[side]) else room.last_change_ms
            reason = PAUSED_AGAIN if kind is Kind.GAME_LOSS else PAUSED
            found.append(Penalty(player, kind, meta.round_number, reason, at, at_table=True))
    return found


def _view(penalty: Penalty, names: dict[str, str], row_id: int | None) -> View:
    withdrawn = penalty.withdrawn
    return {
        "id": row_id,
        "player": {"id": penalty.player, "name": names[penalty.player]},
        "kind": penalty.kind.value,
        "what": penalty.kind.words,
        "effect": penalty.kind.effect,
        "round": penalty.round,
        "reason": penalty.reason,
        "at_ms": penalty.at_ms,
        "at_table": penalty.at_table,
        "withdrawn": None
        if withdrawn is None
        else {"at_ms": withdrawn.at_ms, "reason": withdrawn.reason},
    }


class Discipline:
    """The EO's warnings and penalties of an event, and the tables' warnings for pausing."""

    def __init__(
        self,
        book: EventBook,
        hub: TableHub,
        results: Results,
        eligibility: Eligibility,
        control: Control,
    ) -> None:
        self.book = book
        self.hub = hub
        self.results = results
        self.eligibility = eligibility
        #: A round paired but not started is paired again without a disqualified player.
        self.control = control

    # -- reads ----------------------------------------------------------------------

    def _rows(self, event_id: str) -> list[PenaltyRecord]:
        with self.book.read() as repo:
            return penalties_of(repo.session, event_id)

    def _all(self, event_id: str) -> list[tuple[Penalty, int | None]]:
        """Every penalty of the event (the EO's with their ids), oldest first."""
        found: list[tuple[Penalty, int | None]] = [
            (_penalty(r), r.id) for r in self._rows(event_id)
        ]
        for room in self.hub.event_tables(event_id):
            found.extend((p, None) for p in pause_penalties(room))
        return sorted(found, key=lambda pair: pair[0].at_ms)

    def record(self, event_id: str, player_id: str | None = None) -> list[View]:
        """The record, in words and names: who, what, round, reason, when, and whether it
        was withdrawn (why); one player's only when `player_id` is given."""
        self.book.require(event_id, "players")
        names = {p.id: p.name for p in self.book.players(event_id)}
        return [
            _view(penalty, names, row_id)
            for penalty, row_id in self._all(event_id)
            if penalty.player in names and player_id in (None, penalty.player)
        ]

    def view(self, event_id: str) -> View:
        """The EO's section: the record and the kinds, each with what it does."""
        return {
            "penalties": self.record(event_id),
            "kinds": [{"id": k.value, "what": k.words, "effect": k.effect} for k in Kind],
            "reason_length": REASON_LENGTH,
        }

    # -- the EO -----------------------------------------------------------------------

    async def give(
        self,
        event_id: str,
        player_id: str,
        kind_word: str,
        reason: str,
        round_number: int | None = None,
    ) -> None:
        """Record a warning, a game loss (the round's game is lost) or a disqualification."""
        self.book.require(event_id, "players")
        kind, said = parse_kind(kind_word), check_reason(reason)
        player = self.book.player(event_id, player_id)
        rounds = [r for r in self.book.rounds(event_id) if r.started_ms is not None]
        if round_number is None and kind is not Kind.GAME_LOSS and rounds:
            round_number = rounds[-1].number
        game = None
        if round_number is not None:
            game = _game_of(rounds, round_number, player_id, player.name, kind)
        opponent = None if game is None else (game.p2 if game.p1 == player_id else game.p1)
        standing = [p for p, _ in self._all(event_id)]
        check_new(kind, player_id, round_number, player.name, standing, opponent)
        row = PenaltyRecord(
            event_id=event_id,
            player_id=player_id,
            kind=kind.value,
            round_number=round_number,
            reason=said,
            at_ms=self.book.time.now_ms(),
        )
        if kind is Kind.GAME_LOSS and game is not None:
            await self._lose(event_id, row, game, player.name)
        if kind is Kind.DISQUALIFICATION:
            self.eligibility.disqualify(event_id, player_id)
        where = "" if round_number is None else f" (round {round_number})"
        words = f"{kind.words} for {player.name}{where}: {said}"
        with self.book.unit() as repo:
            repo.session.add(row)
            repo.add(
                self.book.action(
                    event_id,
                    "penalty",
                    player=player_id,
                    kind=kind.value,
                    round=round_number,
                    reason=said,
                    words=words,
                    names={player_id: player.name},
                )
            )
        self.book.changed(event_id)
        if kind is Kind.DISQUALIFICATION:  # not paired again: nor in a draft (RP7)
            self.control.follow_draft(event_id, f"{player.name} disqualified")

    async def disqualify(self, event_id: str, player_id: str, reason: str) -> None:
        """ST3: a disqualification from any page, always with the EO's reason, kept in
        the penalty record."""
        self.eligibility.said_why(event_id, player_id, reason)
        await self.give(event_id, player_id, Kind.DISQUALIFICATION, reason)

    async def lift(self, event_id: str, player_id: str, reason: str) -> None:
        """Lift a disqualification, with the reason: its penalty record is withdrawn (one
        given before the record kept them is lifted in the EO's log). The player stays
        dropped until the EO lets them rejoin."""
        self.eligibility.said_why(event_id, player_id, reason, disqualified=False)
        standing = [
            row.id
            for row in self._rows(event_id)
            if row.player_id == player_id
            and row.kind == Kind.DISQUALIFICATION
            and row.withdrawn_ms is None
            and row.id is not None
        ]
        if standing:
            await self.withdraw(event_id, standing[-1], reason)
        else:
            self.eligibility.disqualify(event_id, player_id, False, reason)

    async def _lose(self, event_id: str, row: PenaltyRecord, game: PairingRow, name: str) -> None:
        """The player's game is lost: the table's result names the opponent the winner,
        entered by the EO with the penalty's reason (TS9); the points stay as they were."""
        assert game.table_id is not None
        room = self.results.tables.get(event_id, game.table_id)
        winner = Side.P2 if game.p1 == row.player_id else Side.P1
        before = self.results.table_result(event_id, game.table_id)
        row.table_id = game.table_id
        row.before_json = "" if before is None else dumps(before.as_json())
        if before is not None and before.winner is winner:
            return  # already lost: the result stands as it is
        says = table_says(room.game)
        if says is not None:
            points, destroyed, lists = (
                says.control_points,
                says.army_points_destroyed,
                says.lists,
            )
        else:
            points = seating.in_seat_order(room.game, room.game.control_points)
            destroyed, lists = (0, 0), ("", "")
        result = TableResult(winner, points, destroyed, lists)
        row.entry_reason = f"Game loss for {name}: {row.reason}"[:REASON_LENGTH]
        await self.results.enter(event_id, game.table_id, result, row.entry_reason)

    async def withdraw(self, event_id: str, penalty_id: int, reason: str) -> None:
        """Take back a penalty recorded in error, saying why: a game loss puts back the
        result it replaced (by the EO's result path), a disqualification is lifted."""
        self.book.require(event_id, "players")
        said = check_reason(reason)
        row = next((r for r in self._rows(event_id) if r.id == penalty_id), None)
        if row is None:
            raise NotFound("no such penalty in this event")
        check_withdraw(_penalty(row))
        name = self.book.player(event_id, row.player_id).name
        if row.kind == Kind.GAME_LOSS and row.table_id and row.entry_reason:
            await self._give_back(event_id, row, name, said)
        if row.kind == Kind.DISQUALIFICATION:
            self.eligibility.disqualify(event_id, row.player_id, False)
        row.withdrawn_ms, row.withdrawn_reason = self.book.time.now_ms(), said
        what = Kind(row.kind).words.lower()
        with self.book.unit() as repo:
            repo.session.add(row)
            repo.add(
                self.book.action(
                    event_id,
                    "withdraw_penalty",
                    player=row.player_id,
                    kind=row.kind,
                    round=row.round_number,
                    reason=said,
                    words=f"Withdrew {name}'s {what}: {said}",
                    names={row.player_id: name},
                )
            )
        self.book.changed(event_id)

    async def _give_back(self, event_id: str, row: PenaltyRecord, name: str, said: str) -> None:
        """The result the game loss replaced, back, if the table's result is still the
        game loss's (the EO may have corrected it since)."""
        assert row.table_id is not None
        current = self.results.table_result(event_id, row.table_id)
        if current is None or current.reason != row.entry_reason:
            return
        if not row.before_json:
            raise RuleError(
                f"{name}'s game had no result before this game loss: enter the game's "
                f"result for round {row.round_number} first, then withdraw the game loss"
            )
        before = TableResult.from_wire(loads(row.before_json))
        why = f"Game loss for {name} withdrawn: {said}"[:REASON_LENGTH]
        await self.results.enter(event_id, row.table_id, before, why)


def _game_of(
    rounds: Iterable[RoundEntry], number: int, player_id: str, name: str, kind: Kind
) -> PairingRow | None:
    """The player's pairing in round `number` (a game loss needs a game there)."""
    entry = next((r for r in rounds if r.number == number), None)
    if entry is None:
        raise BadInput(f"round {number} has not started")
    row = next((r for r in pairings_of(entry) if player_id in (r.p1, r.p2)), None)
    if kind is not Kind.GAME_LOSS:
        return row
    if row is None:
        raise RuleError(f"{name} did not play in round {number}: there is no game to lose")
    if row.p2 is None or row.table_id is None:
        raise RuleError(f"{name} had a bye in round {number}: there is no game to lose")
    return row
