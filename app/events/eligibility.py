"""Whether a player is in the event's good standing: the EO's disqualification (ST3: "not
eligible for any awards or prizes", not paired again), given and lifted with the reason
through the penalties (app.events.discipline).

A disqualification drops the player. Lifted (given in error) while the event runs, the
player stays dropped until the EO lets them rejoin; lifted once it is over, when nobody
rejoins, a player who had not dropped before it is back as they finished the event.
"""

from __future__ import annotations

import json

from app.domain.errors import BadInput, RuleError
from app.events.book import EventBook
from app.events.results import Results
from app.store.models import PlayerEntry


class Eligibility:
    """The EO's disqualification of a player, and its lifting."""

    def __init__(self, book: EventBook, results: Results) -> None:
        self.book = book
        self.results = results

    def said_why(
        self, event_id: str, player_id: str, reason: str, disqualified: bool = True
    ) -> PlayerEntry:
        """The player, if the EO says why they are disqualified (or why it is lifted, and
        they are): a disqualification is always given, and lifted, with the reason."""
        self.book.require(event_id, "players")
        player = self.book.player(event_id, player_id)
        if not disqualified and not player.disqualified:
            raise RuleError(f"{player.name} is not disqualified")
        if not reason.strip():
            what = " is disqualified" if disqualified else "'s disqualification is lifted"
            raise BadInput(
                f"say why {player.name}{what}: the reason is kept with the penalty record"
            )
        return player

    def disqualify(
        self, event_id: str, player_id: str, disqualified: bool = True, reason: str = ""
    ) -> PlayerEntry:
        """The EO disqualifies a player: not paired again, not eligible for any prize.
        (Given and lifted with the reason through the penalties, app.events.discipline.)"""
        self.book.require(event_id, "players")
        player = self.book.player(event_id, player_id)
        detail: dict[str, object] = {"reason": reason.strip()[:300]} if reason.strip() else {}
        if disqualified:
            detail["was_dropped"] = player.dropped
        elif self.results.event_over(event_id) and not self._dropped_before(event_id, player_id):
            # Nobody rejoins a finished event: the player who played it to its end is back
            # as they finished, not "dropped" by a disqualification given in error.
            player.dropped = False
        with self.book.unit() as repo:
            player.disqualified = disqualified
            if disqualified:
                player.dropped = True
            action = "disqualify" if disqualified else "requalify"
            repo.add(player, self.book.action(event_id, action, player=player_id, **detail))
        self.book.changed(event_id)
        return player

    def _dropped_before(self, event_id: str, player_id: str) -> bool:
        """Whether the player had dropped when their last disqualification was given
        (unknown: as if they had, the drop stands)."""
        given = [
            json.loads(a.detail_json)
            for a in self.book.actions(event_id)
            if a.action == "disqualify"
        ]
        mine = [d for d in given if d.get("player") == player_id]
        return bool(mine[-1].get("was_dropped", True)) if mine else True
