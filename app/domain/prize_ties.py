"""ST3: the prizes the final standings give, and the ties they cannot break.

The standings rank players by TP, then SoS, then CP, then APD (ST1, or the event's
variant); players equal on every one share a rank, and the documents break the tie no
further. A place (First- to Third-Place Finish) that falls among such players, or a
"most" prize (Champions) whose leaders are equal on every key the prize names, is the
EO's to decide among them: never the alphabet's. Disqualified players are not eligible
for any prize: a place passes to the next eligible player.

`chosen` is the EO's choice for a prize, by prize id. A choice counts only while its
player is still among those tied for that prize (a corrected result can end a tie); a
player the EO places in one place of a shared rank is not offered for another.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from app.domain.prizes import Prize
from app.domain.standings import Standing, order_of


@dataclass(frozen=True, slots=True)
class Award:
    """A standings prize's winner, or (winner None) the players tied for it, whom the EO
    chooses among; neither: nobody is eligible for it (yet)."""

    winner: str | None
    tied: tuple[str, ...] = ()
    chosen: bool = False  # the winner is the EO's choice among tied players


def standings_awards(
    prizes: Sequence[Prize],
    rows: Sequence[Standing],
    ineligible: Collection[str],
    chosen: Mapping[str, str],
) -> dict[str, Award]:
    """Each place and "most" prize of `prizes`, by prize id (chosen prizes are not here)."""
    eligible = [r for r in rows if r.player_id not in ineligible]
    awards = _places([p for p in prizes if p.place is not None], eligible, chosen)
    for prize in prizes:
        if prize.place is None and prize.most and not prize.chosen:
            awards[prize.id] = _most(prize.most, eligible, chosen.get(prize.id))
    return awards


def _places(
    prizes: Sequence[Prize], eligible: Sequence[Standing], chosen: Mapping[str, str]
) -> dict[str, Award]:
    """The places in order: each goes to the eligible player at it, unless that player
    shares their rank; then to the EO's choice among the tied not placed higher, or to
    the only one left once the EO has placed the others."""
    by_place = {p.place: p.id for p in prizes if p.place is not None}
    awards: dict[str, Award] = {}
    placed: set[str] = set()
    for place in sorted(by_place):
        prize_id = by_place[place]
        if len(eligible) < place:
            awards[prize_id] = Award(None)
            continue
        rank = eligible[place - 1].rank
        group = [r.player_id for r in eligible if r.rank == rank and r.player_id not in placed]
        pick = chosen.get(prize_id)
        if len(group) == 1:
            shared = sum(r.rank == rank for r in eligible) > 1
            awards[prize_id] = Award(group[0], chosen=shared and pick == group[0])
            placed.add(group[0])
            continue
        if pick in group:
            assert pick is not None
            awards[prize_id] = Award(pick, chosen=True)
            placed.add(pick)
            continue
        # The EO's choices for the places below this one that these players share (a
        # choice for a place outside their span is of another tie, or a stale one).
        span = range(place + 1, place + len(group))
        later = {chosen.get(by_place[p]) for p in by_place if p in span}
        left = tuple(p for p in group if p not in later)
        if len(left) == 1:
            awards[prize_id] = Award(left[0])
            placed.add(left[0])
        else:
            awards[prize_id] = Award(None, left)
    return awards


def _most(keys: tuple[str, ...], eligible: Sequence[Standing], pick: str | None) -> Award:
    if not eligible:
        return Award(None)
    best = min(order_of(r, keys) for r in eligible)
    leaders = tuple(r.player_id for r in eligible if order_of(r, keys) == best)
    if len(leaders) == 1:
        return Award(leaders[0])
    if pick in leaders:
        return Award(pick, chosen=True)
    return Award(None, leaders)


def tied_for(
    prize: Prize,
    prizes: Sequence[Prize],
    rows: Sequence[Standing],
    ineligible: Collection[str],
    chosen: Mapping[str, str],
) -> tuple[str, ...]:
    """The players the EO may choose among for `prize` now (its own choice set aside):
    empty when the standings give it."""
    others = {k: v for k, v in chosen.items() if k != prize.id}
    award = standings_awards(prizes, rows, ineligible, others).get(prize.id)
    return () if award is None else award.tied


def places_given(
    prizes: Sequence[Prize],
    rows: Sequence[Standing],
    ineligible: Collection[str],
    chosen: Mapping[str, str],
) -> dict[str, int]:
    """The place each player the place prizes name holds: its winner, or every player
    still tied for it (they share the place until the EO places them)."""
    awards = standings_awards(prizes, rows, ineligible, chosen)
    given: dict[str, int] = {}
    for prize in sorted((p for p in prizes if p.place is not None), key=lambda p: p.place or 0):
        award = awards[prize.id]
        for player in (award.winner,) if award.winner is not None else award.tied:
            given.setdefault(player, prize.place or 0)
    return given
