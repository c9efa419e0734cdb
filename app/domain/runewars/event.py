"""A Runewars event from registration to its winner: Swiss rounds by the plan, a cut,
single elimination (RP6), the deployment and objective of each round, byes and drops.

Pure and immutable like the tables: every step returns the next event; the dice are
the `random.Random` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from app.domain.errors import BadInput, NotFound, RuleError
from app.domain.frozen import replace
from app.domain.runewars import army, pairing
from app.domain.runewars.pairing import Match
from app.domain.runewars.rules import (
    FIRST_SEASON,
    Plan,
    Stage,
    check_army_value,
    draw_card,
    plan_for,
    round_minutes,
    season,
)
from app.domain.runewars.standings import Entrant, Played, Standing, cut_standings, standings


@dataclass(frozen=True, slots=True)
class Result:
    """What a table gives the event: the winner and each side's TP and MoV."""

    winner: str
    tp: tuple[int, int]
    mov: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundPlay:
    number: int
    stage: Stage
    deployment: str
    objective: str
    minutes: int
    matches: tuple[Match, ...]
    results: Mapping[int, Result] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def complete(self) -> bool:
        return all(m.game in self.results for m in self.matches)

    def match_of(self, player_id: str) -> Match | None:
        return next((m for m in self.matches if player_id in (m.a, m.b)), None)

    def winners(self) -> list[str]:
        return [self.results[m.game].winner for m in self.matches]


@dataclass(frozen=True, slots=True)
class RwEvent:
    name: str
    plan: Plan
    players: tuple[Entrant, ...] = ()
    rounds: tuple[RoundPlay, ...] = ()
    #: The players who made the cut, best first (empty until it is made).
    cut_to: tuple[str, ...] = ()
    #: "Legal Deployments and Objectives": the season whose cards the rounds draw.
    season: str = FIRST_SEASON
    #: Army Building: each player registers with an army list, checked by its rules.
    asks_lists: bool = False

    def player(self, player_id: str) -> Entrant:
        for p in self.players:
            if p.id == player_id:
                return p
        raise NotFound(f"no player {player_id!r} in this event")

    @property
    def stage(self) -> Stage:
        return Stage.ELIMINATION if self.cut_to else Stage.SWISS

    @property
    def swiss_played(self) -> int:
        return sum(1 for r in self.rounds if r.stage is Stage.SWISS)

    @property
    def current(self) -> RoundPlay | None:
        return self.rounds[-1] if self.rounds else None

    def standings(self) -> list[Standing]:
        """ST5, and after a cut its players first, by how far they got (RP6): the
        elimination's winner is the standings' first, as `winner` names them. A dropped
        player's row names the last round they were paired in; once the event is over,
        the players still in it are "finished"."""
        rows = self._ranked()
        if not self.over:
            return rows
        # Over: who was still playing finished the event (a person never reads "playing").
        return [replace(s, status="finished") if s.status == "playing" else s for s in rows]

    def _ranked(self) -> list[Standing]:
        rows = cut_standings(self.players, self.cut_to)
        return [
            replace(s, dropped_after=self._last_round(s.player_id)) if s.left else s for s in rows
        ]

    def _last_round(self, player_id: str) -> int | None:
        paired = [r.number for r in self.rounds if r.match_of(player_id) is not None]
        return max(paired, default=None)

    @property
    def over(self) -> bool:
        return self.winner is not None or (
            not self.plan.cut
            and self.swiss_played >= self.plan.swiss_rounds
            and self.current is not None
            and self.current.complete
        )

    @property
    def winner(self) -> str | None:
        """The last player standing in the elimination, or the Swiss leader at the end."""
        last = self.current
        if last is None or not last.complete:
            return None
        if last.stage is Stage.ELIMINATION and len(last.matches) == 1:
            return last.winners()[0]
        if not self.plan.cut and self.swiss_played >= self.plan.swiss_rounds:
            return self._ranked()[0].player_id
        return None


def register(
    event: RwEvent,
    player_id: str,
    name: str,
    army_value: int | None,
    rng: random.Random,
    army_list: str = "",
) -> RwEvent:
    """An entrant with their army value (at most 200) and their tiebreak draw; where the
    event asks for lists (or one is given), the list, checked by Army Building, whose
    total is the army value."""
    if event.rounds:
        raise RuleError("the event has started: registration is closed")
    if any(p.id == player_id for p in event.players):
        raise BadInput(f"player {player_id!r} is already registered")
    if not name.strip():
        raise BadInput("a player needs a name")
    army_value, army_list = _army(event, army_value, army_list)
    value = check_army_value(army_value)
    entrant = Entrant(player_id, name.strip(), value, rng.random(), army_list=army_list)
    return replace(event, players=(*event.players, entrant))


def _army(event: RwEvent, army_value: int | None, army_list: str) -> tuple[int, str]:
    """Army Building: the army value, from the list where there is one."""
    if not army_list.strip():
        if event.asks_lists:
            raise BadInput("this event asks each player for an army list: its units and terrain")
        if army_value is None:
            raise BadInput("a player registers with an army value")
        return army_value, ""
    total = army.check(army_list).points
    if army_value is not None and army_value != total:
        raise BadInput(f"the army list totals {total} points, not {army_value}")
    return total, army_list.strip()


