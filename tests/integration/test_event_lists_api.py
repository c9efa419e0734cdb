"""The players' lists over HTTP and on the event's pages: the new-event form offers each
format's list count and its own list rules as its document says, and the Steamroller
variants only where the document has them; the EO fixes locked lists with a reason,
prints every player's lists and makes them public once round 1 starts."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.conftest import RunningServer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_lists"


async def test_the_form_and_the_api_offer_each_formats_lists_as_its_document_says(
    server: RunningServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = (await http.get("/events/new")).text
        spec = (await http.get("/openapi.json")).json()
    for words in (
        "1 list, a 2nd optional",
        "2 lists",
        "Masters Dyad, 2 lists",
        "Masters Trinity, 3 lists",
        "Champions, 1 list, a 2nd optional",
        "Iron Gauntlet, 2 lists, each played once",
    ):
        assert f">{words}</option>" in page
    variants = re.search(r'<fieldset class="field variants" id="variants-field"[^>]*>', page)
    assert variants is not None and 'data-formats="sr2019 legacy"' in variants.group(0)
    assert 'value="battlegroup_only"' in page and 'value="specialists"' in page
    ig = re.search(
        r'<div class="hint list-rules" id="list-rules-ig2014"[^>]*>(.*?)</div>', page, re.S
    )
    assert ig is not None
    assert "Fully Painted (IG2014 Modeling and Painting)" in ig.group(1)
    assert "a character (FA C) is in one list only" in ig.group(1)
    assert "Specialists: up to 10 points a list at 50 points" in ig.group(1)
    described = spec["components"]["schemas"]["EventIn"]["properties"]["lists"]["description"]
    assert "1-3" not in described
    assert "sr2019 1 (1 list, a 2nd optional) or 2 (2 lists), default 1" in described
    assert "masters2019 2 (Masters Dyad, 2 lists) or 3 (Masters Trinity, 3 lists), required" in (
        described
    )
    assert "ig2014 2 (Iron Gauntlet, 2 lists, each played once)" in described


async def test_the_eo_fixes_prints_and_publishes_the_lists(server: RunningServer) -> None:
    war_room = (FIXTURES / "warroom2_khador.txt").read_text()
    async with httpx.AsyncClient(base_url=server.base) as http:
        created = (await http.post("/api/events", json={"name": "Night", "lists": 1})).json()
        eid, eo = created["id"], {"X-EO-Token": created["admin_token"]}
        api = f"/api/events/{eid}"
        ann = (
            await http.post(f"{api}/players", json={"name": "Ann", "lists": war_room}, headers=eo)
        ).json()
        bob = (
            await http.post(
                f"{api}/players", json={"name": "Bob", "lists": "Irusk 2 (75)"}, headers=eo
            )
        ).json()
        assert (await http.get(f"{api}/lists")).status_code == 401
        sheets = (await http.get(f"{api}/lists", headers=eo)).json()
        assert [len(p["lists"]) for p in sheets["players"]] == [1, 1]
        assert "Kommander Sorscha - WJ: +28" in sheets["players"][0]["lists"][0]["text"]
        early = await http.put(f"{api}/lists/public", json={"public": True}, headers=eo)
        assert early.status_code == 400 and "once round 1 starts" in early.json()["detail"]
        page = await http.get(f"/e/{eid}/lists")
        assert page.status_code == 200 and "/static/event/lists-print.js" in page.text
        assert "<script>" not in page.text and " on" + "click=" not in page.text

        assert (await http.post(f"{api}/rounds", json={}, headers=eo)).status_code == 201
        assert (await http.post(f"{api}/rounds/current/start", headers=eo)).is_success
        edit = {"name": "Bob", "lists": "Irusk 2 (74)"}
        refused = await http.put(f"{api}/players/{bob['id']}", json=edit, headers=eo)
        assert refused.status_code == 400 and "give the reason" in refused.json()["detail"]
        fixed = await http.put(
            f"{api}/players/{bob['id']}", json=edit | {"reason": "typo on the sheet"}, headers=eo
        )
        assert fixed.is_success
        log = (await http.get(f"{api}/actions", headers=eo)).json()
        assert {"action": "fix_lists", "reason": "typo on the sheet"}.items() <= log[-1].items()

        assert (await http.get(f"{api}/lists/public")).json() == {"public": False, "players": []}
        made = await http.put(f"{api}/lists/public", json={"public": True}, headers=eo)
        assert made.json() == {"public": True}
        assert (await http.get(api)).json()["event"]["lists_public"] is True
        shown = (await http.get(f"{api}/lists/public")).json()
        assert [p["id"] for p in shown["players"]] == [ann["id"], bob["id"]]
        assert shown["players"][1]["lists"][0]["text"] == "Irusk 2 (74)"
        await http.put(f"{api}/lists/public", json={"public": False}, headers=eo)
        assert (await http.get(api)).json()["event"]["lists_public"] is False
