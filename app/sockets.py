"""The socket protocol `deathclock serve` runs: uvicorn's, quiet (app.quiet_logs), with one
ASGI extension of its own.

`deathclock.write` (in the scope's extensions, as `{"write": write}`): `write(texts)`
writes several text messages to the socket at once, in one write to the transport, if the
socket takes them without waiting; it answers how many it wrote (all of them, or none
while the phone's TCP buffer is full: the caller queues them for its writer). A socket
that is gone raises, as a send does.

A tap's sender gets two messages back at once (its event, then its ack): one write, one
TCP segment, where it was two of each. Every message also skips the way a send takes
through Starlette and uvicorn (state checks, an awaitable made and stepped: about a fifth
of what the write itself costs, in a profile at 5,000 tables). A server without the
extension (a test client, another ASGI server) gets each message sent the usual way
(app.api.guard).
"""

from __future__ import annotations

from collections.abc import Sequence

from uvicorn.protocols.utils import ClientDisconnected
from websockets.http11 import Request

from app.quiet_logs import QuietSockets

WRITE = "deathclock.write"


class ServerSockets(QuietSockets):
    """uvicorn's socket protocol, quiet, offering `deathclock.write` to the app."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        self.scope["extensions"][WRITE] = {"write": self.write_now}

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
