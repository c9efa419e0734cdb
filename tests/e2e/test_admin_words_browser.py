"""The EO's pages at 1366×768 in Chromium: the admin's links carry the key, what it says
is true after each change, every list and checkbox is readable, and the words are the
players' and organisers' own.

Screenshots go to test-artifacts/admin-words/ (git-ignored)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "admin-words"

# A whole list as players paste it: long lines, several lines, a second list.
LONG_LISTS = (
    "Cygnar Storm Division — Major Beth Maddox, Stormclad, Stormclad, Storm Lances (max), "
    "Stormblade Infantry with Officer and Standard, Journeyman Warcaster\n"
    "Second list: Captain Victoria Haley, Thorn, Ironclad, Squire, Field Mechaniks, "
    "Gun Mage Captain Adept, Rangers, Trencher Infantry (max)"
)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _event(live_server: str, names: tuple[str, ...] = (), **body: Any) -> tuple[str, str]:
    created = httpx.post(f"{live_server}/api/events", json={"name": "Words Open", **body}).json()
    eid, token = created["id"], created["admin_token"]
    for name in names:
        added = httpx.post(
            f"{live_server}/api/events/{eid}/players",
            json={"name": name},
            headers={"X-EO-Token": token},
        )
        assert added.is_success, added.text
    return eid, token


def _admin(browser: Any, live_server: str, eid: str, token: str) -> Any:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{live_server}/e/{eid}/admin#k={token}")
    expect(page.locator("#event-meta")).not_to_have_text("Loading…")
    return page


def test_every_link_to_an_eo_tool_carries_the_key(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    eid, token = _event(live_server, ("Ann", "Bob"))
    page = _admin(browser, live_server, eid, token)
    for link in ("dashboard", "cards", "slips", "prizes"):
        expect(page.locator(f"#link-{link}")).to_have_attribute(
            "href", f"/e/{eid}/{link}#k={token}"
        )
    # The prizes page opened from it, in a new tab, is the EO's: its tools are there.
    prizes = page.context.new_page()
    prizes.goto(live_server + page.locator("#link-prizes").get_attribute("href"))
    expect(prizes.locator("#eo-players")).to_be_visible()
    expect(prizes.locator("#vote-best_sport")).to_be_visible()
    # And its way back is the EO's page, key and all.
    expect(prizes.locator("#back-link")).to_have_attribute("href", f"/e/{eid}/admin#k={token}")
    page.context.close()


def test_the_import_count_leaves_once_a_player_is_added_by_the_form(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    eid, token = _event(live_server)
    page = _admin(browser, live_server, eid, token)
    page.locator("#import summary").click()
    rows = "\n".join(f"Player {n}," for n in range(1, 8))
    page.locator("#import-text").fill("name,faction\n" + rows)
    page.locator("#import-btn").click()
    expect(page.locator("#import-result")).to_contain_text("7 players added.")
    expect(page.locator("#player-count")).to_have_text("7")
    page.locator("#new-name").fill("Eighth Player")
    page.locator("#add-player-btn").click()
    expect(page.locator("#player-count")).to_have_text("8")
    expect(page.locator("#import-result")).to_be_hidden()
    _shot(page, "admin-after-form-add")
    page.context.close()


def test_a_players_lists_are_read_whole_in_the_players_column(
    browser: Any, live_server: str
) -> None:
    from playwright.sync_api import expect

    eid, token = _event(live_server)
    eo = {"X-EO-Token": token}
    added = httpx.post(
        f"{live_server}/api/events/{eid}/players",
        json={"name": "Ann Archer", "faction": "Cygnar", "lists": LONG_LISTS},
        headers=eo,
    )
    assert added.is_success, added.text
    page = _admin(browser, live_server, eid, token)
    lists = page.locator("#players-body .lists")
    expect(lists).to_be_visible()
    _shot(page, "admin-players-lists")
    clipped = lists.evaluate(
        """(e) => ({
            high: e.scrollHeight - e.clientHeight, wide: e.scrollWidth - e.clientWidth,
            text: e.innerText, right: e.getBoundingClientRect().right,
            card: document.getElementById('players-card').getBoundingClientRect().right})"""
    )
    assert clipped["high"] <= 1 and clipped["wide"] <= 1, clipped
    assert clipped["right"] <= clipped["card"], clipped
    for line in LONG_LISTS.split("\n"):
        assert line in clipped["text"]
    page.context.close()


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return box  # type: ignore[no-any-return]


def test_every_vote_checkbox_is_drawn_the_same_size(browser: Any, live_server: str) -> None:
    from playwright.sync_api import expect

    names = ("Ann", "Bob", "Wolfeschlegelsteinhausenbergerdorff Vandersloot-Hightower", "Dee")
    eid, token = _event(live_server, names)
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{live_server}/e/{eid}/prizes#k={token}")
    boxes = page.locator("#prize-best_sport .entry-picks input[type=checkbox]")
    expect(boxes).to_have_count(len(names))
    _shot(page, "prizes-vote-entries")
    sizes = {(round(b["width"]), round(b["height"])) for b in map(_box, boxes.all())}
    assert len(sizes) == 1, sizes
    ((width, height),) = sizes
    assert 16 <= width <= 32 and width == height, sizes
    page.context.close()


def test_each_variant_checkbox_sits_beside_its_own_words(browser: Any, live_server: str) -> None:
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{live_server}/events/new")
    _shot(page, "new-event-variants")
    labels = page.locator("fieldset.variants label:has(input[type=checkbox])")
    assert labels.count() >= 8
    for label in labels.all():
        placed = label.evaluate(
            """(l) => {
                const box = l.querySelector('input').getBoundingClientRect();
                const range = document.createRange();
                range.selectNodeContents(l);
                range.setStartAfter(l.querySelector('input'));
                const words = range.getClientRects()[0];
                return {box: [box.left, box.top, box.right, box.bottom],
                        words: [words.left, words.top, words.right, words.bottom],
                        text: l.textContent.trim()};
            }"""
        )
        left, top, right, bottom = placed["box"]
        w_left, w_top, _, w_bottom = placed["words"]
        assert right - left <= 32, placed  # a checkbox, not a bar across the form
        assert right <= w_left, placed  # its words follow it on the right
        assert top < w_bottom and w_top < bottom, placed  # on the same line
    page.context.close()


def _send(live_server: str, table_id: str, token: str, commands: list[dict[str, Any]]) -> None:
    ws_base = live_server.replace("http://", "ws://")
    with connect(f"{ws_base}/ws/tables/{table_id}") as ws:
        device = f"d-{token[:6]}-{commands[0]['c']}"  # a device's seq counts from 1
        ws.send(json.dumps({"t": "hello", "token": token, "device": device}))
        ws.recv(timeout=60)
        for seq, command in enumerate(commands, start=1):
            ws.send(json.dumps({"t": "cmd", "seq": seq, **command}))
            while (reply := json.loads(ws.recv(timeout=60)))["t"] not in ("ack", "error"):
                pass
            assert reply["t"] == "ack", (command, reply)


def test_a_quick_games_final_result_says_no_one_can_change_it(
    browser: Any, live_server: str
) -> None:
    """A quick game has no organiser's result form: its EO page does not promise one."""
    from playwright.sync_api import expect

    quick = httpx.post(
        f"{live_server}/api/tables", json={"clock_minutes": 30, "scenario": "bunkers"}
    ).json()
    table_id = quick["table_id"] if "table_id" in quick else quick["id"]
    p1, p2 = (quick[s]["url"].split("#k=", 1)[1] for s in ("p1", "p2"))
    _send(live_server, table_id, p1, [{"c": "start"}])
    _send(live_server, table_id, p2, [{"c": "concede"}])
    _send(
        live_server, table_id, p1, [{"c": "report", "army_points_destroyed": 9}, {"c": "confirm"}]
    )
    _send(live_server, table_id, p2, [{"c": "confirm"}])
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(quick["eo"]["url"] if isinstance(quick["eo"], dict) else quick["eo"])
    expect(page.locator("#role")).to_have_text("EO")
    expect(page.locator("#confirmations")).to_contain_text("Final")
    _shot(page, "quick-game-eo-final")
    words = page.locator("#confirmations").inner_text()
    assert "Only the EO can change it" not in words, words
    assert "nobody" in words.lower() or "no one" in words.lower(), words
    page.context.close()
