"""ST5: a Runewars player's games and the standings: tournament points, then cumulative
margin of victory, then strength of schedule, then a random draw fixed once; after a cut
(RP6), the cut's players first, by how far they got in the single elimination."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
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
    #: Removed by the organiser for unsporting conduct: dropped, and cannot rejoin.
    disqualified: bool = False

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
    #: Not paired again: the player left, was disqualified, or (once the cut is made) is
    #: not in it; what a person reads is `status` (`left`: the player left themselves).
    dropped: bool
    #: "playing", "disqualified", "dropped", "cut" (not in the cut) or "eliminated"
    #: (lost a game of the single elimination): `status_of`; "finished" for the players
    #: still in once the event is over (`Event.standings`).
    status: str = "playing"
    #: A dropped player's last round (None: not dropped, or dropped before any round).
    dropped_after: int | None = None

    @property
    def left(self) -> bool:
        """The player left the event themselves (RP7): not a disqualification, not a cut."""
        return self.status == "dropped"

    def row(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "player_id": self.player_id,
            "name": self.name,
            "tp": self.tp,
            "mov": self.mov,
            "sos": f"{float(self.sos):.2f}",
            "dropped": self.left,
            "status": self.status,
            "dropped_after": self.dropped_after,
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
        Standing(
            n,
            p.id,
            p.name,
            p.tp,
            p.mov,
            strength_of_schedule(p, everyone),
            p.dropped,
            status=_left(p) or "playing",
        )
        for n, p in enumerate(keyed, start=1)
    ]


def _left(player: Entrant) -> str | None:
    """A player who left the event: removed by the organiser ("Disqualified players are
    removed from the tournament, and cannot rejoin") or dropped; None: still in it."""
    if player.disqualified:
        return "disqualified"
    return "dropped" if player.dropped else None


def status_of(player: Entrant, cut_to: Sequence[str]) -> str:
    """Where a player stands once the cut is made. The regulations call all three
    "dropped": one who leaves ("notify the organizer of their intent ... dropping them
    from the tournament"), those not in the cut ("all other players are dropped") and the
    loser of an elimination game ("eliminated and dropped from the tournament"); only the
    first left the event, the others went out by its structure. A disqualified player,
    removed by the organiser, is "disqualified" before anything else."""
    left = _left(player)
    if left is not None:
        return left
    if player.id not in cut_to:
        return "cut"
    lost = any(g.stage is Stage.ELIMINATION and not g.won for g in player.games)
    return "eliminated" if lost else "playing"


def cut_standings(players: Sequence[Entrant], cut_to: Sequence[str]) -> list[Standing]:
    """RP6/ST5: the standings of an event with a cut (`cut_to`: the cut's players, best
    seed first); without one, the plain standings.

    The regulations: "Tournament Points ... At the end of a tournament, the player with
    the most tournament points wins the tournament. In the case of a larger event, they
    are instead used to determine who makes the cut to elimination rounds"; "At the end of
    Swiss rounds, the winner of the tournament is the player with most tournament points
    unless there are single elimination rounds"; and in those "the winner of each pairing
    remains in the tournament and the losing player is eliminated and dropped from the
    tournament ... until only one player remains and is named the winner". So TP do not
    order the cut's players: they come first, by how far they got (elimination games won,
    a bye included; one still in ahead of one out after as many wins): the winner, the
    final's loser, then the semi-final's losers and so on. The document does not order
    players eliminated in the same round: they keep their Swiss order, the cut's seeding
    ("entered into the top 4 as fourth place"). The players not cut, "dropped" at the cut
    ("all other players are dropped"), follow in their Swiss order: the standings of the
    Swiss games alone. Each row still shows the player's totals, every game counted."""
    if not cut_to:
        return standings(players)
    everyone = {p.id: p for p in players}
    seeds = {player_id: n for n, player_id in enumerate(cut_to)}
    if len(seeds) != len(cut_to) or not seeds.keys() <= everyone.keys():
        raise BadInput("the cut names a player twice or one not in the event")

    def how_far(player_id: str) -> tuple[int, bool, int]:
        player = everyone[player_id]
        games = [g for g in player.games if g.stage is Stage.ELIMINATION]
        out = player.dropped or any(not g.won for g in games)
        return -sum(g.won for g in games), out, seeds[player_id]

    swiss_only = [
        replace(p, games=tuple(g for g in p.games if g.stage is Stage.SWISS)) for p in players
    ]
    rest = [s.player_id for s in standings(swiss_only) if s.player_id not in seeds]
    rows = {s.player_id: s for s in standings(players)}
    order = [*sorted(cut_to, key=how_far), *rest]
    return [
        replace(rows[player_id], rank=n, status=status_of(everyone[player_id], cut_to))
        for n, player_id in enumerate(order, start=1)
    ]


def export_csv(rows: Sequence[Standing]) -> str:
    """The standings as CSV, for export and printing; names safe for a spreadsheet."""
    lines = ["rank,name,tp,mov,sos,dropped,status"]
    for s in rows:
        name = '"' + safe_text(s.name).replace('"', '""') + '"'
        sos = f"{float(s.sos):.2f}"
        lines.append(f"{s.rank},{name},{s.tp},{s.mov},{sos},{int(s.left)},{s.status}")
    return "\n".join(lines) + "\n"
