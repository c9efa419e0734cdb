"""The event's exports: standings, pairings and results as CSV, safe to open in a
spreadsheet."""

from __future__ import annotations

import csv
import io
from dataclasses import asdict
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from app.api.event_deps import EventsDep
from app.domain.spreadsheet import safe_text
from app.domain.standings import record_sheet

router = APIRouter(prefix="/api/events")


def csv_cell(value: Any) -> Any:
    """A cell as written: numbers the server wrote stay numbers; any other value is text
    made safe for a spreadsheet whatever separator it reads with (`safe_text`)."""
    if value is None or isinstance(value, int | float):
        return value
    return safe_text(str(value))


def csv_response(rows: list[dict[str, Any]], filename: str) -> Response:
    """Every CSV export goes through here: each text cell through `csv_cell`."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({key: csv_cell(value) for key, value in row.items()} for row in rows)
    return Response(
        out.getvalue(),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/{event_id}/standings.csv")
async def standings_csv(event_id: str, service: EventsDep) -> Response:
    policy = service.tournaments.of_event(event_id)
    if policy is not None:  # the event's own standings (Runewars: ST5)
        return csv_response(
            [s.row() for s in policy.standings(event_id)], f"standings-{event_id}.csv"
        )
    order = service.results.standings_words(event_id)  # ST2: the variant the event is ranked by
    rows = [asdict(s) | {"standings": order} for s in service.results.standings(event_id)]
    return csv_response(rows, f"standings-{event_id}.csv")


@router.get("/{event_id}/pairings.csv")
async def pairings_csv(event_id: str, service: EventsDep) -> Response:
    service.book.require(event_id, "results")
    view = service.read_models.event_view(event_id)
    rows = [
        {
            "round": r["number"],
            "scenario": r["scenario"]["name"],
            "table": p["table"] or "bye",
            "player": p["p1"]["name"],
            "opponent": p["p2"]["name"] if p["p2"] else "Bye",
            # Decided at the table (the pre-game's starting roll): empty until then.
            "first player": _first_player(p),
        }
        for r in view["rounds"]
        if r["announced"]  # RP4: a round's pairings are public once it starts
        for p in r["pairings"]
    ]
    return csv_response(rows, f"pairings-{event_id}.csv")


def _first_player(pairing: dict[str, Any]) -> str:
    """The name of the player who goes first at a table, once decided (else empty)."""
    first = pairing.get("first")
    players = [p for p in (pairing["p1"], pairing["p2"]) if p is not None]
    return next((p["name"] for p in players if first is not None and p["id"] == first), "")


@router.get("/{event_id}/results.csv")
async def results_csv(event_id: str, service: EventsDep) -> Response:
    records = service.results.player_records(event_id)
    rows = [
        {"player": p.name, "faction": p.faction, **row}
        for p in records
        for row in record_sheet(p, records, service.results.tie_word(event_id))
    ]
    return csv_response(rows, f"results-{event_id}.csv")
