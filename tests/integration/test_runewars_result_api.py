"""The organiser judges a Runewars table over HTTP: PUT /api/events/{id}/tables/{table}/
result with both players' entries, the Final Flurry on equal scores and the reason for a
correction; refused without the EO token, 400 with the reason on bad input; a phone
cannot send it; the standings follow a correction (TS11, ST5)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import PhoneFactory, RunningServer, runewars_round, token_of


async def test_the_organiser_judges_and_corrects_a_runewars_table__TS11_ST5(
    server: RunningServer, phone: PhoneFactory
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        rw = await runewars_round(http, "RW Judge")
        eid, eo, table = rw.event_id, rw.eo, rw.table
        base = f"/api/events/{eid}/tournament"
        tid = table["id"]
        url = f"/api/events/{eid}/tables/{tid}/result"

        async def put(body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
            return await http.put(url, json=body, headers=eo if headers is None else headers)

        entries = {"entries": [[120, 10], [60, 0]]}
        assert (await put(entries, {})).status_code == 401
        assert (await put(entries, {"X-EO-Token": "wrong"})).status_code == 401
        unstarted = await put(entries)  # RP4: not before the round starts
        assert unstarted.status_code == 400
        assert "round 1 has not started" in unstarted.json()["detail"]

        # DC11: the organiser starts the round (its timer on every table), then the
        # players choose the first player and the areas.
        assert (await http.post(f"{base}/rounds/current/start", headers=eo)).status_code == 200
        early = await put(entries)  # the game goes on: a result now needs the reason
        assert early.status_code == 400 and "give the reason" in early.json()["detail"]
        p1 = await phone(tid, token_of(table["links"]["p1"]["url"]), "phone-1")
        p2 = await phone(tid, token_of(table["links"]["p2"]["url"]), "phone-2")
        seats = {"p1": p1, "p2": p2}
        chooser = seats[p1.game["chooser"]]
        assert (await chooser.command("choose_first", first="p1"))["t"] == "ack"
        assert (await p2.command("choose_area", area="red"))["t"] == "ack"
        assert (await http.post(f"{base}/rounds/current/time", headers=eo)).status_code == 200
        assert (await p1.command("end_game_round", expect=1))["t"] == "ack"
        assert p1.game["phase"] == "scoring"
        mine = await p1.command("judge_scores", entries=[[200, 0], [0, 0]], reason="")
        assert mine["t"] == "error" and "only the organiser" in mine["message"]

        for bad, words in (
            ({"entries": [[1, 2]]}, "needs each player's score"),
            ({"entries": [[1, -2], [0, 0]]}, "between 0 and"),
            ({"entries": [[1, 2], [0, 0]], "winner": "p1"}, "has no winner"),
            ({"entries": [[1, 2], [0, 0]], "conceded": "p9"}, "The player who conceded"),
        ):
            response = await put(bad)
            assert response.status_code == 400, response.text
            assert words in response.json()["detail"]

        judged = await put(entries)
        assert judged.status_code == 200, judged.text
        assert judged.json()["result"]["winner"] == "p1" and judged.json()["corrected"] is False
        view = (await http.get(base)).json()
        before = {s["name"]: s["tp"] for s in view["standings"]}

        swapped = {"entries": [[60, 0], [120, 10]]}
        unexplained = await put(swapped)
        assert unexplained.status_code == 400 and "reason" in unexplained.json()["detail"]
        fixed = await put({**swapped, "reason": "the scores were swapped"})
        assert fixed.status_code == 200, fixed.text
        assert fixed.json()["corrected"] is True
        assert fixed.json()["correction"]["before"]["tp"] == [8, 3]
        after = {s["name"]: s["tp"] for s in (await http.get(base)).json()["standings"]}
        assert sorted(before.values()) == [3, 8]
        assert after == {name: 11 - tp for name, tp in before.items()}  # ST5: 8/3 swapped
        while p2.game.get("correction") is None:  # the phones see the correction
            await p2.recv(5.0)
        assert p2.game["correction"]["reason"] == "the scores were swapped"
