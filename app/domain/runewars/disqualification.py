"""The organiser removes a player for unsporting conduct (runewars-tournament-regulations-
2017.txt: "The organizer, at his or her sole discretion, may remove players from the
tournament for unsporting conduct"; a marshal refers "any recommendations for
disqualification to the organizer"). "Disqualified players are removed from the
tournament, and cannot rejoin": the player leaves as a drop leaves (RP6, RP7), for good."""

from __future__ import annotations

from app.domain.errors import BadInput, RuleError
from app.domain.frozen import replace
from app.domain.runewars.event import RwEvent, drop

#: The longest reason the organiser gives.
REASON_LENGTH = 300


def check_reason(name: str, reason: str) -> str:
    """The organiser's reason, required and kept in their log; returned trimmed."""
    said = reason.strip()
    if not said:
        raise BadInput(f"say why {name} is disqualified: the reason is kept in the log")
    if len(said) > REASON_LENGTH:
        raise BadInput(f"the reason is too long ({REASON_LENGTH} characters at most)")
    return said


def disqualify(event: RwEvent, player_id: str, reason: str, *, cut_begun: bool = True) -> RwEvent:
    """The player is removed as a drop removes them (`drop`: not paired again; a cut not
    yet played takes the next-ranked player; during the elimination the opponent has a
    bye) and is disqualified: they cannot rejoin. The organiser's reason is required."""
    player = event.player(player_id)
    if player.disqualified:
        raise RuleError(f"{player.name} is already disqualified")
    check_reason(player.name, reason)
    if not player.dropped:
        event = drop(event, player_id, cut_begun=cut_begun)
    out = replace(event.player(player_id), disqualified=True)
    return replace(event, players=tuple(out if p.id == player_id else p for p in event.players))
