"""The events' side of the store: every statement on events, players, rounds, the EO's
results and actions, and the unit of work an event use case runs in.

A use case reads what it needs (each read a short session of its own), does its work
on the live tables, then writes everything it changed in one unit: one transaction,
committed when the block ends and rolled back whole if it raises.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from sqlalchemy import CursorResult, or_, update
from sqlmodel import Session, col, select

from app.store.models import (
    EoAction,
    EventRecord,
    PlayerEntry,
    PrizeBallot,
    PrizeDecision,
    RoundEntry,
    TournamentState,
)
from app.store.repository import Store

#: A round's end claim let go of by a call that failed at a table (`release_round_end`):
#: free to claim at once, and still saying that a call came before (app.events.round_end).
END_CLAIM_RELEASED = 0


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

    def rounds_without_end(self) -> list[RoundEntry]:
        """Rounds started with no end time yet (their tables' pre-game goes on, or they
        are untimed) and not ended (any event)."""
        return list(
            self.session.exec(
                select(RoundEntry).where(
                    col(RoundEntry.started_ms).is_not(None),
                    col(RoundEntry.expected_end_ms).is_(None),
                    col(RoundEntry.end_calls_json).is_(None),
                )
            )
        )

    def actions(self, event_id: str) -> list[EoAction]:
        return list(
            self.session.exec(
                select(EoAction)
                .where(col(EoAction.event_id) == event_id)
                .order_by(col(EoAction.id))
            )
        )

    def action_discarding(self, table_id: str, actions: tuple[str, ...]) -> EoAction | None:
        """The latest EO action (of those named) that discarded this table."""
        found = self.session.exec(
            select(EoAction)
            .where(
                col(EoAction.action).in_(actions),
                col(EoAction.detail_json).contains(f'"{table_id}"', autoescape=True),
            )
            .order_by(col(EoAction.id).desc())
            .limit(1)
        )
        return found.first()

    def prize_decisions(self, event_id: str) -> list[PrizeDecision]:
        return list(
            self.session.exec(select(PrizeDecision).where(col(PrizeDecision.event_id) == event_id))
        )

    def ballots(self, event_id: str, prize_id: str, stage: int) -> list[PrizeBallot]:
        return list(
            self.session.exec(
                select(PrizeBallot)
                .where(
                    col(PrizeBallot.event_id) == event_id,
                    col(PrizeBallot.prize_id) == prize_id,
                    col(PrizeBallot.stage) == stage,
                )
                .order_by(col(PrizeBallot.id))
            )
        )

    def ballot(self, event_id: str, prize_id: str, stage: int, voter: str) -> PrizeBallot | None:
        return self.session.exec(
            select(PrizeBallot).where(
                col(PrizeBallot.event_id) == event_id,
                col(PrizeBallot.prize_id) == prize_id,
                col(PrizeBallot.stage) == stage,
                col(PrizeBallot.voter) == voter,
            )
        ).first()

    def tournament_state(self, event_id: str) -> TournamentState | None:
        return self.session.get(TournamentState, event_id)

    # -- writes ------------------------------------------------------------------

    def put_tournament_state(self, event_id: str, state_json: str, tables_json: str) -> None:
        """An event's own tournament state, replacing the one before."""
        self.session.merge(
            TournamentState(event_id=event_id, state_json=state_json, tables_json=tables_json)
        )

    def add(
        self,
        *rows: EventRecord | PlayerEntry | RoundEntry | EoAction | PrizeDecision | PrizeBallot,
    ) -> None:
        """New rows, or changed ones the session did not load itself."""
        for row in rows:
            self.session.add(row)

    def claim_round_end(self, entry: RoundEntry, now_ms: int, lapsed_before_ms: int) -> bool:
        """Claim the round's DC8 end for this worker: False when its calls are written,
        or another worker's claim has not lapsed (one compare-and-set statement)."""
        claimed = self.session.execute(
            update(RoundEntry)
            .where(
                col(RoundEntry.id) == entry.id,
                col(RoundEntry.end_calls_json).is_(None),
                or_(
                    col(RoundEntry.end_claimed_ms).is_(None),
                    col(RoundEntry.end_claimed_ms) == END_CLAIM_RELEASED,
                    col(RoundEntry.end_claimed_ms) < lapsed_before_ms,
                ),
            )
            .values(end_claimed_ms=now_ms)
            .execution_options(synchronize_session=False)
        )
        if cast("CursorResult[Any]", claimed).rowcount != 1:
            return False
        entry.end_claimed_ms = now_ms
        return True

    def release_round_end(self, entry: RoundEntry, claimed_ms: int) -> None:
        """Let go of this worker's claim on the round's end (its call failed at a table):
        the next call, the timer's or the EO's, need not wait for the claim to lapse."""
        self.session.execute(
            update(RoundEntry)
            .where(
                col(RoundEntry.id) == entry.id,
                col(RoundEntry.end_calls_json).is_(None),
                col(RoundEntry.end_claimed_ms) == claimed_ms,
            )
            .values(end_claimed_ms=END_CLAIM_RELEASED)
            .execution_options(synchronize_session=False)
        )
        entry.end_claimed_ms = END_CLAIM_RELEASED

    def delete_round(self, entry: RoundEntry) -> None:
        row = self.session.get(RoundEntry, entry.id)
        if row is not None:
            self.session.delete(row)
            self.session.flush()  # before a new round of the same number is added

    def delete_player(self, player: PlayerEntry) -> None:
        row = self.session.get(PlayerEntry, player.id)
        if row is not None:
            self.session.delete(row)


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
