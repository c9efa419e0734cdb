"""An event table's pre-game: opened when the round starts, with the lists each player
may choose (their registered lists, narrowed by a ruleset that wants each list played)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.domain import commands as c
from app.domain.formats import get_format, split_lists
from app.domain.standings import PlayerRecord
from app.events.base import PairingRow
from app.store.models import EventRecord, PlayerEntry


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
    for player_id in (row.p1, row.p2 or ""):
        player = players.get(player_id)
        if player is None:
            seats.append(())
            continue
        seats.append(list_choices(event, player, by_id.get(player_id), rounds_left))
    return c.OpenPregame(choices=(seats[0], seats[1]))
