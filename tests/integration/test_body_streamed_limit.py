"""A request body is refused as it streams past the size limit: a chunked upload (no
Content-Length) gets its 413 once the bytes counted so far pass the limit, without the
app reading, or holding, the rest; a Content-Length over the limit is refused before a
byte of the body is read."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import httpx
import pytest
from starlette.types import ASGIApp, Message

from tests.conftest import RunningServer

CHUNK = 8 * 1024
#: 50 MB in chunks: what an attacker streams at the server.
CHUNKS = 50 * 1024 * 1024 // CHUNK
#: The most a JSON or form body may be, and a player list as CSV.
JSON_MOST = 64 * 1024
CSV_MOST = 1024 * 1024


async def _event(http: httpx.AsyncClient) -> tuple[str, str]:
    created = await http.post("/api/events", json={"name": "Streamed Open"})
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["admin_token"]


async def _stream(
    app: ASGIApp, path: str, headers: list[tuple[bytes, bytes]]
) -> tuple[int, list[Message]]:
    """POST `path` to the app as 50 MB of chunks; how many chunks the app asked for, and
    what it sent back."""
    asked = 0
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal asked
        asked += 1
        if asked > CHUNKS:
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": b"x" * CHUNK, "more_body": asked < CHUNKS}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }
    await app(scope, receive, send)
    return asked, sent


def _status(sent: list[Message]) -> int:
    starts = [m for m in sent if m["type"] == "http.response.start"]
    assert len(starts) == 1, sent
    status: int = starts[0]["status"]
    return status


async def test_a_chunked_body_is_refused_as_it_passes_the_limit(server: RunningServer) -> None:
    """50 MB streamed in 8 kB chunks without a Content-Length, to a JSON endpoint, the
    player list import and a form: each gets a 413 having asked for no more chunks than
    the limit takes (plus the one that passed it), never the whole 50 MB."""
    app: ASGIApp = server.server.config.app
    async with httpx.AsyncClient(base_url=server.base) as http:
        eid, token = await _event(http)
    chunked = (b"transfer-encoding", b"chunked")
    json_type, form_type = b"application/json", b"application/x-www-form-urlencoded"
    eo = token.encode()
    cases = [
        (f"/api/events/{eid}/players", JSON_MOST, [chunked, (b"content-type", json_type)]),
        ("/api/events", JSON_MOST, [chunked, (b"content-type", json_type)]),
        (f"/api/events/{eid}/players/import", CSV_MOST, [chunked, (b"x-eo-token", eo)]),
        ("/events", JSON_MOST, [chunked, (b"content-type", form_type)]),
    ]
    for path, most, headers in cases:
        asked, sent = await _stream(app, path, headers)
        assert _status(sent) == 413, (path, sent)
        assert asked <= most // CHUNK + 1, f"{path}: the app read {asked * CHUNK} bytes"
        body = json.loads(b"".join(m.get("body", b"") for m in sent if "body" in m))
        assert body["code"] == "too_large" and "bytes at most" in body["detail"]


async def test_a_declared_length_over_the_limit_is_refused_before_reading(
    server: RunningServer,
) -> None:
    app: ASGIApp = server.server.config.app
    declared = (b"content-length", str(50 * 1024 * 1024).encode())
    for path in ("/api/events", "/events"):
        asked, sent = await _stream(app, path, [declared])
        assert _status(sent) == 413 and asked == 0, (path, asked)


def _post_unfinished(host: str, port: int, path: str, size: int) -> bytes:
    """Over a real socket: a chunked POST of `size` bytes whose end never comes; what the
    server answers (the connection is left open: the server must answer on its own)."""
    with socket.create_connection((host, port), timeout=20) as conn:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
        )
        conn.sendall(head.encode())
        sent = 0
        while sent < size:
            conn.sendall(b"%x\r\n%s\r\n" % (CHUNK, b"x" * CHUNK))
            sent += CHUNK
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                data = conn.recv(65536)
                if not data:
                    break
                answer += data
        except ConnectionResetError:
            pass
        return answer


async def test_a_real_server_answers_413_before_a_chunked_body_ends(
    server: RunningServer,
) -> None:
    """Through uvicorn: a chunked body a little past the limit, its last chunk never
    sent. The server answers 413 at once rather than waiting for (and keeping) the rest."""
    host, port = server.base.removeprefix("http://").split(":")
    answer = await asyncio.to_thread(_post_unfinished, host, int(port), "/api/events", 96 * 1024)
    if not answer:
        pytest.fail("the server did not answer a body past the limit before it ended")
    status_line = answer.split(b"\r\n", 1)[0]
    assert status_line.startswith(b"HTTP/1.1 413"), answer[:200]


async def test_a_client_that_sends_its_whole_body_first_reads_the_413(
    server: RunningServer,
) -> None:
    """A client that writes all of a 2 MB body before it reads (as most do), with a
    Content-Length or chunked, gets the 413 and its reason, not a broken connection;
    the connection then serves the next request."""

    async def chunks() -> Any:
        for _ in range(2 * 1024 * 1024 // CHUNK):
            yield b"x" * CHUNK

    async with httpx.AsyncClient(base_url=server.base) as http:
        json_type = {"content-type": "application/json"}
        for content in (b"x" * 2 * 1024 * 1024, chunks()):
            refused = await http.post("/api/events", content=content, headers=json_type)
            assert refused.status_code == 413, refused.text
            assert refused.json()["code"] == "too_large"
            assert "bytes at most" in refused.json()["detail"]
        assert (await http.post("/api/events", json={"name": "After"})).status_code == 201
