"""SQLModel tables of a season (a circuit of events: an Iron Gauntlet season of
qualifiers, or a Masters tournament's qualifiers), and the statements on them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import BigInteger, Column, UniqueConstraint
from sqlmodel import Field, Session, SQLModel, col, select

from app.store.models import EoAction


class SeasonRecord(SQLModel, table=True):
    """A season: its name, kind, the keeper's token and the final it seeded."""

    __tablename__ = "season"

    id: str = Field(primary_key=True)
    name: str
    kind: str  # app.domain.qualifiers.KINDS
    keeper_token: str = Field(index=True, unique=True)
    created_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    final_event_id: str | None = None


class SeasonEvent(SQLModel, table=True):
    """An event the season holds (a qualifier), in the order they were added."""

    __tablename__ = "season_event"
    __table_args__ = (UniqueConstraint("season_id", "event_id"),)

    id: int | None = Field(default=None, primary_key=True)
    season_id: str = Field(index=True, foreign_key="season.id")
    event_id: str = Field(foreign_key="event.id")
    added_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    #: When the keeper recorded the top three's report as sent (an IGQ's: ST4).
    reported_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    #: When the event had ended, as the report sent said: its 14 days ran from then. Set,
    #: the season counts the report's lines (`SeasonReportLine`), not the event's live
    #: standings; None: not sent, or sent before reports were kept (read from the event).
    ended_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    #: When the keeper last sent a corrected report, and why (None: never).
    corrected_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    corrected_reason: str | None = None


class SeasonReportLine(SQLModel, table=True):
    """One player's line of the report the keeper sent for an event: their final
    standing and QPs as reported, by the event's own player (the entry the season's
    identities match). The season counts these, whatever the event says later."""

    __tablename__ = "season_report_line"
    __table_args__ = (UniqueConstraint("season_id", "event_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    season_id: str = Field(index=True, foreign_key="season.id")
    event_id: str
    player_id: str
    name: str
    rank: int
    qp: int


class SeasonIdentity(SQLModel, table=True):
    """Who a player of one of the season's events is, as the keeper settled it: entries
    with the same `identity` are one person."""

    __tablename__ = "season_identity"
    __table_args__ = (UniqueConstraint("season_id", "event_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    season_id: str = Field(index=True, foreign_key="season.id")
    event_id: str
    player_id: str
    identity: str


class SeasonRepo:
    """The season statements, over one session (one transaction when it writes)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def season(self, season_id: str) -> SeasonRecord | None:
        return self.session.get(SeasonRecord, season_id)

    def events(self, season_id: str) -> list[SeasonEvent]:
        return list(
            self.session.exec(
                select(SeasonEvent)
                .where(col(SeasonEvent.season_id) == season_id)
                .order_by(col(SeasonEvent.id))
            )
        )

    def identities(self, season_id: str) -> list[SeasonIdentity]:
        return list(
            self.session.exec(
                select(SeasonIdentity).where(col(SeasonIdentity.season_id) == season_id)
            )
        )

    def report_lines(self, season_id: str) -> list[SeasonReportLine]:
        """The lines of every report sent for the season's events, in the order written."""
        return list(
            self.session.exec(
                select(SeasonReportLine)
                .where(col(SeasonReportLine.season_id) == season_id)
                .order_by(col(SeasonReportLine.id))
            )
        )

    def remove_event(self, row: SeasonEvent) -> None:
        """An event out of the season with its report (its players' matches stay, should
        it come back)."""
        self._drop_lines(row)
        self.session.delete(row)

    def send(self, row: SeasonEvent, lines: list[SeasonReportLine], logged: EoAction) -> None:
        """The event's report as sent now: these lines in place of any sent before, and
        the row of the event's log that records it, in the same transaction."""
        self._drop_lines(row)
        self.session.flush()  # the old lines out before the new ones meet the unique key
        self.session.add_all([row, *lines, logged])

    def _drop_lines(self, row: SeasonEvent) -> None:
        for line in self.report_lines(row.season_id):
            if line.event_id == row.event_id:
                self.session.delete(line)

    def add(self, *rows: SeasonRecord | SeasonEvent | SeasonIdentity) -> None:
        for row in rows:
            self.session.add(row)

    def settle(self, season_id: str, identities: dict[tuple[str, str], str]) -> None:
        """Each (event, player) entry's identity, written over what the keeper said before."""
        known = {(r.event_id, r.player_id): r for r in self.identities(season_id)}
        for (event_id, player_id), identity in identities.items():
            row = known.get((event_id, player_id))
            if row is None:
                row = SeasonIdentity(
                    season_id=season_id, event_id=event_id, player_id=player_id, identity=identity
                )
            row.identity = identity
            self.session.add(row)


class SeasonStore:
    """Units of work over sessions of the store's engine (`Store.session`: the schema
    imports this module, so it takes the sessions, not the store)."""

    def __init__(self, session: Callable[[], Session]) -> None:
        self.session = session

    @contextmanager
    def unit(self) -> Iterator[SeasonRepo]:
        """One transaction: committed when the block ends, rolled back whole if it raises."""
        with self.session() as session:
            try:
                yield SeasonRepo(session)
                session.commit()
            except BaseException:
                session.expunge_all()
                session.rollback()
                raise

    @contextmanager
    def read(self) -> Iterator[SeasonRepo]:
        with self.session() as session:
            yield SeasonRepo(session)
