"""SQLModel tables: a table's setup and tokens, and its append-only log."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, UniqueConstraint, false
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
    #: Indexed: every worker's sweep looks for the tables still in play, which a season's
    #: finished games would otherwise make a walk through them all.
    status: str = Field(default="waiting", index=True)
    result_json: str | None = None
    event_id: str | None = Field(default=None, index=True)
    round_number: int | None = None
    table_no: int | None = None
    p1_player: str | None = None
    p2_player: str | None = None
    #: What a table of another game is set up with beyond the columns above (JSON).
    setup_json: str | None = None


class LogRecord(SQLModel, table=True):
    """One accepted command, in the order applied, with its server time."""

    __tablename__ = "table_log"
    __table_args__ = (UniqueConstraint("table_id", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    #: (table_id, version) is indexed. No foreign key: only a table's own room writes its
    #: log, and on PostgreSQL the key's check locked the table's row at every tap (a
    #: trigger, a row lock and its log record: a seventh of the database's CPU at 5,000 tables).
    table_id: str
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
    #: The player clock the EO set, in minutes (None: the format's clock for the points).
    clock_minutes: int | None = None
    variants: str = ""  # the event variants, comma separated (app.domain.variants)
    #: Champions' Active Duty Roster, as the EO wrote it ("": none, not checked). The
    #: database fills it in for a row an older version writes.
    roster: str = Field(default="", sa_column_kwargs={"server_default": ""})
    admin_token: str = Field(index=True, unique=True)
    created_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    cut_done: bool = False
    standings: str = "baseline"  # ST2: the standings variant chosen at creation
    painting_category: str = ""  # ST3: Best-Painted's announced category ("": none)
    #: The players settle lists, the starting roll and sides on their phones.
    pregame: bool = False
    #: "Fresh tables": no player sits at the same table number twice where it can be
    #: avoided (the database fills it in for a row an older version writes).
    fresh_tables: bool = Field(default=False, sa_column_kwargs={"server_default": false()})


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
    #: The player declared their army meets the event's Painting Required standard (the
    #: database fills it in for a row an older version writes).
    painted: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    dropped: bool = False
    joined_round: int = 1
    cut: bool = False
    disqualified: bool = False  # not eligible for any prize, never paired again
    #: The player's own page (their link from the EO); never in the public API.
    token: str | None = Field(default=None, index=True)
    #: The player's club, team or travel group ("": none); round 1 keeps a club's
    #: players apart where it can. The database fills it in for a row an older version writes.
    club: str = Field(default="", sa_column_kwargs={"server_default": ""})
    #: The qualifier points a player is seeded by at a world final (None: not seeded).
    seed_qp: int | None = None


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
    #: When a worker claimed the DC8 round end (it calls it; the claim lapses).
    end_claimed_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    #: Why the pairing chose as it did, in the EO's words (a JSON list of sentences).
    notes_json: str = Field(default="[]", sa_column_kwargs={"server_default": "[]"})


class EoAction(SQLModel, table=True):
    """Every EO action on an event, for the record."""

    __tablename__ = "eo_action"

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(index=True)
    at_ms: int = Field(sa_column=Column(BigInteger, nullable=False))
    action: str
    detail_json: str


class PrizeDecision(SQLModel, table=True):
    """ST3: a prize chosen by the EO or a blind vote. `stage` counts the votes held
    (a second one among the tied); `counts_json` has each closed vote's count."""

    __tablename__ = "prize_decision"
    __table_args__ = (UniqueConstraint("event_id", "prize_id"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(index=True, foreign_key="event.id")
    prize_id: str
    status: str = "open"  # open (a vote runs), closed (counted), awarded
    stage: int = 0
    entries_json: str = "[]"
    counts_json: str = "[]"
    winner: str | None = None
    by: str = ""  # "eo" or "vote"


class PrizeBallot(SQLModel, table=True):
    """One player's secret vote in one vote of a prize (a new one replaces it)."""

    __tablename__ = "prize_ballot"
    __table_args__ = (UniqueConstraint("event_id", "prize_id", "stage", "voter"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(index=True, foreign_key="event.id")
    prize_id: str
    stage: int
    voter: str
    choice: str
    at_ms: int = Field(sa_column=Column(BigInteger, nullable=False))


class TournamentState(SQLModel, table=True):
    """An event run by a tournament policy of its own (Runewars): its whole state as
    JSON, with the live table of each game, rewritten by every use case."""

    __tablename__ = "tournament_state"

    event_id: str = Field(primary_key=True, foreign_key="event.id")
    state_json: str
    tables_json: str = "{}"
