"""SQLModel tables: a table's setup and tokens, and its append-only log."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, UniqueConstraint
from sqlmodel import Field, SQLModel


class TableBase(SQLModel):
    format_id: str
    scenario_id: str
    player_clock_ms: int
    army_points: int
    p1_name: str
    p2_name: str
    variants: str = ""  # the event variants, comma separated (app.domain.variants)


class TableRecord(TableBase, table=True):
    __tablename__ = "game_table"

    id: str = Field(primary_key=True)
    created_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    p1_token: str = Field(index=True, unique=True)
    p2_token: str = Field(index=True, unique=True)
    watch_token: str = Field(index=True, unique=True)
    admin_token: str = Field(index=True, unique=True)
    version: int = 0  # as of the last status change; the log has every version
    status: str = "waiting"
    result_json: str | None = None
    event_id: str | None = Field(default=None, index=True)
    round_number: int | None = None
    table_no: int | None = None
    p1_player: str | None = None
    p2_player: str | None = None


class LogRecord(SQLModel, table=True):
    """One accepted command, in the order applied, with its server time."""

    __tablename__ = "table_log"
    __table_args__ = (UniqueConstraint("table_id", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: str = Field(foreign_key="game_table.id")  # (table_id, version) is indexed
    version: int
    at_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    actor: str
    device: str
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    command_json: str
    turn: str = ""  # where the game stood when the command came: "P2's turn 3"


class TableSnapshot(SQLModel, table=True):
    """A table's game as of one version (the latest taken), so it comes back from this
    plus the log after it instead of its whole history."""

    __tablename__ = "table_snapshot"

    table_id: str = Field(foreign_key="game_table.id", primary_key=True)
    version: int
    at_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    game_json: str
    seqs_json: str  # each phone's highest command number so far (dedupe)


class EventRecord(SQLModel, table=True):
    """A tournament: its format, size and the EO's token."""

    __tablename__ = "event"

    id: str = Field(primary_key=True)
    name: str
    format_id: str
    points: int
    lists: int = 1
    fixed_rounds: int | None = None
    cut_to_top: int | None = None
    variants: str = ""  # the event variants, comma separated (app.domain.variants)
    admin_token: str = Field(index=True, unique=True)
    created_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    cut_done: bool = False


class PlayerEntry(SQLModel, table=True):
    """A registered player; `joined_round` is the first round they can be paired in."""

    __tablename__ = "player"

    id: str = Field(primary_key=True)
    event_id: str = Field(index=True, foreign_key="event.id")
    name: str
    faction: str = ""
    lists: str = ""
    #: The EO's note letting lists stand that the list rules would refuse ("": none).
    list_note: str = ""
    dropped: bool = False
    joined_round: int = 1
    cut: bool = False


class RoundEntry(SQLModel, table=True):
    """One round: its scenario, pairings (JSON), start and DC4 expected end."""

    __tablename__ = "event_round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(index=True, foreign_key="event.id")
    number: int
    scenario_id: str
    pairings_json: str
    started_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    expected_end_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    end_calls_json: str | None = None


class ResultEntry(SQLModel, table=True):
    """A result the EO entered or corrected for a table; it overrides the table's own."""

    __tablename__ = "eo_result"

    table_id: str = Field(primary_key=True)
    event_id: str = Field(index=True)
    result_json: str
    at_ms: int = Field(sa_column=Column(BigInteger, nullable=False))


class EoAction(SQLModel, table=True):
    """Every EO action on an event, for the record."""

    __tablename__ = "eo_action"

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(index=True)
    at_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    action: str
    detail_json: str
