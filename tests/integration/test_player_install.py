"""A player's own page, installed on the phone's home screen: its manifest opens that
page (not the home page), named after the event, at a Warmachine event and a Runewars
tournament alike; the page keeps the player's key on the phone for that start."""

from __future__ import annotations

import httpx

from tests.conftest import RunningServer, runewars_round


async def test_the_player_page_installs_as_the_event_s_own_page(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        made = await http.post(
            "/api/events", json={"name": "Spring Steamroller", "format": "sr2019", "points": 75}
        )
        assert made.status_code in (200, 201), made.text
        rw = await runewars_round(http, "RW Install")
        for eid, name in ((made.json()["id"], "Spring Steamroller"), (rw.event_id, "RW Install")):
            page = await http.get(f"/p/{eid}")
            assert f'rel="manifest" href="/p/{eid}/manifest.webmanifest"' in page.text
            manifest = await http.get(f"/p/{eid}/manifest.webmanifest")
            assert manifest.status_code == 200
            assert manifest.headers["content-type"].startswith("application/manifest+json")
            body = manifest.json()
            assert body["start_url"] == f"/p/{eid}" and body["id"] == f"/p/{eid}"
            assert body["name"] == f"{name} · Deathclock" and body["display"] == "standalone"
            assert body["scope"] == "/" and body["icons"]
        # Other pages keep the app's own manifest (the home page opens the home page).
        home = await http.get("/")
        assert 'rel="manifest" href="/static/manifest.webmanifest"' in home.text
        assert (await http.get("/p/no-such-event/manifest.webmanifest")).status_code == 404
