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


class TableRecord(TableBase, table=True):
    __tablename__ = "game_table"

    id: str = Field(primary_key=True)
    created_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    p1_token: str = Field(index=True, unique=True)
    p2_token: str = Field(index=True, unique=True)
    watch_token: str = Field(index=True, unique=True)
    admin_token: str = Field(index=True, unique=True)
    version: int = 0
    status: str = "waiting"
    result_json: str | None = None


class LogRecord(SQLModel, table=True):
    """One accepted command, in the order applied, with its server time."""

    __tablename__ = "table_log"
    __table_args__ = (UniqueConstraint("table_id", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: str = Field(index=True, foreign_key="game_table.id")
    version: int
    at_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    actor: str
    device: str
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    command_json: str
