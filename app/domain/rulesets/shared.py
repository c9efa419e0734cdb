"""The hooks more than one ruleset shares: recording every CP scored, and DC8's round end
with the exception for an EO's pause (Steamroller 2019, Masters and Champions)."""

from __future__ import annotations

from app.domain.rulebook import RoundEndCall, Ruleset
from app.domain.scenarios import G

#: DC8: the combined time left on both clocks that is played to completion.
PLAY_ON_MS = 5 * 60_000


def as_scored(_rules: Ruleset[G], cp: tuple[int, int]) -> tuple[int, int]:
    """Every CP scored is recorded."""
    return cp


def round_end_with_pause_exception(
    remaining_ms: tuple[int, int], paused_by_eo: bool, clock_ran_out: bool
) -> RoundEndCall:
    """DC8 (SR2019, M&C): under 5 minutes combined plays on; more is a tie unless the
    EO paused the table this round. Exactly 5:00 plays on."""
    if clock_ran_out:
        return RoundEndCall.CLOCK_OUT
    if sum(remaining_ms) <= PLAY_ON_MS or paused_by_eo:
        return RoundEndCall.PLAY_ON
    return RoundEndCall.TIE
