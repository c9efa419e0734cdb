"""RP6: Runewars pairings. Swiss: round 1 at random; later at random within each TP
group, an odd player out paired with a random player of the next group; no rematch
within a stage; the bye at random in round 1, later to the lowest-ranked player without
one. Single elimination after a cut: 1 v lowest, 2 v second-lowest; then the winner of
game 1 v the winner of the last game, and so on."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from app.domain.errors import RuleError
from app.domain.runewars.rules import Stage
from app.domain.runewars.standings import Entrant, standings


@dataclass(frozen=True, slots=True)
class Match:
    game: int  # 1-based game number; a bye has its own number in elimination
    a: str
    b: str | None  # None: `a` has the bye


def swiss(players: Sequence[Entrant], round_number: int, rng: random.Random) -> list[Match]:
    active = sorted((p for p in players if not p.dropped), key=lambda p: p.id)
    if len(active) < 2:
        raise RuleError("a round needs at least two players still in the event")
    bye: str | None = None
    if len(active) % 2:
        if round_number == 1:
            bye = rng.choice(active).id
        else:
            # "the lowest ranked player who has not yet received a bye": ranked by the
            # standings as published, every player in them (a dropped opponent still
            # counts in strength of schedule), then chosen among those still playing.
            playing = {p.id for p in active}
            ranked = [s.player_id for s in standings(players) if s.player_id in playing]
            fresh = {p.id for p in active if not p.had_bye}
            bye = next((i for i in reversed(ranked) if i in fresh), ranked[-1])
        active = [p for p in active if p.id != bye]
    if round_number == 1:
        rng.shuffle(active)
        order = active
    else:
        tps = sorted({p.tp for p in active}, reverse=True)
        order = []
        for tp in tps:
            group = [p for p in active if p.tp == tp]
            rng.shuffle(group)
            order += group
    pairs = _pair_in_order(
        [p.id for p in order], {p.id: set(p.opponents(Stage.SWISS)) for p in active}
    )
    if pairs is None:  # every way leads to a rematch: allow one rather than no round
        pairs = _pair_in_order([p.id for p in order], {p.id: set() for p in active})
    assert pairs is not None
    matches = [Match(n, a, b) for n, (a, b) in enumerate(pairs, start=1)]
    return matches + ([Match(len(matches) + 1, bye, None)] if bye else [])


def _pair_in_order(order: list[str], met: dict[str, set[str]]) -> list[tuple[str, str]] | None:
    """The first player left takes the first player after them (in TP groups, shuffled)
    they have not met; backtracks when that leaves the rest unpairable."""
    if not order:
        return []
    head, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if other in met[head]:
            continue
        tail = _pair_in_order(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(head, other), *tail]
    return None


def first_elimination(seeds: Sequence[str]) -> list[Match]:
    """After a cut: the highest seed against the lowest, the second against the
    second-lowest, numbered games 1, 2, …"""
    if len(seeds) < 2 or len(seeds) & (len(seeds) - 1):
        raise RuleError(f"a cut is to 2, 4, 8… players, not {len(seeds)}")
    half = len(seeds) // 2
    return [Match(n + 1, seeds[n], seeds[-1 - n]) for n in range(half)]


def next_elimination(winners: Sequence[str]) -> list[Match]:
    """`winners` in game order: the winner of game 1 against the winner of the last game
    (the new game 1), game 2's against the second-to-last's, and so on."""
    if len(winners) < 2:
        raise RuleError("the elimination is over: one player remains")
    half = len(winners) // 2
    return [Match(n + 1, winners[n], winners[-1 - n]) for n in range(half)]


def cut(players: Sequence[Entrant], size: int) -> list[str]:
    """RP6: the top `size` by the standings; a player who dropped before the stage's first
    game is replaced by the next-highest ranked, who comes in as the lowest."""
    ranked = [s.player_id for s in standings(players) if not s.dropped]
    if len(ranked) < size:
        raise RuleError(f"a top {size} cut needs {size} players still in the event")
    return ranked[:size]
