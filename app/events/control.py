"""The EO keeps control of a round not started yet: a draft is paired again or
discarded, a player dropped, rejoining or added late is taken out of or put into it,
and a player added by mistake is deleted before they played. What DC8 would do now is
told before it is done, and a seat link made stale says which event it was from.

A draft's tables have no game yet; pairing it again opens new tables and discards the
old ones once the new draft is stored, so their seat links (on a printed card) go
stale: `stale_link` finds which event and round they were from.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

from app.domain.errors import RuleError
from app.domain.game import Phase
from app.events.base import PairingRow, pairings_of
from app.events.book import EventBook
from app.events.round_end import round_end_now
from app.events.rounds import Rounds
from app.store.models import PlayerEntry, RoundEntry
from app.tables.hub import TableHub
from app.tables.timesource import TimeSource

#: EO actions after which a table of the event was discarded (its seat links stale).
DISCARDING = ("swap", "repair_round", "discard_round")


@dataclass(frozen=True, slots=True)
class StaleLink:
    """Where a seat link that no longer opens a table came from."""

    event_id: str
    event_name: str
    round: int | None
    why: str


def _draft_of(rounds: list[RoundEntry]) -> RoundEntry | None:
    entry = rounds[-1] if rounds else None
    return entry if entry is not None and entry.started_ms is None else None


class Control:
    """The EO's hold on a round not started yet, on the field before it plays, and on
    what DC8 would do now."""

    def __init__(self, book: EventBook, hub: TableHub, time: TimeSource, rounds: Rounds) -> None:
        self.book = book
        self.hub = hub
        self.time = time
        self.rounds = rounds

    # -- a draft round ---------------------------------------------------------------

    def draft(self, event_id: str) -> RoundEntry | None:
        """The current round if it is paired but not started."""
        return _draft_of(self.book.rounds(event_id))

    def _check_untouched(self, rows: list[PairingRow]) -> None:
        for row in rows:
            room = self.hub.rooms.get(row.table_id or "")
            if room is not None and room.version > 0:
                raise RuleError(
                    f"table {row.table}'s clock has been started: this round cannot be "
                    "paired again or discarded"
                )

    def _take_back(self, event_id: str, entry: RoundEntry, action: str, **detail: Any) -> None:
        """Remove a draft from the store (its cut undone with it); its tables stay open
        until the caller discards them."""
        event = self.book.event(event_id)
        cut_here = any(
            a.action == "cut_to_top" and json.loads(a.detail_json).get("round") == entry.number
            for a in self.book.actions(event_id)
        )
        with self.book.unit() as repo:
            if cut_here:
                event.cut_done = False
                uncut = [p for p in self.book.players(event_id) if p.cut]
                for player in uncut:
                    player.cut = False
                repo.add(event, *uncut)
            repo.delete_round(entry)
            repo.add(self.book.action(event_id, action, round=entry.number, **detail))

    def discard_draft(self, event_id: str) -> int:
        """Discard the paired round not started yet: its tables close, the round can be
        paired again (with another scenario). Its number comes back."""
        self.book.require(event_id, "rounds")
        entry = self.draft(event_id)
        if entry is None:
            raise RuleError("only a round that has not started can be discarded")
        rows = pairings_of(entry)
        self._check_untouched(rows)
        discarded = [r.table_id for r in rows if r.table_id]
        self._take_back(event_id, entry, "discard_round", discarded=discarded)
        self.rounds.discard(rows)
        self.book.changed(event_id)
        return entry.number

    def repair_draft(
        self, event_id: str, why: str = "paired again", keep_on_failure: bool = True
    ) -> RoundEntry:
        """Pair the round not started yet again, with the same scenario (RP2/RP3 on the
        players as they are now): swaps made before are undone. If it cannot be paired
        now, the draft stays as it was (`keep_on_failure`) or is discarded."""
        self.book.require(event_id, "rounds")
        entry = self.draft(event_id)
        if entry is None:
            raise RuleError("only a round that has not started can be paired again")
        rows = pairings_of(entry)
        self._check_untouched(rows)
        discarded = [r.table_id for r in rows if r.table_id]
        self._take_back(event_id, entry, "repair_round", discarded=discarded, why=why)
        try:
            new = self.rounds.pair_next(event_id, entry.scenario_id)
        except BaseException:
            if not keep_on_failure:
                self.rounds.discard(rows)
                self.book.changed(event_id)
                raise
            with self.book.unit() as repo:  # the old draft comes back as it was
                repo.add(
                    RoundEntry(
                        event_id=event_id,
                        number=entry.number,
                        scenario_id=entry.scenario_id,
                        pairings_json=entry.pairings_json,
                        notes_json=entry.notes_json,
                    )
                )
            self.book.changed(event_id)
            raise
        self.rounds.discard(rows)
        return new

    def follow_draft(self, event_id: str, why: str) -> None:
        """A change of the field while a round is a draft pairs the draft again; if the
        field cannot be paired now, the draft is discarded (the EO pairs it later)."""
        if self.draft(event_id) is not None:
            with contextlib.suppress(RuleError):
                self.repair_draft(event_id, why, keep_on_failure=False)

    # -- a player added by mistake -------------------------------------------------

    def delete_player(self, event_id: str, player_id: str) -> PlayerEntry:
        """A player added by mistake goes, before they played: paired in a round that
        started, they stay (drop them instead)."""
        self.book.require(event_id, "players")
        player = self.book.player(event_id, player_id)
        for entry in self.book.rounds(event_id):
            if entry.started_ms is None:
                continue
            if any(player_id in (row.p1, row.p2) for row in pairings_of(entry)):
                raise RuleError(
                    f"{player.name} has played in round {entry.number}: a player who has "
                    "played stays in the event's record. Drop them instead."
                )
        with self.book.unit() as repo:
            repo.delete_player(player)
            repo.add(
                self.book.action(event_id, "delete_player", player=player_id, name=player.name)
            )
        self.book.changed(event_id)
        self.follow_draft(event_id, f"{player.name} deleted")
        return player

    # -- what DC8 would do now -------------------------------------------------------

    def round_end_preview(self, event_id: str) -> dict[str, str]:
        """DC8 as it would be called now, table by table (nothing is changed)."""
        self.book.require(event_id, "rounds")
        entry = self.book.current_round(event_id)
        if entry is None or entry.started_ms is None:
            raise RuleError("no round is running")
        now = self.time.now_ms()
        calls: dict[str, str] = {}
        for row in pairings_of(entry):
            room = self.hub.rooms.get(row.table_id or "")
            if room is None or room.game.phase is Phase.OVER:
                continue
            call = round_end_now(room.game, now)
            calls[room.table_id] = call.value
        return calls

    # -- stale seat links -----------------------------------------------------------

    def stale_link(self, table_id: str) -> StaleLink | None:
        """The event a discarded table was from (a swap or a draft paired again)."""
        with self.book.read() as repo:
            action = repo.action_discarding(table_id, DISCARDING)
            event = None if action is None else repo.event(action.event_id)
        if action is None or event is None:
            return None
        detail = json.loads(action.detail_json)
        why = {
            "swap": "the players of its table were swapped",
            "repair_round": "the round was paired again",
            "discard_round": "the round's pairings were discarded",
        }[action.action]
        return StaleLink(event.id, event.name, detail.get("round"), why)
