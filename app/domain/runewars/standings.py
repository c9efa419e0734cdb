"""ST5: a Runewars player's games and the standings: tournament points, then cumulative
margin of victory, then strength of schedule, then a random draw fixed once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from app.domain.errors import BadInput
from app.domain.runewars.rules import BYE_MOV, BYE_TP, Stage
from app.domain.spreadsheet import safe_text


@dataclass(frozen=True, slots=True)
class Played:
    """One tournament round of a player (opponent None: a bye)."""

    round: int
    stage: Stage
    opponent_id: str | None
    won: bool
    tp: int
    mov: int

    @classmethod
    def bye(cls, round_number: int, stage: Stage) -> Played:
        """RP6: a bye is a win worth 8 TP and MoV 70."""
        return cls(round_number, stage, None, True, BYE_TP, BYE_MOV)

    @classmethod
    def missed(cls, round_number: int, stage: Stage) -> Played:
        """RP7: a round a rejoining player did not attend is an unpaired loss, worth
        nothing (0 TP, MoV 0, as a concession is to the player who concedes)."""
        return cls(round_number, stage, None, False, 0, 0)

    @property
    def unpaired_loss(self) -> bool:
        return self.opponent_id is None and not self.won

    @property
    def is_bye(self) -> bool:
        return self.opponent_id is None and self.won


@dataclass(frozen=True, slots=True)
class Entrant:
    id: str
    name: str
    army_value: int
    #: ST5: the random draw that orders players still tied, drawn once at registration.
    draw: float
    games: tuple[Played, ...] = ()
    dropped: bool = False
    #: Army Building: the list the player registered with ("" where none was asked).
    army_list: str = ""

    @property
    def tp(self) -> int:
        return sum(g.tp for g in self.games)

    @property
    def mov(self) -> int:
        return sum(g.mov for g in self.games)

    def opponents(self, stage: Stage | None = None) -> tuple[str, ...]:
        return tuple(
            g.opponent_id
            for g in self.games
            if g.opponent_id is not None and (stage is None or g.stage is stage)
        )

    @property
    def had_bye(self) -> bool:
        return any(g.is_bye for g in self.games)

    @property
    def rounds_played(self) -> int:
        """The rounds the player attended (a bye counts, an unpaired loss does not)."""
        return sum(not g.unpaired_loss for g in self.games)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player_id: str
    name: str
    tp: int
    mov: int
    sos: Fraction
    dropped: bool

    def row(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "player_id": self.player_id,
            "name": self.name,
            "tp": self.tp,
            "mov": self.mov,
            "sos": f"{float(self.sos):.2f}",
            "dropped": self.dropped,
        }


def strength_of_schedule(player: Entrant, everyone: Mapping[str, Entrant]) -> Fraction:
    """ST5: each opponent's TP divided by the rounds that opponent played, added up, then
    divided by the number of opponents played (byes are not opponents; a round an opponent
    missed, an unpaired loss, is not a round they played)."""
    opponents = [everyone[o] for o in player.opponents() if o in everyone]
    shares = [Fraction(o.tp, o.rounds_played) for o in opponents if o.rounds_played]
    return sum(shares, Fraction(0)) / len(opponents) if opponents else Fraction(0)


def standings(players: Sequence[Entrant]) -> list[Standing]:
    """TP, then cumulative MoV, then SoS, then the random draw: no two share a rank."""
    everyone = {p.id: p for p in players}
    if len(everyone) != len(players):
        raise BadInput("a player appears twice")
    keyed = sorted(
        players,
        key=lambda p: (-p.tp, -p.mov, -strength_of_schedule(p, everyone), p.draw, p.id),
    )
    return [
        Standing(n, p.id, p.name, p.tp, p.mov, strength_of_schedule(p, everyone), p.dropped)
        for n, p in enumerate(keyed, start=1)
    ]


def export_csv(rows: Sequence[Standing]) -> str:
    """The standings as CSV, for export and printing; names safe for a spreadsheet."""
    lines = ["rank,name,tp,mov,sos,dropped"]
    for s in rows:
        name = '"' + safe_text(s.name).replace('"', '""') + '"'
        lines.append(f"{s.rank},{name},{s.tp},{s.mov},{float(s.sos):.2f},{int(s.dropped)}")
    return "\n".join(lines) + "\n"
