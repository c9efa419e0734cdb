"""An Iron Gauntlet qualifier's report to the organisers: its top three's names and final
standings, due within 14 days of the event's end, and the keeper's record of when it
was sent. An IGQ reported late, or not at all once the 14 days are over, does not
count: its players receive no QPs from it (masters-champions-2019.txt, ST4)."""

from __future__ import annotations

from typing import Any

from app.domain import qualifiers as q
from app.domain.errors import NotFound, RuleError
from app.events.seasons import Seasons, event_view


class SeasonReports:
    """The reports of a season's qualifiers, over the season's use cases."""

    def __init__(self, seasons: Seasons) -> None:
        self.seasons = seasons

    def report(self, season_id: str, event_id: str) -> dict[str, Any]:
        """The report of one of the season's IGQs, and where it stands."""
        season = self.seasons.season(season_id)
        if season.kind != q.IRON_GAUNTLET:
            raise RuleError("a Masters tournament's qualifiers earn no QPs: nothing to report")
        with self.seasons.db.read() as repo:
            row = next((e for e in repo.events(season_id) if e.event_id == event_id), None)
        if row is None:
            raise NotFound("this event is not one of the season's")
        held = self.seasons.held_event(event_id, row.reported_ms)
        if not held.over:
            raise RuleError(f"{held.event.name} is not over yet: its top three are not known")
        return {"season": season.name, **event_view(held, self.seasons.time.now_ms())}

    def sent(self, season_id: str, token: str | None, event_id: str) -> dict[str, Any]:
        """The keeper records the report as sent, now: once, and only once the event is
        over (the time it was sent decides whether the event counts)."""
        self.seasons.authorize(season_id, token)
        found = self.report(season_id, event_id)
        if found["reported_ms"] is not None:
            raise RuleError(f"the report of {found['name']} was recorded as sent already")
        with self.seasons.db.unit() as repo:
            row = next(e for e in repo.events(season_id) if e.event_id == event_id)
            row.reported_ms = self.seasons.time.now_ms()
            repo.add(row)
        return self.report(season_id, event_id)
