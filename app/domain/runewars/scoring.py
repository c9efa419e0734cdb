"""TS11/ST5: a Runewars table's scores into its outcome: the winner, the margin of
victory and each side's tournament points, by the end of the game (defeat, mutual
destruction, concession) or, on equal scores, by the Final Flurry."""

from __future__ import annotations

from app.domain.clock import Side
from app.domain.errors import BadInput, RuleError
from app.domain.frozen import replace
from app.domain.runewars.rules import (
    BYE_MOV,
    BYE_TP,
    CONCESSION_KEEPS_FROM,
    margin_of_victory,
    score,
    tournament_points,
)
from app.domain.runewars.state import EndedBy, Outcome, Phase, RwGame


def scores(game: RwGame) -> tuple[int, int]:
    """TS11: each player's score as entered (destroying every unit counts 200)."""
    got = []
    for side in (Side.P1, Side.P2):
        entry = game.entries[side]
        if entry is None:
            raise RuleError(f"{game.setup.names[side]} has not entered a score yet")
        got.append(score(entry[0], entry[1], everything_destroyed=game.destroyed[side.other]))
    return got[0], got[1]


def win(game: RwGame, winner: Side, flurry: tuple[int, int] | None = None) -> RwGame:
    """ST5: the winner's MoV and both sides' TP (both armies destroyed: MoV 0 each)."""
    points = scores(game)
    mov = margin_of_victory(points[winner], points[winner.other])
    if game.ended_by is EndedBy.MUTUAL_DESTRUCTION:
        mov = 0
    tp = [0, 0]
    movs = [0, 0]
    tp[winner], tp[winner.other] = tournament_points(mov, True), tournament_points(mov, False)
    movs[winner] = mov
    assert game.ended_by is not None
    outcome = Outcome(winner, points, (movs[0], movs[1]), (tp[0], tp[1]), game.ended_by, flurry)
    return replace(game, phase=Phase.OVER, outcome=outcome)


def conceded(game: RwGame, conceder: Side) -> RwGame:
    """ST5: 0 TP and MoV 0 to the conceder; the opponent keeps a result of MoV 70 or
    more at the time of concession, else 8 TP and MoV 70."""
    points = scores(game)
    winner = conceder.other
    mov = margin_of_victory(points[winner], points[conceder])
    won = (tournament_points(mov, True), mov) if mov >= CONCESSION_KEEPS_FROM else (BYE_TP, BYE_MOV)
    tp, movs = [0, 0], [0, 0]
    tp[winner], movs[winner] = won
    outcome = Outcome(winner, points, (movs[0], movs[1]), (tp[0], tp[1]), EndedBy.CONCESSION)
    return replace(game, phase=Phase.OVER, outcome=outcome)


def decide(game: RwGame) -> RwGame:
    if game.conceded is not None:
        return conceded(game, game.conceded)
    if game.ended_by is EndedBy.DEFEATED:
        return win(game, Side.P2 if game.destroyed[Side.P1] else Side.P1)
    points = scores(game)
    if points[0] == points[1]:
        return replace(game, phase=Phase.FINAL_FLURRY)
    return win(game, Side.P1 if points[0] > points[1] else Side.P2)


def flurry_win(game: RwGame, hits: tuple[int, int]) -> RwGame:
    """TS11: equal scores: the player who rolled more hits in the Final Flurry wins."""
    if min(hits) < 0:
        raise BadInput("hits cannot be negative")
    if hits[0] == hits[1]:
        raise RuleError(f"both rolled {hits[0]} hits: roll the Final Flurry again")
    return win(game, Side.P1 if hits[0] > hits[1] else Side.P2, hits)
