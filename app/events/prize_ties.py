"""ST3: the EO breaks a tie the final standings leave for a prize (app.domain.prize_ties):
a place, or a "most" prize, whose players are equal on every total. Only once the event
is over, only among the tied players, and the event's log keeps who was placed."""

from __future__ import annotations

from collections.abc import Mapping

from app.domain.errors import RuleError
from app.domain.formats import get_format
from app.domain.prize_ties import tied_for
from app.domain.prizes import Prize, offered
from app.events.book import EventBook
from app.events.results import Results
from app.store.models import EventRecord, PrizeDecision


def event_prizes(event: EventRecord) -> tuple[Prize, ...]:
    """The prizes this event gives (its format's; a Best-Painted once announced)."""
    return offered(get_format(event.format_id).prizes, event.painting_category)


def decisions_of(book: EventBook, event_id: str) -> dict[str, PrizeDecision]:
    """The event's prize decisions, by prize id."""
    with book.read() as repo:
        return {d.prize_id: d for d in repo.prize_decisions(event_id)}


def tie_choices(decisions: Mapping[str, PrizeDecision]) -> dict[str, str]:
    """The EO's choices among tied players, by prize id (a standings prize's decision)."""
    return {
        d.prize_id: d.winner
        for d in decisions.values()
        if d.status == "awarded" and d.by == "eo" and d.winner
    }


class PrizeTies:
    def __init__(self, book: EventBook, results: Results) -> None:
        self.book = book
        self.results = results

    def break_tie(self, event_id: str, prize: Prize, player_id: str) -> None:
        """The EO places `player_id` for `prize`, among the players the standings tie for
        it. The EO may choose again among the same players (a tie-break is no award to
        take back: the standings still show them equal)."""
        if not self.results.event_over(event_id):
            raise RuleError(
                f"{prize.name} goes {prize.ruled}: a tie for it is broken once the event "
                "is over and its standings are final"
            )
        event = self.book.event(event_id)
        players = self.book.players(event_id)
        names = {p.id: p.name for p in players}
        self.book.player(event_id, player_id)  # one of this event's players
        ineligible = {p.id for p in players if p.disqualified}
        decisions = decisions_of(self.book, event_id)
        prizes = event_prizes(event)
        rows = self.results.standings(event_id)
        tied = tied_for(prize, prizes, rows, ineligible, tie_choices(decisions))
        if not tied:
            raise RuleError(f"{prize.name} goes {prize.ruled}: no tie for the EO to break")
        if player_id not in tied:
            among = " and ".join(names[p] for p in tied)
            raise RuleError(f"the tie for {prize.name} is among {among} only")
        decision = decisions.get(prize.id) or PrizeDecision(event_id=event_id, prize_id=prize.id)
        decision.status, decision.winner, decision.by = "awarded", player_id, "eo"
        with self.book.unit() as repo:
            action = self.book.action(
                event_id,
                "award",
                prize=prize.id,
                title=prize.name,
                player=player_id,
                tied=[names[p] for p in tied],
                names={p: names[p] for p in tied},
            )
            repo.add(decision, action)
        self.book.changed(event_id)
