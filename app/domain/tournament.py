"""The event around the games: rounds (RP1), scenarios (RP4), byes (RP3), drops
and late rejoins (RP7), and the round's clock (DC4, DC8).
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from app.domain.errors import BadInput, RuleError
from app.domain.rulebook import RoundEndCall, Ruleset
from app.domain.rulesets.shared import PLAY_ON_MS, round_end_with_pause_exception
from app.domain.scenarios import G
from app.domain.standings import (
    SR2019_TP,
    ST1_KEYS,
    Outcome,
    PlayerRecord,
    RoundRecord,
    standings,
)

#: SR2019 bye: 1 TP and 3 CP (APD is half the event's point size, rounded up).
BYE_TP = 1
BYE_CP = 3

__all__ = ["PLAY_ON_MS", "RoundEndCall"]

FEWEST_ROUNDS = 3  # RP1: 8 players or fewer


def round_count(players: int) -> int:
    """RP1: 8 or fewer → 3 rounds, 9–16 → 4, 17–32 → 5, 33–64 → 6, 65–128 → 7.

    Past 128 the table stops; each further doubling adds a round (129–256 → 8).
    """
    if players < 2:
        raise BadInput(f"an event needs at least 2 players, not {players}")
    return max(FEWEST_ROUNDS, (players - 1).bit_length())


def event_decided(players: Sequence[PlayerRecord], tp: Mapping[str, int] = SR2019_TP) -> bool:
    """RP1: one player has more TP than any other player (dropped players count)."""
    points = sorted((p.points(tp) for p in players), reverse=True)
    return bool(points) and (len(points) == 1 or points[0] > points[1])


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """How many rounds: the RP1 count, or at most `rounds` ([X] Round Event);
    `cut_to_top`: the Cut to Top [X] variant."""

    rounds: int | None = None
    cut_to_top: int | None = None

    def __post_init__(self) -> None:
        if self.rounds is not None and self.rounds < 1:
            raise BadInput("an event plays at least one round")
        if self.cut_to_top is not None and self.cut_to_top < 2:
            raise BadInput("Cut to Top needs at least the top 2 players")

    def check_field(self, players: int) -> None:
        """RP1: the EO names any X for Cut to Top [X], from 2 up to the players entered."""
        if self.cut_to_top is not None and self.cut_to_top > players:
            raise RuleError(
                f"Cut to Top {self.cut_to_top} needs at least {self.cut_to_top} players "
                f"({players} entered): lower X or register more players"
            )

    def round_limit(self, players: int) -> int:
        return self.rounds if self.rounds is not None else round_count(players)


def event_over(
    players: Sequence[PlayerRecord],
    rounds_played: int,
    plan: RoundPlan,
    tp: Mapping[str, int] = SR2019_TP,
) -> bool:
    """RP1: over once the planned rounds are played, or early after a round once
    one player has more TP than every other; every player who took part counts
    (`field_size`)."""
    if rounds_played < 1:
        return False
    return rounds_played >= plan.round_limit(field_size(players)) or event_decided(players, tp)


def field_size(players: Sequence[PlayerRecord]) -> int:
    """RP1: the players the round count goes by ("by the number of players"): everyone
    registered, but a player who left before they were paired in any round (a no-show
    the EO dropped) never took part. A player who played and left still counts."""
    return sum(1 for p in players if not p.dropped or p.last_round is not None)


def next_round_allowed(
    players: Sequence[PlayerRecord],
    rounds_played: int,
    plan: RoundPlan,
    tp: Mapping[str, int] = SR2019_TP,
) -> bool:
    active = sum(1 for p in players if not p.dropped)
    return active >= 2 and not event_over(players, rounds_played, plan, tp)


def undefeated(players: Sequence[PlayerRecord]) -> list[PlayerRecord]:
    """Players still in the event who have not lost a game (a tie is not a defeat)."""
    return [
        p for p in players if not p.dropped and all(r.outcome is not Outcome.LOSS for r in p.rounds)
    ]


def cut_to_top(
    players: Sequence[PlayerRecord],
    x: int,
    tp: Mapping[str, int] = SR2019_TP,
    keys: tuple[str, ...] = ST1_KEYS,
) -> list[str] | None:
    """Cut to Top [X], checked at the end of each round: once X or fewer players are
    undefeated, only the top X by the final standings play the remaining rounds ("Use
    the Final Standings rules to determine the top X players": the event's, `keys`).

    Returns their ids when the cut applies now, else None. The EO cuts only once
    per event: the caller stops asking once it has applied a cut.
    """
    if x < 2:
        raise BadInput("Cut to Top needs at least the top 2 players")
    active = [s for s in standings(players, tp, keys) if not s.out]
    if len(active) <= x or len(undefeated(players)) > x:
        return None
    return [s.player_id for s in active[:x]]


def pick_scenario(
    scenario_ids: Sequence[str],
    used: Collection[str],
    rng: random.Random,
    chosen: str | None = None,
) -> str:
    """RP4: the EO's choice, or a d6 roll over the six, rerolled until unplayed.

    A scenario is not repeated; only once all six are played (a seventh round)
    may the EO choose one again. A roll never repeats one.
    """
    if not scenario_ids:
        raise BadInput("the format has no scenarios")
    all_played = all(s in used for s in scenario_ids)
    if chosen is not None:
        if chosen not in scenario_ids:
            raise BadInput(f"unknown scenario {chosen!r} (choose {', '.join(scenario_ids)})")
        if chosen in used and not all_played:
            raise RuleError(
                f"{chosen} was already played in this event: a scenario is not repeated"
            )
        return chosen
    if all_played:
        raise RuleError("every scenario has been played in this event: the EO must choose one")
    while True:
        rolled = scenario_ids[rng.randint(1, len(scenario_ids)) - 1]
        if rolled not in used:
            return rolled


def bye_award(points: int, rules: Ruleset[G] | None = None) -> tuple[int, int, int]:
    """RP3: (TP, CP, APD) for a bye: the ruleset's award, by default (SR2019) 1, 3 and
    half the event's point size rounded up."""
    if rules is not None:
        award = rules.bye(rules, points)
        return award.tp, award.cp, award.apd
    if points < 0:
        raise BadInput("the event's point size cannot be negative")
    return BYE_TP, BYE_CP, math.ceil(points / 2)


def late_rejoin_losses(player: PlayerRecord, rounds_played: int) -> tuple[RoundRecord, ...]:
    """RP7: a loss for each round played so far that the player has no record for."""
    if rounds_played < 0:
        raise BadInput("rounds played cannot be negative")
    recorded = {r.round for r in player.rounds}
    return tuple(
        RoundRecord(
            round=n,
            opponent_id=None,
            outcome=Outcome.LOSS,
            control_points=0,
            army_points_destroyed=0,
        )
        for n in range(1, rounds_played + 1)
        if n not in recorded
    )


def expected_end_ms(deployment_start_ms: int, player_clock_ms: int) -> int:
    """DC4: deployment start plus both player clocks."""
    if player_clock_ms <= 0:
        raise BadInput("the player clock must be longer than zero")
    return deployment_start_ms + 2 * player_clock_ms


def last_deployment(starts: Sequence[int | None]) -> int | None:
    """DC4 with the pre-game on the phones: each table's clocks start when its first
    player begins deployment, so the round's time counts from the last table's start,
    once every table has begun (one still in its pre-game is None: no start yet)."""
    if not starts or None in starts:
        return None
    return max(s for s in starts if s is not None)


def eo_pause_plays_on(rules: Ruleset[G]) -> bool:
    """DC8: whether a table the EO pauses in a round plays on at the round's end where it
    would otherwise be called a tie (SR2019, Masters and Champions: yes; IG2014: no), as
    the ruleset's own round end says."""
    tie_time = (PLAY_ON_MS, PLAY_ON_MS)  # 10 minutes combined: a tie, unless paused
    return rules.round_end(tie_time, True, False) is not rules.round_end(tie_time, False, False)


def round_end_call(
    remaining_ms: tuple[int, int],
    paused_by_eo: bool,
    *,
    clock_ran_out: bool = False,
    rules: Ruleset[G] | None = None,
) -> RoundEndCall:
    """DC8 at the round's expected end, as the ruleset says (by default SR2019: under
    5 minutes combined plays on; more is a tie unless the EO paused the table this
    round; exactly 5:00 plays on).

    A game whose clock has already run out is not unfinished: DC7 decides it (a
    scenario claim or the clock loss), never the round's end."""
    if min(remaining_ms) < 0:
        raise BadInput("remaining time cannot be negative")
    if rules is None:
        return round_end_with_pause_exception(remaining_ms, paused_by_eo, clock_ran_out)
    return rules.round_end(remaining_ms, paused_by_eo, clock_ran_out)
