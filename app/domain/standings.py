"""Players' round records, the standings (ST1) and the player record sheet (ST6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from app.domain.errors import BadInput
from app.domain.frozen import replace
from app.domain.method import Method


class Status(StrEnum):
    """Where a player stands in the event: still playing, or out and why. The player
    left ("dropped"), the EO disqualified them (steamroller-2019.txt: "barred from further
    participation in the event"), or a cut left them out (RP1: "the remaining tournament
    rounds are only played by the top X players"): the event moved on without them. Once
    the event is over, the players it did not go on without "finished" it (`finished`)."""

    PLAYING = "playing"
    FINISHED = "finished"
    DROPPED = "dropped"
    DISQUALIFIED = "disqualified"
    CUT = "cut"


class Outcome(StrEnum):
    WIN = "win"
    LOSS = "loss"
    TIE = "tie"
    BYE = "bye"


#: ST2: a win that counts as an assassination victory (a clock loss is scored as one).
ASSASSINATION_WINS = frozenset({Method.ASSASSINATION, Method.CLOCK})

#: ST1: the baseline order of the standings, each key highest first.
ST1_KEYS: tuple[str, ...] = ("tp", "sos", "control_points", "army_points_destroyed")

#: Steamroller 2019: 1 TP for a win, 0 for a loss or tie; a bye scores as a win.
SR2019_TP: Mapping[str, int] = MappingProxyType({"win": 1, "loss": 0, "tie": 0, "bye": 1})

RESULT_WORDS: Mapping[Outcome, str] = MappingProxyType(
    {Outcome.WIN: "Win", Outcome.LOSS: "Loss", Outcome.TIE: "Tie", Outcome.BYE: "Bye"}
)


def tournament_points(outcome: Outcome, tp: Mapping[str, int] = SR2019_TP) -> int:
    """TP for one round; a format's table without a "bye" entry scores the bye as a win."""
    if outcome is Outcome.BYE and "bye" not in tp:
        return tp["win"]
    return tp[outcome]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    round: int
    opponent_id: str | None  # None: a bye, or a round missed before a late rejoin
    outcome: Outcome
    control_points: int
    army_points_destroyed: int
    list_played: str = ""
    specialists: str = ""  # the specialist swap at the table, in words ("": none)
    paired_down: bool = False
    method: Method | None = None  # how the game ended (None: a bye or a missed round)

    @property
    def assassination_win(self) -> bool:
        return self.outcome is Outcome.WIN and self.method in ASSASSINATION_WINS


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    name: str
    faction: str = ""
    #: Not paired again: the player left, was disqualified or was cut (`why_out`).
    dropped: bool = False
    rounds: tuple[RoundRecord, ...] = ()
    #: Why a player no longer paired is out (read only when `dropped`).
    why_out: Status = Status.DROPPED
    #: The last round the player was paired in (None: none yet).
    last_round: int | None = None

    @property
    def status(self) -> Status:
        return self.why_out if self.dropped else Status.PLAYING

    def points(self, tp: Mapping[str, int] = SR2019_TP) -> int:
        return sum(tournament_points(r.outcome, tp) for r in self.rounds)

    @property
    def tp(self) -> int:
        return self.points()

    @property
    def control_points(self) -> int:
        return sum(r.control_points for r in self.rounds)

    @property
    def army_points_destroyed(self) -> int:
        return sum(r.army_points_destroyed for r in self.rounds)

    @property
    def assassinations(self) -> int:
        """ST2: assassination victories, a win on the opponent's clock included."""
        return sum(1 for r in self.rounds if r.assassination_win)

    @property
    def opponents(self) -> tuple[str, ...]:
        """Opponents in the order played (a forced rematch appears twice)."""
        return tuple(r.opponent_id for r in self.rounds if r.opponent_id is not None)

    @property
    def had_bye(self) -> bool:
        return self.bye_count > 0

    @property
    def bye_count(self) -> int:
        return sum(1 for r in self.rounds if r.outcome is Outcome.BYE)

    @property
    def paired_down_count(self) -> int:
        return sum(1 for r in self.rounds if r.paired_down)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player_id: str
    name: str
    faction: str
    tp: int
    sos: int
    control_points: int
    army_points_destroyed: int
    #: The player left the event (not a disqualification, not a cut: see `status`).
    dropped: bool
    status: Status = Status.PLAYING
    #: A dropped player's last round (None: not dropped, or dropped before any round).
    dropped_after: int | None = None
    assassinations: int = 0
    #: ST4: a qualifier's points for this standing (None: the event is not a qualifier).
    qualifier_points: int | None = None

    @property
    def out(self) -> bool:
        """No longer paired: dropped, disqualified or cut."""
        return self.status not in IN_TO_THE_END


#: Players the event did not go on without: still playing it, or (over) played it out.
IN_TO_THE_END = frozenset({Status.PLAYING, Status.FINISHED})


def finished(rows: Sequence[Standing]) -> list[Standing]:
    """The event is over: who was still playing finished it; the others keep why they
    were out (RP1: the event ends; a person reads "finished", never "playing")."""
    return [replace(r, status=Status.FINISHED) if r.status is Status.PLAYING else r for r in rows]


def by_id(players: Sequence[PlayerRecord]) -> dict[str, PlayerRecord]:
    found: dict[str, PlayerRecord] = {}
    for player in players:
        if player.id in found:
            raise BadInput(f"player id {player.id!r} appears twice")
        found[player.id] = player
    return found


def strength_of_schedule(
    player: PlayerRecord, players: Mapping[str, PlayerRecord], tp: Mapping[str, int] = SR2019_TP
) -> int:
    """ST1: the current TP of every opponent played, once per game; byes add nothing."""
    return sum(players[o].points(tp) for o in player.opponents if o in players)


def standings(
    players: Sequence[PlayerRecord],
    tp: Mapping[str, int] = SR2019_TP,
    keys: tuple[str, ...] = ST1_KEYS,
) -> list[Standing]:
    """ST1: TP, then SoS, then CP, then APD (or a variant's `keys`, ST2); players
    equal on every key share a rank."""
    everyone = by_id(players)
    rows = [
        Standing(
            rank=0,
            player_id=p.id,
            name=p.name,
            faction=p.faction,
            tp=p.points(tp),
            sos=strength_of_schedule(p, everyone, tp),
            control_points=p.control_points,
            army_points_destroyed=p.army_points_destroyed,
            dropped=p.status is Status.DROPPED,
            status=p.status,
            dropped_after=p.last_round if p.status is Status.DROPPED else None,
            assassinations=p.assassinations,
        )
        for p in players
    ]
    return rank_rows(rows, keys)


def order_of(row: Standing, keys: tuple[str, ...]) -> tuple[int, ...]:
    """A row's place in an order of keys, each highest first."""
    return tuple(-int(getattr(row, key)) for key in keys)


def rank_rows(rows: Sequence[Standing], keys: tuple[str, ...], first: int = 1) -> list[Standing]:
    """Rows sorted by `keys` (then by name), ranked from `first`; equal rows share a rank."""
    ordered = sorted(rows, key=lambda s: (*order_of(s, keys), s.name.casefold(), s.player_id))
    ranked: list[Standing] = []
    for index, row in enumerate(ordered):
        shares = ranked and order_of(ranked[-1], keys) == order_of(row, keys)
        rank = ranked[-1].rank if shares else index + first
        ranked.append(replace(row, rank=rank))
    return ranked


def record_sheet(
    player: PlayerRecord, players: Sequence[PlayerRecord], tie_word: str = "Tie"
) -> list[dict[str, object]]:
    """ST6: the player record sheet, one row per round played (or missed); a game nobody
    won is a "Tie" or, as the ruleset says, a "Draw"."""
    names = {p.id: p.name for p in players}
    words = {**RESULT_WORDS, Outcome.TIE: tie_word}
    return [
        {
            "round": r.round,
            "opponent": _opponent_name(r, names),
            "list_played": r.list_played,
            "result": words[r.outcome],
            "control_points": r.control_points,
            "army_points_destroyed": r.army_points_destroyed,
            **({"specialists": r.specialists} if r.specialists else {}),
        }
        for r in sorted(player.rounds, key=lambda r: r.round)
    ]


def _opponent_name(record: RoundRecord, names: Mapping[str, str]) -> str:
    if record.outcome is Outcome.BYE:
        return "Bye"
    if record.opponent_id is None:
        return "Missed round"
    return names.get(record.opponent_id, record.opponent_id)
