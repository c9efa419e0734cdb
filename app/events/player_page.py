"""A player's own page, from the link the EO hands them (a token of their own, never in
the public API): my table and opponent this round, my seat link, my record so far, what
needs me now (`player_notices`), and before the event starts, my army lists (locked once
the first round starts), and where I stand: still playing or out of the event and why (the
standings' own status), my place, and whether the event is over."""

from __future__ import annotations

import secrets
from typing import Any

from app.domain.army_lists import HELP as LISTS_HELP
from app.domain.army_lists import LISTS_MOST, check_length, list_texts, split_lists, tidy
from app.domain.errors import RuleError, Unauthorized
from app.domain.penalties import Kind
from app.domain.standings import Status
from app.events.base import list_policy, pairings_of
from app.events.book import EventBook
from app.events.event_lists import lists_locked
from app.events.player_notices import player_notices
from app.events.results import Results
from app.store.models import PlayerEntry
from app.store.models_discipline import penalties_of
from app.tables.hub import TableHub


class PlayerPages:
    """Each player's own page and the link that opens it."""

    def __init__(self, book: EventBook, hub: TableHub, results: Results) -> None:
        self.book = book
        self.hub = hub
        self.results = results

    def link(self, event_id: str, player_id: str) -> str:
        """The player's token (made the first time the EO asks for it)."""
        player = self.book.player(event_id, player_id)
        if player.token is None:
            with self.book.unit() as repo:
                player.token = secrets.token_urlsafe(18)
                repo.add(player, self.book.action(event_id, "player_link", player=player_id))
        assert player.token is not None
        return player.token

    def player_by_token(self, event_id: str, token: str | None) -> PlayerEntry:
        player = self.book.player_by_token(event_id, token)
        if player is not None:
            return player
        raise Unauthorized("this page needs your player link from the EO (it ends with #k=…)")

    def lists_locked(self, event_id: str) -> bool:
        """A player's lists are locked once the event starts (its first round starts)."""
        return lists_locked(self.book, event_id)

    def set_lists(
        self, event_id: str, player: PlayerEntry, lists: str, painted: bool = False
    ) -> None:
        """The player's own lists, checked in full (the EO's note is for the EO's entries);
        `painted` declares the army meets the event's Painting Required standard."""
        if self.lists_locked(event_id):
            raise RuleError("the event has started: your lists are locked (ask the EO)")
        lists = tidy(lists)
        check_length(lists, "your lists")
        event = self.book.event(event_id)
        rule, checks = list_policy(event)
        rule.check_lists(list_texts(lists), event.points, checks=checks, painted=painted)
        with self.book.unit() as repo:
            player.lists, player.painted = lists, painted
            repo.add(player, self.book.action(event_id, "player_lists", player=player.id))
        self.book.changed(event_id)

    def _current_table(
        self, event_id: str, player: PlayerEntry, base: str
    ) -> dict[str, Any] | None:
        """This round's table: number, opponent, my seat link (None: not paired, or a bye)."""
        entry = self.book.current_round(event_id)
        if entry is None:
            return None
        names = {p.id: p.name for p in self.book.players(event_id)}
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
            room = self.hub.get(row.table_id or "")
            if room is not None:
                token = room.tokens.p1 if row.p1 == player.id else room.tokens.p2
                out["seat_url"] = f"{base}t/{room.table_id}#k={token}"
            return out
        return None

    def _why_disqualified(self, event_id: str, player_id: str) -> str | None:
        """The EO's reason for the player's disqualification (the latest not withdrawn)."""
        with self.book.read() as repo:
            rows = penalties_of(repo.session, event_id)
        given = [
            r.reason
            for r in rows
            if r.player_id == player_id
            and r.kind == Kind.DISQUALIFICATION.value
            and r.withdrawn_ms is None
        ]
        return given[-1] if given else None

    def standing(self, event_id: str, player: PlayerEntry) -> dict[str, Any]:
        """Where the player stands, from their row of the standings: still playing or out
        and why (`status`: dropped after which round, disqualified with the EO's reason,
        not in the Cut to Top X), their place among the players, who shares it (ST1: equal
        on every total, players share a rank), and whether the event is over (RP1)."""
        rows, ended = self.results.standings_and_over(event_id)
        mine = next(s for s in rows if s.player_id == player.id)
        disqualified = mine.status is Status.DISQUALIFIED
        return {
            "status": mine.status.value,
            "dropped_after": mine.dropped_after,
            "place": mine.rank,
            "tied_with": [s.name for s in rows if s.rank == mine.rank and s is not mine],
            "players": len(rows),
            "over": ended,
            "cut_to": self.book.event(event_id).cut_to_top,
            "reason": self._why_disqualified(event_id, player.id) if disqualified else None,
        }

    def page(self, event_id: str, player: PlayerEntry, base: str) -> dict[str, Any]:
        event = self.book.event(event_id)
        rule, checks = list_policy(event)
        return {
            "event": {"id": event.id, "name": event.name},
            "player": {
                "id": player.id,
                "name": player.name,
                "faction": player.faction,
                "club": player.club,
                "lists": split_lists(player.lists),
                "lists_text": player.lists,
                "lists_locked": self.lists_locked(event_id),
                "lists_wanted": rule.name,
                "lists_most": LISTS_MOST,
                "lists_help": LISTS_HELP,
                "list_rules": checks.words(event.points),
                "painting": None if checks.painting is None else " — ".join(checks.painting),
                "painted": player.painted,
            },
            "current": self._current_table(event_id, player, base),
            "standing": self.standing(event_id, player),
            "notices": player_notices(self.book, self.hub, event_id, player, base),
        }
