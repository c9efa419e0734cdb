"""The table log's row for both casters destroyed at once says what the game's end says
(TS6): the tiebreakers decide, or, under No Tiebreakers ("This event does not use
tiebreakers. If time expires, the game is a tie."), the game is a tie. The words come
with the log page from the server (`outcome.log_words`), not from a copy in the page."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import httpx
import pytest

from tests.conftest import PhoneFactory, RunningServer, create_table, token_of


async def _log_words(server: RunningServer, links: dict[str, Any]) -> dict[str, str]:
    async with httpx.AsyncClient(base_url=server.base) as http:
        page = await http.get(f"/t/{links['id']}/log")
    assert page.status_code == 200
    found = re.search(r'data-words="([^"]*)"', page.text)
    assert found is not None, page.text[:500]
    words: dict[str, str] = json.loads(html.unescape(found.group(1)))
    return words


@pytest.mark.parametrize(
    ("variants", "both", "phone_words"),
    [
        ([], "tiebreakers decide", "Game over — tiebreakers decide"),
        (
            ["classic_turn_timing", "no_tiebreakers"],
            "no tiebreakers: the game is a tie",
            "Both casters destroyed — no tiebreakers: the game is a tie",
        ),
    ],
)
async def test_the_logs_both_casters_words_are_the_games_end__TS6(
    server: RunningServer,
    phone: PhoneFactory,
    variants: list[str],
    both: str,
    phone_words: str,
) -> None:
    links = await create_table(
        server.base,
        format="sr2019",
        points=75,
        scenario="king-of-the-hill",
        p1_name="Ann",
        p2_name="Bob",
        variants=variants,
    )
    p1 = await phone(links["id"], token_of(links["p1"]["url"]), "phone-1")
    p2 = await phone(links["id"], token_of(links["p2"]["url"]), "phone-2")
    assert (await p1.command("start"))["t"] == "ack"
    for client, seat in ((p1, "p1"), (p2, "p2")) * 2:  # deployment, advance deployment
        assert (await client.command("pass_turn", expect=seat))["t"] == "ack"
    assert (await p1.command("caster_destroyed", both=True))["t"] == "ack"
    assert p1.game["ending"]["words"] == phone_words
    words = await _log_words(server, links)
    assert words == {"both_casters": both, "caster": "assassination"}
    assert phone_words.endswith(words["both_casters"])


async def test_no_assassination_victory_logs_a_destroyed_caster_as_play_going_on(
    server: RunningServer,
) -> None:
    links = await create_table(
        server.base,
        format="sr2019",
        points=75,
        scenario="king-of-the-hill",
        p1_name="Ann",
        p2_name="Bob",
        variants=["no_assassination"],
    )
    words = await _log_words(server, links)
    assert words == {
        "both_casters": "no assassination victory: the game goes on",
        "caster": "the game goes on",
    }
