"""A player's own page, from the link the EO hands them (a token of their own, never in
the public API): my table and opponent this round, my seat link, my record so far, and
before the event starts, my army lists (locked once the first round starts)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from app.domain.army_lists import HELP as LISTS_HELP
from app.domain.army_lists import LISTS_MOST, check_length, list_texts, split_lists, tidy
from app.domain.errors import RuleError, Unauthorized
from app.events.base import list_policy, pairings_of
from app.store.models import PlayerEntry

if TYPE_CHECKING:
    from app.events.service import EventService


def player_link(service: EventService, event_id: str, player_id: str) -> str:
    """The player's token (made the first time the EO asks for it)."""
    player = service.player(event_id, player_id)
    if player.token is None:
        with service.db.unit() as repo:
            player.token = secrets.token_urlsafe(18)
            repo.add(player, service._action(event_id, "player_link", player=player_id))
    assert player.token is not None
    return player.token


def player_by_token(service: EventService, event_id: str, token: str | None) -> PlayerEntry:
    if token:
        for player in service.players(event_id):
            if player.token and secrets.compare_digest(player.token.encode(), token.encode()):
                return player
    raise Unauthorized("this page needs your player link from the EO (it ends with #k=…)")


def lists_locked(service: EventService, event_id: str) -> bool:
    """A player's lists are locked once the event starts (its first round starts)."""
    return any(r.started_ms is not None for r in service.rounds(event_id))


def set_my_lists(
    service: EventService, event_id: str, player: PlayerEntry, lists: str, painted: bool = False
) -> None:
    """The player's own lists, checked in full (the EO's note is for the EO's entries);
    `painted` declares the army meets the event's Painting Required standard."""
    if lists_locked(service, event_id):
        raise RuleError("the event has started: your lists are locked (ask the EO)")
    lists = tidy(lists)
    check_length(lists, "your lists")
    event = service.event(event_id)
    rule, checks = list_policy(event)
    rule.check_lists(list_texts(lists), event.points, checks=checks, painted=painted)
    with service.db.unit() as repo:
        player.lists, player.painted = lists, painted
        repo.add(player, service._action(event_id, "player_lists", player=player.id))
    service.changed(event_id)


def _current_table(
    service: EventService, event_id: str, player: PlayerEntry, base: str
) -> dict[str, Any] | None:
    """This round's table: number, opponent, my seat link (None: not paired, or a bye)."""
    entry = service.current_round(event_id)
    if entry is None:
        return None
    names = {p.id: p.name for p in service.players(event_id)}
    for row in pairings_of(entry):
        if player.id not in (row.p1, row.p2):
            continue
        out: dict[str, Any] = {
            "round": entry.number,
            "started": entry.started_ms is not None,
            "table_no": row.table,
            "opponent": names.get(row.p2 or "") if row.p1 == player.id else names.get(row.p1),
            "bye": row.p2 is None,
            "seat_url": None,
        }
        room = service.hub.get(row.table_id or "")
        if room is not None:
            token = room.tokens.p1 if row.p1 == player.id else room.tokens.p2
            out["seat_url"] = f"{base}t/{room.table_id}#k={token}"
        return out
    return None


def my_page(service: EventService, event_id: str, player: PlayerEntry, base: str) -> dict[str, Any]:
    event = service.event(event_id)
    rule, checks = list_policy(event)
    return {
        "event": {"id": event.id, "name": event.name},
        "player": {
            "id": player.id,
            "name": player.name,
            "faction": player.faction,
            "lists": split_lists(player.lists),
            "lists_text": player.lists,
            "lists_locked": lists_locked(service, event_id),
            "lists_wanted": rule.name,
            "lists_most": LISTS_MOST,
            "lists_help": LISTS_HELP,
            "list_rules": checks.words(event.points),
            "painting": None if checks.painting is None else " — ".join(checks.painting),
            "painted": player.painted,
        },
        "current": _current_table(service, event_id, player, base),
    }
