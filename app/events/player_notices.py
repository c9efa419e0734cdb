"""What needs a player now, told on their own page: their pairing, the round's start,
the opponent's report waiting for theirs, the result the EO entered or corrected at
their table, a result of an earlier round the EO corrected since, and an open vote they
have not voted in.

Each notice has a key that stays the same while the same thing stands, so the page can
tell a new notice from one the player has seen. Newest first: a vote, the EO's result,
the report, the round's start, the pairing; then the corrections of earlier rounds,
the latest round first."""

from __future__ import annotations

import hashlib
from typing import Any

from app.domain.clock import Side
from app.domain.formats import scenario_name
from app.events.base import PairingRow, pairings_of
from app.events.book import EventBook
from app.events.prizes import votes_waiting
from app.store.models import PlayerEntry, RoundEntry
from app.tables.engine import SeatNews
from app.tables.hub import TableHub
from app.tables.room import TableRoom

Notice = dict[str, Any]


def _notice(key: str, kind: str, text: str, url: str | None = None) -> Notice:
    return {"key": key, "kind": kind, "text": text, "url": url}


def _my_row(entry: RoundEntry, player_id: str) -> PairingRow | None:
    return next((r for r in pairings_of(entry) if player_id in (r.p1, r.p2)), None)


def _eo_notice(table_id: str, table_no: int, news: SeatNews, round_no: int = 0) -> Notice:
    """`round_no`: an earlier round's, named in the text (0: the current round's)."""
    done = "corrected" if news.eo_corrected else "entered"
    text = f"The EO {done} the result at table {table_no}: {news.eo_result}."
    if round_no:
        text = f"Round {round_no}: {text}"
    if news.eo_reason:
        text += f" Reason: {news.eo_reason}"
    what = f"{news.eo_result}|{news.eo_reason}|{news.eo_corrected}".encode()
    key = f"eo:{table_id}:{hashlib.sha256(what).hexdigest()[:12]}"
    return _notice(key, "eo_result", text)


def _seat(hub: TableHub, row: PairingRow, player_id: str) -> tuple[TableRoom, Side] | None:
    """The player's table of a pairing, and their seat at it (None: no table in memory)."""
    room = hub.get(row.table_id or "")
    if room is None or room.meta is None:
        return None
    return room, Side.P1 if room.meta.p1_player == player_id else Side.P2


def _table_notices(
    book: EventBook, hub: TableHub, event_id: str, player: PlayerEntry, base: str
) -> list[Notice]:
    """This round's notices of the player's table, newest first."""
    entry = book.current_round(event_id)
    row = None if entry is None else _my_row(entry, player.id)
    if entry is None or row is None:
        return []
    number = entry.number
    if row.p2 is None:
        return [_notice(f"bye:{number}", "paired", f"Round {number}: you have the bye.")]
    names = {p.id: p.name for p in book.players(event_id)}
    opponent_id = row.p2 if row.p1 == player.id else row.p1
    opponent = names.get(opponent_id, "your opponent")
    news, seat_url = SeatNews(), None
    found = _seat(hub, row, player.id)
    if found is not None:
        room, seat = found
        news = room.engine.seat_news(room.game, seat)
        token = room.tokens.p1 if seat is Side.P1 else room.tokens.p2
        seat_url = f"{base}t/{room.table_id}#k={token}"
    table = row.table_id or str(row.table)
    out = []
    if news.eo_result:
        out.append(_eo_notice(table, row.table, news))
    if news.report_awaited:
        text = f"{opponent} has reported your game: open your seat and report yours."
        out.append(_notice(f"report:{table}", "report", text, seat_url))
    if news.ended or player.disqualified:  # a disqualified player plays on no more (ST3)
        return out
    if entry.started_ms is not None:
        text = f"Round {number} has started: open your seat."
        out.append(_notice(f"started:{number}:{table}", "started", text, seat_url))
    paired = f"Round {number}: you play {opponent} at table {row.table}."
    if entry.started_ms is not None:  # the scenario is public once the round starts
        scenario = scenario_name(book.event(event_id).format_id, entry.scenario_id)
        paired += f" Scenario: {scenario}."
    out.append(_notice(f"paired:{number}:{table}:{opponent_id}", "paired", paired))
    return out


def _corrections(book: EventBook, hub: TableHub, event_id: str, player_id: str) -> list[Notice]:
    """The results of the player's earlier rounds that the EO corrected (a result that
    stood, moved with a reason), the latest round first: a correction of a past round
    changes the standings the next pairing reads, so the player hears of it."""
    current = book.current_round(event_id)
    out = []
    for entry in reversed(book.rounds(event_id)):
        if current is not None and entry.number >= current.number:
            continue
        row = _my_row(entry, player_id)
        if row is None or row.p2 is None:
            continue
        found = _seat(hub, row, player_id)
        if found is None:
            continue
        room, seat = found
        news: SeatNews = room.engine.seat_news(room.game, seat)
        if news.eo_result and news.eo_corrected:
            out.append(_eo_notice(row.table_id or str(row.table), row.table, news, entry.number))
    return out


def player_notices(
    book: EventBook, hub: TableHub, event_id: str, player: PlayerEntry, base: str
) -> list[Notice]:
    """What needs this player now, newest first."""
    votes = [
        _notice(
            f"vote:{v['prize']}:{v['stage']}",
            "vote",
            f"The vote for {v['name']} is open: cast your vote.",
            f"{base}e/{event_id}/vote#k={player.token}",
        )
        for v in votes_waiting(book, event_id, player)
    ]
    return (
        votes
        + _table_notices(book, hub, event_id, player, base)
        + _corrections(book, hub, event_id, player.id)
    )
