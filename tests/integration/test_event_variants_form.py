"""The EO chooses SR2019's variants on the new-event form; the event shows them."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer


async def test_new_event_form_takes_the_variants__DC10(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = (await http.get("/events/new")).text
        assert "Classic Turn Timing" in page and "No Assassination Victory" in page
        form = {"name": "Classic night", "format": "sr2019", "points": "75"}
        refused = await http.post("/events", data={**form, "variants": "no_tiebreakers"})
        assert refused.status_code == 400 and "No Tiebreakers needs Classic" in refused.text
        made = await http.post(
            "/events",
            data={
                **form,
                "timing": "classic_hardcore",
                "variants": ["no_tiebreakers", "no_assassination"],
            },
        )
        assert made.status_code == 303
        eid = made.headers["location"].split("/")[2]
        event = (await http.get(f"/api/events/{eid}")).json()["event"]
        assert event["variants"] == [
            "Classic Hardcore Time Limits",
            "No Assassination Victory",
            "No Tiebreakers",
        ]
