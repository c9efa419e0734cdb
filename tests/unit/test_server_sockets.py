"""The served socket protocol's own write (app.sockets): several messages in one write,
none while the phone's buffer is full, an error once the socket is gone."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from app.api.guard import direct_writer
from app.sockets import WRITE, ServerSockets


class Transport(asyncio.Transport):
    """Keeps every write apart, as the kernel gets them."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


class Phone:
    """The client's side of the socket, parsing what the server wrote."""

    def __init__(self) -> None:
        self.conn = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/tables/t1"))
        self.request = self.conn.connect()
        self.conn.send_request(self.request)
        self.accepted = False

    def handshake(self) -> bytes:
        return b"".join(self.conn.data_to_send())

    def read(self, data: bytes) -> list[str]:
        self.conn.receive_data(data)
        texts = []
        for event in self.conn.events_received():
            if isinstance(event, Response):
                self.accepted = event.status_code == 101
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                texts.append(event.data.decode())
        return texts


async def _served() -> tuple[ServerSockets, Transport, Phone, dict[str, Any]]:
    """A socket through its handshake, the app holding it open: the app's scope."""
    accepted = asyncio.Event()
    scopes: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        scopes["scope"] = scope
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        accepted.set()
        while (await receive())["type"] != "websocket.disconnect":
            pass

    protocol, transport, phone = await open_socket(app, accepted)
    return protocol, transport, phone, scopes["scope"]


async def open_socket(app: Any, accepted: asyncio.Event) -> tuple[ServerSockets, Transport, Phone]:
    """`app` served by the socket protocol, a phone through its handshake (`accepted`: set
    by the app once it accepted)."""
    config = Config(app=app, log_config=None, ws_per_message_deflate=False)
    protocol = ServerSockets(config, ServerState(), {}, asyncio.get_running_loop())
    transport, phone = Transport(), Phone()
    protocol.connection_made(transport)
    protocol.data_received(phone.handshake())
    await accepted.wait()
    assert phone.read(transport.writes.pop()) == [] and phone.accepted
    return protocol, transport, phone


async def test_messages_written_together_leave_in_one_write_in_order() -> None:
    protocol, transport, phone, scope = await _served()
    write = scope["extensions"][WRITE]["write"]
    assert write(['{"t":"event","v":1}', '{"t":"ack","seq":1,"v":1}']) == 2
    assert len(transport.writes) == 1  # one write for both
    assert phone.read(transport.writes[0]) == ['{"t":"event","v":1}', '{"t":"ack","seq":1,"v":1}']
    assert write(["é ✓"]) == 1 and phone.read(transport.writes[1]) == ["é ✓"]
    protocol.connection_lost(None)


async def test_nothing_is_written_while_the_phones_buffer_is_full() -> None:
    protocol, transport, phone, scope = await _served()
    write = scope["extensions"][WRITE]["write"]
    protocol.pause_writing()  # the transport's buffer passed its high-water mark
    assert write(["event-1", "ack-1"]) == 0 and transport.writes == []
    protocol.resume_writing()
    assert write(["event-1", "ack-1"]) == 2
    assert phone.read(transport.writes[0]) == ["event-1", "ack-1"]
    protocol.connection_lost(None)


async def test_a_gone_socket_raises_rather_than_writing() -> None:
    protocol, transport, _phone, scope = await _served()
    write = scope["extensions"][WRITE]["write"]
    protocol.connection_lost(None)
    with pytest.raises(ClientDisconnected):
        write(["event-1"])
    assert transport.writes == []


async def test_the_app_writes_through_the_extension_where_the_server_offers_it() -> None:
    protocol, transport, phone, scope = await _served()

    class Socket:  # the part of Starlette's WebSocket that direct_writer reads
        def __init__(self, scope: dict[str, Any]) -> None:
            self.scope = scope

    writer = direct_writer(Socket(scope))  # type: ignore[arg-type]
    assert writer(["pong"]) == 1 and phone.read(transport.writes[0]) == ["pong"]
    protocol.connection_lost(None)


async def test_without_the_extension_each_message_is_sent_the_usual_way() -> None:
    sent: list[str] = []

    class Socket:
        def __init__(self) -> None:
            self.scope = {"extensions": {"websocket.http.response": {}}}

        async def send_text(self, text: str) -> None:
            sent.append(text)

    writer = direct_writer(Socket())  # type: ignore[arg-type]
    texts: Sequence[str] = ("event-1", "ack-1")
    assert writer(texts) == 2 and sent == ["event-1", "ack-1"]