def _update(event: RwEvent, player: Entrant) -> RwEvent:
    return replace(event, players=tuple(player if p.id == player.id else p for p in event.players))


def drop(event: RwEvent, player_id: str, *, cut_begun: bool = True) -> RwEvent:
    """RP6: a dropped player is not paired again. After the cut and before its first game
    (`cut_begun` False: the elimination's first round is paired, not started), the
    next-ranked player takes the place, and that round is paired again; during the
    elimination, the dropped player's current opponent (or next, between rounds) has a
    bye."""
    player = event.player(player_id)
    if player.dropped:
        raise RuleError(f"{player.name} has already dropped")
    event = _update(event, replace(player, dropped=True))
    current = event.current
    if player_id in event.cut_to and (current is None or current.stage is Stage.SWISS):
        return _next_into_cut(event, player_id)
    if player_id in event.cut_to and not cut_begun and cut_unplayed(event):
        # "If a player qualified for a standings-based cut drops from the tournament
        # before any games are played during the next stage of the tournament, the next
        # highest ranking player should be added to the cut as the lowest ranked player
        # in the cut ... Then the organizer pairs all four players based on these new
        # rankings."
        assert current is not None
        changed = _next_into_cut(event, player_id)
        if changed.cut_to != event.cut_to:
            play = replace(current, matches=tuple(pairing.first_elimination(changed.cut_to)))
            return replace(changed, rounds=(*changed.rounds[:-1], play))
    if current is not None and current.stage is Stage.ELIMINATION:
        match = current.match_of(player_id)
        if match is not None and match.game not in current.results and match.b is not None:
            other = match.b if match.a == player_id else match.a
            return _bye_in(event, current, match, other)
    return event


def _next_into_cut(event: RwEvent, player_id: str) -> RwEvent:
    """The next highest ranking player, by the Swiss standings (no game since), takes
    the dropped player's place in the cut as its lowest ranked (nobody left: as it was)."""
    kept = [i for i in event.cut_to if i != player_id]
    rest = [s.player_id for s in standings(event.players) if not s.dropped]
    incoming = next((i for i in rest if i not in kept), None)
    if incoming is None:
        return event
    return replace(event, cut_to=tuple(i for i in rest if i in {*kept, incoming}))


def cut_unplayed(event: RwEvent) -> bool:
    """The elimination's first round is paired and no game of it has a result."""
    current = event.current
    if current is None or current.stage is not Stage.ELIMINATION or current.results:
        return False
    return sum(r.stage is Stage.ELIMINATION for r in event.rounds) == 1


def rejoin(event: RwEvent, player_id: str) -> RwEvent:
    """RP7 ("Pairings"): a dropped player may rejoin, with an unpaired loss for each
    round they did not attend (0 TP, MoV 0), and is paired again from the next round.
    Only in the Swiss stage: the cut ends everyone else's event."""
    player = event.player(player_id)
    if player.disqualified:  # "Disqualified players are removed ... and cannot rejoin."
        raise RuleError(f"{player.name} is disqualified: a disqualified player cannot rejoin")
    if not player.dropped:
        raise RuleError(f"{player.name} has not dropped: only a dropped player can rejoin")
    if event.over:
        raise RuleError("the event is over: nobody can rejoin it")
    if event.cut_to:
        raise RuleError(
            f"the cut is made: only its players play on, so {player.name} cannot rejoin"
        )
    missed = tuple(
        Played.missed(r.number, r.stage) for r in event.rounds if r.match_of(player_id) is None
    )
    games = tuple(sorted((*player.games, *missed), key=lambda g: g.round))
    return _update(event, replace(player, dropped=False, games=games))


def _bye_in(event: RwEvent, play: RoundPlay, match: Match, player_id: str) -> RwEvent:
    """The player's match becomes their bye, a win worth 8 TP and MoV 70."""
    matches = tuple(Match(m.game, player_id, None) if m == match else m for m in play.matches)
    result = Result(player_id, (8, 0), (70, 0))
    play = replace(
        play, matches=matches, results=MappingProxyType({**play.results, match.game: result})
    )
    event = replace(event, rounds=(*event.rounds[:-1], play))
    player = event.player(player_id)
    bye = Played.bye(play.number, play.stage)
    games = (*(g for g in player.games if g.round != play.number), bye)
    return _update(event, replace(player, games=games))


def make_cut(event: RwEvent) -> RwEvent:
    """RP6: after the last Swiss round, the top of the standings make the cut."""
    if not event.plan.cut:
        raise RuleError("this event has no cut")
    if event.cut_to:
        raise RuleError("the cut is already made")
    if event.swiss_played < event.plan.swiss_rounds or not _complete(event):
        raise RuleError(f"the cut comes after {event.plan.swiss_rounds} Swiss rounds")
    return replace(event, cut_to=tuple(pairing.cut(event.players, event.plan.cut)))


def _complete(event: RwEvent) -> bool:
    return event.current is None or event.current.complete


