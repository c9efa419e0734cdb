"""ST3: an event's prizes and who wins them.

A prize is data: a place in the final standings, the most of one total (ties broken
by further totals), or a choice (the EO's, or a blind vote of the players). A blind
vote is counted only once the EO closes it; a tie goes to the EO or to a second vote
among the tied entries. Disqualified players are not eligible for any prize.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from app.domain.errors import BadInput, RuleError


@dataclass(frozen=True, slots=True)
class Prize:
    id: str
    name: str
    #: A place in the final standings (1 is first).
    place: int | None = None
    #: The most of the first key; ties broken by the keys after it.
    most: tuple[str, ...] = ()
    #: Chosen by the EO, or also by a blind vote of the players (`vote`).
    chosen: bool = False
    vote: bool = False
    #: Best-Painted: the category is announced (fixed here, or the EO's at creation).
    category: str | None = None
    painting: bool = False

    @property
    def ruled(self) -> str:
        if self.place is not None:
            return "by the final standings"
        if self.most:
            words = {"tp": "TP", "sos": "SoS", "control_points": "CP"}
            words |= {"army_points_destroyed": "APD"}
            return "ties by " + ", ".join(words[k] for k in self.most[1:])
        return "by the EO or a blind vote" if self.vote else "chosen by the EO"


FIRST = Prize("first", "First-Place Finish", place=1)
SECOND = Prize("second", "Second-Place Finish", place=2)
THIRD = Prize("third", "Third-Place Finish", place=3)

#: SR2019: 1st-3rd (announced even without prize kits); Best-Painted (when the EO
#: announced a category) and Best Sport, each by the EO or a blind vote.
SR2019_PRIZES = (
    FIRST,
    SECOND,
    THIRD,
    Prize("best_painted", "Best-Painted", chosen=True, vote=True, painting=True),
    Prize("best_sport", "Best Sport", chosen=True, vote=True),
)
#: 1st–3rd by the final standings, and nothing else.
PLACES = (FIRST, SECOND, THIRD)
MASTERS_PRIZES = PLACES
CHAMPIONS_PRIZES = (
    FIRST,
    Prize("best_painted", "Best-Painted", chosen=True, category="Best Army", painting=True),
    Prize(
        "most_cp",
        "Most Control Points Scored",
        most=("control_points", "tp", "sos", "army_points_destroyed"),
    ),
    Prize(
        "most_apd",
        "Most Army Points Destroyed",
        most=("army_points_destroyed", "tp", "sos", "control_points"),
    ),
)

#: Best-Painted categories the SR2019 rules recommend (the EO may name another).
PAINTING_CATEGORIES = ("Best Single Model", "Best Battlegroup", "Best Unit", "Best Army")


def offered(prizes: Sequence[Prize], painting_category: str) -> tuple[Prize, ...]:
    """The prizes an event gives: a Best-Painted needs its category announced."""
    return tuple(p for p in prizes if not p.painting or p.category or painting_category)


def painting_category(prizes: Sequence[Prize], category: str) -> str:
    """The Best-Painted category an EO announces at creation ("": no Best-Painted)."""
    category = " ".join(category.split())
    if not category:
        return ""
    if len(category) > 60:
        raise BadInput("the Best-Painted category is 60 characters at most")
    if not any(p.painting and p.category is None for p in prizes):
        fixed = [p.category for p in prizes if p.painting and p.category]
        raise BadInput(
            f"this format's Best-Painted category is fixed: {fixed[0]}"
            if fixed
            else "this format has no Best-Painted award"
        )
    return category


def category_of(prize: Prize, painting_category: str) -> str | None:
    if not prize.painting:
        return None
    return prize.category or painting_category


def get_prize(prizes: Sequence[Prize], prize_id: str) -> Prize:
    for prize in prizes:
        if prize.id == prize_id:
            return prize
    names = ", ".join(p.id for p in prizes)
    raise BadInput(f"this event has no prize {prize_id!r} (its prizes: {names})")


# -- the blind vote ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ballot:
    voter: str
    choice: str


def check_ballot(
    voter: str, choice: str, entries: Collection[str], voters: Collection[str]
) -> Ballot:
    """One player's secret vote for one of the entries shown (their own may be one)."""
    if voter not in voters:
        raise RuleError("only a player of this event who is not disqualified can vote")
    if choice not in entries:
        raise BadInput("vote for one of the entries shown")
    return Ballot(voter, choice)


def latest(ballots: Iterable[Ballot]) -> dict[str, str]:
    """One vote a player: a later ballot replaces an earlier one."""
    return {b.voter: b.choice for b in ballots}


@dataclass(frozen=True, slots=True)
class Count:
    """A closed vote: the votes each entry got, and the entries with the most."""

    votes: Mapping[str, int]
    leaders: tuple[str, ...]

    @property
    def tied(self) -> bool:
        return len(self.leaders) > 1

    @property
    def winner(self) -> str | None:
        return self.leaders[0] if len(self.leaders) == 1 else None


def count(entries: Sequence[str], ballots: Iterable[Ballot]) -> Count:
    """Count a closed vote: one vote a player (their last), for entries still shown."""
    tally = Counter(c for c in latest(ballots).values() if c in entries)
    votes = {e: tally.get(e, 0) for e in entries}
    top = max(votes.values(), default=0)
    leaders = tuple(e for e in entries if votes[e] == top) if top else ()
    return Count(votes, leaders)


def second_vote_entries(previous: Count, entries: Sequence[str] | None) -> tuple[str, ...]:
    """A tie's second blind vote is among the tied entries only."""
    if not previous.tied:
        raise RuleError("a second vote is only held when the vote ended in a tie")
    if entries is None:
        return previous.leaders
    if not entries or set(entries) - set(previous.leaders):
        raise BadInput("a second vote is among the tied entries only")
    return tuple(dict.fromkeys(entries))
