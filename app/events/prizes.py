"""ST3: an event's prizes: who wins each one, the EO's choices and the players' blind
votes, and the EO's "disqualify" (a disqualified player is not eligible for any prize).

A player votes with their own player link or a seat link of theirs (any table of the
event they sat at). The count of a vote exists only once the EO closes it: until then
nobody, the EO included, is told how many votes any entry has. While a vote is open
the EO sees only how many eligible players have voted out of how many; nobody ever sees
who voted for whom.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.exc import IntegrityError

from app.domain.errors import BadInput, NotFound, RuleError, Unauthorized
from app.domain.games import refusal
from app.domain.prize_ties import standings_awards
from app.domain.prizes import (
    Ballot,
    Count,
    Prize,
    category_of,
    check_ballot,
    count,
    get_prize,
    second_vote_entries,
)
from app.events.book import EventBook
from app.events.prize_ties import PrizeTies, decisions_of, event_prizes, tie_choices
from app.events.results import Results
from app.store.models import EventRecord, PlayerEntry, PrizeBallot, PrizeDecision
from app.tables.hub import TableHub
from app.tables.timesource import TimeSource

View = dict[str, Any]


def _counts(decision: PrizeDecision) -> list[View]:
    counts: list[View] = json.loads(decision.counts_json)
    return counts


def _last_count(decision: PrizeDecision | None) -> Count | None:
    """The last vote's count, which a tie's decision keeps to (none once the prize was
    awarded: its winner disqualified since, it is decided afresh)."""
    if decision is None or decision.status == "awarded":
        return None
    counts = _counts(decision)
    if not counts:
        return None
    last = counts[-1]
    return Count(last["votes"], tuple(last["leaders"]))


class Prizes:
    """ST3's prizes of an event: by the standings, by the EO's choice or by a vote."""

    def __init__(self, book: EventBook, hub: TableHub, time: TimeSource, results: Results) -> None:
        self.book = book
        self.hub = hub
        self.time = time
        self.results = results
        self.ties = PrizeTies(book, results)

    # -- reads ----------------------------------------------------------------------

    def of(self, event: EventRecord) -> tuple[Prize, ...]:
        return event_prizes(event)

    def _decisions(self, event_id: str) -> dict[str, PrizeDecision]:
        return decisions_of(self.book, event_id)

    def _decision(self, event_id: str, prize_id: str) -> PrizeDecision | None:
        return self._decisions(event_id).get(prize_id)

    @staticmethod
    def _eligible(players: list[PlayerEntry]) -> list[PlayerEntry]:
        return [p for p in players if not p.disqualified]

    def view(self, event_id: str, eo: bool = False) -> View:
        """Every prize and where it stands; a vote's count only once it is closed. The EO
        (`eo`) also sees how many eligible players have voted in an open vote."""
        event = self.book.require(event_id, "prizes")
        players = self.book.players(event_id)
        names = {p.id: p.name for p in players}
        ineligible = {p.id for p in players if p.disqualified}
        records = self.results.player_records(event_id)
        # Places follow the standings once a game is recorded (provisional until the end).
        rows = self.results.standings(event_id) if any(p.rounds for p in records) else []
        decisions = self._decisions(event_id)
        offered_here = self.of(event)
        awards = standings_awards(offered_here, rows, ineligible, tie_choices(decisions))
        prizes = []
        for prize in offered_here:
            item: View = {
                "id": prize.id,
                "name": prize.name,
                "category": category_of(prize, event.painting_category),
                "ruled": prize.ruled,
                "chosen": prize.chosen,
                "vote": prize.vote,
                "status": "standings",
                "winner": None,
            }
            if prize.chosen:
                decision = decisions.get(prize.id)
                item |= self._chosen_view(decision, names)
                if eo and decision is not None and decision.status == "open":
                    item["turnout"] = self._turnout(event_id, decision, players)
            else:
                award = awards[prize.id]
                winner = award.winner
                item["winner"] = _person(winner, names)
                if award.chosen:  # the EO's choice among players the standings tie
                    item["by"] = "eo"
                if award.tied:
                    item |= {"status": "tied", "tied": [_person(p, names) for p in award.tied]}
                if prize.place is not None and winner is not None:
                    # The place passes down past a disqualified player (ST3): say where
                    # the winner stands on the standings themselves.
                    item["standing"] = next(r.rank for r in rows if r.player_id == winner)
            prizes.append(item)
        return {
            "event": {
                "id": event.id,
                "name": event.name,
                "over": self.results.event_over(event_id),
            },
            "prizes": prizes,
            "players": [
                {"id": p.id, "name": p.name, "disqualified": p.disqualified} for p in players
            ],
        }

    def _turnout(self, event_id: str, decision: PrizeDecision, players: list[PlayerEntry]) -> View:
        """How many eligible players have voted in the open vote, out of how many."""
        voters = {p.id for p in self._eligible(players)}
        with self.book.read() as repo:
            ballots = repo.ballots(event_id, decision.prize_id, decision.stage)
        return {"voted": len({b.voter for b in ballots} & voters), "voters": len(voters)}

    @staticmethod
    def _chosen_view(decision: PrizeDecision | None, names: dict[str, str]) -> View:
        if decision is None:
            return {"status": "undecided", "entries": [], "stage": 0, "counts": []}
        entries = [_person(e, names) for e in json.loads(decision.entries_json)]
        counts = [
            {
                "stage": c["stage"],
                "votes": [{**(_person(e, names) or {}), "votes": n} for e, n in c["votes"].items()],
                "leaders": [_person(e, names) for e in c["leaders"]],
            }
            for c in _counts(decision)
        ]
        return {
            "status": decision.status,
            "stage": decision.stage,
            "entries": entries,
            "counts": counts,  # closed votes only: a running vote has no count here
            "winner": _person(decision.winner, names),
            "by": decision.by or None,
        }

    # -- the EO ---------------------------------------------------------------------

    def _holder(self, event_id: str, decision: PrizeDecision | None) -> PlayerEntry | None:
        """Who holds an awarded prize (None: not awarded, or its winner has been
        disqualified since and is no longer eligible: it is awarded again)."""
        if decision is None or decision.status != "awarded" or not decision.winner:
            return None
        holder = self.book.player(event_id, decision.winner)
        return None if holder.disqualified else holder

    def _chosen_prize(self, event_id: str, prize_id: str) -> Prize:
        prize = get_prize(self.of(self.book.event(event_id)), prize_id)
        if not prize.chosen:
            raise RuleError(f"{prize.name} goes {prize.ruled}: nobody chooses it")
        return prize

    def open_vote(self, event_id: str, prize_id: str, entries: list[str] | None = None) -> None:
        """A blind vote among the entries shown (all eligible players when none are
        named); after a tied vote, a second one among the tied entries only."""
        self.book.require(event_id, "prizes")
        prize = self._chosen_prize(event_id, prize_id)
        if not prize.vote:
            raise RuleError(f"{prize.name} is chosen by the EO, not by a vote")
        decision = self._decision(event_id, prize_id)
        eligible = [p.id for p in self._eligible(self.book.players(event_id))]
        if decision is not None and decision.status == "open":
            raise RuleError(f"the vote for {prize.name} is already open: close it first")
        holder = self._holder(event_id, decision)
        if holder is not None:
            raise RuleError(f"{prize.name} is already awarded to {holder.name}")
        last = _last_count(decision)
        if last is not None and last.tied:
            chosen = second_vote_entries(last, entries)
        else:
            chosen = tuple(dict.fromkeys(entries if entries is not None else eligible))
            if len(chosen) < 2 or set(chosen) - set(eligible):
                raise BadInput(
                    "a vote needs at least two entries, each a player of this event "
                    "who is not disqualified"
                )
        if decision is None:
            decision = PrizeDecision(event_id=event_id, prize_id=prize_id)
        decision.status, decision.stage = "open", decision.stage + 1
        decision.entries_json = json.dumps(list(chosen))
        with self.book.unit() as repo:
            repo.add(decision, self.book.action(event_id, "open_vote", prize=prize_id))
        self.book.changed(event_id)

    def close_vote(self, event_id: str, prize_id: str) -> None:
        """Count the vote: one winner takes the prize; a tie waits for the EO's choice
        among the tied or a second vote among them."""
        self.book.require(event_id, "prizes")
        prize = self._chosen_prize(event_id, prize_id)
        decision = self._decision(event_id, prize_id)
        if decision is None or decision.status != "open":
            raise RuleError(f"no vote for {prize.name} is open")
        entries = json.loads(decision.entries_json)
        with self.book.read() as repo:
            rows = repo.ballots(event_id, prize_id, decision.stage)
        counted = count(entries, [Ballot(b.voter, b.choice) for b in rows])
        counts = _counts(decision)
        counts.append(
            {"stage": decision.stage, "votes": dict(counted.votes), "leaders": counted.leaders}
        )
        decision.counts_json = json.dumps(counts)
        decision.status = "closed"
        if counted.winner is not None:
            decision.status, decision.winner, decision.by = "awarded", counted.winner, "vote"
        with self.book.unit() as repo:
            repo.add(decision, self.book.action(event_id, "close_vote", prize=prize_id))
        self.book.changed(event_id)

    def award(self, event_id: str, prize_id: str, player_id: str) -> None:
        """The EO chooses the winner (after a tied vote: one of the tied entries). An
        awarded prize stays awarded (the same winner again changes nothing), unless its
        winner has been disqualified since: not eligible, they give it up."""
        self.book.require(event_id, "prizes")
        standings_prize = get_prize(self.of(self.book.event(event_id)), prize_id)
        if not standings_prize.chosen:  # a place or a "most": only a tie is the EO's
            self.ties.break_tie(event_id, standings_prize, player_id)
            return
        prize = self._chosen_prize(event_id, prize_id)
        player = self.book.player(event_id, player_id)
        decision = self._decision(event_id, prize_id)
        holder = self._holder(event_id, decision)
        if holder is not None and holder.id == player_id:
            return
        if holder is not None:
            raise RuleError(
                f"{prize.name} is already awarded to {holder.name}: an awarded prize stays awarded"
            )
        if player.disqualified:
            raise RuleError(f"{player.name} is disqualified: not eligible for any prize")
        if decision is not None and decision.status == "open":
            raise RuleError(f"the vote for {prize.name} is open: close it first")
        last = _last_count(decision)
        if last is not None and last.tied and player_id not in last.leaders:
            raise RuleError(f"the tie for {prize.name} is broken among the tied entries only")
        if decision is None:
            decision = PrizeDecision(event_id=event_id, prize_id=prize_id)
        decision.status, decision.winner, decision.by = "awarded", player_id, "eo"
        with self.book.unit() as repo:
            action = self.book.action(
                event_id, "award", prize=prize_id, title=prize.name, player=player_id
            )
            repo.add(decision, action)
        self.book.changed(event_id)

    # -- the players ----------------------------------------------------------------

    def voter(self, event_id: str, token: str | None) -> PlayerEntry:
        """The player their own player link names, or a seat link of theirs (any table of
        the event)."""
        own = self.book.player_by_token(event_id, token)
        if own is not None:
            return own
        if token:
            for room in self.hub.event_tables(event_id):
                role = room.tokens.role_for(token)
                if room.meta is not None and role in ("p1", "p2"):
                    player_id = room.meta.p1_player if role == "p1" else room.meta.p2_player
                    return self.book.player(event_id, player_id)
        raise Unauthorized("open this page from your own player link or seat link")

    def ballot_view(self, event_id: str, token: str | None) -> View:
        """What a player sees: the open votes, their entries and the player's own vote."""
        self.book.require(event_id, "prizes")
        me = self.voter(event_id, token)
        event = self.book.event(event_id)
        names = {p.id: p.name for p in self.book.players(event_id)}
        ballots = []
        decisions = self._decisions(event_id)
        for prize in self.of(event):
            decision = decisions.get(prize.id)
            if decision is None or decision.status != "open":
                continue
            with self.book.read() as repo:
                mine = repo.ballot(event_id, prize.id, decision.stage, me.id)
            ballots.append(
                {
                    "prize": prize.id,
                    "name": prize.name,
                    "category": category_of(prize, event.painting_category),
                    "stage": decision.stage,
                    "entries": [_person(e, names) for e in json.loads(decision.entries_json)],
                    "my_vote": None if mine is None else mine.choice,
                }
            )
        player = {"id": me.id, "name": me.name, "disqualified": me.disqualified}
        return {"event": {"id": event.id, "name": event.name}, "me": player, "ballots": ballots}

    def cast_vote(self, event_id: str, token: str | None, prize_id: str, choice: str) -> None:
        """A player's secret vote; voting again replaces it until the vote closes."""
        self.book.require(event_id, "prizes")
        me = self.voter(event_id, token)
        prize = get_prize(self.of(self.book.event(event_id)), prize_id)
        decision = self._decision(event_id, prize_id)
        if decision is None or decision.status != "open":
            raise RuleError(f"the vote for {prize.name} is not open")
        voters = {p.id for p in self._eligible(self.book.players(event_id))}
        check_ballot(me.id, choice, json.loads(decision.entries_json), voters)
        try:
            self._put_ballot(event_id, prize_id, decision.stage, me.id, choice)
        except IntegrityError:  # the same player's vote at the same moment: replace it
            self._put_ballot(event_id, prize_id, decision.stage, me.id, choice)

    def _put_ballot(
        self, event_id: str, prize_id: str, stage: int, voter: str, choice: str
    ) -> None:
        now = self.time.now_ms()
        with self.book.unit() as repo:
            mine = repo.ballot(event_id, prize_id, stage, voter)
            if mine is None:
                mine = PrizeBallot(
                    event_id=event_id,
                    prize_id=prize_id,
                    stage=stage,
                    voter=voter,
                    choice=choice,
                    at_ms=now,
                )
            mine.choice, mine.at_ms = choice, now
            repo.add(mine)


def votes_waiting(book: EventBook, event_id: str, player: PlayerEntry) -> list[View]:
    """The open votes this player may vote in and has not: each prize's id, name and
    stage (none at an event without prizes, or for a disqualified player)."""
    event = book.event(event_id)
    if player.disqualified or refusal(event.format_id, "prizes") is not None:
        return []
    with book.read() as repo:
        decisions = {d.prize_id: d for d in repo.prize_decisions(event_id)}
        waiting = []
        for prize in event_prizes(event):
            decision = decisions.get(prize.id)
            if decision is None or decision.status != "open":
                continue
            if repo.ballot(event_id, prize.id, decision.stage, player.id) is None:
                waiting.append({"prize": prize.id, "name": prize.name, "stage": decision.stage})
    return waiting


def _person(player_id: str | None, names: dict[str, str]) -> View | None:
    if player_id is None:
        return None
    if player_id not in names:
        raise NotFound(f"no player {player_id!r} in this event")
    return {"id": player_id, "name": names[player_id]}
