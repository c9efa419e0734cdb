"""Bob's phone, in Chromium, stays online while Alice's phone is away and comes back with
a pass dated back: Bob's phone names what moved onto his clock, and he disputes it."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from tests.e2e.servertime import MovableTime

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 640}


def _until(socket: Any, kind: str, **fields: Any) -> dict[str, Any]:
    """The next message of `kind` (with these fields) on Alice's scripted socket."""
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=20))
        if message["t"] == kind and all(message.get(k) == v for k, v in fields.items()):
            return message


def _pong(frame: Any) -> bool:
    return isinstance(frame, str) and '"t":"pong"' in frame


def test_bob_sees_the_time_alices_pass_moved_onto_his_clock_and_disputes_it(
    browser: Any, live_server: str, server_time: MovableTime
) -> None:
    from playwright.sync_api import expect
    from websockets.sync.client import connect

    links = httpx.post(
        f"{live_server}/api/tables",
        json={"clock_minutes": 60, "scenario": "bunkers", "p1_name": "Alice", "p2_name": "Bob"},
    ).json()
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.clock.install()  # Bob's phone's time moves ahead with the server's
    try:
        bob = context.new_page()
        sockets: list[Any] = []
        bob.on("websocket", lambda socket: sockets.append(socket))
        bob.goto(links["p2"]["url"])
        expect(bob.locator("#role")).to_have_text("Bob · second player")

        # Alice's phone (a scripted socket) starts the clock, and she closes it.
        address = live_server.replace("http://", "ws://") + "/ws/tables/" + links["id"]
        hello = {"t": "hello", "token": links["p1"]["url"].split("#k=", 1)[1], "device": "alice"}
        with connect(address) as alice:
            alice.send(json.dumps(hello))
            _until(alice, "state")
            alice.send(json.dumps({"t": "cmd", "seq": 1, "c": "start"}))
            started = _until(alice, "event")
            _until(alice, "ack", seq=1)
        expect(bob.locator("#side-p1")).to_have_class(re.compile(r"\brunning\b"))

        # Twenty seconds go by; Bob's phone stays online (its heartbeat: a ping every 4 s,
        # each answered).
        for _ in range(4):
            server_time.ahead_ms += 5_000
            with sockets[-1].expect_event("framereceived", predicate=_pong, timeout=20_000):
                bob.clock.fast_forward(5_000)
        # Alice is back, with a pass dated 0.1 s after the start.
        with connect(address) as alice:
            alice.send(json.dumps({**hello, "v": started["v"]}))
            tap = {"seq": 2, "at_ms": started["what"]["at_ms"] + 100, "c": "pass_turn"}
            queue = {"t": "offline", "base": started["v"], "cmds": [{**tap, "expect": "p1"}]}
            alice.send(json.dumps(queue))
            _until(alice, "ack", seq=2)

        note = bob.locator(".moved-note")
        expect(note).to_have_count(1)
        expect(note).to_contain_text(re.compile(r"Alice's phone was away 2\d(\.\d)? s"))
        expect(note).to_contain_text(re.compile(r"moved \d+(\.\d)? s to your clock\."))
        expect(note).to_contain_text("If that is not how it went, dispute it")
        dispute = bob.locator("[data-action='moved-dispute']")
        expect(dispute).to_have_text("Dispute")
        dispute.click()
        bob.locator("#confirm-yes").click()
        expect(note).to_contain_text("You disputed it: the EO decides.")
        expect(dispute).to_have_count(0)
    finally:
        context.close()
