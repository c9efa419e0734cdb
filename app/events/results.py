"""Results and standings: what each table recorded (the players' confirmed result or
the EO's entry), the players' records, RP1's end of the event, and the EO's results."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from app.domain import commands as c
from app.domain import judge
from app.domain.clock import Side
from app.domain.errors import RuleError
from app.domain.formats import get_format
from app.domain.method import Method
from app.domain.qualifiers import eligible_places
from app.domain.rankings import Cut, Finals, Ranking, get_ranking, ranked
from app.domain.standings import (
    Outcome,
    PlayerRecord,
    RoundRecord,
    Standing,
    Status,
    finished,
)
from app.domain.tournament import RoundPlan, bye_award, event_over, field_size
from app.events.base import PairingRow, pairings_of
from app.events.book import EventBook
from app.events.eo_log import table_names
from app.events.event_tables import EventTables
from app.events.table_result import (
    TableResult,
    change_words,
    in_side_order,
    recorded_result,
    table_says,
)
from app.store.models import EventRecord, PlayerEntry, RoundEntry
from app.tables.hub import TableHub
from app.tables.placement import Placement
from app.tables.room import TableRoom


def _method(word: str) -> Method | None:
    """How the game ended, as the standings read it (an unknown word: not said)."""
    try:
        return Method(word)
    except ValueError:
        return None


def _game_records(rnd: RoundEntry, row: PairingRow, result: TableResult) -> list[RoundRecord]:
    """Both players' records of one played game (P1's, then P2's)."""
    records = []
    for index, (me, them) in enumerate(((row.p1, row.p2), (row.p2, row.p1))):
        outcome = {"win": Outcome.WIN, "loss": Outcome.LOSS, "tie": Outcome.TIE}[
            result.outcome_for((Side.P1, Side.P2)[index])
        ]
        records.append(
            RoundRecord(
                round=rnd.number,
                opponent_id=them,
                outcome=outcome,
                control_points=result.control_points[index],
                army_points_destroyed=result.army_points_destroyed[index],
                list_played=result.lists[index],
                specialists=result.specialists[index],
                paired_down=row.paired_down == me,
                method=_method(result.method),
            )
        )
    return records


def recorded_results(rooms: Iterable[TableRoom]) -> dict[str, TableResult]:
    """Recorded results by table, each from its table's log: the EO's entry, else the
    players' confirmed one."""
    recorded: dict[str, TableResult] = {}
    for room in rooms:
        result = recorded_result(room.game)
        if result is not None:
            recorded[room.table_id] = result
    return recorded


def records_of(
    event: EventRecord,
    entries: Sequence[PlayerEntry],
    rounds: Sequence[RoundEntry],
    results: Mapping[str, TableResult],
) -> list[PlayerRecord]:
    """Every player's games so far, from the event as stored and its results."""
    games: dict[str, list[RoundRecord]] = {p.id: [] for p in entries}
    last_round: dict[str, int] = {}
    _, bye_cp, bye_apd = bye_award(event.points, get_format(event.format_id))
    for rnd in rounds:
        if rnd.started_ms is None:
            continue  # RP4: a drafted round (its byes too) counts once it starts
        paired: set[str] = set()
        for row in pairings_of(rnd):
            paired.update(x for x in (row.p1, row.p2) if x)
            last_round.update((x, rnd.number) for x in (row.p1, row.p2) if x)
            if row.p2 is None:
                games[row.p1].append(RoundRecord(rnd.number, None, Outcome.BYE, bye_cp, bye_apd))
                continue
            result = results.get(row.table_id or "")
            if result is None:
                continue
            first, second = _game_records(rnd, row, result)
            games[row.p1].append(first)
            games[row.p2].append(second)
        for player in entries:
            if player.id not in paired and player.joined_round > rnd.number:
                games[player.id].append(RoundRecord(rnd.number, None, Outcome.LOSS, 0, 0))
    return [
        PlayerRecord(
            id=p.id,
            name=p.name,
            faction=p.faction,
            dropped=p.dropped or p.cut,
            rounds=tuple(sorted(games[p.id], key=lambda g: g.round)),
            why_out=why_out(p),
            last_round=last_round.get(p.id),
        )
        for p in entries
    ]


def why_out(player: PlayerEntry) -> Status:
    """Why a player is no longer paired: a disqualification first (the player is dropped
    with it), then the player's own drop (one who left before a cut is also left out of
    it), then the cut."""
    if player.disqualified:
        return Status.DISQUALIFIED
    if player.dropped:
        return Status.DROPPED
    return Status.CUT if player.cut else Status.PLAYING


