"""The EO's warnings and penalties against players (app.domain.penalties): a table of
its own, and its statements."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column
from sqlmodel import Field, Session, SQLModel, col, select


class PenaltyRecord(SQLModel, table=True):
    """One warning, game loss or disqualification, as the EO recorded it."""

    __tablename__ = "penalty"

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(index=True, foreign_key="event.id")
    player_id: str
    kind: str
    round_number: int | None = None
    reason: str
    at_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    #: A game loss: the table it was entered at, and the result it replaced (JSON in the
    #: pairing's order; "" when the game had none), which a withdrawal puts back.
    table_id: str | None = None
    before_json: str = ""
    #: The reason the EO's result entry carried, to know the result still is the penalty's.
    entry_reason: str = ""
    withdrawn_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    withdrawn_reason: str = ""


def penalties_of(session: Session, event_id: str) -> list[PenaltyRecord]:
    """The event's penalties, oldest first."""
    return list(
        session.exec(
            select(PenaltyRecord)
            .where(col(PenaltyRecord.event_id) == event_id)
            .order_by(col(PenaltyRecord.id))
        )
    )
