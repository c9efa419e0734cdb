"""An Iron Gauntlet qualifier's report to the organisers: its top three's names and final
standings, due within 14 days of the event's end, and the keeper's record of when it
was sent. An IGQ reported late, or not at all once the 14 days are over, does not
count: its players receive no QPs from it (masters-champions-2019.txt, ST4).

What counts is what was reported: the report is kept as it was sent, and the season
counts it whatever the event's standings say later (a result corrected, a player
disqualified). When they move, the keeper sees how, and may send a corrected report,
with the reason, kept in the event's log."""

from __future__ import annotations

from typing import Any

from app.domain import qualifiers as q
from app.domain.errors import NotFound, RuleError
from app.domain.penalties import check_reason
from app.events.season_events import HeldEvent
from app.events.seasons import Seasons, event_view
from app.store.models_season import SeasonEvent, SeasonRepo, SeasonReportLine


class SeasonReports:
    """The reports of a season's qualifiers, over the season's use cases."""

    def __init__(self, seasons: Seasons) -> None:
        self.seasons = seasons

    def report(self, season_id: str, event_id: str) -> dict[str, Any]:
        """The report of one of the season's IGQs, and where it stands."""
        season = self.seasons.season(season_id)
        return {"season": season.name, **event_view(self._held(season_id, event_id), self._now())}

    def sent(self, season_id: str, token: str | None, event_id: str) -> dict[str, Any]:
        """The keeper records the report as sent, now: once, and only once the event is
        over (the time it was sent decides whether the event counts). The report is kept
        as it is now: the season counts it from then on."""
        season = self.seasons.authorize(season_id, token)
        held = self._held(season_id, event_id)
        with self.seasons.db.unit() as repo:
            row = _row(repo, season_id, event_id)
            if row.reported_ms is not None:
                raise RuleError(f"the report of {held.event.name} was recorded as sent already")
            row.reported_ms, row.ended_ms = self._now(), held.finished_ms
            detail: dict[str, Any] = {"season": season.name, "top_three": _lines_detail(held)}
            detail["names"] = {line["player"]: line["name"] for line in detail["top_three"]}
            logged = self.seasons.book.action(event_id, "season_report_sent", **detail)
            repo.send(row, _lines(row, held), logged)
        return self.report(season_id, event_id)

    def corrected(
        self, season_id: str, token: str | None, event_id: str, reason: str
    ) -> dict[str, Any]:
        """The keeper sends a corrected report, now, with the reason: the event's top
        three as they stand replace the report sent before, in the season and in the
        event's log. Only a report sent, of an event over, whose standings moved since
        (or sent before reports were kept). Its first sending still decides whether the
        event counts (ST4)."""
        season = self.seasons.authorize(season_id, token)
        said = check_reason(reason)
        held = self._held(season_id, event_id)
        name = held.event.name
        if held.reported_ms is None:
            raise RuleError(f"the report of {name} has not been sent: record it as sent")
        if not held.over:
            raise RuleError(f"{name} is not over any more: its top three are not known")
        changes = held.changes()
        if held.sent is not None and not changes:
            raise RuleError(
                f"the report of {name} as sent is its standings now: nothing to correct"
            )
        with self.seasons.db.unit() as repo:
            row = _row(repo, season_id, event_id)
            if row.ended_ms is None:  # sent before reports were kept
                row.ended_ms = held.finished_ms
            row.corrected_ms, row.corrected_reason = self._now(), said
            moved = ", ".join(c.words() for c in changes)
            detail: dict[str, Any] = {
                "season": season.name,
                "reason": said,
                "changes": [
                    {
                        "player": c.entry.player_id,
                        "name": c.entry.name,
                        "from": c.sent_qp,
                        "to": c.qp,
                    }
                    for c in changes
                ],
                "top_three": _lines_detail(held),
                "words": f"Sent a corrected top three to {season.name}"
                + (f": {moved}" if moved else "")
                + f". Why: {said}",
            }
            lines = [*detail["changes"], *detail["top_three"]]
            detail["names"] = {line["player"]: line["name"] for line in lines}
            logged = self.seasons.book.action(event_id, "season_report_corrected", **detail)
            repo.send(row, _lines(row, held), logged)
        return self.report(season_id, event_id)

    def _held(self, season_id: str, event_id: str) -> HeldEvent:
        """One of the season's IGQs, over (or its report sent: that report stands)."""
        season = self.seasons.season(season_id)
        if season.kind != q.IRON_GAUNTLET:
            raise RuleError("a Masters tournament's qualifiers earn no QPs: nothing to report")
        with self.seasons.db.read() as repo:
            row = next((e for e in repo.events(season_id) if e.event_id == event_id), None)
            lines = repo.report_lines(season_id)
        if row is None:
            raise NotFound("this event is not one of the season's")
        held = self.seasons.held_event(row, lines)
        if not held.over and held.sent is None:
            raise RuleError(f"{held.event.name} is not over yet: its top three are not known")
        return held

    def _now(self) -> int:
        return self.seasons.time.now_ms()


def _row(repo: SeasonRepo, season_id: str, event_id: str) -> SeasonEvent:
    row = next((e for e in repo.events(season_id) if e.event_id == event_id), None)
    if row is None:
        raise NotFound("this event is not one of the season's")
    return row


def _lines(row: SeasonEvent, held: HeldEvent) -> list[SeasonReportLine]:
    """The event's top three now, as the report's lines."""
    return [
        SeasonReportLine(
            season_id=row.season_id,
            event_id=row.event_id,
            player_id=line.entry.player_id,
            name=line.entry.name,
            rank=line.rank,
            qp=line.qp,
        )
        for line in held.live_lines()
    ]


def _lines_detail(held: HeldEvent) -> list[dict[str, Any]]:
    return [
        {"player": line.entry.player_id, "name": line.entry.name, "rank": line.rank, "qp": line.qp}
        for line in held.live_lines()
    ]
