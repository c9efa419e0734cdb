"""The events' side of the store: every statement on events, players, rounds, the EO's
results and actions, and the unit of work an event use case runs in.

A use case reads what it needs (each read a short session of its own), does its work
on the live tables, then writes everything it changed in one unit: one transaction,
committed when the block ends and rolled back whole if it raises.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

from sqlmodel import Session, col, select

from app.events.table_result import TableResult
from app.store.models import (
    EoAction,
    EventRecord,
    PlayerEntry,
    ResultEntry,
    RoundEntry,
    TournamentState,
)
from app.store.repository import Store


class EventRepo:
    """The event statements, over one session (one transaction when it writes)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    # -- reads -------------------------------------------------------------------

    def event(self, event_id: str) -> EventRecord | None:
        return self.session.get(EventRecord, event_id)

    def players(self, event_id: str) -> list[PlayerEntry]:
        return list(
            self.session.exec(
                select(PlayerEntry)
                .where(col(PlayerEntry.event_id) == event_id)
                .order_by(col(PlayerEntry.name))
            )
        )

    def player(self, player_id: str) -> PlayerEntry | None:
        return self.session.get(PlayerEntry, player_id)

    def rounds(self, event_id: str) -> list[RoundEntry]:
        return list(
            self.session.exec(
                select(RoundEntry)
                .where(col(RoundEntry.event_id) == event_id)
                .order_by(col(RoundEntry.number))
            )
        )

    def running_rounds(self) -> list[RoundEntry]:
        """Rounds started whose DC8 end has not been called yet (any event)."""
        return list(
            self.session.exec(
                select(RoundEntry).where(
                    col(RoundEntry.expected_end_ms).is_not(None),
                    col(RoundEntry.end_calls_json).is_(None),
                )
            )
        )

    def results(self, event_id: str) -> dict[str, TableResult]:
        """The EO's results by table."""
        rows = self.session.exec(select(ResultEntry).where(col(ResultEntry.event_id) == event_id))
        return {row.table_id: TableResult.from_json(json.loads(row.result_json)) for row in rows}

    def actions(self, event_id: str) -> list[EoAction]:
        return list(
            self.session.exec(
                select(EoAction)
                .where(col(EoAction.event_id) == event_id)
                .order_by(col(EoAction.id))
            )
        )

    def tournament_state(self, event_id: str) -> TournamentState | None:
        return self.session.get(TournamentState, event_id)

    # -- writes ------------------------------------------------------------------

    def put_tournament_state(self, event_id: str, state_json: str, tables_json: str) -> None:
        """An event's own tournament state, replacing the one before."""
        self.session.merge(TournamentState(event_id=event_id, state_json=state_json,
                                           tables_json=tables_json))

    def add(self, *rows: EventRecord | PlayerEntry | RoundEntry | EoAction) -> None:
        """New rows, or changed ones the session did not load itself."""
        for row in rows:
            self.session.add(row)

    def put_result(self, event_id: str, table_id: str, result: TableResult, at_ms: int) -> None:
        """The EO's result for a table, replacing an earlier one."""
        self.session.merge(
            ResultEntry(
                table_id=table_id,
                event_id=event_id,
                result_json=json.dumps(result.stored_json()),
                at_ms=at_ms,
            )
        )


class EventStore:
    """Units of work over the store's engine."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def unit(self) -> Iterator[EventRepo]:
        """One transaction: committed when the block ends, rolled back whole if it raises."""
        with self.store.session() as session:
            try:
                yield EventRepo(session)
                session.commit()
            except BaseException:
                # Let go of the rows first: a rollback would expire them, and whoever
                # holds one could no longer read it once the session is closed.
                session.expunge_all()
                session.rollback()
                raise

    @contextmanager
    def read(self) -> Iterator[EventRepo]:
        """A session for reading only (nothing is committed)."""
        with self.store.session() as session:
            yield EventRepo(session)
