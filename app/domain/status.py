"""Where a table stands, in the EO's words: one status a table, from its game."""

from __future__ import annotations

from enum import StrEnum

from app.domain.game import Game, Phase


class TableStatus(StrEnum):
    WAITING = "waiting"
    PREGAME = "pregame"  # the players settle lists, the starting roll and sides
    DEPLOYING = "deploying"
    PLAYING = "playing"
    PAUSED = "paused"
    DISPUTED = "disputed"
    FINISHED = "finished"
    AWAITING_CONFIRMATION = "awaiting_confirmation"
    CONFIRMED = "confirmed"


#: A table whose game is not over yet.
LIVE = (
    TableStatus.WAITING,
    TableStatus.PREGAME,
    TableStatus.DEPLOYING,
    TableStatus.PLAYING,
    TableStatus.PAUSED,
)

_BY_PHASE = {
    Phase.READY: TableStatus.WAITING,
    Phase.PRE_DEPLOYMENT: TableStatus.DEPLOYING,  # IG2014's step before deployment (DC3)
    Phase.DEPLOYMENT: TableStatus.DEPLOYING,
    Phase.ADVANCE_DEPLOYMENT: TableStatus.DEPLOYING,
    Phase.TURN: TableStatus.PLAYING,
    Phase.CLOCK_OUT: TableStatus.PLAYING,
}


def table_status(game: Game) -> TableStatus:
    if game.paused:
        return TableStatus.PAUSED
    if game.in_pregame:
        return TableStatus.PREGAME
    playing = _BY_PHASE.get(game.phase)
    if playing is not None:
        return playing
    if game.disputed is not None:
        return TableStatus.DISPUTED
    if game.result() is None:
        return TableStatus.FINISHED
    if all(game.confirmed):
        return TableStatus.CONFIRMED
    return TableStatus.AWAITING_CONFIRMATION
