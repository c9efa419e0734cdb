"""An event table's pre-game: opened when the round starts, with the lists each player
may choose (their registered lists, narrowed by a ruleset that wants each list played);
without the pre-game on the phones, only the starting roll and who goes first."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from app.domain import commands as c
from app.domain.army_lists import list_texts
from app.domain.formats import get_format, split_lists
from app.domain.pregame import Step
from app.domain.standings import PlayerRecord
from app.domain.variants import list_checks
from app.events.base import PairingRow
from app.events.book import EventBook
from app.events.results import Results
from app.store.models import EventRecord, PlayerEntry, RoundEntry

#: Without the pre-game on the phones, a table settles only who goes first off the clock.
ROLL_ONLY = (Step.ROLL.value, Step.ORDER.value)


def list_choices(
    event: EventRecord, player: PlayerEntry, record: PlayerRecord | None, rounds_left: int
) -> tuple[str, ...]:
    """The lists a player may choose this round (empty: none registered, any is written)."""
    rule = get_format(event.format_id).list_rule(event.lists)
    played = {g.list_played for g in record.rounds if g.list_played} if record else set()
    return tuple(rule.choices(split_lists(player.lists), played, rounds_left))


def open_command(
    event: EventRecord,
    row: PairingRow,
    players: Mapping[str, PlayerEntry],
    records: Sequence[PlayerRecord],
    rounds_left: int,
) -> c.OpenPregame:
    """The command that opens a table's pre-game, by seat (the pairing's first player first)."""
    by_id = {r.id: r for r in records}
    seats: list[tuple[str, ...]] = []
    armies: list[tuple[str, ...]] = []
    for player_id in (row.p1, row.p2 or ""):
        player = players.get(player_id)
        if player is None:
            seats.append(())
            armies.append(())
            continue
        seats.append(list_choices(event, player, by_id.get(player_id), rounds_left))
        armies.append(tuple(list_texts(player.lists)))
    return c.OpenPregame(
        choices=(seats[0], seats[1]),
        armies=(armies[0], armies[1]),
        specialists=uses_specialists(event),
    )


def uses_specialists(event: EventRecord) -> bool:
    """The event's lists have specialists (SR2019's variant, IG2014's own rule)."""
    rule = get_format(event.format_id).list_rule(event.lists)
    chosen = [v for v in event.variants.split(",") if v]
    checks = rule.rules.joined(list_checks(chosen, event.points))
    return checks.allowance(event.points) is not None


class Pregame:
    """What each table of a round opens with when the round starts."""

    def __init__(self, book: EventBook, results: Results) -> None:
        self.book = book
        self.results = results

    def opening(self, event: EventRecord, entry: RoundEntry) -> Callable[[PairingRow], c.Command]:
        """Each table's opening command: the pre-game on the phones (its lists), or only
        the starting roll and the choice of who goes first."""
        if not event.pregame:
            return lambda _row: c.OpenPregame(steps=ROLL_ONLY)
        players = {p.id: p for p in self.book.players(event.id)}
        records = self.results.player_records(event.id)
        left = max(1, self.results.planned_rounds(event.id) - entry.number + 1)
        return lambda row: open_command(event, row, players, records, left)

    def list_offers(self, event: EventRecord, number: int) -> dict[str, tuple[str, ...]]:
        """The lists each player may play this round, where the ruleset has each list
        played at least once (none: any list)."""
        rule = get_format(event.format_id).list_rule(event.lists)
        if not rule.each_played:
            return {}
        left = self.results.planned_rounds(event.id) - number + 1
        offers: dict[str, tuple[str, ...]] = {}
        records = {r.id: r for r in self.results.player_records(event.id)}
        for player in self.book.players(event.id):
            lists = split_lists(player.lists)
            record = records.get(player.id)
            played = [r.list_played for r in record.rounds] if record else []
            offers[player.id] = tuple(rule.choices(lists, played, left))
        return offers