def finals_of(event: EventRecord, rounds: Sequence[RoundEntry], players: int) -> Finals | None:
    """ST2 Finals Tables: the final round's first tables, once that round is played."""
    ranking = get_ranking(event.standings)
    if not ranking.finals_places or not rounds:
        return None
    last = rounds[-1]
    if last.started_ms is None or last.number < plan_of(event).round_limit(max(players, 2)):
        return None
    tables = sorted((row.table, row.p1, row.p2) for row in pairings_of(last) if row.p2)
    return Finals(last.number, tuple((p1, p2) for _, p1, p2 in tables[: ranking.finals_tables]))


def disqualified_ids(entries: Iterable[PlayerEntry]) -> frozenset[str]:
    """The players the EO disqualified (ST3: not eligible for any award or prize)."""
    return frozenset(p.id for p in entries if p.disqualified)


def cut_of(
    event: EventRecord, players: Iterable[PlayerEntry], records: Sequence[PlayerRecord]
) -> Cut | None:
    """RP1: the Cut to Top made in this event, if any: who it kept, and the first round
    only they played (the round after the last one a player left out played)."""
    if not event.cut_done:
        return None
    kept = frozenset(p.id for p in players if not p.cut)
    played = [r.round for p in records if p.id not in kept for r in p.rounds]
    return Cut(round=max(played) + 1, kept=kept) if played else None


def event_standings(
    event: EventRecord,
    rounds: Sequence[RoundEntry],
    records: Sequence[PlayerRecord],
    players: Sequence[PlayerEntry],
    over: bool = True,
) -> list[Standing]:
    """The ruleset's order (ST1), or the variant the EO chose at creation (ST2), with a
    qualifier's points for each standing once the event is over (ST4: QPs are given by
    the final standings; before, none is shown). A disqualified player keeps their standing
    but earns no QPs: their place passes down to the next eligible player, as a prize's
    does (ST3); the standings' order is unchanged. After a Cut to Top only the kept
    players' standings move (RP1)."""
    rules = get_format(event.format_id)
    ranking = event_ranking(event)
    finals = finals_of(event, rounds, field_size(records))
    cut = cut_of(event, players, records)
    rows = ranked(records, ranking, tp=rules.tp, finals=finals, cut=cut)
    if not over:
        return rows
    rows = finished(rows)
    disqualified = disqualified_ids(players)
    places = eligible_places(((r.rank, r.player_id) for r in rows), disqualified)
    qp = {player: rules.qualifier_points_for(place) for player, place in places.items()}
    none = 0 if rules.qualifier_points else None  # a disqualified player's (not a qualifier)
    return [replace(r, qualifier_points=qp.get(r.player_id, none)) for r in rows]


def event_ranking(event: EventRecord) -> Ranking:
    """The variant the EO chose, under the event's ruleset."""
    return get_ranking(event.standings).under(get_format(event.format_id).standings_order)


def complete(entry: RoundEntry, results: Mapping[str, TableResult]) -> bool:
    """Every game of the round has its result (a bye needs none)."""
    return all(
        row.p2 is None or (row.table_id is not None and row.table_id in results)
        for row in pairings_of(entry)
    )


def plan_of(event: EventRecord) -> RoundPlan:
    return RoundPlan(rounds=event.fixed_rounds, cut_to_top=event.cut_to_top)


def over(
    event: EventRecord,
    rounds: Sequence[RoundEntry],
    records: Sequence[PlayerRecord],
    results: Mapping[str, TableResult],
) -> bool:
    """RP1: all rounds played, or one player leads on TP alone after a round."""
    if not rounds or not complete(rounds[-1], results):
        return False
    return event_over(records, len(rounds), plan_of(event))