def _draws(event: RwEvent, stage: Stage, rng: random.Random) -> tuple[str, str]:
    """Game setup step 1: the round's deployment and objective from the event's season,
    not repeated within the stage until each has been drawn."""
    played = [r for r in event.rounds if r.stage is stage]
    cards = season(event.season)
    deployment = draw_card(cards.deployments, [r.deployment for r in played], rng)
    objective = draw_card(cards.objectives, [r.objective for r in played], rng)
    return deployment, objective


def pair_next(event: RwEvent, rng: random.Random) -> RwEvent:
    """The next round: Swiss until the plan's count, then (after the cut) elimination."""
    if not _complete(event):
        raise RuleError(f"round {len(event.rounds)} still has results to come in")
    if event.over:
        raise RuleError("the event is over: see the final standings")
    structure = event.plan.by_attendance
    if structure is not None:  # RP6: the rounds and the cut by the players who came
        event = replace(event, plan=plan_for(structure, sum(not p.dropped for p in event.players)))
    number = len(event.rounds) + 1
    if event.swiss_played < event.plan.swiss_rounds:
        stage = Stage.SWISS
        matches = pairing.swiss(event.players, event.swiss_played + 1, rng)
    else:
        if not event.cut_to:
            event = make_cut(event)
        stage = Stage.ELIMINATION
        matches = _elimination(event)
    final = stage is Stage.ELIMINATION and len(matches) == 1
    deployment, objective = _draws(event, stage, rng)
    play = RoundPlay(
        number, stage, deployment, objective, round_minutes(stage, final), tuple(matches)
    )
    event = replace(event, rounds=(*event.rounds, play))
    for match in matches:
        if match.b is None:
            event = _bye_in(event, play, match, match.a)
            play = event.rounds[-1]
    return event


def _elimination(event: RwEvent) -> list[Match]:
    played = [r for r in event.rounds if r.stage is Stage.ELIMINATION]
    if not played:
        return pairing.first_elimination(event.cut_to)
    matches = pairing.next_elimination(played[-1].winners())
    dropped = {p.id for p in event.players if p.dropped}
    return [_bye_if_dropped(m, dropped) for m in matches]


def _bye_if_dropped(match: Match, dropped: set[str]) -> Match:
    """A player who dropped between elimination rounds gives their next opponent a bye."""
    if match.a in dropped and match.b is not None:
        return Match(match.game, match.b, None)
    if match.b in dropped:
        return Match(match.game, match.a, None)
    return match


def record(event: RwEvent, game: int, result: Result) -> RwEvent:
    """A table's result into both players' records (`tp`/`mov` are for a, then b)."""
    play = event.current
    if play is None:
        raise RuleError("no round is paired")
    match = next((m for m in play.matches if m.game == game), None)
    if match is None or match.b is None:
        raise NotFound(f"round {play.number} has no game {game} to record")
    if game in play.results:
        raise RuleError(f"game {game} of round {play.number} already has its result")
    if result.winner not in (match.a, match.b):
        raise BadInput("the winner must be one of the game's two players")
    play = replace(play, results=MappingProxyType({**play.results, game: result}))
    event = replace(event, rounds=(*event.rounds[:-1], play))
    for n, (me, them) in enumerate(((match.a, match.b), (match.b, match.a))):
        player = event.player(me)
        entry = Played(
            play.number, play.stage, them, result.winner == me, result.tp[n], result.mov[n]
        )
        event = _update(event, replace(player, games=(*player.games, entry)))
    return event


def correct(event: RwEvent, round_number: int, game: int, result: Result) -> RwEvent:
    """The organiser's correction of a result already recorded (TS11/ST5): it replaces
    the game's result and both players' entries for that round, so the standings follow.

    Pairings already made for later rounds stand: a correction does not re-pair them
    (nor undo a cut already made); drops are untouched.
    """
    play = next((r for r in event.rounds if r.number == round_number), None)
    if play is None:
        raise NotFound(f"there is no round {round_number} to correct")
    match = next((m for m in play.matches if m.game == game), None)
    if match is None or match.b is None:
        raise NotFound(f"round {round_number} has no game {game} to correct")
    if game not in play.results:
        raise RuleError(f"game {game} of round {round_number} has no result yet to correct")
    if result.winner not in (match.a, match.b):
        raise BadInput("the winner must be one of the game's two players")
    play = replace(play, results=MappingProxyType({**play.results, game: result}))
    event = replace(
        event, rounds=tuple(play if r.number == round_number else r for r in event.rounds)
    )
    for n, (me, them) in enumerate(((match.a, match.b), (match.b, match.a))):
        player = event.player(me)
        entry = Played(
            play.number, play.stage, them, result.winner == me, result.tp[n], result.mov[n]
        )
        games = tuple(entry if g.round == round_number else g for g in player.games)
        event = _update(event, replace(player, games=games))
    return event


def results_from_table(
    winner_side: int, a: str, b: str, tp: Sequence[int], mov: Sequence[int]
) -> Result:
    """A table's outcome (sides P1 = a, P2 = b) as the event's result."""
    return Result(a if winner_side == 0 else b, (tp[0], tp[1]), (mov[0], mov[1]))
