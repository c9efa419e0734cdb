"""A Runewars event made on the new-event form with Runewars fields only (RP6): no
Warmachine field is asked or needed, the Swiss rounds are optional (by attendance, the
Basic or Advanced structure, set when the first round is paired), and a refusal is in
the organiser's words, never a field's name."""

from __future__ import annotations

import re

import httpx

from tests.conftest import RunningServer

FIELD_NAMES = re.compile(r"fixed_rounds|cut_to_top|structure'|format_id|army_value")


async def _made(http: httpx.AsyncClient, **form: str) -> str:
    made = await http.post("/events", data={"format": "runewars2017", **form})
    assert made.status_code == 303, made.text
    token = made.headers["location"].split("#k=", 1)[1]
    eid = made.headers["location"].split("/")[2]
    http.headers["X-EO-Token"] = token
    return eid


async def _register(http: httpx.AsyncClient, eid: str, count: int) -> None:
    for n in range(count):
        added = await http.post(
            f"/api/events/{eid}/tournament/players", json={"name": f"Player {n}", "army_value": 200}
        )
        assert added.status_code == 201, added.text


async def test_the_form_asks_a_runewars_event_for_runewars_fields_only__RP6(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = (await http.get("/events/new")).text
        assert re.search(r'<fieldset id="rw-fields"[^>]* hidden disabled', page)
        assert 'id="structure" name="structure"' in page
        # Only the Runewars fields sent (the others are switched off on the form).
        eid = await _made(http, name="Runewars Night", structure="basic")
        view = (await http.get(f"/api/events/{eid}/tournament")).json()
        assert view["plan"] == {"swiss_rounds": 0, "cut": 0, "by_attendance": "basic"}
        await _register(http, eid, 5)
        assert (await http.post(f"/api/events/{eid}/tournament/rounds")).status_code == 201
        view = (await http.get(f"/api/events/{eid}/tournament")).json()
        assert view["plan"] == {"swiss_rounds": 2, "cut": 0, "by_attendance": None}  # 4–8: 2
        assert view["event"]["planned_rounds"] == 2

        # The Swiss rounds of the organiser's own, with a cut to the top 2.
        own = await _made(http, name="Runewars Cup", fixed_rounds="3", cut_to_top="2")
        view = (await http.get(f"/api/events/{own}/tournament")).json()
        assert view["plan"] == {"swiss_rounds": 3, "cut": 2, "by_attendance": None}


async def test_the_advanced_structure_sets_its_cut_by_attendance__RP6(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid = await _made(http, name="Runewars Regional", structure="advanced")
        await _register(http, eid, 4)
        few = await http.post(f"/api/events/{eid}/tournament/rounds")
        assert few.status_code == 400
        assert "advanced structure needs at least 9 players, not 4" in few.json()["detail"]
        await _register_more(http, eid, 26)  # 30 players: 4 Swiss rounds and a top 2
        assert (await http.post(f"/api/events/{eid}/tournament/rounds")).status_code == 201
        view = (await http.get(f"/api/events/{eid}/tournament")).json()
        assert view["plan"] == {"swiss_rounds": 4, "cut": 2, "by_attendance": None}


async def _register_more(http: httpx.AsyncClient, eid: str, count: int) -> None:
    for n in range(count):
        added = await http.post(
            f"/api/events/{eid}/tournament/players", json={"name": f"Late {n}", "army_value": 150}
        )
        assert added.status_code == 201, added.text


async def test_a_runewars_form_refused_says_why_in_plain_words__RP6(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        for form, words in (
            ({"cut_to_top": "4"}, "a cut of your own comes after Swiss rounds of your own"),
            ({"fixed_rounds": "13"}, "1 to 12 Swiss rounds"),
            ({"fixed_rounds": "3", "cut_to_top": "3"}, "the top 2, 4, 8 or 16"),
            ({"structure": "huge"}, "Basic or Advanced"),
            ({"name": ""}, "the event needs a name"),
        ):
            sent = {"name": "Runewars Night", "format": "runewars2017", **form}
            refused = await http.post("/events", data=sent)
            assert refused.status_code == 400, (form, refused.text)
            alert = re.search(r'<div id="error"[^>]*>(.*?)</div>', refused.text, re.S)
            assert alert is not None and words in alert.group(1), (form, refused.text)
            assert not FIELD_NAMES.search(alert.group(1)), alert.group(1)
            # The form comes back as the organiser left it: the Runewars fields on.
            assert re.search(r'<fieldset id="rw-fields"[^>]*>', refused.text)
            assert not re.search(r'<fieldset id="rw-fields"[^>]* disabled', refused.text)
            assert re.search(r'<fieldset id="wm-fields"[^>]* hidden disabled', refused.text)


async def test_the_organiser_sees_what_the_attendance_gives_before_round_1__RP6(
    server: RunningServer,
) -> None:
    """The structure's Swiss rounds and cut by the players still in, shown to the
    organiser (and only them) before the first pairing fixes them."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid = await _made(http, name="Runewars Open", structure="advanced")
        await _register(http, eid, 4)
        view = (await http.get(f"/api/events/{eid}/tournament")).json()
        assert view["attendance_plan"]["players"] == 4
        assert "needs at least 9 players" in view["attendance_plan"]["refused"]
        await _register_more(http, eid, 8)
        view = (await http.get(f"/api/events/{eid}/tournament")).json()
        assert view["attendance_plan"] == {"players": 12, "swiss_rounds": 3, "cut": 0}
        for n in range(17):
            added = await http.post(
                f"/api/events/{eid}/tournament/players",
                json={"name": f"Walk-in {n}", "army_value": 180},
            )
            assert added.status_code == 201, added.text
        view = (await http.get(f"/api/events/{eid}/tournament")).json()
        assert view["attendance_plan"] == {"players": 29, "swiss_rounds": 4, "cut": 2}
        public = await httpx.AsyncClient(base_url=server.base).get(f"/api/events/{eid}/tournament")
        assert public.json()["attendance_plan"] is None
        assert (await http.post(f"/api/events/{eid}/tournament/rounds")).status_code == 201
        view = (await http.get(f"/api/events/{eid}/tournament")).json()
        assert view["attendance_plan"] is None  # fixed by round 1's pairing
