"""No log line per socket: at a convention hall thousands of phones come and go (when the
hall's Wi-Fi restarts, every one of them comes back at once), and a line for each socket
that opens or closes is noise in the log and CPU spent at the worst moment. Errors and
every other line are still logged."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

#: Where `QuietSockets` logs: a child of uvicorn's server log, so that its warnings and
#: errors reach the same handlers; nothing below a warning (`quiet_socket_logs`, called
#: by the app, after uvicorn's logging set-up, which resets it).
SOCKET_LOG = logging.getLogger("uvicorn.error.sockets")

#: How uvicorn words a socket's handshake ('<client> - "WebSocket <path>" [accepted]').
_SOCKET_LINE = '%s - "WebSocket %s"'
#: What the socket library says of each socket, through uvicorn's server log.
_LIBRARY_LINES = frozenset({"connection open", "connection closed"})


class _NoSocketLines(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.levelno <= logging.INFO
            and isinstance(record.msg, str)
            and (record.msg.startswith(_SOCKET_LINE) or record.msg in _LIBRARY_LINES)
        )


def quiet_socket_logs() -> None:
    logging.getLogger("websockets").setLevel(logging.WARNING)  # "connection open/closed"
    SOCKET_LOG.setLevel(logging.WARNING)
    server_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _NoSocketLines) for f in server_log.filters):
        server_log.addFilter(_NoSocketLines())


class QuietSockets(WebSocketsSansIOProtocol):
    """uvicorn's socket protocol, it and its socket library logging to `SOCKET_LOG`. The
    filter above drops the lines each socket logs (uvicorn's handshake line; the
    library's "connection open" and "connection closed", which uvicorn hands its server
    log), but only once each record is made and, where another handler came first,
    written: when every phone of the hall comes back at once, a twentieth of the
    server's work. Here they are never made; an error in a socket is logged as before.
    `deathclock serve` runs it."""

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