class Results:
    """What the tables recorded, as the event counts it: the players' records, the
    standings, RP1's end of the event, and the EO's entry of a table's result."""

    def __init__(
        self, book: EventBook, hub: TableHub, placement: Placement, tables: EventTables
    ) -> None:
        self.book = book
        self.hub = hub
        self.placement = placement
        self.tables = tables
        #: A round paired and not started follows a result that moved in an earlier
        #: round (RP1-RP3 on the standings as they now are): `Control.follow_draft`.
        self.draft_follows: Callable[[str, str], None] = lambda _event_id, _why: None

    def _results(self, event_id: str) -> dict[str, TableResult]:
        """Recorded results by table: the EO's entry, else the players' confirmed one."""
        self.book.require(event_id, "results")
        return recorded_results(self.hub.event_tables(event_id))

    def player_records(self, event_id: str) -> list[PlayerRecord]:
        return self.records(event_id, self.book.players(event_id))

    def records(self, event_id: str, entries: list[PlayerEntry]) -> list[PlayerRecord]:
        """The games of these players of the event so far."""
        event = self.book.event(event_id)
        return records_of(event, entries, self.book.rounds(event_id), self._results(event_id))

    def standings(self, event_id: str) -> list[Standing]:
        return self.standings_and_over(event_id)[0]

    def standings_and_over(self, event_id: str) -> tuple[list[Standing], bool]:
        """The standings, and whether the event is over (RP1), from one read of the
        records and results."""
        event, entries = self.book.event(event_id), self.book.players(event_id)
        rounds, results = self.book.rounds(event_id), self._results(event_id)
        records = records_of(event, entries, rounds, results)
        ended = over(event, rounds, records, results)  # from the records in hand
        return event_standings(event, rounds, records, entries, ended), ended

    def tie_word(self, event_id: str) -> str:
        """A game nobody won, in the event's ruleset's word: a "Tie" or a "Draw"."""
        return get_format(self.book.event(event_id).format_id).tie_word

    def standings_words(self, event_id: str) -> str:
        """ST2: the variant the event's standings are ranked by, in words."""
        ranking = event_ranking(self.book.event(event_id))
        return f"{ranking.name}: {ranking.order_words}"

    def round_complete(self, entry: RoundEntry) -> bool:
        return complete(entry, self._results(entry.event_id))

    def plan(self, event_id: str) -> RoundPlan:
        return plan_of(self.book.event(event_id))

    def planned_rounds(self, event_id: str) -> int:
        """RP1 by the number of players who take part (`field_size`), or the EO's fixed
        count."""
        return self.plan(event_id).round_limit(max(field_size(self.player_records(event_id)), 2))

    def event_over(self, event_id: str) -> bool:
        """RP1: all rounds played, or one player leads on TP alone after a round."""
        rounds = self.book.rounds(event_id)
        if not rounds or not self.round_complete(rounds[-1]):
            return False
        return event_over(self.player_records(event_id), len(rounds), self.plan(event_id))

    def table_result(self, event_id: str, table_id: str) -> TableResult | None:
        return self._results(event_id).get(table_id)

    # -- the EO's results ---------------------------------------------------------

    async def enter(
        self, event_id: str, table_id: str, result: TableResult, reason: str = ""
    ) -> bool:
        """The EO enters or corrects a table's result; it overrides the players' own.

        The table's log is the result's one record: the EO's entry is a command there.
        A game still in play ends with it (its clock stops) and both phones show it.
        TS9: a settled result moves only with the reason; in a closed round it shows
        as a correction. The very result the table has settled already, sent again (a
        lost reply, a second EO device), changes nothing and is logged nowhere: False.
        """
        room = self.tables.get(event_id, table_id)
        number = room.meta.round_number if room.meta is not None else 0
        played = in_side_order(result, room.game)  # the game's P1 is whoever went first
        command = c.RecordResult(
            winner=played.winner,
            control_points=played.control_points,
            army_points_destroyed=played.army_points_destroyed,
            method=Method(played.method),
            lists=played.lists,
            reason=reason,
            round_closed=number < len(self.book.rounds(event_id)) or self.event_over(event_id),
        )
        if judge.already_so(room.game, command):
            return False  # a repeat: its log, and the EO's, stay as they are
        before = table_says(room.game)
        settled = self.table_result(event_id, table_id) is not None
        try:
            await self.placement.execute(room, c.Role.EO, "", 0, command)
        except RuleError as exc:
            if exc.code == judge.AlreadySo.code:
                return False  # the same entry from elsewhere got in first: nothing changed
            raise
        entered = self.table_result(event_id, table_id)
        assert entered is not None
        words = change_words(before, entered, room.game.setup.names, self.tie_word(event_id))
        detail = {
            "table": table_id,
            "result": entered.as_json(),
            "before": None if before is None else before.as_json(),
            "reason": reason.strip(),
            "words": words + (f". Why: {reason.strip()}" if reason.strip() else ""),
            "names": table_names(room),
        }
        action = "correct_result" if settled else "enter_result"
        with self.book.unit() as repo:
            repo.add(self.book.action(event_id, action, **detail))
        self.book.changed(event_id)
        later = number < len(self.book.rounds(event_id))
        if later and (before is None or before.winner != entered.winner):
            table = room.meta.table_no if room.meta is not None else 0
            self.draft_follows(event_id, f"round {number} table {table}'s result changed")
        return True
