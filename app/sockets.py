"""The socket protocol `deathclock serve` runs: uvicorn's, quiet, with one ASGI extension of
its own.

Quiet: it and its socket library log to `SOCKET_LOG` (app.quiet_logs), which keeps
nothing below a warning. The filter on uvicorn's server log drops each socket's lines
(uvicorn's handshake line; the library's "connection open" and "connection closed") only
once each record is made and, where another handler came first, written: when every phone
of the hall comes back at once, a twentieth of the server's work. Here they are never
made; an error in a socket is logged as before.

`deathclock.write` (in the scope's extensions, as `{"write": write}`): `write(texts)`
writes several text messages to the socket at once, in one write to the transport, if the
socket takes them without waiting; it answers how many it wrote (all of them, or none
while the phone's TCP buffer is full: the caller queues them for its writer). A socket
that is gone raises, as a send does.

`deathclock.answer` (likewise, as `{"set": set}`): `set(answer)` gives the socket a way to
answer a message at once, as it is read, where `answer(data)` says it did (True): the
phones' heartbeat (a ping every 4 s from every phone, most of what a hall's server reads)
is answered in the turn of the loop that reads it, without the queue, the reader task's
wake-up and the pause and resume of reading that every other message costs. Only while
no message the socket read before waits for the app in its queue: a pong may pass the
answer to a message the app is working on (a tap's ack waiting for the disk), never one
the app has not begun. `set(None)` ends it.

`ServerHttp`: uvicorn's HTTP protocol, which hands an upgraded connection to the socket
protocol and lets go of it: uvicorn breaks the protocol's cycle with its parser (whose
callbacks are the protocol's own methods) when the connection is lost, but after an
upgrade the connection is the socket protocol's, and that moment never comes to it. Each
socket left the two behind as 23 objects in a cycle, for the collector to find: 46,000
when a hall of 2,000 phones came back at once, a pause of a quarter of a second in the
middle of it (bench.herd). Now they are freed by their reference counts at once.
`ServerSockets` does the same for a socket that is gone: each of them, 72 objects in
cycles, waited for a walk of everything the server holds (a second's pause at 2,000
sockets) after the hall's Wi-Fi came back.

A tap's sender gets two messages back at once (its event, then its ack): one write, one
TCP segment, where it was two of each. Every message also skips the way a send takes
through Starlette and uvicorn (state checks, an awaitable made and stepped: about a fifth
of what the write itself costs, in a profile at 5,000 tables). A server without the
extension (a test client, another ASGI server) gets each message sent the usual way
(app.api.guard).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.http11 import Request

from app.quiet_logs import SOCKET_LOG

WRITE = "deathclock.write"
ANSWER = "deathclock.answer"
Answer = Callable[[bytes], bool]


class ServerHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, letting go of a connection it upgraded to a socket."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # The connection is the socket protocol's from here on: nothing calls this one's
        # `connection_lost`, where uvicorn drops the parser (see the module's text).
        self.parser = None  # type: ignore[assignment]


class ServerSockets(WebSocketsSansIOProtocol):
    """uvicorn's socket protocol, quiet, offering `deathclock.write` to the app."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.logger = SOCKET_LOG
        self.conn.logger = SOCKET_LOG  # the library's "connection open" and "closed"
        self.answer: Answer | None = None

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        extensions = self.scope["extensions"]
        extensions[WRITE] = {"write": self.write_now}
        extensions[ANSWER] = {"set": self.set_answer}

    def set_answer(self, answer: Answer | None) -> None:
        self.answer = answer

    def send_receive_event_to_app(self) -> None:
        """A text message the app answers at once (`deathclock.answer`), else queued for
        the app as uvicorn does."""
        answer, frames = self.answer, self.frames
        if (
            answer is not None
            and len(frames) == 1
            and self.curr_msg_data_type == "text"
            and not self.close_sent
            and self.queue.empty()
            and answer(bytes(frames[0]))
        ):
            self.frames = []
            return
        super().send_receive_event_to_app()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # What would keep this socket in a cycle once it is gone, let go of here so that
        # its reference count frees it (see the module's text): the write offered to
        # the app (a method of this protocol, in its own scope), and the library's
        # parser (a generator suspended in a method of the connection it parses).
        scope: dict[str, Any] | None = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(WRITE, None)
            scope["extensions"].pop(ANSWER, None)
        self.answer = None
        self.conn.parser.close()

    def write_now(self, texts: Sequence[str]) -> int:
        """Write `texts` now, in one write, if the socket takes them at once: how many
        were written (all or none)."""
        if self.disconnected or self.close_sent:
            raise ClientDisconnected()
        if not self.handshake_complete or not self.writable.is_set():
            return 0
        send_text = self.conn.send_text
        for text in texts:
            send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
        return len(texts)
